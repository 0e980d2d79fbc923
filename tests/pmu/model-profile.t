#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# tests/run: one-core
#
# make bench-profile's tool (tools/bench/model-profile): host profiles of
# a guest that runs a program alone and one that counts it.  Its rows
# must be what the two set-ups are: the model's helpers run only while
# a counter counts, so they are absent from the first profile and take
# time in the second; the rows add up to the total; the CSV holds every
# function; the host's perf annotates a helper of the counted profile.
# Bad input is refused with one line before any guest boots.
# The program is tests/pmu/workload.c's getppid() loop, whose kernel
# work misses the I-cache (perf stat counts the kernel too, as root).

import csv
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lib import TOP, check, build_workload  # noqa: E402

TOOL = os.path.join(TOP, "tools/bench/model-profile")
ROW = re.compile(r"^(.+?)\s+(-?\d+)\s+(-?\d+)\s+(-?\d+)\s+(-?[0-9.]+%|n/a)$")

with tempfile.TemporaryDirectory() as T:
    w = build_workload(T)
    out = os.path.join(T, "out")
    r = subprocess.run([TOOL, "--rounds", "2", "--freq", "4000", "--top", "8", "--out", out,
                        w, "ppid", "200000"], capture_output=True, text=True)
    text = r.stdout + r.stderr
    check("model-profile: exits 0", r.returncode == 0, f"exit {r.returncode}: {text[-600:]}")
    m = re.search(r"alone ([0-9.]+) ms, counted ([0-9.]+) ms: ([0-9.]+)x", r.stdout)
    # the times are printed to 0.1 ms, the ratio to 0.01, each rounded
    a, c, x = (float(m.group(i)) for i in (1, 2, 3)) if m else (1, 0, 1)
    check("model-profile: the guest's best task-clock of each set-up, and their ratio",
          m and (c - 0.05) / (a + 0.05) - 0.005 <= x <= (c + 0.05) / (a - 0.05) + 0.005,
          r.stdout[:400])
    rows = {}
    for line in r.stdout.splitlines():
        x = ROW.match(line.strip())
        if x:
            rows[x.group(1).strip()] = [int(x.group(i)) for i in (2, 3, 4)]
    total = rows.get("(all)")
    body = [v for k, v in rows.items() if k != "(all)"]
    check("model-profile: 8 functions and the rest, which add up to the total, each column "
          "(within the rounding of each row to a ms)",
          total and len(body) == 9 and
          all(abs(sum(v[i] for v in body) - total[i]) <= len(body) for i in range(3)),
          f"{len(body)} rows, total {total}")
    try:
        with open(os.path.join(out, "profile.csv")) as f:
            table = list(csv.DictReader(f))
    except OSError as e:
        table = []
        print(f"# {e}")
    names = {t["function"] for t in table}
    # in the CSV, not the table: with another test beside it, translating
    # the guest's code can take the table's rows (a CI run)
    model = {t["function"]: (float(t["alone_ms"]), float(t["counted_ms"])) for t in table
             if t["function"] in ("helper_leon3_cache_ifetch", "helper_leon3_cache_data")}
    check("model-profile: the cache model's helpers (I-fetch, data) are in no profile of "
          "the guest that does not count, and take time in the one that does",
          len(model) == 2 and all(a == 0 and c > 0 for a, c in model.values()), str(model))
    check("model-profile: profile.csv holds every function, the translated code among them, "
          "and its added times sum to the total's",
          total and "(translated code)" in names and "helper_leon3_cache_ifetch" in names and
          abs(sum(float(t["added_ms"]) for t in table) - total[2]) <= 1,
          f"{len(table)} rows")
    data = [os.path.join(out, f"{n}.data") for n in ("alone", "counted")]
    check("model-profile: both profiles kept for perf report",
          all(os.path.isfile(d) and os.path.getsize(d) > 0 for d in data), str(data))
    # perf annotate of a helper that calls another, in QEMU, a position-
    # independent program (kernel patch "perf annotate: Hold a map
    # reference while looking up a branch target": it crashed at the
    # first call)
    a = subprocess.run([os.path.join(TOP, "build/perf-host/perf"), "annotate", "-i", data[1],
                        "--stdio", "helper_leon3_cache_ifetch"], capture_output=True, text=True)
    check("host perf annotate helper_leon3_cache_ifetch of the counted profile: exits 0 "
          "with its disassembly, its calls of icache_miss among it",
          a.returncode == 0 and re.search(r"call\s+[0-9a-f]+ <icache_miss>", a.stdout),
          f"exit {a.returncode}: {(a.stdout + a.stderr)[-300:]}")

    for args, what, want in (
            (["/no/such/program"], "a program that is not there", "no such file"),
            (["--add", "/no/such/input", w], "an input that is not there", "no such file"),
            (["--rounds", "0", w], "no rounds", "1 or more")):
        r = subprocess.run([TOOL, "--out", os.path.join(T, "bad"), *args],
                           capture_output=True, text=True)
        lines = r.stderr.strip().splitlines()
        check(f"model-profile refuses {what}: exit 2, one line ({want!r}), no guest",
              r.returncode == 2 and len(lines) == 1 and want in lines[0] and
              not os.path.exists(os.path.join(T, "bad", "alone.log")),
              f"exit {r.returncode}: {r.stderr[-300:]}")
