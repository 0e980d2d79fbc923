#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel's own perf_events selftests (tools/testing/selftests/
# perf_events of the pinned, patched kernel source), built with the guest
# toolchain and run in the guest (2 CPUs, leon3_pmu loaded at boot).
# Each TAP line of theirs becomes one of ours.  sigtrap_threads needs
# hardware breakpoints (PERF_TYPE_BREAKPOINT), which sparc32 does not
# have: when the guest has no breakpoint PMU its failures are reported
# as one explained skip.

. "$(dirname "$0")/../lib.sh"
set -u
cc="$TOP/build/toolchain/bin/sparc-leon3-linux-gnu-gcc"
src="$TOP/build/linux-src/tools/testing/selftests/perf_events"
tests="remove_on_exec watermark_signal mmap sigtrap_threads"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

adds=()
for t in $tests; do
	if ! "$cc" -static -pthread -O2 -Wall -o "$T/$t" "$src/$t.c" 2>"$T/cc.err"; then
		not_ok "$t builds: $(head -n 3 "$T/cc.err" | tr '\n' ' ')"
		exit 1
	fi
	adds+=(--add "$T/$t")
done

cat >"$T/run.sh" <<SH
for t in $tests; do
	echo "== \$t"
	/root/\$t
	echo "== \$t exit \$?"
done
echo "== breakpoint PMU: \$([ -e /sys/bus/event_source/devices/breakpoint ] && echo yes || echo no)"
SH
"$TOP/tools/leon3-run" --timeout 300 --cpus 2 "${adds[@]}" --add "$T/run.sh" -- sh /root/run.sh \
	>"$T/out" 2>"$T/err" && rc=0 || rc=$?
is "the selftests run in the guest" "$rc" 0
if [ "$rc" != 0 ]; then
	# what the guest and the console said last, to find out why
	echo "# $(tail -n 12 "$T/err" "$T/out" | tr '\n' '|')"
fi

for t in $tests; do
	sed -n "/^== $t\$/,/^== $t exit/p" "$T/out" >"$T/$t.out"
	status=$(sed -n "s/^== $t exit //p" "$T/$t.out")
	if [ "$t" = sigtrap_threads ] && [ "$status" != 0 ] &&
	   grep -qx "== breakpoint PMU: no" "$T/out"; then
		skip "selftests/perf_events/sigtrap_threads" \
			"needs hardware breakpoints (PERF_TYPE_BREAKPOINT); sparc32 has none"
		continue
	fi
	sed -n -e "s/^ok [0-9]* \(.*\)$/ok - selftests\/perf_events\/$t: \1/p" \
		-e "s/^not ok [0-9]* \(.*\)$/not ok - selftests\/perf_events\/$t: \1/p" "$T/$t.out"
	is "selftests/perf_events/$t: exit status" "${status:-none}" 0
done
