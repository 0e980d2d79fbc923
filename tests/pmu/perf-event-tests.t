#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make perf-event-tests end to end on the project's stand-in for
perf_event_tests (tests/pmu/pet-standin, see its README): the build, a
guest on 1 CPU and two on 2 at a time through GNU parallel, every
program's verdict as the suite prints it, and every kind of trouble
reported, never dropped: a failure, a hang, a crash, a program with no
verdict, one that does not build, a warning in the kernel log while a
program ran; and the reasons of an expected file matched by verdict and
CPU count."""

import csv
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lib import TOP, check  # noqa: E402

PET = os.path.join(TOP, "tools/perf-event-tests/pet")
STANDIN = os.path.join(TOP, "tests/pmu/pet-standin")


def main():
    T = tempfile.mkdtemp()
    out = os.path.join(T, "out")
    try:
        r = subprocess.run([PET, "all", "--tree", STANDIN, "--out", out, "--cpus", "1 2",
                            "--jobs", "2", "--limit", "5",
                            "--expected", os.path.join(STANDIN, "expected.tsv")],
                           capture_output=True, text=True)
        text = r.stdout + r.stderr
        check("exits 1: results nothing explains", r.returncode == 1, f"exit {r.returncode}")
        check("the stand-in tree is not written to", not os.path.exists(
            os.path.join(STANDIN, "tests/basic/pass")))
        check("the project's patch to the suite's rdpmc tests, which the stand-in lacks, "
              "is named as not applying, and the build goes on",
              "the project's patch 0001-rdpmc-read-the-counters-from-user-space-on-32-bit-SP"
              ".patch does not apply to this tree" in text and "building tests/basic" in text,
              text[:600])
        check("progress: each directory's build, each guest",
              "building tests/basic (1/2)" in text and "1 CPU(s), chunk 1: 4 programs" in text
              and "2 CPU(s), chunk 0: 8 programs" in text, text[-600:])
        rows = {row["program"]: row for row in csv.DictReader(open(f"{out}/results.csv"))}
        want = {"basic/pass": "PASSED", "basic/fail": "FAILED", "basic/known": "KNOWN KERNEL BUG",
                "basic/skip": "SKIPPED",
                "basic/hang": "TIMEOUT", "basic/crash": "CRASHED", "basic/silent": "NO VERDICT",
                "basic/kmsg": "PASSED + KERNEL REPORT", "broken/broken": "NOT BUILT"}
        check("every program has a row, the one that did not build too",
              sorted(rows) == sorted(want), str(sorted(rows)))
        for prog, verdict in sorted(want.items()):
            got = [rows.get(prog, {}).get(c) for c in ("1 CPU", "2 CPU")]
            check(f"{prog}: {verdict} on 1 and 2 CPUs", got == [verdict, verdict], str(got))
        check("the hang was stopped at the limit: 5 s",
              any(x.startswith("basic/hang\tTIMEOUT\t5.") for x in
                  open(f"{out}/runs/1/chunk-0.tsv").read().split("\n") +
                  open(f"{out}/runs/1/chunk-1.tsv").read().split("\n")))
        check("the build's error is the reason given for the program that did not build",
              "no-such-header.h" in text)
        check("an explained failure takes its reason", rows["basic/fail"]["reason"] ==
              "fails on purpose", rows["basic/fail"]["reason"])
        check("a skip is the test's own word: not reported", "basic/skip on" not in text and
              rows["basic/skip"]["reason"].startswith("the test skips itself"),
              rows["basic/skip"]["reason"])
        check("a reason for 1 CPU does not explain 2 CPUs",
              "basic/known on 2 CPU(s): KNOWN KERNEL BUG: not explained" in text and
              "basic/known on 1 CPU(s)" not in text)
        for prog in ("basic/hang", "basic/crash", "basic/silent", "broken/broken"):
            check(f"{prog}: reported as not explained", f"{prog} on 1 CPU(s):" in text)
        check("the summary counts each verdict, and the programs the kernel reported in",
              "1 CPU(s): 2 PASSED, 1 CRASHED, 1 FAILED, 1 KERNEL REPORT, 1 KNOWN KERNEL BUG, "
              "1 NO VERDICT, 1 NOT BUILT, 1 SKIPPED, 1 TIMEOUT" in text, text[-800:])
        check("a warning in the kernel log while a program ran: not explained on 1 CPU, "
              "with the report",
              "basic/kmsg on 1 CPU(s): the kernel reported 1 problem(s) while it ran, the first: "
              "[" in text and "WARNING: pet stand-in basic/kmsg warns on purpose: not explained"
              in text, text[-800:])
        check("... explained on 2 CPUs by the expected file's KERNEL REPORT line",
              "basic/kmsg on 2 CPU(s)" not in text and
              rows["basic/kmsg"]["reason"].endswith("warns on purpose, explained on 2 CPUs only"),
              rows["basic/kmsg"]["reason"])
        tsv = [r for c in (1, 2) for path in os.listdir(f"{out}/runs/{c}")
               if path.endswith(".tsv")
               for r in csv.DictReader(open(f"{out}/runs/{c}/{path}"), delimiter="\t")]
        check("the report is the program's that wrote it alone, not the one after it, nor "
              "the boot's: chunk-I.tsv",
              sorted((r["program"], r["kernel reports"]) for r in tsv if r["kernel reports"] != "0")
              == [("basic/kmsg", "1"), ("basic/kmsg", "1")],
              str([(r["program"], r["kernel reports"]) for r in tsv]))
        md = open(f"{out}/results.md").read()
        check("results.md: a row for each program that did not pass, none for the pass",
              "| basic/fail | FAILED | FAILED | fails on purpose |" in md and
              "basic/pass" not in md, md[:400])

        # A rerun with --only: a program's new result replaces its old one
        # (here a FAILED written into the first run), the others stay.
        exp = os.path.join(STANDIN, "expected.tsv")
        first = [f"{out}/runs/1/chunk-{i}.tsv" for i in (0, 1)]
        for path in first:
            text = open(path).read()
            open(path, "w").write(text.replace("basic/pass\tPASSED", "basic/pass\tFAILED"))
        r = subprocess.run([PET, "run", "--out", out, "--cpus", "1", "--jobs", "1", "--limit", "5",
                            "--only", "basic/pass basic/fail"], capture_output=True, text=True)
        r2 = subprocess.run([PET, "report", "--out", out, "--expected", exp],
                            capture_output=True, text=True)
        rows = {row["program"]: (row["1 CPU"], row["2 CPU"])
                for row in csv.DictReader(open(f"{out}/results.csv"))}
        rerun = f"{out}/runs/1/rerun-1/chunk-0.tsv"
        check("--only after a run: those programs run again, alone (runs/1/rerun-1)",
              r.returncode == 0 and os.path.exists(rerun) and
              sorted(x.split("\t")[0] for x in open(rerun).read().split("\n")[1:] if x) ==
              ["basic/fail", "basic/pass"], f"exit {r.returncode}: {r.stderr[-300:]}")
        reasons = {row["program"]: row["reason"] for row in csv.DictReader(open(f"{out}/results.csv"))}
        check("--only after a run: the new result replaces the old one, and the reason says "
              "what the earlier run gave (results.csv and results.md)",
              rows.get("basic/pass") == ("PASSED", "PASSED") and
              reasons.get("basic/pass") == "on 1 CPU(s) PASSED when run again; FAILED in the "
              "run before (runs/1/)" and
              "| basic/pass | PASSED | PASSED | on 1 CPU(s) PASSED when run again" in
              open(f"{out}/results.md").read(),
              f"{rows.get('basic/pass')}: {reasons.get('basic/pass')}")
        check("--only after a run: the other programs keep their results, on both CPU counts",
              {p: v for p, v in rows.items() if p != "basic/pass"} ==
              {p: (v, v) for p, v in want.items() if p != "basic/pass"} and r2.returncode == 1,
              f"exit {r2.returncode}: {rows}")
        shutil.rmtree(f"{out}/runs/2")
        r = subprocess.run([PET, "run", "--out", out, "--cpus", "2", "--jobs", "2", "--limit", "5",
                            "--only", "basic/fail"], capture_output=True, text=True)
        subprocess.run([PET, "report", "--out", out, "--expected", exp], capture_output=True)
        rows = {row["program"]: row["2 CPU"] for row in csv.DictReader(open(f"{out}/results.csv"))}
        check("--only with no earlier run: that program alone in its column, '-' for the rest",
              r.returncode == 0 and {p: v for p, v in rows.items() if v != "-"} ==
              {"basic/fail": "FAILED"}, f"exit {r.returncode}: {rows}")
        r = subprocess.run([PET, "run", "--out", out, "--only", "nosuch"], capture_output=True,
                           text=True)
        check("--only a program that was not built: refused",
              r.returncode != 0 and "no such program or directory" in r.stderr, r.stderr[:200])

        r = subprocess.run([PET, "all", "--out", out], capture_output=True, text=True,
                           env={k: v for k, v in os.environ.items() if k != "PET_DIR"})
        check("no tree: exit 2 and where to get the suite",
              r.returncode == 2 and "git clone https://github.com/deater/perf_event_tests"
              in r.stderr, f"exit {r.returncode}: {r.stderr[:200]}")
        r = subprocess.run([PET, "build", "--tree", T, "--out", out], capture_output=True,
                           text=True)
        check("a directory that is not the suite: refused",
              r.returncode != 0 and "is not a perf_event_tests tree" in r.stderr, r.stderr[:200])
    finally:
        shutil.rmtree(T, ignore_errors=True)


main()
