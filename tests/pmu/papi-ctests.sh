#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# In the guest: run PAPI's ctests and validation tests, as PAPI's own
# run_tests.sh does (each with TESTS_QUIET, those its
# run_tests_exclude.txt names left out), each under a time limit.
#
#   papi-ctests.sh [--no-throttle] [--cpu N] DIR PACES [TEST...]
#
# --cpu N runs each test on CPU N alone (taskset), for the tests that
# assume their work stays on one CPU.
#
# --no-throttle turns perf's interrupt-time limit off first
# (perf_cpu_time_max_percent 0), for the tests that count every
# overflow: in real time QEMU runs a loop some 10 times as fast as a
# 40 MHz LEON3, perf throttles its overflows, and each THROTTLE record
# that wakes the ring buffer is one more SIGIO, which PAPI takes for an
# overflow (Documentation/limitations.md,
# *Throttling in real time*).
#
# Each test's time limit is PACES times the guest's pace: how long the
# shell's busy loop below (PACE_LOOP iterations, no system call) takes,
# timed just before the test.  So the limit is an amount of the guest's
# own work, whatever the host's speed and load at the time, and on a
# LEON3's clock (leon3-run --leon3-clock) as on the host's.
#
# DIR holds ctests/, validation_tests/ and run_tests_exclude.txt (the
# papi stage's output); TEST is e.g. ctests/zero (default: every one).
# One line per test, "== TEST RESULT SECONDS LIMIT", RESULT being what the
# test printed: PASSED, WARNING (PASSED with WARNING), FAILED, SKIPPED;
# or TIMEOUT (killed after LIMIT seconds), SIGNAL-N (killed by signal N),
# NORESULT (exited N without a verdict).  Any other result is followed
# by the last lines the test printed, each as "   | LINE".  Any result
# is followed by the lines the test printed that start "Error!", each as
# "   ! LINE": PAPI's clockcore reports a clock that went back so and
# still passes.

if [ "$1" = --no-throttle ]; then
	echo 0 >/proc/sys/kernel/perf_cpu_time_max_percent || exit 2
	shift
fi
pin=
if [ "$1" = --cpu ]; then
	pin="taskset $(printf %x $((1 << $2)))"
	shift 2
fi
dir=$1 paces=$2
shift 2
cd "$dir" || exit 2
if [ $# = 0 ]; then
	set -- $(ls -d ctests/* validation_tests/* | grep -vxF -f run_tests_exclude.txt)
fi

now() { cut -d' ' -f1 /proc/uptime; }

PACE_LOOP=500
# pace_limit: PACES times the seconds PACE_LOOP iterations take now
pace_limit() {
	local start i=0
	start=$(now)
	while [ $i -lt $PACE_LOOP ]; do i=$((i + 1)); done
	echo "$(now) $start $paces" | awk '{ printf "%d", ($1 - $2) * $3 + 0.5 }'
}

for t in "$@"; do
	[ -x "$t" ] || { echo "== $t MISSING 0 0"; continue; }
	limit=$(pace_limit)
	start=$(now)
	# Every test is run from its own directory, as run_tests.sh does.
	(cd "$(dirname "$t")" && exec $pin timeout -s KILL "$limit" "./$(basename "$t")" TESTS_QUIET) \
		>/tmp/papi-test.out 2>&1 </dev/null
	rc=$?
	secs=$(echo "$(now) $start" | awk '{ printf "%.1f", $1 - $2 }')
	if grep -q 'FAILED' /tmp/papi-test.out; then
		res=FAILED
	elif grep -q 'PASSED with WARNING' /tmp/papi-test.out; then
		res=WARNING
	elif grep -q 'PASSED' /tmp/papi-test.out && [ $rc = 0 ]; then
		res=PASSED
	elif grep -q 'SKIPPED' /tmp/papi-test.out; then
		res=SKIPPED
	elif [ $rc = 137 ] && awk -v s="$secs" -v l="$limit" 'BEGIN { exit !(s >= l) }'; then
		res=TIMEOUT
	elif [ $rc -gt 128 ]; then
		res=SIGNAL-$((rc - 128))
	else
		res=NORESULT-$rc
	fi
	echo "== $t $res $secs $limit"
	[ $res = PASSED ] || tail -n 4 /tmp/papi-test.out | sed 's/^/   | /'
	grep '^Error!' /tmp/papi-test.out | sort | uniq -c | sed 's/^ *\([0-9]*\) \(.*\)/   ! \2 (\1 times)/'
done
