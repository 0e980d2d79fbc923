# SPDX-License-Identifier: GPL-2.0
"""The job protocol of the tools: a job (a program to build, a reference
run, a guest run) either gives its result or fails with a one-line
reason, and a failed job costs that job alone: the loop over the jobs
goes on, and the table at the end names it.

On disk a job is a stem, DIR/NAME: its result is STEM.csv (or another
ending), written whole or not at all, or STEM.failed, the reason in one
line; neither means the job never ran or was killed.  Jobs run one
after another (each()) or through GNU parallel (parallel()), each then a
command of its own whose body runs under guarded().
"""

import os
import shutil
import subprocess


class JobFailed(Exception):
    """Why a job failed, as the one line its table shows."""


def one_line(text, width=300):
    """TEXT on one line (white space folded), at most WIDTH characters."""
    text = " ".join(str(text).split())
    return text if len(text) <= width else text[:width - 3] + "..."


def reason(exc):
    """The one-line reason a job failed with exception EXC."""
    if isinstance(exc, JobFailed):
        return one_line(exc)
    if isinstance(exc, subprocess.TimeoutExpired):
        cmd = exc.cmd if isinstance(exc.cmd, str) else " ".join(map(str, exc.cmd))
        return one_line(f"{cmd} did not finish in {exc.timeout:g} s")
    if isinstance(exc, OSError) and exc.strerror:
        where = exc.filename if exc.filename is not None else ""
        return one_line(f"{where}: {exc.strerror}" if where else exc.strerror)
    return one_line(f"{type(exc).__name__}: {exc}")


def attempt(fn, *args, **kwargs):
    """FN(ARGS): (its value, "") or, if it raised, (None, the reason).
    Only an interrupt (^C) or an exit goes through."""
    try:
        return fn(*args, **kwargs), ""
    except Exception as e:      # a job's failure, whatever it is, is the job's
        return None, reason(e)


def each(items, fn):
    """(item, value, why) of FN(item) for each of ITEMS, in order, as
    attempt() gives them: one that raises does not stop the others."""
    for item in items:
        value, why = attempt(fn, item)
        yield item, value, why


def command(cmd, *, timeout, what=None, **kwargs):
    """subprocess.run(CMD) that fails the job, naming WHAT (default the
    program), if it takes more than TIMEOUT seconds or cannot start."""
    what = what or os.path.basename((cmd.split() if isinstance(cmd, str) else cmd)[0])
    try:
        return subprocess.run(cmd, timeout=timeout, **kwargs)
    except subprocess.TimeoutExpired:
        raise JobFailed(f"{what} did not finish in {timeout:g} s") from None
    except OSError as e:
        raise JobFailed(f"{what} could not start: {e.strerror}") from None


def need(path, what):
    """A job's input PATH, which must be there: else the job fails,
    saying WHAT is missing."""
    if not os.path.lexists(path):
        raise JobFailed(f"{what} is missing ({path})")
    return path


def copy_tree(src, dst, what=None):
    """DST becomes a copy of the directory SRC (symbolic links kept as
    links).  A missing SRC fails the job, naming WHAT (default SRC)."""
    need(src, what or src)
    if os.path.lexists(dst):
        shutil.rmtree(dst)
    shutil.copytree(src, dst, symlinks=True)


# Result files

def clear(stem, endings=(".csv", ".failed")):
    """Remove what an earlier run of the job left."""
    for e in endings:
        if os.path.lexists(stem + e):
            os.remove(stem + e)


def write_failed(stem, why):
    with open(stem + ".failed", "w") as f:
        f.write(one_line(why) + "\n")


def failed(stem):
    """The reason in STEM.failed, or "" if the job did not fail."""
    try:
        with open(stem + ".failed") as f:
            return f.read().strip()
    except FileNotFoundError:
        return ""


def write_whole(path, text):
    """PATH with TEXT, renamed into place: a job killed while writing it
    leaves no half result."""
    tmp = path + ".tmp"
    with open(tmp, "w", newline="") as f:
        f.write(text)
    os.replace(tmp, path)


def outcome(stem, ending=".csv"):
    """What became of the job STEM: ("ok", STEM+ENDING), ("failed", the
    reason) or ("missing", what to say: it never ran or was killed)."""
    why = failed(stem)
    if why:
        return "failed", why
    if os.path.exists(stem + ending):
        return "ok", stem + ending
    return "missing", "no result"


def guarded(stem, label, fn, say):
    """A job command's body: FN() gives the command's exit status.  If it
    raises, the job fails (STEM.failed, and a line LABEL: FAILED: why)
    instead of ending in a traceback with no result at all."""
    try:
        return fn()
    except Exception as e:      # the job's own failure: it costs this job alone
        why = reason(e)
        write_failed(stem, why)
        say(f"{label}: FAILED: {why}")
        return 1


def parallel(argv, *, jobs=None, joblog=None, options=(), args=None, argfile=None, **kwargs):
    """GNU parallel: the command ARGV once for each of ARGS (":::") or
    each line of ARGFILE ("::::"), JOBS at a time, every job run whatever
    the others do (--halt never), the job log in JOBLOG.  parallel joins
    ARGV into a shell command: quote (shlex.quote) a word the shell must
    not split, but not a replacement string ({}, {1}: parallel quotes
    what it puts there).  The subprocess.run() result."""
    cmd = ["parallel", "--halt", "never"]
    if jobs is not None:
        cmd += ["--jobs", str(jobs)]
    if joblog:
        cmd += ["--joblog", joblog]
    cmd += list(options) + list(argv)
    cmd += [":::", *map(str, args)] if args is not None else ["::::", argfile]
    return subprocess.run(cmd, **kwargs)
