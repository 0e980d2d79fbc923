#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The driver under the debug kernel (make kernel-debug: PROVE_LOCKING,
# DEBUG_LOCKDEP, DEBUG_ATOMIC_SLEEP, DEBUG_IRQFLAGS...; kernel/config/
# debug.config), on 2 and 4 CPUs: the driver's kselftests, perf stat,
# an address filter, record with call chains, the PID log, a task's reads
# of its counter from the user window, the fuzzer, unload and reload.
# Lockdep must still be on at the end (it turns itself off at its first
# report), and the kernel log must hold no lockdep, atomic-sleep, IRQ
# flag, RCU or other warning.
#
# The canary module (tests/pmu/canary) commits locking bugs on purpose:
# each must be reported, or the clean runs above prove nothing.

. "$(dirname "$0")/../lib.sh"
set -u
run="$TOP/tools/leon3-run"
cc="$TOP/build/toolchain/bin/sparc-leon3-linux-gnu-gcc"
ko="$TOP/build/module-debug/leon3_pmu.ko"
kdir="$TOP/build/linux-debug"
secs=${LEON3_FUZZ_SECONDS:-30}
seed=${LEON3_FUZZ_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

if [ ! -f "$ko" ]; then
	not_ok "the driver is built for the debug kernel (make module-debug): $ko is missing"
	exit 1
fi
for prog in "tests/pmu/leon3_pmu_test.c -I $TOP/build/linux-src/tools/testing/selftests" \
	    tests/fuzz/fuzz.c tests/pmu/workload.c "tests/pmu/user-read.c -I $TOP/tests/pmu"; do
	set -- $prog
	if ! "$cc" -static -pthread -O2 -Wall -Werror "$TOP/$1" "${@:2}" \
		-o "$T/$(basename "$1" .c)" 2>"$T/cc.err"; then
		not_ok "$1 builds: $(head -n 3 "$T/cc.err" | tr '\n' ' ')"
		exit 1
	fi
done
mkdir -p "$T/canary"
cp "$TOP"/tests/pmu/canary/{Kbuild,lockdep_canary.c} "$T/canary/"
if ! make -s -C "$kdir" M="$T/canary" ARCH=sparc CROSS_COMPILE=sparc64-linux-gnu- \
	modules >"$T/cc.err" 2>&1; then
	not_ok "the canary module builds: $(head -n 3 "$T/cc.err" | tr '\n' ' ')"
	exit 1
fi

cat >"$T/common.sh" <<SH
# lockdep's own verdict: debug_locks is 0 once it has reported anything
debug_locks() { sed -n 's/^ *debug_locks: *//p' /proc/lockdep_stats; }
# the kernel log's reports (tools/rootfs/leon3-kernel-reports: lockdep's,
# atomic sleep's, IRQ flags', RCU's, BUGs, warnings), a "splat: " line
# each, then the first whole with its call trace on "trace: " lines
splats() { leon3-kernel-reports -p 'splat: ' -t; }
SH

# kselftests_pass DESC: the kselftest run in $T/out exited 0; what failed
kselftests_pass() {
	check "$1" grep -qx "kselftest exit 0" "$T/out"
	grep '^kself: not ok' "$T/out" | sed "s/^kself: not ok [0-9]* /# failed: /"
	# what the checks printed (expected and seen values), on a failure
	grep -qx "kselftest exit 0" "$T/out" ||
		grep '^kself: # ' "$T/out" | sed 's/^kself: /#   /'
}

# no_splats WHAT: the kernel log in $T/out holds no report
no_splats() {
	if grep -q '^splat: ' "$T/out"; then
		not_ok "$1: no lockdep, atomic-sleep, IRQ-flag or other warning: $(grep '^splat: ' "$T/out" | head -n 6 | tr '\n' '|')"
	else
		ok "$1: no lockdep, atomic-sleep, IRQ-flag or other warning in the kernel log"
	fi
}

cat >"$T/run.sh" <<SH
. /root/common.sh
echo "lockdep at boot: \$(debug_locks)"
cd /root
# exact sample counts need perf's interrupt-time limit off (driver.t);
# on again for the rest, where it keeps a slow kernel out of storms
echo 0 >/proc/sys/kernel/perf_cpu_time_max_percent
./leon3_pmu_test -T multiplexing_scales >/tmp/kself 2>&1; echo "kselftest exit \$?"
grep -E '^(not )?ok |^# .*leon3_pmu_test\.c:[0-9]+:' /tmp/kself | sed 's/^/kself: /'
echo 25 >/proc/sys/kernel/perf_cpu_time_max_percent
perf stat -e cycles,instructions,branches,leon3_pmu/loads/,leon3_pmu/dcache_read_miss/ ./workload spin 1000000 >/dev/null 2>&1
echo "perf stat exit \$?"
# an address filter through exec and fork: each process's range moved
perf stat -x, -e instructions:u --filter 'filter work @ /root/workload' -- \
	sh -c './workload spin 100000; ./workload spin 100000; true' 2>&1 >/dev/null |
	sed -n 's/^\([0-9]*\),.*instructions:u.*/address filter: \1/p'
perf record -q -g -e instructions -c 100003 -o /tmp/g.data ./workload spin 3000000 >/dev/null 2>&1
echo "perf record exit \$?"
perf report -i /tmp/g.data --stdio >/dev/null 2>&1; echo "perf report exit \$?"
leon3-pidlog -- sh -c './workload spin 1000000 & ./workload spin 1000000 & wait' >/dev/null 2>&1
echo "pidlog exit \$?"
# reads from the user window: its mmap, munmap and context-switch paths
./user-read >/dev/null 2>&1; echo "user-read exit \$?"
./fuzz $secs $seed >/tmp/fuzz 2>&1; echo "fuzz exit \$?"
rmmod leon3_pmu; grep -q '^leon3_pmu ' /proc/modules || echo unloaded
# the fuzzer's storms lowered the sample rate: back to the default first
# (the rate can only be written while the limit is on)
echo 100000 >/proc/sys/kernel/perf_event_max_sample_rate
echo 0 >/proc/sys/kernel/perf_cpu_time_max_percent
insmod /lib/modules/leon3_pmu.ko && ./leon3_pmu_test -r pmu.sampling_samples_per_period >/dev/null 2>&1 && echo reloaded
rmmod leon3_pmu
splats
echo "lockdep at the end: \$(debug_locks)"
SH

for cpus in ${LEON3_DEBUG_CPUS:-2 4}; do
	what="debug kernel, $cpus CPUs"
	# panic_print=0x20: a panic replays the whole kernel log (the oops
	# included, which quiet keeps off the console)
	"$run" --debug-kernel --timeout $((secs + 900)) --cpus $cpus --append panic_print=0x20 \
		--add "$T/leon3_pmu_test" --add "$T/fuzz" --add "$T/workload" --add "$T/user-read" \
		--add "$T/common.sh" --add "$T/run.sh" -- sh /root/run.sh \
		>"$T/out" 2>"$T/err" && rc=0 || rc=$?
	is "$what: the guest finishes (no hang)" "$rc" 0
	check "$what: lockdep is on after boot" grep -qx "lockdep at boot: 1" "$T/out"
	kselftests_pass "$what: the driver's kselftests pass"
	for step in "perf stat" "perf record" "perf report" "pidlog" "user-read" "fuzz"; do
		check "$what: $step exits 0" grep -qx "$step exit 0" "$T/out"
	done
	# two runs of work(100000), 3n + 3 instructions each
	check "$what: perf stat --filter 'filter work @ workload' over two processes: 600006" \
		grep -qx "address filter: 600006" "$T/out"
	check "$what: the driver unloads" grep -qx unloaded "$T/out"
	check "$what: ... and loads and samples again" grep -qx reloaded "$T/out"
	no_splats "$what"
	check "$what: lockdep is still on at the end (seed $seed)" grep -qx "lockdep at the end: 1" "$T/out"
	if [ "$rc" != 0 ] || ! grep -qx "lockdep at the end: 1" "$T/out"; then
		# a panic's replay of the kernel log ends with the oops
		if grep -q 'Kernel panic' "$T/out"; then
			tail -n 100 "$T/out" | sed 's/^/# /'
		else
			echo "# $(tail -n 12 "$T/err" "$T/out" | tr '\n' '|')"
		fi
		grep '^trace: ' "$T/out" | sed 's/^/# /'
	fi
done

# multiplexing_scales on a LEON3's clock, in a boot of its own (driver.t
# says why: perf rotates events by the guest's time, which on the host's
# clock passes while a busy host leaves a virtual CPU waiting)
cat >"$T/mux.sh" <<SH
. /root/common.sh
cd /root
echo 0 >/proc/sys/kernel/perf_cpu_time_max_percent
./leon3_pmu_test -r pmu.multiplexing_scales >/tmp/kself 2>&1; echo "kselftest exit \$?"
grep -E '^(not )?ok |^# .*leon3_pmu_test\.c:[0-9]+:' /tmp/kself | sed 's/^/kself: /'
splats
echo "lockdep at the end: \$(debug_locks)"
SH
what="debug kernel, 2 CPUs, a LEON3's clock"
"$run" --debug-kernel --leon3-clock --timeout 600 --cpus 2 \
	--add "$T/leon3_pmu_test" --add "$T/common.sh" --add "$T/mux.sh" -- sh /root/mux.sh \
	>"$T/out" 2>"$T/err" && rc=0 || rc=$?
is "$what: the guest finishes" "$rc" 0
kselftests_pass "$what: multiplexing_scales passes"
no_splats "$what"
check "$what: lockdep is still on at the end" grep -qx "lockdep at the end: 1" "$T/out"

# The canaries, each in a boot of its own (lockdep stops at its first report)
canary() {
	local bug=$1 want=$2
	cat >"$T/canary.sh" <<SH
. /root/common.sh
insmod /root/lockdep_canary.ko bug=$bug
splats
echo "lockdep at the end: \$(debug_locks)"
SH
	"$run" --debug-kernel --no-module --timeout 300 --cpus 2 \
		--add "$T/canary/lockdep_canary.ko" --add "$T/common.sh" --add "$T/canary.sh" \
		-- sh /root/canary.sh >"$T/out" 2>"$T/err" && rc=0 || rc=$?
	is "canary $bug: the guest finishes" "$rc" 0
	check "canary $bug: reported ($want)" grep -qE "^splat: .*$want" "$T/out"
}
canary abba "possible circular locking dependency detected"
check "canary abba: lockdep turns itself off after the report" grep -qx "lockdep at the end: 0" "$T/out"
canary irq "inconsistent lock state"
canary sleep "sleeping function called from invalid context"
