#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tests/run: one-core
#
# The leon3_pmu module in the guest: it loads, registers, counts
# (tests/pmu/leon3_pmu_test.c, kselftest harness, 1, 2 and 4 CPUs), cannot
# be unloaded while an event is open, and unloads and reloads after; and
# counts without an overflow interrupt.

. "$(dirname "$0")/../lib.sh"
set -u
ko="$TOP/build/module/leon3_pmu.ko"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

if [ ! -f "$ko" ]; then
	not_ok "the module is built (make module): $ko is missing"
	exit 1
fi
guest_build "$T/leon3_pmu_test" "$TOP/tests/pmu/leon3_pmu_test.c" -pthread \
	-I "$TOP/build/linux-src/tools/testing/selftests"

# TAP from the harness ("ok 1 pmu.x", "not ok 2 pmu.y") as this suite's lines
tap() {
	sed -n -e "s/^ok [0-9]* \(.*\)$/ok - $1: \1/p" \
		-e "s/^not ok [0-9]* \(.*\)$/not ok - $1: \1/p" "$2"
}

# perf lowers its sample rate when the PMU's interrupts take more than
# perf_cpu_time_max_percent of the CPU, and under emulation each takes
# tens of microseconds of host time: the exact sample counts need that
# limit off.
#
# multiplexing_scales runs in boots of its own on a LEON3's clock: perf
# rotates events by the guest's time, which on the host's clock passes
# while a busy host leaves the virtual CPU waiting, so that the scaled
# counts drifted with the host's load.  The others need the host's clock
# (count_beyond_32_bits runs 4.5G instructions, 144 s of a LEON3's time,
# beyond the harness's 30 s).
for how in "1:host" "2:host" "4:host" "1:leon3" "4:leon3"; do
	cpus=${how%%:*}
	if [ "${how#*:}" = host ]; then
		what="driver ($cpus CPU(s))" clock='' tests="-T multiplexing_scales"
	else
		what="driver ($cpus CPU(s), a LEON3's clock)" clock=--leon3-clock
		tests="-r pmu.multiplexing_scales"
	fi
	"$RUN" --timeout 120 --no-module --cpus "$cpus" $clock --add "$ko" \
		--add "$T/leon3_pmu_test" -- \
		sh -c "echo 0 >/proc/sys/kernel/perf_cpu_time_max_percent &&
			insmod /root/leon3_pmu.ko && /root/leon3_pmu_test $tests" \
		>"$T/out" 2>"$T/err" && rc=0 || rc=$?
	tap "$what" "$T/out"
	if [ "$rc" = 0 ]; then
		ok "$what: the kselftest run exits 0"
	else
		# what the guest and the console said last, to find out why
		not_ok "$what: the kselftest run exits 0 (exit $rc): $(tail -n 8 "$T/err" "$T/out" | tr '\n' '|')"
	fi
done

# After the tests (one of which tries rmmod with an event open), the
# module unloads, leaves sysfs, and loads again.
cat >"$T/reload.sh" <<'SH'
echo 0 >/proc/sys/kernel/perf_cpu_time_max_percent	# exact sample counts
insmod /root/leon3_pmu.ko || exit 10
/root/leon3_pmu_test >/dev/null 2>&1
rmmod leon3_pmu	# busybox's rmmod exits 0 whatever happened: look
grep -q '^leon3_pmu ' /proc/modules && exit 11
echo unloaded
[ -e /sys/bus/event_source/devices/leon3_pmu ] || echo gone
insmod /root/leon3_pmu.ko && [ -e /sys/bus/event_source/devices/leon3_pmu ] && echo reloaded
# the reloaded module has its overflow interrupt again
/root/leon3_pmu_test -r pmu.sampling_samples_per_period >/dev/null 2>&1 && echo samples
SH
"$RUN" --timeout 120 --no-module --add "$ko" --add "$T/leon3_pmu_test" --add "$T/reload.sh" -- sh /root/reload.sh \
	>"$T/out" 2>"$T/err" && rc=0 || rc=$?
is "unload and reload: exit status" "$rc" 0
check "the module unloads once no event is open" grep -qx unloaded "$T/out"
check "... and leaves sysfs" grep -qx gone "$T/out"
check "... and loads again" grep -qx reloaded "$T/out"
check "... and samples again (its interrupt lines are requested anew)" grep -qx samples "$T/out"

# Without an overflow interrupt the driver counts only, reads the
# counters with an hrtimer, and still keeps 64-bit counts: on a PMU with
# no line (pmu-irq=0), and when request_irq() fails (two CPUs given the
# same line: the second request is refused, EBUSY).  The counts beyond
# 2^32 lose nothing then: counters never stop.
nointr_tests="-r pmu.count_beyond_32_bits -r pmu.user_instructions_exact
	-r pmu.count_follows_migration -r pmu.per_thread_counts -r pmu.sampling_needs_interrupt"
for how in "no line:1:0" "request_irq fails:2:20"; do
	name=${how%%:*} cpus=$(cut -d: -f2 <<<"$how") line=${how##*:}
	"$RUN" --timeout 300 --no-module --cpus "$cpus" --add "$ko" --add "$T/leon3_pmu_test" \
		--qemu-opt=-global --qemu-opt="LEON3-sparc-cpu.pmu-irq=$line" -- \
		sh -c "insmod /root/leon3_pmu.ko && dmesg | grep leon3_pmu: && /root/leon3_pmu_test $(echo $nointr_tests)" \
		>"$T/out" 2>"$T/err" && rc=0 || rc=$?
	tap "no interrupt, $name" "$T/out"
	is "no interrupt, $name: the kselftest run exits 0" "$rc" 0
	check "no interrupt, $name: the driver says it counts only" \
		grep -q "no overflow interrupt: counting only, read every" "$T/out" "$T/err"
	check "no interrupt, $name: a count beyond 2^32 is exact" \
		grep -q "lost at the wraps: 0 instructions" "$T/out" "$T/err"
done
check "request_irq fails: the driver names the CPU and the error" \
	grep -q "CPU 1: overflow interrupt .* error -16: counting only" "$T/out" "$T/err"
