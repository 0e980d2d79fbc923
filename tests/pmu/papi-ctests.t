#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""PAPI's own ctests and validation tests in the LEON3 guest.

Every test the papi stage built, less those PAPI's run_tests.sh leaves
out (its run_tests_exclude.txt: support programs, long runs), is run by
tests/pmu/papi-ctests.sh as run_tests.sh runs it (from its directory,
TESTS_QUIET), each under a time limit counted in the guest's own pace (a
fixed busy loop, timed before each test: a slow host is no failure): in
one-CPU guests, two at a time (GNU parallel), those that count every
overflow in one with perf's interrupt-time limit off, then those that
need two CPUs in a 2-CPU guest (those that count each CPU while their
work runs on one, on CPU 0 alone).  Each must print PASSED, unless
tests/pmu/papi-ctests.expected lists it with the result it gives on
this machine and why; a listed test that gives another
result (one that starts to pass too) fails, so that the list stays
true.  Tests listed LONG (fixed work sized for GHz machines) are not
run and are reported as skipped, with the reason.  A test that prints
PASSED after an "Error!" line (PAPI's clockcore.c does so for a clock
that went back) fails.  Progress is printed as the tests run.
"""

import os
import shlex
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lib import TOP, RUN, not_ok, check  # noqa: E402

PAPI = os.path.join(TOP, "build/papi")
HERE = os.path.dirname(os.path.abspath(__file__))
EXPECTED = os.path.join(HERE, "papi-ctests.expected")
# Each test's time limit, in paces: the time the guest takes for a fixed
# busy loop, timed just before the test (papi-ctests.sh), so that the
# limit is an amount of the guest's own work, not of the host's time: a
# slow or busy host takes longer for both.  The slowest tests took 704
# paces (sdsc4-mpx), 588 (overflow_allcounters, on a LEON3's clock) and
# 480 (overflow3_pthreads), on a busy host where a pace took 0.1 to
# 0.35 s (measured with a loop four times as long, these figures four
# times theirs: the loop is timed before each of the 117 tests).
PACES = 1600


# What papi-ctests.expected may list a test as giving
RESULTS = ("FAILED", "WARNING", "SKIPPED", "TIMEOUT", "LONG")


def expected():
    """{test: (result, why)} of papi-ctests.expected."""
    out = {}
    for n, line in enumerate(open(EXPECTED), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        f = line.split(None, 2)
        if len(f) < 3:
            not_ok(f"papi-ctests.expected line {n}: TEST RESULT WHY, got {line!r}")
            continue
        if f[1] not in RESULTS:
            not_ok(f"papi-ctests.expected line {n}: {f[0]}'s result {f[1]!r} is not one of "
                   f"{', '.join(RESULTS)} (one result a test)")
            continue
        out[f[0]] = (f[1], f[2])
    return out


def built_tests():
    """The tests PAPI's run_tests.sh would run: built, not excluded."""
    with open(os.path.join(PAPI, "run_tests_exclude.txt")) as f:
        exclude = {x.strip() for x in f if x.strip() and not x.startswith("#")}
    out = []
    for d in ("ctests", "validation_tests"):
        for name in sorted(os.listdir(os.path.join(PAPI, d))):
            if f"{d}/{name}" not in exclude:
                out.append(f"{d}/{name}")
    return out


# Programs the tests run (exec_overflow, the attach tests), which every
# guest gets beside its share of the tests
SUPPORT = ("ctests/attach_target", "ctests/burn", "ctests/child_overflow")
SHARDS = 8

# The tests that take 9 s or more here, and how long each took in a
# run of this test on 2026-12-05 (seconds); the 97 others take 1.4 s on
# average.  Only for sharing the tests out evenly: with the tests dealt
# out in name order, one shard took 310 s and another 79, and the two
# host cores waited on the long ones for the last minutes.
SLOW = {"ctests/sdsc4-mpx": 83, "ctests/overflow3_pthreads": 32,
        "ctests/profile_pthreads": 32, "validation_tests/papi_l1_dcm": 30,
        "ctests/kufrin": 27, "validation_tests/papi_tot_cyc": 26, "ctests/multiplex1": 22,
        "validation_tests/papi_ld_ins": 21, "ctests/sdsc2-mpx": 20,
        "ctests/sdsc2-mpx-noreset": 20, "ctests/fork_overflow": 17, "ctests/second": 16,
        "ctests/overflow_force_software": 15, "ctests/overflow_allcounters": 14,
        "ctests/destroy": 12, "ctests/memory": 11, "ctests/byte_profile": 10,
        "ctests/realtime": 10, "ctests/virttime": 10, "validation_tests/papi_sr_ins": 10}
