# SPDX-License-Identifier: GPL-2.0
"""A command in a LEON3 guest: tools/leon3-run in a subprocess, its
console kept in a log, and what became of it.

A tool that runs a guest writes a shell script for it (run() adds it to
the guest and runs it with sh), whose last line echoes a marker: the
guest finished only if the marker is in its output.  leon3-run exits 124
when its --timeout stopped the guest, 125 when the guest or QEMU failed
before the command ended, else with the command's status.
"""

import os
import shutil
import subprocess
import tempfile

from . import TOP

LEON3_RUN = os.path.join(TOP, "tools/leon3-run")
TIMED_OUT = 124

# The guest's command that prints the kernel log's reports (a warning, a
# BUG, an oops, an RCU stall or hung task), each on a "KERNEL " line
# (tools/rootfs/leon3-kernel-reports).  A job whose kernel reported
# anything keeps none of its runs: what they counted may include the
# report's own work, or a kernel that had gone wrong.
KERNEL_REPORTS = "leon3-kernel-reports"
KERNEL_MARK = "KERNEL "


def kernel_reports(output):
    """The reports, one line each, of KERNEL_REPORTS in a guest's OUTPUT."""
    return [x[len(KERNEL_MARK):].strip() for x in output.splitlines()
            if x.startswith(KERNEL_MARK)]


def kernel_report_failure(output, log):
    """Why a job whose guest OUTPUT holds kernel reports failed, naming
    its log LOG; "" if it holds none."""
    reports = kernel_reports(output)
    if not reports:
        return ""
    return (f"the kernel reported {len(reports)} problem(s), the first: {reports[0][:120]} "
            f"(log: {log})")


def job_script(lines, done):
    """A job's guest script: its LINES, then the kernel log's reports
    (KERNEL lines, read after the runs), then the marker DONE that says
    the guest finished."""
    return "\n".join([*lines, KERNEL_REPORTS, f"echo {done}"]) + "\n"


class Result:
    """A guest's run: leon3-run's exit status, its output (stdout and
    stderr, or the log's whole text when the output went to the log),
    the log, and whether the command reached its DONE marker."""

    def __init__(self, returncode, stdout, stderr, log, done):
        self.returncode = returncode
        self.stdout = stdout
        self.stderr = stderr
        self.log = log
        self.done = done

    @property
    def timed_out(self):
        return self.returncode == TIMED_OUT

    def last_error(self, width=120):
        """leon3-run's last line on stderr: why the guest stopped."""
        return (self.stderr.strip().splitlines() or ["no message"])[-1][:width]

    def why_unfinished(self, timeout):
        """One line on why the guest did not reach its marker, with the log."""
        if self.timed_out:
            return f"the guest did not finish in {timeout} s (log: {self.log})"
        return (f"the guest stopped early: {self.last_error()} (exit {self.returncode}; "
                f"log: {self.log})")

    def kernel_report_failure(self):
        return kernel_report_failure(self.stdout, self.log)


def options(cpus=None, mem=None, timeout=None, leon3_clock=False, qemu=None, qemu_opts=(),
            rng_seed=None, adds=()):
    """leon3-run's options for a guest: see tools/leon3-run --help.
    QEMU_OPTS are QEMU's own words, each passed as --qemu-opt=WORD."""
    opts = []
    if qemu:
        opts += ["--qemu", qemu]
    if cpus is not None:
        opts += ["--cpus", str(cpus)]
    if mem is not None:
        opts += ["--mem", str(mem)]
    if timeout is not None:
        opts += ["--timeout", str(timeout)]
    if leon3_clock:
        opts.append("--leon3-clock")
    opts += [f"--qemu-opt={o}" for o in qemu_opts]
    if rng_seed is not None:
        opts += ["--rng-seed", rng_seed]
    for a in adds:
        opts += ["--add", a]
    return opts


def run(command=None, *, script=None, script_name="job.sh", log=None, done=None,
        capture=True, wrap=None, **opts):
    """Boot a guest (OPTS: options()) and run COMMAND, a list, in it; or,
    with SCRIPT (its text), that script with sh, as /root/SCRIPT_NAME.
    CAPTURE: keep stdout and stderr apart, and write both to LOG at the
    end; else the output goes to LOG as it comes (a long run can be
    watched).  DONE: the marker the output must hold for Result.done.
    WRAP: a command leon3-run runs under (taskset -c N)."""
    tmp = tempfile.mkdtemp(prefix="leon3lib-guest.")
    try:
        adds = list(opts.pop("adds", ()))
        if script is not None:
            path = os.path.join(tmp, script_name)
            with open(path, "w") as f:
                f.write(script)
            adds.append(f"{path}:/root/{script_name}")
            command = ["sh", f"/root/{script_name}"]
        cmd = [*(wrap or []), LEON3_RUN, *options(adds=adds, **opts), "--", *command]
        if capture:
            r = subprocess.run(cmd, capture_output=True, text=True, errors="replace")
            stdout, stderr = r.stdout, r.stderr
            if log:
                with open(log, "w") as f:
                    f.write(stdout + stderr)
        else:
            with open(log, "w") as f:
                r = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT)
            with open(log, errors="replace") as f:
                stdout, stderr = f.read(), ""
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return Result(r.returncode, stdout, stderr, log, done is None or done in stdout)
