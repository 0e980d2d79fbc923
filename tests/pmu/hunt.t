#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# tests/run: one-core
#
# The rare-event hunt (tools/leon3-hunt, tools/hunt/leon3-hunt-run.c) on
# a workload of the project's own whose rare slow runs have known causes
# (tests/pmu/hunt-workload.c): every 7th run its hash table grows, so
# its own cycles rise in grow(); and a competitor wakes up in every 5th
# run to spin, so that those runs take more cycles of the whole system
# but not of the program.  The report must name both causes, the
# first by range (grow) and the second by process (competitor); and a
# run that crashes is named and left out while the others are reported,
# and a warning in the kernel log is put down to the run it came in.
# The guest runs on a LEON3's clock (leon3-hunt's default), so what the
# competitor takes of a run does not depend on the host's speed: on the
# host's clock a faster QEMU shrank it and the test failed now and then.

import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lib import TOP, ok, not_ok, check, build_guest, read_csv  # noqa: E402

HUNT = os.path.join(TOP, "tools/leon3-hunt")
RUNS = 21


def hunt(tmp, out, *args):
    return subprocess.run([HUNT, "--out", out, *args], capture_output=True, text=True)


def flagged(report):
    """{run: (why, by process, by range)} of the report's outliers."""
    runs, lines = {}, report.splitlines()
    for i, line in enumerate(lines):
        m = re.match(r"^run (\d+): (.*)$", line)
        if m and i + 2 < len(lines) and lines[i + 1].startswith("  by process:"):
            runs[int(m.group(1))] = (m.group(2), lines[i + 1], lines[i + 2])
    return runs


def first(line):
    """The first name of a "  by ...: name +N, ..." line."""
    m = re.match(r"^\s+by \w+:\s+(\S+) \+", line)
    return m.group(1) if m else None


def extra(line, name):
    """N of "name +N" in a report line (0 if absent)."""
    m = re.search(re.escape(name) + r" \+(\d+)", line)
    return int(m.group(1)) if m else 0