OTHERS = 1.5


# Tests that need 2 CPUs (they attach to each CPU), or threads on 2 CPUs
# (clockres_pthreads, when not listed LONG): run in 2-CPU guests of
# their own, after the others
TWO_CPUS = ("ctests/attach_cpu_validate", "ctests/attach_cpu_sys_validate",
            "ctests/clockres_pthreads")
# Of those, the ones that count each CPU system-wide while their work
# runs on one, and fail when the counts are within 1 % of each other
# ("Too similar"): the scheduler once moved attach_cpu_sys_validate
# half-way through its work (140 and 220 million instructions on the two
# CPUs in another run), so they run on CPU 0 alone (papi-ctests.sh --cpu)
ON_CPU0 = ("ctests/attach_cpu_validate", "ctests/attach_cpu_sys_validate")

# Tests that count every overflow, and take each SIGIO for one: run in a
# guest of their own with perf's interrupt-time limit off
# (papi-ctests.sh --no-throttle), beside the other one-CPU guests.  With
# the limit on, QEMU runs their loops some 10 times a LEON3's rate in
# real time, perf throttles the overflows (it lowers its rate to what
# the interrupts' time allows), and the THROTTLE and UNTHROTTLE records
# that then go in the ring wake it with a SIGIO of their own, which PAPI
# counts as an overflow: 1 to 12 more than count / threshold were seen.
# On a LEON3's clock (leon3-run --leon3-clock) perf throttles nothing
# either (tests/pmu/overflow-signals.t checks that rate), but the test
# took 197 s there against 24 s on the host's clock.
NO_THROTTLE = ("ctests/overflow_allcounters",)


def cost(tests):
    """About how many seconds TESTS take."""
    return sum(SLOW.get(t, OTHERS) for t in tests)


def shards(tests):
    """TESTS in SHARDS lists of about the same time (the longest test
    first into the shard with the least so far), longest shard first,
    since GNU parallel starts the guests in order."""
    out = [[] for _ in range(SHARDS)]
    for t in sorted(tests, key=lambda t: cost([t]), reverse=True):
        min(out, key=cost).append(t)
    return sorted((s for s in out if s), key=cost, reverse=True)


def guest_cmd(tmp, name, cpus, tests, no_throttle=False, cpu0=False):
    """The leon3-run command that runs TESTS in a guest of CPUS CPUs (with
    perf's interrupt-time limit off with NO_THROTTLE, each test on CPU 0
    alone with CPU0)."""
    tree = os.path.join(tmp, name)
    for t in set(tests) | set(SUPPORT):
        os.makedirs(os.path.join(tree, os.path.dirname(t)), exist_ok=True)
        os.symlink(os.path.join(PAPI, t), os.path.join(tree, t))
    limit = (["--no-throttle"] if no_throttle else []) + (["--cpu", "0"] if cpu0 else [])
    return shlex.join([RUN, "--cpus", str(cpus), "--mem", "256M", "--timeout", "5400",
                       "--add", f"{tree}:/root/papi",
                       "--add", f"{HERE}/papi-ctests.sh:/root/papi-ctests.sh", "--",
                       "sh", "/root/papi-ctests.sh", *limit, "/root/papi", str(PACES), *tests])


