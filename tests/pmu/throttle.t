#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tests/run: one-core
#
# Events that perf throttles lose no sample, and no count but while
# throttled (tests/pmu/throttle.c).  At perf_event_max_sample_rate 250,
# HZ, perf allows one sample a tick, and Linux 6.12 throttles at that
# first one (hwc->interrupts >= max_samples_per_tick): every sample is
# followed by a THROTTLE record, the driver stops the event in its
# handler, and perf core starts it again at the next tick with an
# UNTHROTTLE record.  Stopped, an event counts nothing, as on any PMU
# perf throttles.  This is what perf_event_tests' overflow programs meet
# once perf has lowered its rate (tools/perf-event-tests/expected.tsv).
# For each of two user-only instructions events, periods 10^6 and
# 2x10^6, over a loop of known length, beside an event that only counts
# (perf never throttles it: the loop's whole count):
#   - samples = count / period: the stop and the restart keep the period
#     (a lost count makes fewer periods than samples, a restarted period
#     more count than samples);
#   - the count is the loop's but for the throttled stretches: each from
#     an overflow to the next tick, at most a tick's instructions.  The
#     guest runs on a LEON3's clock (32 ns an instruction), where a tick
#     is a fixed number of instructions, whatever the host;
#   - one POLL_IN per sample (the ring buffers are too large for a record
#     to reach their watermark, whose wakeup is a POLL_IN too);
#   - every sample throttled, every throttle but the last lifted again.

. "$(dirname "$0")/../lib.sh"
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
ITER=100000000

guest_build "$T/throttle" "$TOP/tests/pmu/throttle.c" -I"$TOP/tests/pmu"
"$RUN" --timeout 300 --leon3-clock --add "$T/throttle" -- \
	sh -c "echo 250 >/proc/sys/kernel/perf_event_max_sample_rate &&
		cat /proc/sys/kernel/perf_event_max_sample_rate && /root/throttle $ITER" \
	>"$T/out" 2>"$T/err" || true

is "perf's sample rate set to 250/s, one sample a tick" "$(sed -n 1p "$T/out")" 250
loop=$((3 * ITER + 1))
# The counting event counts the loop, and little else: the ioctl calls
# around it (it is enabled first and disabled last), under 100, and the
# signal handler and its return (sigreturn) for each of the others'
# signals, 26.5 instructions a signal measured (11264 for 425)
ref=$(sed -n 's/^reference count //p' "$T/out")
signals=$(awk '$1 == "event" { n += $10 } END { print n + 0 }' "$T/out")
most=$((loop + 100 + 32 * signals))
check "the counting event, never throttled, loses no count: $loop to $most instructions, the loop's, the ioctl calls' and the $signals signals' (${ref:-none})" \
	[ "${ref:-0}" -ge "$loop" -a "${ref:-0}" -le "$most" ]
# A tick's instructions on a LEON3's clock: 1/HZ s at 32 ns an instruction
hz=$(sed -n 's/^CONFIG_HZ=//p' "$TOP/build/linux/.config")
tick=$((1000000000 / hz / 32))
n=0
while read -r _ i _ period _ count _ samples _ signals _ pollin _ throttle _ unthrottle _ lost; do
	n=$((n + 1))
	ev="event $i (period $period)"
	check "$ev: throttled ($throttle times)" [ "$throttle" -ge 1 ]
	is "$ev: every sample throttled" "$throttle" "$samples"
	check "$ev: every throttle lifted but maybe the last ($unthrottle of $throttle)" \
		[ "$unthrottle" -eq "$throttle" -o "$unthrottle" -eq $((throttle - 1)) ]
	is "$ev: samples = count / period (count $count)" "$samples" $((count / period))
	is "$ev: one signal a sample" "$signals" "$samples"
	is "$ev: every signal a POLL_IN" "$pollin" "$signals"
	is "$ev: no lost records" "$lost" 0
	stopped=$((${ref:-0} - count))
	check "$ev: not counted only while throttled: the whole loop's count less this one's, $stopped, is 0 to $throttle ticks of $tick instructions" \
		[ "$stopped" -ge 0 -a "$stopped" -le $((throttle * tick)) ]
done < <(grep '^event ' "$T/out")
is "two events reported" "$n" 2
[ "$n" = 2 ] || tail -n 5 "$T/err" | sed 's/^/# /'
