#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tests/run: one-core
#
# Overflow signals at perf's own sample-rate limit: a user-only
# instructions event, period 10^6, armed for one overflow and re-armed
# by its SIGIO handler (tests/pmu/refresh-signals.c), as PAPI and
# perf_event_tests' overflow tests use it.  perf_cpu_time_max_percent
# stays at its default (25): perf lowers perf_event_max_sample_rate from
# the time the driver says each interrupt took.
#
# The guest runs on a LEON3's clock (tools/leon3-run --leon3-clock: QEMU
# -icount shift=5, 32 ns an instruction): its clock then sees a LEON3's
# instruction rate (about 31 MIPS), not the
# hundreds of MIPS QEMU runs loops at, and a LEON3 at that rate takes
# every overflow: each period must give its signal, in a second run too,
# after perf has lowered its rate, and in a third run the way PAPI takes
# overflows (the event a member of a group of 6, disabled by the handler
# before it is re-armed: PAPI's overflow_allcounters).  The rate it
# lowers to must be that of the handler's modelled cycles at the CPU's
# clock (Cpu0ClkTck): the driver reports those, not the time QEMU took
# (the wall clock, 1250 here, before it did).

. "$(dirname "$0")/../lib.sh"
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
PERIODS=300

guest_build "$T/refresh-signals" "$TOP/tests/pmu/refresh-signals.c"
"$RUN" --timeout 300 --leon3-clock \
	--add "$T/refresh-signals" -- \
	sh -c "grep Cpu0ClkTck /proc/cpuinfo; cat /proc/sys/kernel/perf_cpu_time_max_percent;
		/root/refresh-signals $PERIODS; /root/refresh-signals $PERIODS;
		/root/refresh-signals $PERIODS papi" \
	>"$T/out" 2>"$T/err" || true

clk=$((0x$(sed -n 's/^Cpu0ClkTck[[:space:]]*: *//p' "$T/out")))
pct=$(sed -n 2p "$T/out")
check "the guest runs with perf's default CPU-time limit (25 %)" [ "$pct" = 25 ]
n=0 papi=0
while read -r kind sig _ hup _ count _ rate; do
	if [ "$kind" = papi-signals ]; then
		papi=$((papi + 1)) name="PAPI's way" want_hup=$((PERIODS - 1))
		# the group is started without an overflow limit: the first is POLL_IN
		hup_is="every signal after the first a POLL_HUP"
	else
		n=$((n + 1)) name="run $n" want_hup=$PERIODS
		hup_is="every signal a POLL_HUP, the one-overflow limit"
		last_rate=$rate
	fi
	check "$name: one signal per period: $PERIODS (got $sig)" [ "$sig" = "$PERIODS" ]
	check "$name: $hup_is (got $hup)" [ "$hup" = "$want_hup" ]
	# the loop's instructions and a few thousand of the program's own
	check "$name: the count is the loop's ${PERIODS}000000 instructions (got $count)" \
		[ "$count" -ge "${PERIODS}000000" -a "$count" -lt $((PERIODS * 1000000 + 10000)) ]
done < <(grep -E '^(papi-)?signals ' "$T/out")
check "two runs reported" [ "$n" = 2 ]
check "a run PAPI's way reported" [ "$papi" = 1 ]
[ "$n" = 2 -a "$papi" = 1 ] || tail -n 5 "$T/err" | sed 's/^/# /'

# perf: rate = HZ * floor(TICK_NSEC / 100 * 25 / (1.25 * t)) for an
# average interrupt of t ns (perf_sample_event_took()).  The handler with
# its signal takes 8000 to 20000 cycles on the model (make bench-perf:
# 8600 without one), 200 to 500 us at 40 MHz.
hz=250
per_tick() {	# samples a tick perf allows an interrupt of $1 cycles
	echo $((100000000 / (125 * ($1 * 1000000000 / clk))))
}
lo=$((hz * $(per_tick 20000)))
hi=$((hz * $(per_tick 8000)))
check "perf's sample rate is that of 8000-20000 cycles at the CPU's $clk Hz: $lo..$hi (got ${last_rate:-none})" \
	[ "${last_rate:-0}" -ge "$lo" -a "${last_rate:-0}" -le "$hi" ]
