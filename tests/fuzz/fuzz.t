#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Fuzz the leon3_pmu driver (tests/fuzz/fuzz.c) on 2 CPUs: random
# perf_event_attr values and operations for LEON3_FUZZ_SECONDS (45), with
# a random seed (LEON3_FUZZ_SEED repeats a run; the seed is printed).
# Then: no oops, warning or lockdep report in the kernel log, no hang
# (the launcher's timeout), no leaked counter (a full group gets each
# CPU's whole PMU), and the module unloads: no event is left behind.

. "$(dirname "$0")/../lib.sh"
set -u
secs=${LEON3_FUZZ_SECONDS:-45}
seed=${LEON3_FUZZ_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

guest_build "$T/fuzz" "$TOP/tests/fuzz/fuzz.c" -pthread
cat >"$T/run.sh" <<SH
/root/fuzz $secs $seed
echo "fuzz exit \$?"
leon3-kernel-reports -p 'splat: '
rmmod leon3_pmu
grep -q '^leon3_pmu ' /proc/modules || echo unloaded
SH
"$RUN" --timeout $((secs + 120)) --cpus 2 --add "$T/fuzz" --add "$T/run.sh" -- sh /root/run.sh \
	>"$T/out" 2>"$T/err" && rc=0 || rc=$?
info="seed $seed: $(grep -m1 '^opened' "$T/out")"
is "fuzz ($secs s, $info): the guest finishes (no hang)" "$rc" 0
check "fuzz: the fuzzer exits 0 (no leaked counter)" grep -qx "fuzz exit 0" "$T/out"
if grep -q '^splat: ' "$T/out"; then
	not_ok "fuzz: no oops, warning or lockdep report: $(grep '^splat: ' "$T/out" | head -n 5 | tr '\n' '|')"
else
	ok "fuzz: no oops, warning or lockdep report in the kernel log"
fi
check "fuzz: the module unloads afterwards (no event left)" grep -qx unloaded "$T/out"
if ! grep -qx "fuzz exit 0" "$T/out"; then
	echo "# $(tail -n 8 "$T/out" "$T/err" | tr '\n' '|')"
fi
