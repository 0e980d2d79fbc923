#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make sweep's Slurm path (leon3-sweep slurm) against a real Slurm: a
single node on localhost that tests/sweep/slurm-localhost starts from
Debian's slurm-wlm and munge (tools/build/host-deps installs them) and
stops again.  Where it cannot start, each check that needs it is
reported skipped, by name, with the reason.  The
array job's results merge into the same CSV as GNU parallel's; a task
that is cancelled is named by merge and run again by --resume; a Slurm
that does not answer is said before anything is submitted."""

import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lib import TOP, ok, not_ok, check, read_csv  # noqa: E402

SWEEP = os.path.join(TOP, "tools/sweep/leon3-sweep")
LOCAL = os.path.join(TOP, "tests/sweep/slurm-localhost")
# sweep.t's geometry check, from 1 to 41 passes over 8 KiB
P1, P2 = 1, 41
MISSES = (P2 - P1) * 8 * 1024 // 16

# The checks that need a Slurm, each skipped by name where none starts
SUBMIT = ("slurm --submit: sbatch takes the array of 4 jobs, waits, and merge writes "
          "their 8 runs to sweep.csv, all counted")
LOGS = "each array task ran one job, its output in slurm/N.out"
# (geometry: the misses P2 - P1 more passes add, give or take): sweep.t's
# bounds, for its reasons.  Where the buffer fits, the misses that the
# kernel's evictions add are not in proportion to the passes: 1055 to
# 1162 measured here over 40, 1249 to 1764 over sweep.t's 160, so the
# same 4096 as there.
BOUNDS = {"d4kx2": (MISSES, 128), "d16kx4": (0, 4096)}
COUNTS = {g: f"the counts are the guest's, {g}: {P2 - P1} more passes over 8 KiB add "
             f"{want} read misses to the text, within {slack}, each pair of runs"
          for g, (want, slack) in BOUNDS.items()}
LOST = "a task whose result is lost is named by merge"
RESUME = "slurm --submit --resume: an array of that job alone, and the CSV whole again"
STOPPED = "the test's Slurm and munge are stopped again"


def main():
    T = tempfile.mkdtemp()
    sl, out = os.path.join(T, "slurm"), os.path.join(T, "out")
    env = dict(os.environ)
    r = subprocess.run([SWEEP, "plan", "--out", out, "--workload", f"stream:8:{P1}",
                        "--workload", f"stream:8:{P2}",
                        "--geometry", "d4kx2", "--geometry", "d16kx4", "--competitors", "0",
                        "--repeats", "2"], capture_output=True, text=True)
    if r.returncode:
        not_ok(f"leon3-sweep plan: {(r.stdout + r.stderr)[-400:]}")
        return

    # No Slurm to answer: said before anything is written or submitted
    env["SLURM_CONF"] = os.path.join(T, "none.conf")
    with open(env["SLURM_CONF"], "w") as f:
        f.write("ClusterName=none\nSlurmctldHost=localhost(127.0.0.1)\nSlurmctldPort=1\n"
                "NodeName=localhost CPUs=1\nPartitionName=p Nodes=localhost\n"
                # one try of a second, not the 10 s default
                "MessageTimeout=1\n")
    r = subprocess.run([SWEEP, "slurm", "--submit", "--out", out], env=env,
                       capture_output=True, text=True, timeout=300)
    check("slurm --submit with no Slurm answering: a message before anything is submitted",
          r.returncode == 1 and "Slurm does not answer" in r.stderr and
          not os.path.exists(os.path.join(out, "sweep.sbatch")), (r.stdout + r.stderr)[-400:])

    s = subprocess.run([LOCAL, "start", sl], capture_output=True, text=True)
    if s.returncode:
        why = f"Slurm cannot start here: {s.stderr.strip()[-300:]}"
        for name in (SUBMIT, LOGS, *COUNTS.values(), LOST, RESUME, STOPPED):
            print(f"ok - {name} # SKIP {why}")
        shutil.rmtree(T, ignore_errors=True)
        return
    try:
        env["SLURM_CONF"] = os.path.join(sl, "slurm.conf")
        r = subprocess.run([SWEEP, "slurm", "--submit", "--out", out], env=env,
                           capture_output=True, text=True, timeout=1800)
        text = r.stdout + r.stderr
        got = read_csv(os.path.join(out, "sweep.csv"))
        check(SUBMIT, "Submitted batch job" in text and len(got) == 8 and
              all(x["status"] == "ok" for x in got) and r.returncode == 0, text[-600:])
        logs = [os.path.join(out, "slurm", f"{i}.out") for i in (1, 2, 3, 4)]
        check(LOGS, all(os.path.exists(p) and f"job {i} (" in open(p).read()
                        for i, p in enumerate(logs, 1)), str(os.listdir(os.path.join(out, "slurm"))))
        for geom, (want, slack) in BOUNDS.items():
            lo = [int(x["text_rdmiss"]) for x in got
                  if x["workload"] == f"stream8k-{P1}" and x["geometry"] == geom]
            hi = [int(x["text_rdmiss"]) for x in got
                  if x["workload"] == f"stream8k-{P2}" and x["geometry"] == geom]
            d = [y - x for y in hi for x in lo]
            check(COUNTS[geom], len(d) == 4 and all(abs(x - want) <= slack for x in d),
                  f"{lo} {hi}")
            print(f"# {geom}: the pairs' differences: {d}")

        # A lost task: merge names it, --resume submits it alone
        os.remove(os.path.join(out, "results", "4.csv"))
        r = subprocess.run([SWEEP, "merge", "--out", out], env=env, capture_output=True,
                           text=True)
        check(LOST, r.returncode == 1 and f"job 4 (stream8k-{P2}, d16kx4, 0 competitors): "
              "no result" in r.stdout, r.stdout[-400:])
        r = subprocess.run([SWEEP, "slurm", "--submit", "--resume", "--out", out], env=env,
                           capture_output=True, text=True, timeout=1800)
        body = open(os.path.join(out, "sweep.sbatch")).read()
        check(RESUME, "#SBATCH --array=4\n" in body and r.returncode == 0 and
              len(read_csv(os.path.join(out, "sweep.csv"))) == 8, (r.stdout + r.stderr)[-400:])
    finally:
        subprocess.run([LOCAL, "stop", sl], capture_output=True)
    alive = subprocess.run(["pgrep", "-f", sl], capture_output=True,
                           text=True).stdout.split()
    check(STOPPED, not alive, str(alive))
    shutil.rmtree(T, ignore_errors=True)


main()