def main():
    tmp = tempfile.mkdtemp()
    try:
        w = build_guest(tmp, "hunt-workload")
    except RuntimeError as e:
        not_ok(str(e))
        return
    out = os.path.join(tmp, "out")
    p = hunt(tmp, out, "--runs", str(RUNS), "--function", "grow",
             "--competitor", "/root/competitor compete 5 2000",
             "--add", f"{w}:/root/competitor", w, "hash", "50000")
    check("leon3-hunt: exits 0, the guest on a LEON3's clock",
          p.returncode == 0 and "a LEON3's clock" in p.stderr, (p.stderr + p.stdout)[-600:])
    runs = flagged(p.stdout)
    # the workload's 7th, 14th, 21st run: the hunt's 6, 13, 20 after its warm-up
    grow = {r for r in range(6, RUNS + 1, 7)}
    check(f"the runs whose table grows ({sorted(grow)}) are flagged, for the program's own "
          "cycles", all(r in runs and "the program's own cycles" in runs[r][0] for r in grow),
          p.stdout[-1500:])
    check("... and their extra cycles are named by range: grow(), with at least half of "
          "the program's extra cycles",
          all(r in runs and extra(runs[r][2], "grow") >= 0.5 * extra(runs[r][0], "cycles")
              for r in grow), str({r: runs.get(r) for r in grow}))
    # the workload's runs 3, 8, 13, 18: the hunt's 2, 7, 12, 17
    comp = set(range(2, RUNS + 1, 5))
    check(f"the runs the competitor wakes up in ({sorted(comp)}) are flagged, for the "
          "whole system's cycles, the competitor named first, by process",
          all(r in runs and "whole-system" in runs[r][0] and
              (first(runs[r][1]) or "").startswith("competitor") for r in comp),
          str({r: runs.get(r) for r in comp})[-1500:])
    check("... and no other run is flagged",
          set(runs) == grow | comp, str(sorted(runs)))
    check("the guest kernel reported nothing: the report says so",
          re.search(r"^kernel log: no report$", p.stdout, re.M), p.stdout[-800:])
    with open(os.path.join(out, "runs.csv")) as f:
        lines = f.read().splitlines()
    check(f"runs.csv: a line per run ({RUNS}) under its header",
          len(lines) == RUNS + 1 and lines[0].startswith("run,status,all,prog,text,grow"),
          str(lines[:2]))
    for png in ("cycles.png", "histogram.png", "processes.png", "ranges.png", "breakdown.png"):
        path = os.path.join(out, png)
        check(f"{png}: a PNG plot", os.path.exists(path) and
              open(path, "rb").read(8) == b"\x89PNG\r\n\x1a\n", path)

    # K uniform ranges: with a counter left for the whole text, they add
    # up to it in every run, whatever the guest's clock
    out3 = os.path.join(tmp, "out3")
    p = hunt(tmp, out3, "--runs", "3", "--ranges", "2", "--host-clock", w, "hash", "20000")
    rows = read_csv(os.path.join(out3, "runs.csv"))
    check("--ranges 2 --host-clock: two uniform ranges of the text, whose cycles add up "
          "to the text's in each run, exactly",
          p.returncode == 0 and len(rows) == 3 and "the host's clock" in p.stderr and
          all(int(x["text1"]) + int(x["text2"]) == int(x["text"]) > 0 for x in rows),
          str(rows)[-600:] + p.stderr[-300:])

    # A dynamic PIE: its text where the kernel loads it, and a range per
    # shared library (the toolchain's libc and dynamic loader)
    dyn = build_guest(tmp, "hunt-workload", "-fPIE", "-pie", static=False,
                      out=os.path.join(tmp, "hunt-workload-pie"))
    out4 = os.path.join(tmp, "out4")
    p = hunt(tmp, out4, "--runs", "7", dyn, "hash", "20000")
    rows = read_csv(os.path.join(out4, "runs.csv"))
    libs = ("libc.so.6", "ld-linux.so.2")
    check("a dynamic PIE: a range for its text and one for each library it loads "
          f"({', '.join(libs)}), each with cycles in every run, together no more than "
          "the program's own",
          p.returncode == 0 and len(rows) == 7 and all(
              all(int(x[n]) > 0 for n in ("text",) + libs) and
              sum(int(x[n]) for n in ("text",) + libs) <= int(x["prog"]) for x in rows),
          str(rows)[-600:] + (p.stderr + p.stdout)[-300:])
    runs = flagged(p.stdout)
    check("... and its growing run (6) is flagged, its extra cycles in its text",
          6 in runs and first(runs[6][2]) == "text", p.stdout[-800:])

    # Bad input: a crash in one of the runs, a warning in the kernel log,
    # a function that is not there
    out2 = os.path.join(tmp, "out2")
    p = hunt(tmp, out2, "--runs", "7", w, "hash", "20000", "crash,warn")
    check("a run that crashes (the workload's 5th, the hunt's 4th: abort) is named with "
          "its status and left out; the others are reported",
          p.returncode == 0 and "run 4: exit status 134: left out" in p.stdout and
          re.search(r"^median cycles: ", p.stdout, re.M), (p.stderr + p.stdout)[-600:])
    rows = read_csv(os.path.join(out2, "runs.csv"))
    check("a warning the workload's 3rd run writes to the kernel log: the report lists "
          "it once, under the hunt's run 2 (its runs marked in the log), runs.csv counts "
          "it for run 2 alone, and the hunt says so on stderr",
          re.search(r"^kernel log: 1 report\(s\)\n  run 2: \[[ 0-9.]+\] WARNING: "
                    r"hunt-workload: run 3 warns on purpose$", p.stdout, re.M) and
          [int(x["kernel_reports"]) for x in rows] == [0, 1, 0, 0, 0, 0, 0] and
          "the guest kernel reported 1 problem(s)" in p.stderr,
          (p.stderr + p.stdout)[-600:] + str([x.get("kernel_reports") for x in rows]))
    p = hunt(tmp, out2, "--runs", "5", "--function", "nosuch", w, "hash", "1000")
    check("a function the program does not have: refused before anything runs",
          p.returncode == 1 and "nosuch: not a function of" in p.stderr, p.stderr[-300:])
    p = hunt(tmp, out2, "--runs", "5", "--ranges", "4", w, "hash", "1000")
    check("more ranges than counters: refused before anything runs, the ranges named",
          p.returncode == 1 and "6 ranges (text1, text2, text3, text4, kernel, idle)" in p.stderr,
          p.stderr[-300:])


main()
