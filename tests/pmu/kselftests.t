#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel's own perf_events selftests (tools/testing/selftests/
# perf_events of the pinned, patched kernel source), built with the guest
# toolchain and run in the guest (2 CPUs, leon3_pmu loaded at boot).
# Each TAP line of theirs becomes one of ours.  sigtrap_threads needs
# hardware breakpoints (PERF_TYPE_BREAKPOINT), which sparc32 does not
# have: when perf_event_open of a breakpoint fails with ENOENT (no PMU
# of that type) and each of its failed tests failed at that open, they
# are reported as one explained skip; any other failure is a failure.

. "$(dirname "$0")/../lib.sh"
set -u
cc="$TOP/build/toolchain/bin/sparc-leon3-linux-gnu-gcc"
src="$TOP/build/linux-src/tools/testing/selftests/perf_events"
tests="remove_on_exec watermark_signal mmap sigtrap_threads"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# A breakpoint event as sigtrap_threads opens it: the errno says why not
cat >"$T/bp-probe.c" <<'C'
#include <errno.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static volatile int var;

int main(void)
{
	struct perf_event_attr a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_BREAKPOINT;
	a.size = sizeof(a);
	a.sample_period = 1;
	a.bp_addr = (unsigned long)&var;
	a.bp_type = HW_BREAKPOINT_RW;
	a.bp_len = HW_BREAKPOINT_LEN_4;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	fd = syscall(__NR_perf_event_open, &a, 0, -1, -1, 0);
	if (fd >= 0)
		printf("opened\n");
	else
		printf("%s (%s)\n", errno == ENOENT ? "ENOENT" : "other", strerror(errno));
	return 0;
}
C
adds=()
if ! "$cc" -static -O2 -Wall -Werror -o "$T/bp-probe" "$T/bp-probe.c" 2>"$T/cc.err"; then
	not_ok "the breakpoint probe builds: $(head -n 3 "$T/cc.err" | tr '\n' ' ')"
	exit 1
fi
adds+=(--add "$T/bp-probe")
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
echo "== breakpoint event: \$(/root/bp-probe)"
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
	# (the harness prints "Expected self->fd (-1) != -1" for a failed open)
	if [ "$t" = sigtrap_threads ] && [ "$status" != 0 ] &&
	   grep -q "^== breakpoint event: ENOENT " "$T/out" &&
	   [ "$(grep -c '^not ok ' "$T/$t.out")" -gt 0 ] &&
	   [ "$(grep -c '^not ok ' "$T/$t.out")" = "$(grep -c 'Expected self->fd (-1) != -1' "$T/$t.out")" ]; then
		skip "selftests/perf_events/sigtrap_threads" \
			"needs hardware breakpoints: perf_event_open(PERF_TYPE_BREAKPOINT) fails with ENOENT, sparc32 has no breakpoint PMU"
		continue
	fi
	sed -n -e "s/^ok [0-9]* \(.*\)$/ok - selftests\/perf_events\/$t: \1/p" \
		-e "s/^not ok [0-9]* \(.*\)$/not ok - selftests\/perf_events\/$t: \1/p" "$T/$t.out"
	is "selftests/perf_events/$t: exit status" "${status:-none}" 0
done
