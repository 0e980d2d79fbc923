#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tests/run: one-core
#
# Events that perf throttles lose no count and no sample
# (tests/pmu/throttle.c).  At perf_event_max_sample_rate 250, HZ, perf
# allows one sample a tick, and Linux 6.12 throttles at that first one
# (hwc->interrupts >= max_samples_per_tick): every sample is followed by
# a THROTTLE record, the driver stops the event in its handler, and perf
# core starts it again at the next tick with an UNTHROTTLE record.  This
# is what perf_event_tests' overflow programs meet once perf has lowered
# its rate (tools/perf-event-tests/expected.tsv).  For each of two
# user-only instructions events, periods 10^6 and 2x10^6, over a loop of
# known length:
#   - samples = count / period: the stop and the restart keep the period
#     (a lost count makes fewer periods than samples, a restarted period
#     more count than samples);
#   - one POLL_IN per sample (the ring buffers are too large for a record
#     to reach their watermark, whose wakeup is a POLL_IN too);
#   - every sample throttled, every throttle but the last lifted again;
#   - no more count than the loop's instructions.

. "$(dirname "$0")/../lib.sh"
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
ITER=100000000

guest_build "$T/throttle" "$TOP/tests/pmu/throttle.c" -I"$TOP/tests/pmu"
"$RUN" --timeout 300 --add "$T/throttle" -- \
	sh -c "echo 250 >/proc/sys/kernel/perf_event_max_sample_rate &&
		cat /proc/sys/kernel/perf_event_max_sample_rate && /root/throttle $ITER" \
	>"$T/out" 2>"$T/err" || true

is "perf's sample rate set to 250/s, one sample a tick" "$(sed -n 1p "$T/out")" 250
loop=$((3 * ITER + 1))
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
	check "$ev: no more count than the loop's $loop instructions ($count)" \
		[ "$count" -le $((loop + 100)) ]
done < <(grep '^event ' "$T/out")
is "two events reported" "$n" 2
[ "$n" = 2 ] || tail -n 5 "$T/err" | sed 's/^/# /'
