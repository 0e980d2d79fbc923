#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tests/run: one-core
#
# A user who is not root, at the kernel's default perf_event_paranoid:
# its own user-mode counts work and are exact; the kernel's, a whole
# CPU's (with or without the PID filter), another user's task and the
# PID log are EACCES (tests/pmu/unprivileged.c).

. "$(dirname "$0")/../lib.sh"
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

guest_build "$T/unprivileged" "$TOP/tests/pmu/unprivileged.c"
"$RUN" --timeout 120 --add "$T/unprivileged" -- /root/unprivileged >"$T/out" 2>"$T/err" \
	&& rc=0 || rc=$?
grep -E '^(not )?ok - ' "$T/out"
check "the checks ran as nobody and all passed (exit $rc)" [ "$rc" = 0 ]
check "9 checks reported" [ "$(grep -cE '^(not )?ok - ' "$T/out")" = 9 ]
[ "$rc" = 0 ] || tail -n 5 "$T/err" | sed 's/^/# /'
