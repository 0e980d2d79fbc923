#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make mibench end to end on the project's stand-in for MiBench
(tests/mibench/standin, see its README): the guest runs under perf stat
on 1 and 2 CPUs, 2 runs each, through GNU parallel; the table, CSV and
plot; soft float; programs linked dynamically, hard and soft float; and
every kind of bad input flagged, never averaged in: a program that does
not build, a wrong output, a crash, a guest that hangs, a report in the
kernel log, a program whose input the tree lacks.  And the runners of
make bench-mibench and make bench-trace on it."""

import collections
import csv
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lib import TOP, ok, not_ok, check  # noqa: E402
sys.path.insert(0, os.path.join(TOP, "tools"))
from leon3lib import elf  # noqa: E402

MIBENCH = os.path.join(TOP, "tools/mibench/mibench")
STANDIN = os.path.join(TOP, "tests/mibench/standin")
# Seconds a guest may take, and a run of bench-mibench (twice in its
# round: with and without counters): dijkstra's stand-in hangs on 1 CPU
# and must hit them.  A guest of the others takes 3 s here (a boot and 2 runs),
# so about 8 s on a host 2.5 times as slow; a run under a second.
TIMEOUT = 30
LIMIT = 10
FP = "leon3_pmu/fp_instructions/"


def main():
    T = tempfile.mkdtemp()
    out = os.path.join(T, "out")
    try:
        r = subprocess.run([MIBENCH, "all", "--tree", STANDIN, "--out", out, "--cpus", "1 2",
                            "--runs", "2", "--jobs", str(os.cpu_count() or 1),
                            "--timeout", str(TIMEOUT)],
                           capture_output=True, text=True)
        text = r.stdout + r.stderr
        check("make mibench: exits non-zero (programs skipped, wrong, crashed, hung)",
              r.returncode == 1, f"exit {r.returncode}")
        for i, step in enumerate(("build", "reference", "guest runs", "table"), 1):
            check(f"progress: step {i}/4 {step}", f"step {i}/4: {step}" in text)
        rows = {(row["program"], row["cpus"]): row
                for row in csv.DictReader(open(f"{out}/mibench-small.csv"))}
        check("table: basicmath, bitcount, qsort and CRC32 on 1 and 2 CPUs, dijkstra on 2 "
              "(it hangs on 1), nothing else",
              sorted(rows) == sorted([(p, c) for p in ("basicmath", "bitcount", "qsort", "CRC32")
                                      for c in ("1", "2")] + [("dijkstra", "2")]),
              str(sorted(rows)))
        for (prog, cpus), row in sorted(rows.items()):
            runs = [x for x in csv.DictReader(open(f"{out}/runs-small/{prog}.{cpus}.csv"))]
            cyc = [float(x["cycles"]) for x in runs]
            ins = [float(x["instructions"]) for x in runs]
            check(f"{prog}, {cpus} CPU(s): 2 runs averaged, both outputs as the reference",
                  row["runs"] == "2" and all(x["output"] == "ok" for x in runs))
            check(f"{prog}, {cpus} CPU(s): the table's IPC is the runs' instructions over cycles",
                  abs(float(row["ipc"]) - (sum(ins) / 2) / (sum(cyc) / 2)) < 1e-9, row["ipc"])
            check(f"{prog}, {cpus} CPU(s): user instructions are exact: CV 0",
                  float(row["cv_instructions"]) == 0.0 and ins[0] == ins[1], str(ins))
            check(f"{prog}, {cpus} CPU(s): one I-cache access per instruction "
                  f"(Documentation/pmu-registers.md, 0x80)",
                  all(x["L1-icache-loads"] == x["instructions"] for x in runs))
            check(f"{prog}, {cpus} CPU(s): the time is cycles at 75 MHz",
                  abs(float(row["seconds"]) - float(row["cycles"]) / 75e6) < 1e-12)
        check("the user instructions of a program do not depend on the CPU count",
              rows[("bitcount", "1")]["instructions"] == rows[("bitcount", "2")]["instructions"])

        table = open(f"{out}/mibench-small.txt").read()
        check("wrong output: stringsearch's runs are flagged, not averaged",
              "stringsearch on 1 CPU(s): 2 of 2 runs with a wrong output (output_small.txt "
              "differs" in table and table.count("stringsearch on") == 2)
        check("crash: patricia's runs are flagged as a segmentation fault",
              "patricia on 2 CPU(s): 2 of 2 runs with a wrong output (command 1: "
              "Segmentation fault" in table and table.count("patricia on") == 2)
        check(f"hang: dijkstra's guest on 1 CPU is stopped after {TIMEOUT} s and reported",
              table.count(f"did not finish in {TIMEOUT} s") == 1 and
              f"dijkstra on 1 CPU(s): " in table, table)
        # one report each time bf runs: 2 runs, each of its passes
        check("kernel report: blowfish's jobs fail with the report, none of their runs kept",
              table.count("blowfish on") == 2 and len(re.findall(
                  r"blowfish on [12] CPU\(s\): FAILED: the kernel reported [1-9][0-9]* "
                  r"problem\(s\), the first: \[ *[0-9.]+\] WARNING: a report of the "
                  r"mibench stand-in \(blowfish\)", table)) == 2, table)
        check("build failure: sha is skipped with the compiler's error",
              "sha: skipped: make failed" in table)
        check("absent: susan is skipped as not in MIBENCH_DIR",
              "susan: skipped: not in MIBENCH_DIR" in table)
        check("the table says the programs use the FPU", "hard float: the LEON3's FPU" in table)
        hard = list(csv.DictReader(open(f"{out}/runs-small/basicmath.1.csv")))
        check("basicmath (hard float) runs FPU instructions; the integer programs none",
              all(int(x[FP]) > 0 for x in hard) and
              all(int(x[FP]) == 0 for p in ("bitcount", "qsort", "CRC32")
                  for x in csv.DictReader(open(f"{out}/runs-small/{p}.1.csv"))))
        png = open(f"{out}/mibench-small.png", "rb").read(8)
        check("plot: a PNG next to the CSV", png == b"\x89PNG\r\n\x1a\n")
        jobs = open(f"{out}/runs-small/joblog").read().splitlines()[1:]
        check("the jobs ran through GNU parallel: 16 in its job log", len(jobs) == 16,
              f"{len(jobs)} jobs")

        # mibench commands (what make bench-mibench runs): every built
        # program's runme_small.sh lines, worked out here from the stand-in.
        r = subprocess.run([MIBENCH, "commands", "--out", out], capture_output=True, text=True)
        want = []
        for line in open(f"{out}/build.tsv"):
            name, state, _ = line.rstrip("\n").split("\t")
            if state != "built":
                continue
            for script in glob.glob(f"{STANDIN}/*/{name}/runme_small.sh"):
                d = os.path.relpath(os.path.dirname(script), STANDIN)
                want += [f"{name}\t{d}\t{'' if '/' in cmd.split()[0] else './'}{cmd}"
                         for cmd in map(str.strip, open(script))
                         if cmd and not cmd.startswith("#")]
        check("mibench commands: each built program's runme_small.sh lines, ./ before the program",
              r.returncode == 0 and sorted(r.stdout.splitlines()) == sorted(want),
              f"exit {r.returncode}: {r.stdout!r} vs {want!r}")

        # DETERMINISTIC=1: the same job twice gives the same counts, run
        # for run, every event.
        csvs = []
        for i in (1, 2):
            r = subprocess.run([MIBENCH, "job", "--out", out, "--name", "qsort", "--cpus", "2",
                                "--runs", "2", "--deterministic"], capture_output=True, text=True)
            csvs.append(open(f"{out}/runs-small/qsort.2.csv").read() if r.returncode == 0 else "")
        check("deterministic mode: two jobs of qsort on 2 CPUs count exactly the same",
              csvs[0] and csvs[0] == csvs[1], f"{csvs[0]!r} vs {csvs[1]!r}")

        # MIBENCH_FP=soft: basicmath in software floating point runs no
        # FPU instruction, and pays for it in instructions.  In real time
        # its user instruction count varies by a few: libgcc's soft-float
        # code reads a stale fraction for zeros from the stack, where
        # interrupts spill register windows (Documentation/mibench.md).
        # Deterministic mode pins the interrupts, hence the counts.
        soft = os.path.join(T, "soft")
        csvs = []
        steps = [["build", "--tree", STANDIN, "--fp", "soft"], ["reference"]]
        steps += [["job", "--name", "basicmath", "--cpus", "1", "--runs", "2",
                   "--deterministic"]] * 2 + [["table"]]
        for step in steps:
            r = subprocess.run([MIBENCH] + step + ["--out", soft], capture_output=True,
                               text=True)
            if step[0] in ("build", "job"):
                check(f"soft float: mibench {step[0]} exits 0", r.returncode == 0,
                      (r.stdout + r.stderr)[-300:])
            if step[0] == "job":
                csvs.append(open(f"{soft}/runs-small/basicmath.1.csv").read()
                            if r.returncode == 0 else "")
        runs = list(csv.DictReader(open(f"{soft}/runs-small/basicmath.1.csv")))
        check("soft float: the basicmath runs give the reference output",
              len(runs) == 2 and all(x["output"] == "ok" for x in runs), str(runs))
        check("soft float: no FPU instruction runs",
              all(int(x[FP]) == 0 for x in runs), str([x[FP] for x in runs]))
        check("soft float, deterministic mode: two jobs count exactly the same, every event",
              csvs[0] and csvs[0] == csvs[1], f"{csvs[0]!r} vs {csvs[1]!r}")
        check("soft float: more instructions than with the FPU",
              int(runs[0]["instructions"]) > int(hard[0]["instructions"]),
              f"{runs[0]['instructions']} soft, {hard[0]['instructions']} hard")
        table = open(f"{soft}/mibench-small.txt").read()
        check("soft float: the table says so", "soft float: gcc -msoft-float" in table, table[:400])

        # MIBENCH_LINK=dynamic, hard and soft float: the stand-in's
        # Makefiles link with -static, as MiBench's dijkstra and patricia
        # do, and the build drops it; the guest gets the loader and the
        # libraries of the programs' float ABI (soft float: /lib/soft;
        # the hard-float libm there would run FPU instructions).
        part = os.path.join(T, "dyn-tree")
        for d in ("automotive/basicmath", "automotive/qsort"):
            shutil.copytree(os.path.join(STANDIN, d), os.path.join(part, d))
        for fp, loader in (("hard", "/lib/ld-linux.so.2"), ("soft", "/lib/soft/ld-linux.so.2")):
            dyn = os.path.join(T, f"dyn-{fp}")
            steps = [["build", "--tree", part, "--fp", fp, "--link", "dynamic"], ["reference"]]
            steps += [["job", "--name", n, "--cpus", "1", "--runs", "2", "--deterministic"]
                      for n in ("basicmath", "qsort")] + [["table"]]
            for step in steps[:-1]:
                r = subprocess.run([MIBENCH] + step + ["--out", dyn], capture_output=True,
                                   text=True)
                check(f"dynamic, {fp} float: mibench {step[0]} {' '.join(step[1:3])} exits 0",
                      r.returncode == 0, (r.stdout + r.stderr)[-300:])
            # the table: exit 1, the tree's other programs being missing
            subprocess.run([MIBENCH, "table", "--out", dyn], capture_output=True)
            interp = [elf.Elf(f"{dyn}/tree/automotive/{b}").interpreter()
                      for b in ("basicmath/basicmath_small", "qsort/qsort_small")]
            check(f"dynamic, {fp} float: the binaries load {loader}",
                  interp == [loader] * 2, str(interp))
            table = open(f"{dyn}/mibench-small.txt").read()
            left = table.split("Not in the table:\n")[-1].splitlines()
            check(f"dynamic, {fp} float: the table says so, has both programs, and leaves out "
                  "only the programs the tree lacks",
                  "linked dynamically" in table and
                  all(f"\n{n} " in table for n in ("basicmath", "qsort")) and
                  len(left) == 11 and all(": skipped: not in MIBENCH_DIR" in x for x in left),
                  table)
            runs = {n: list(csv.DictReader(open(f"{dyn}/runs-small/{n}.1.csv")))
                    for n in ("basicmath", "qsort")}
            check(f"dynamic, {fp} float: every run gives the reference output",
                  all(len(x) == 2 and all(y["output"] == "ok" for y in x)
                      for x in runs.values()), str(runs))
            check(f"dynamic, {fp} float, deterministic mode: both runs count the same",
                  all(x[0]["instructions"] == x[1]["instructions"] for x in runs.values()))
            fpu = [int(x[FP]) for x in runs["basicmath"]]
            check(f"dynamic, {fp} float: basicmath runs "
                  + ("FPU instructions" if fp == "hard" else "no FPU instruction"),
                  all((n > 0) == (fp == "hard") for n in fpu), str(fpu))
            if fp == "hard":
                # the loader's relocations and look-ups are user-mode work
                static = int(hard[0]["instructions"])
                dynamic = int(runs["basicmath"][0]["instructions"])
                check("dynamic: basicmath runs more user instructions than the static "
                      "build, the loader's", dynamic > static, f"{dynamic} vs {static}")

        # make bench-mibench's runner (tools/bench/mibench-cost), one
        # round, runs stopped after LIMIT s: dijkstra's hang is stopped
        # and reported, the other commands still run and make the table.
        r = subprocess.run([os.path.join(TOP, "tools/bench/mibench-cost"), STANDIN, "1",
                            str(LIMIT)], capture_output=True, text=True)
        per = collections.Counter(w.split("\t")[0] for w in want)     # commands a program
        names = sorted(f"{n}.{i}" for n, c in per.items() for i in range(c))
        rows = {m.group(1): m.group(2) for m in
                re.finditer(r"^(\S+\.\d+|all) +[0-9.]+ +[0-9.]+ +([0-9.]+)x$", r.stdout, re.M)}
        check("bench-mibench: exits non-zero, a run having been stopped", r.returncode == 1,
              f"exit {r.returncode}: {r.stderr[-300:]}")
        check(f"bench-mibench: dijkstra's run stopped after {LIMIT} s and reported",
              f"dijkstra.0: a run stopped after {LIMIT} s" in r.stderr, r.stderr[-300:])
        check("bench-mibench: a row for every other command, and the total",
              sorted(rows) == sorted([n for n in names if not n.startswith("dijkstra.")] +
                                     ["all"]), f"{sorted(rows)} vs {names}: {r.stdout[-600:]}")
        check("bench-mibench: every ratio a positive number",
              rows and all(float(x) > 0 for x in rows.values()), str(rows))

        # make bench-trace's runner (tools/bench/trace-cost), one round,
        # on the programs that run to their end (no hang to wait for):
        # built with and without tags, each traced (the one without tags
        # by its branches), its trace read in the guest
        # (tools/bench/trace-stat, held to the host's decoder by
        # tests/pmu/trace.t), a row each and the total, nothing lost.
        tpart = os.path.join(T, "trace-part")
        shutil.copytree(STANDIN, tpart)
        for d in ("network/dijkstra", "network/patricia", "office/stringsearch",
                  "security/blowfish", "security/sha"):
            shutil.rmtree(os.path.join(tpart, d))
        r = subprocess.run([os.path.join(TOP, "tools/bench/trace-cost"), tpart, "1", str(LIMIT)],
                           capture_output=True, text=True)
        rows = {m.group(1): [float(x.rstrip("x")) for x in m.group(2).split()] for m in
                re.finditer(r"^(\S+\.\d+|all) +((?:-?[0-9.]+ +){4}[0-9.]+x +[0-9.]+x +[0-9.]+x +"
                            r"[0-9.]+ +[0-9.]+x)$", r.stdout, re.M)}
        # cycles a tag (the second figure) may be below 0: the tagged
        # build's blocks lay out otherwise (the qsort stand-in: -0.70)
        check("bench-trace: exit 0, a row for basicmath, bitcount, qsort and CRC32 and the "
              "total, tags, bytes, tags a record, the three ratios, the branch trace's bytes and "
              "its ratio positive, no trace with a loss",
              r.returncode == 0 and
              sorted(rows) == ["CRC32.0", "all", "basicmath.0", "bitcount.0", "qsort.0"] and
              all(v > 0 for row in rows.values() for i, v in enumerate(row) if i != 1) and
              "lost" not in r.stderr,
              f"exit {r.returncode}: {r.stdout[-700:]} {r.stderr[-300:]}")

        # A tree without CRC32's input (telecomm/adpcm/data) but with
        # another directory named data, as MiBench has: CRC32 alone is
        # left out, on one line of the table's list, and every other
        # program runs.  (Only the programs this needs: no hang to wait for.)
        part, pout = os.path.join(T, "part"), os.path.join(T, "part-out")
        shutil.copytree(STANDIN, part)
        shutil.rmtree(os.path.join(part, "telecomm/adpcm/data"))
        for d in ("network/dijkstra", "network/patricia", "office/stringsearch",
                  "security/blowfish"):
            shutil.rmtree(os.path.join(part, d))
        os.makedirs(os.path.join(part, "consumer/typeset/data"))
        with open(os.path.join(part, "consumer/typeset/data/fonts"), "w") as f:
            f.write("not CRC32's input\n")
        r = subprocess.run([MIBENCH, "all", "--tree", part, "--out", pout, "--cpus", "1",
                            "--runs", "1", "--jobs", str(os.cpu_count() or 1),
                            "--timeout", str(TIMEOUT)], capture_output=True, text=True)
        text = r.stdout + r.stderr
        path = f"{pout}/mibench-small.csv"
        rows = sorted(row["program"] for row in csv.DictReader(open(path))) \
            if os.path.exists(path) else []
        check("missing input: make mibench runs every other program (basicmath, bitcount, "
              "qsort in the table), no traceback, exit 1",
              r.returncode == 1 and rows == ["basicmath", "bitcount", "qsort"] and
              "Traceback" not in text, f"exit {r.returncode}: {rows} {text[-600:]}")
        path = f"{pout}/mibench-small.txt"
        table = open(path).read() if os.path.exists(path) else ""
        check("missing input: CRC32 is one line of \"Not in the table\", saying what it needs",
              "\n  CRC32: skipped: needs telecomm/adpcm/data, which is not in MIBENCH_DIR\n"
              in table and table.count("CRC32") == 1, table[-600:])
    finally:
        shutil.rmtree(T, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