def run_parallel(tmp, name, cmds, jobs, results, failed):
    """Run the guests CMDS, JOBS at a time, through GNU parallel; add
    their results to RESULTS ({test: (result, seconds, [last lines],
    ["Error!" lines])})
    and the guests that failed to FAILED."""
    jobfile = os.path.join(tmp, f"{name}.jobs")
    with open(jobfile, "w") as f:
        f.write("".join(c + "\n" for c in cmds))
    log = os.path.join(tmp, f"{name}.log")
    p = subprocess.Popen(["parallel", "--jobs", str(jobs), "--line-buffer", "--tagstring", "{#}",
                          "--joblog", log, "::::", jobfile],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    cur, tails = {}, {}
    for line in p.stdout:
        job, _, line = line.rstrip("\n").partition("\t")
        tails[job] = (tails.get(job, []) + [line])[-8:]
        f = line.split()
        if line.startswith("== ") and len(f) == 5:
            cur[job] = f[1]
            results[f[1]] = (f[2], float(f[3]), [], [])
            print(f"# {f[1]} {f[2]} {f[3]} s (limit {f[4]} s)", flush=True)
        elif line.startswith(("   | ", "   ! ")) and job in cur:
            results[cur[job]][2 if line[3] == "|" else 3].append(line[5:])
            print(f"#     {cur[job]}: {line[5:]}", flush=True)
    p.wait()
    with open(log) as f:
        for row in list(f)[1:]:
            c = row.rstrip("\n").split("\t")
            if c[6] != "0":
                failed.append(f"{name} guest {c[0]} exited {c[6]}: " +
                              " | ".join(tails.get(c[0], [])))


def run_guests(tmp, tests):
    """Run the tests in SHARDS guests of one CPU, two at a time (one per
    host core, so that no test waits for a host core: some check their
    interrupt rate each second), then those that need 2 CPUs in guests
    of 2 CPUs: {test: (result, seconds, [last lines], ["Error!" lines])}, and
    the guests that failed."""
    results, failed = {}, []
    one = [t for t in tests if t not in TWO_CPUS and t not in NO_THROTTLE]
    unthrottled = [t for t in tests if t in NO_THROTTLE]
    guests = [(cost(s), guest_cmd(tmp, f"shard{n}", 1, s)) for n, s in enumerate(shards(one))]
    if unthrottled:
        guests.append((cost(unthrottled),
                       guest_cmd(tmp, "no-throttle", 1, unthrottled, no_throttle=True)))
    # longest first: GNU parallel starts them in order
    cmds = [c for _, c in sorted(guests, key=lambda g: g[0], reverse=True)]
    run_parallel(tmp, "one-cpu", cmds, 2, results, failed)
    pinned = [t for t in tests if t in TWO_CPUS and t in ON_CPU0]
    free = [t for t in tests if t in TWO_CPUS and t not in ON_CPU0]
    cmds = ([guest_cmd(tmp, "two-cpus-cpu0", 2, pinned, cpu0=True)] if pinned else []) + \
        ([guest_cmd(tmp, "two-cpus", 2, free)] if free else [])
    if cmds:
        run_parallel(tmp, "two-cpus", cmds, 1, results, failed)
    return results, failed


def main():
    want = expected()
    tests = built_tests()
    # The OpenMP ctests are not built (no libgomp in the toolchain); every
    # other one is, and so are the validation tests.
    check(f"the papi stage built the ctests and validation tests ({len(tests)} to run)",
          len(tests) >= 100 and any(t.startswith("validation_tests/") for t in tests))
    for t in sorted(set(want) - set(tests)):
        not_ok(f"papi-ctests.expected lists {t}, which is not built or is excluded")
    # LONG: fixed work sized for GHz machines, far beyond the limit here
    # (as run_tests_exclude.txt leaves out PAPI's own long tests)
    for t in tests:
        if want.get(t, ("",))[0] == "LONG":
            print(f"ok - {t} # SKIP not run: {want[t][1]}")
    tests = [t for t in tests if want.get(t, ("",))[0] != "LONG"]
    with tempfile.TemporaryDirectory() as tmp:
        results, failed = run_guests(tmp, tests)
    check("every guest ran its tests to the end", not failed and set(results) == set(tests),
          f"{len(results)} of {len(tests)} results; " + "; ".join(failed))
    passed = 0
    for t in tests:
        if t not in results:
            not_ok(f"{t}: no result")
            continue
        res, secs, last, errors = results[t]
        if t in want:
            wres, why = want[t]
            check(f"{t}: {res} as listed ({why})", res == wres,
                  f"the list says {wres}; it printed: " + " | ".join(last))
        elif res == "PASSED" and errors:
            # clockcore.c reports a clock that went back and passes
            not_ok(f"{t}: PASSED, but it printed: " + " | ".join(errors))
        elif res == "PASSED":
            passed += 1
        else:
            not_ok(f"{t}: {res} after {secs} s, and papi-ctests.expected does not list it: "
                   + " | ".join(last))
    total = sum(r[1] for r in results.values())
    print(f"# {passed} unlisted tests passed; {len(results)} tests in {total:.0f} s")


main()
