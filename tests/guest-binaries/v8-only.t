#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Every guest binary the project builds is pure SPARC V8 (+ LEON3 CASA):
# the toolchain's libraries and start files, busybox, a test program.
# The checker itself must reject V9 code, or passing it means nothing.

. "$(dirname "$0")/../lib.sh"
set -u
chk="$TOP/tools/check-sparc-v8"
tc="$TOP/build/toolchain"
cc="$tc/bin/sparc-leon3-linux-gnu-gcc"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# The checker on known-bad input: v8plus code from Debian's compiler,
# and a V9 instruction hidden in a file whose header says V8.
printf 'long long f(long long a, int s) { __sync_synchronize(); return a << s; }\n' >"$T/v9.c"
sparc64-linux-gnu-gcc -m32 -mcpu=v9 -O2 -c "$T/v9.c" -o "$T/v9.o"
expect_fail "checker rejects v8plus code (Debian's -m32 -mcpu=v9)" "not a SPARC V8 ELF file" "$chk" "$T/v9.o"
printf '\t.text\n\t.globl f\nf:\n\t.word 0x8143e002\n\tretl\n\tnop\n' >"$T/hidden.s"
sparc64-linux-gnu-as --32 -Av8 "$T/hidden.s" -o "$T/hidden.o"
expect_fail "checker finds membar in a file whose header says V8" "f\+0x0: membar" "$chk" "$T/hidden.o"
# casa [%o0] 0x80, %o1, %o2, which V9 spells "cas"
printf '\t.text\n\t.globl f\nf:\n\tretl\n\t.word 0xd5e21009\n' >"$T/cas.s"
sparc64-linux-gnu-as --32 -Av8 "$T/cas.s" -o "$T/cas.o"
expect_fail "checker rejects V9 cas (ASI 0x80), not LEON3 casa" "f\+0x4: cas " "$chk" "$T/cas.o"

# ... also in a program linked high, where objdump prints addresses
# without leading blanks (the PROM, bare-metal tests).
sparc64-linux-gnu-ld -m elf32_sparc -Ttext=0x40000000 -e f "$T/hidden.o" -o "$T/hidden.elf"
expect_fail "checker finds membar in a program linked at 0x40000000" "f\+0x40000000: membar" \
	"$chk" --privileged "$T/hidden.elf"

# The checker on good input: the project's compiler, atomics included.
printf 'int x;\nint f(int a, int b) { return __sync_val_compare_and_swap(&x, a, b); }\n' >"$T/good.c"
"$cc" -O2 -c "$T/good.c" -o "$T/good.o"
check "checker accepts LEON3 code from the project's compiler" "$chk" "$T/good.o"
check "the compiler's atomics are LEON3 CASA (ASI 0xa)" \
	grep -qE 'casa[[:space:]]+\[ ?%[a-z0-9]+ ?\] \(10\),' <(sparc64-linux-gnu-objdump -d "$T/good.o")

# The project's guest binaries.
"$cc" -static -pthread -O2 "$TOP/tests/guest-binaries/smoke.c" -o "$T/smoke" -lm
check "toolchain sysroot (glibc, start files) is pure V8" "$chk" "$tc/sparc-leon3-linux-gnu/sysroot"
# (lib/gcc also holds the compiler's host plugins: only target files.)
check "libgcc and gcc's crt files are pure V8" "$chk" \
	$(find "$tc/lib/gcc/sparc-leon3-linux-gnu" -maxdepth 3 -name '*.[ao]') \
	"$tc/sparc-leon3-linux-gnu/lib"
check "busybox is pure V8" "$chk" "$TOP/build/rootfs/busybox"
check "perf (tools/perf of the kernel tree, static) is pure V8" "$chk" "$TOP/build/perf/perf"
check "libpfm4 (libpfm.a, showevtinfo, check_events, validate, perf_examples) is pure V8" "$chk" \
	"$TOP/build/libpfm4/lib/libpfm.a" "$TOP/build/libpfm4/bin"
check "PAPI (libpapi.a, the utilities, ctests and validation tests) is pure V8" "$chk" \
	"$TOP/build/papi/lib/libpapi.a" "$TOP/build/papi/bin" "$TOP/build/papi/ctests" \
	"$TOP/build/papi/validation_tests"
"$cc" -static -O2 "$TOP/tools/pidlog/leon3-pidlog.c" -o "$T/leon3-pidlog"
check "leon3-pidlog is pure V8" "$chk" "$T/leon3-pidlog"
check "a static pthread program is pure V8" "$chk" "$T/smoke"
check "the PROM is pure V8 (supervisor code)" "$chk" --privileged "$TOP/build/prom/prom.elf"

# Soft float (gcc -msoft-float, lib/soft): no FPU instruction either.
# The checker must find one in hard-float code, or passing means nothing.
"$cc" -O2 -static "$TOP/tests/guest-binaries/smoke.c" -o "$T/smoke-hard" -lm
expect_fail "--no-fpu finds the FPU instructions of a hard-float program" \
	"main\+0x[0-9a-f]+: f(add|div|sqrt|ito)|%f[0-9]" "$chk" --no-fpu "$T/smoke-hard"
"$cc" -msoft-float -static -pthread -O2 "$TOP/tests/guest-binaries/smoke.c" -o "$T/smoke-soft" -lm
check "a soft-float program (libgcc, libc and libm of lib/soft linked in) has no FPU instruction" \
	"$chk" --no-fpu "$T/smoke-soft"
# (crtfastmath.o, linked only with -ffast-math, sets %fsr's NS bit: not
# for soft-float programs.)
check "the soft multilib's libgcc and crt files have no FPU instruction" "$chk" --no-fpu \
	$(find "$tc/lib/gcc/sparc-leon3-linux-gnu" -path '*/soft/*' -name '*.[ao]' ! -name crtfastmath.o)
check "the soft multilib's glibc (lib/soft, usr/lib/soft) has no FPU instruction" "$chk" --no-fpu \
	"$tc/sparc-leon3-linux-gnu/sysroot/lib/soft" "$tc/sparc-leon3-linux-gnu/sysroot/usr/lib/soft"
