#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tests/run: one-core
#
# The guest toolchain works as documented: `sparc-leon3-linux-gnu-gcc
# -static -pthread prog.c` with no other flag gives a program that runs
# under the project's user-mode QEMU (-cpu LEON3) and prints exactly what
# the same source prints when built for the host.

. "$(dirname "$0")/../lib.sh"
set -u
tc="$TOP/build/toolchain"
cc="$tc/bin/sparc-leon3-linux-gnu-gcc"
qemu="$TOP/build/bin/qemu-sparc"
src="$TOP/tests/guest-binaries/smoke.c"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

is "compiler target" "$("$cc" -dumpmachine)" sparc-leon3-linux-gnu
check "compiler defaults to -mcpu=leon3" grep -q -- '--with-cpu=leon3' <("$cc" -v 2>&1)
check "compiler finds its sysroot by itself" test -d "$("$cc" -print-sysroot)/usr/include/linux"

# Kernel headers come from the project's kernel (Linux version in the lock).
kver=$(awk '!/^#/ && $1 == "linux" {print $4; exit}' "$TOP/sources.lock")
kver=${kver%-*}
IFS=. read -r ka kb kc <<<"$kver"
want=$(((ka << 16) + (kb << 8) + (kc > 255 ? 255 : kc)))
got=$(printf '#include <linux/version.h>\nLINUX_VERSION_CODE\n' |
	"$cc" -E -P - | tail -n 1)
is "sysroot kernel headers are Linux $kver" "$got" "$want"

check "static pthread build with no extra flags" "$cc" -static -pthread -O2 "$src" -o "$T/smoke" -lm
gcc -O2 -pthread "$src" -o "$T/smoke-host" -lm
"$T/smoke-host" >"$T/want"

if [ ! -x "$qemu" ]; then
	not_ok "user-mode QEMU $qemu is missing (make qemu)"
	exit 1
fi
"$qemu" -cpu LEON3 "$T/smoke" >"$T/got" 2>&1 && rc=0 || rc=$?
is "the guest program exits 0 under qemu-sparc -cpu LEON3" "$rc" 0
for what in u64 s64 shift fp fp-\>int threads; do
	is "guest and host agree: $what" \
		"$(grep "^$what:" "$T/got")" "$(grep "^$what:" "$T/want")"
done

# The soft-float multilib (gcc's LEON3 t-leon3; glibc-patches/ makes its
# glibc a nofpu one): the same program, no FPU instruction in it, the
# same output.  IEEE + - * / and sqrt are exactly rounded in software too.
is "gcc -msoft-float selects the soft multilib" "$("$cc" -msoft-float -print-multi-directory)" soft
check "soft-float static pthread build" \
	"$cc" -msoft-float -static -pthread -O2 "$src" -o "$T/smoke-soft" -lm
"$qemu" -cpu LEON3 "$T/smoke-soft" >"$T/got-soft" 2>&1 && rc=0 || rc=$?
is "the soft-float program exits 0 under qemu-sparc -cpu LEON3" "$rc" 0
for what in u64 s64 shift fp fp-\>int threads; do
	is "soft float and host agree: $what" \
		"$(grep "^$what:" "$T/got-soft")" "$(grep "^$what:" "$T/want")"
done
