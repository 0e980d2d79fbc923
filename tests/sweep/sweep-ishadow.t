#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""leon3-sweep --shadow on I-cache geometries: those that differ only in
the I-cache share a job, one as the real I-cache and the others as
shadow I-caches (QEMU's icache-shadow), counted in the same runs.

"code:12:P" runs 12 KiB of straight code P times (sweep-workload.c):
from 1 to 101 passes the I-cache misses of the program's text (the
scope that counts its own instructions alone) grow by 100 x 384
lines of 32 bytes where each set gets more of them than it has ways
(8 KiB 2-way LRU, 4 KiB 2-way LRR), and by almost nothing where the code
fits (16 KiB 4-way).  The kernel's code evicts some of the program's
lines as it runs, here more than under perf stat (tests/pmu/ishadow.t:
up to 182 more misses than every line, up to 688 where it fits), with
leon3-hunt-run's PID records and counters at work: measured 757 to
1162 where it fits.  So within 1 % of every line, and four passes'
lines (1536, of 38400) where it fits.  A geometry's misses as a
shadow and as the real I-cache of a sweep of its own agree within the
same 1 %.  A sweep of D-cache geometries alone counts no I-cache event.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lib import not_ok, check, read_csv, shadow_rows_ok, TOP  # noqa: E402

SWEEP = os.path.join(TOP, "tools/sweep/leon3-sweep")
P1, P2 = 1, 101
LINES = 12 * 1024 // 32
EVERY = (P2 - P1) * LINES
GEOMS = (("i8kx2/32", False), ("i16kx4/32", True), ("i4kx2/32/lrr", False))


def sweep(out, *args):
    r = subprocess.run([SWEEP, "all", "--out", out,
                        "--workload", f"code:12:{P1}", "--workload", f"code:12:{P2}",
                        "--competitors", "0", "--repeats", "2",
                        "--jobs", str(os.cpu_count() or 1), *args],
                       capture_output=True, text=True)
    return r.stdout + r.stderr


def main():
    T = tempfile.mkdtemp()
    out = os.path.join(T, "out")
    text = sweep(out, "--shadow", *(x for g, _ in GEOMS for x in ("--geometry", g)))
    check("--shadow: i8kx2/32 is the real I-cache of a job whose shadow I-caches are "
          "i16kx4/32 and i4kx2/32/lrr",
          "--shadow: i8kx2/32 runs with shadow I-caches i16kx4/32 i4kx2/32/lrr" in text,
          text[:1000])
    check("2 jobs: one per workload, each measuring the 3 geometries",
          "2 jobs: 2 workloads x 1 geometries x competitors 0, 2 runs each" in text,
          text[-800:])
    data = read_csv(os.path.join(out, "sweep.csv"))
    check("sweep.csv: a row per workload, geometry and run (12), all counted, the shadows' "
          "saying so and without cycles, each with its I-cache's size and ways",
          shadow_rows_ok(data, "i8kx2/32", 12) and
          sorted({(x["geometry"], x["icache_kib"], x["icache_ways"]) for x in data}) ==
          [("i16kx4/32", "16", "4"), ("i4kx2/32/lrr", "4", "2"), ("i8kx2/32", "8", "2")],
          str([(x["workload"], x["geometry"], x["measured"], x["status"]) for x in data])[-700:])
    if len(data) != 12:
        not_ok("the geometry checks need every row")
        shutil.rmtree(T, ignore_errors=True)
        return
    for geom, fits in GEOMS:
        lo = [x for x in data if x["workload"] == f"code12k-{P1}" and x["geometry"] == geom]
        hi = [x for x in data if x["workload"] == f"code12k-{P2}" and x["geometry"] == geom]
        d = [int(y["text_imiss"]) - int(x["text_imiss"]) for y in hi for x in lo]
        want, slack = (0, 4 * LINES) if fits else (EVERY, EVERY // 100)
        what = "real I-cache" if geom == "i8kx2/32" else "shadow"
        check(f"{geom} ({what}): {P2 - P1} more passes over 12 KiB of code add {want} I-cache "
              f"misses to the program's text, within {slack}, each pair of runs",
              all(abs(x - want) <= slack for x in d), str(d))
    summ = read_csv(os.path.join(out, "summary.csv"))
    check("summary.csv: each geometry's I-cache miss ratios with their CI",
          len(summ) == 6 and all(s[f"{sc}_imiss_pct"] and s[f"{sc}_imiss_pct_ci95"]
                                 for s in summ for sc in ("all", "prog", "text")),
          str(summ)[:600])
    check("summary.txt has the program's I-cache miss ratio, a plot each workload",
          "I miss % (prog)" in open(os.path.join(out, "summary.txt")).read() and
          all(os.path.exists(os.path.join(out, f"code12k-{p}-imiss.png")) for p in (P1, P2)),
          str(sorted(os.listdir(out))))

    # i4kx2/32/lrr as the real I-cache, in a sweep of its own (which
    # counts the I-cache's events: its geometry gives the I-cache)
    real = os.path.join(T, "real")
    sweep(real, "--geometry", "i4kx2/32/lrr")
    real_runs = read_csv(os.path.join(real, "sweep.csv"))
    for wl in (f"code12k-{P1}", f"code12k-{P2}"):
        runs = [[int(x["text_imiss"]) for x in rows if x["workload"] == wl and
                 x["geometry"] == "i4kx2/32/lrr" and x["status"] == "ok" and x["text_imiss"]]
                for rows in (data, real_runs)]
        slack = EVERY // 100
        check(f"{wl}: i4kx2/32/lrr as a shadow of i8kx2/32 and as the real I-cache agree "
              f"within {slack} misses, each pair of runs",
              len(runs[0]) == len(runs[1]) == 2 and
              all(abs(a - b) <= slack for a in runs[0] for b in runs[1]),
              f"shadow, then real: {runs}")

    # the I-cache's events only where the geometries differ in it
    dsweep = os.path.join(T, "d")
    r = subprocess.run([SWEEP, "plan", "--out", dsweep, "--workload", "stream:8:1",
                        "--geometry", "d4kx2", "--geometry", "d16kx4", "--repeats", "2",
                        "--jobs", str(os.cpu_count() or 1)], capture_output=True, text=True)
    plan = json.load(open(os.path.join(dsweep, "plan.json"))) if r.returncode == 0 else {}
    check("a sweep of D-cache geometries alone plans no I-cache event",
          plan.get("icache") is False, (r.stdout + r.stderr)[-400:])
    shutil.rmtree(T, ignore_errors=True)


main()
