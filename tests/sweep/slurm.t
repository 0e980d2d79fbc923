#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make sweep's Slurm path (leon3-sweep slurm) against a real Slurm: a
single node on localhost that tests/sweep/slurm-localhost starts from
Debian's slurm-wlm and munge (tools/build/host-deps installs them) and
stops again.  Skipped, with the reason, where it cannot start.  The
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


def main():
    T = tempfile.mkdtemp()
    sl, out = os.path.join(T, "slurm"), os.path.join(T, "out")
    env = dict(os.environ)
    r = subprocess.run([SWEEP, "plan", "--out", out, "--workload", "stream:8:41",
                        "--geometry", "d4kx2", "--geometry", "d16kx4", "--competitors", "0",
                        "--repeats", "2"], capture_output=True, text=True)
    if r.returncode:
        not_ok(f"leon3-sweep plan: {(r.stdout + r.stderr)[-400:]}")
        return

    # No Slurm to answer: said before anything is written or submitted
    env["SLURM_CONF"] = os.path.join(T, "none.conf")
    with open(env["SLURM_CONF"], "w") as f:
        f.write("ClusterName=none\nSlurmctldHost=localhost(127.0.0.1)\nSlurmctldPort=1\n"
                "NodeName=localhost CPUs=1\nPartitionName=p Nodes=localhost\n")
    r = subprocess.run([SWEEP, "slurm", "--submit", "--out", out], env=env,
                       capture_output=True, text=True, timeout=300)
    check("slurm --submit with no Slurm answering: a message before anything is submitted",
          r.returncode == 1 and "Slurm does not answer" in r.stderr and
          not os.path.exists(os.path.join(out, "sweep.sbatch")), (r.stdout + r.stderr)[-400:])

    s = subprocess.run([LOCAL, "start", sl], capture_output=True, text=True)
    if s.returncode:
        print(f"ok - a sweep as a Slurm array job # SKIP Slurm cannot start here: "
              f"{s.stderr.strip()[-300:]}")
        shutil.rmtree(T, ignore_errors=True)
        return
    try:
        env["SLURM_CONF"] = os.path.join(sl, "slurm.conf")
        r = subprocess.run([SWEEP, "slurm", "--submit", "--out", out], env=env,
                           capture_output=True, text=True, timeout=1800)
        text = r.stdout + r.stderr
        got = read_csv(os.path.join(out, "sweep.csv"))
        check("slurm --submit: sbatch takes the array of 2 jobs, waits, and merge writes "
              "their 4 runs to sweep.csv, all counted",
              "Submitted batch job" in text and len(got) == 4 and
              all(x["status"] == "ok" for x in got) and r.returncode == 0, text[-600:])
        logs = [os.path.join(out, "slurm", f"{i}.out") for i in (1, 2)]
        check("each array task ran one job, its output in slurm/N.out",
              all(os.path.exists(p) and f"job {i} (" in open(p).read()
                  for i, p in enumerate(logs, 1)), str(os.listdir(os.path.join(out, "slurm"))))
        by = {x["geometry"]: int(x["text_rdmiss"]) for x in got}
        check("the counts are the guest's: 41 passes over 8 KiB miss each time on 4 KiB, "
              "once on 16 KiB (40 x 512 misses apart, give or take 20 %)",
              by.get("d4kx2", 0) - by.get("d16kx4", 0) > 40 * 512 * 0.8, str(by))

        # A lost task: merge names it, --resume submits it alone
        os.remove(os.path.join(out, "results", "2.csv"))
        r = subprocess.run([SWEEP, "merge", "--out", out], env=env, capture_output=True,
                           text=True)
        check("a task whose result is lost is named by merge",
              r.returncode == 1 and "job 2 (stream8k-41, d16kx4, 0 competitors): no result"
              in r.stdout, r.stdout[-400:])
        r = subprocess.run([SWEEP, "slurm", "--submit", "--resume", "--out", out], env=env,
                           capture_output=True, text=True, timeout=1800)
        body = open(os.path.join(out, "sweep.sbatch")).read()
        check("slurm --submit --resume: an array of that job alone, and the CSV whole again",
              "#SBATCH --array=2\n" in body and r.returncode == 0 and
              len(read_csv(os.path.join(out, "sweep.csv"))) == 4, (r.stdout + r.stderr)[-400:])
    finally:
        subprocess.run([LOCAL, "stop", sl], capture_output=True)
    alive = subprocess.run(["pgrep", "-f", sl], capture_output=True,
                           text=True).stdout.split()
    check("the test's Slurm and munge are stopped again", not alive, str(alive))
    shutil.rmtree(T, ignore_errors=True)


main()
