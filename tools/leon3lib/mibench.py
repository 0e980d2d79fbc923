# SPDX-License-Identifier: GPL-2.0
"""The MiBench programs of tools/mibench/programs, and a build directory
of them (tools/mibench/mibench build's OUT): which were built, their
copies, how they were linked and the libraries the guest then needs,
and the commands of their runme scripts.  make mibench and leon3-sweep's
MiBench workloads read them alike."""

import os

from . import TOP, elf, jobs

PROGRAMS = os.path.join(TOP, "tools/mibench/programs")
SYSROOT = os.path.join(TOP, "build/toolchain/sparc-leon3-linux-gnu/sysroot")
# How build links the programs (mibench build --link), for the table
LINK_MODES = {
    "static": "linked statically",
    "dynamic": "linked dynamically: the toolchain's shared glibc and its loader, in the guest",
}


class Program:
    def __init__(self, name, directory, make_in, binaries, needs, filt):
        self.name = name
        self.directory = directory
        self.make_in = make_in
        self.binaries = binaries.split(",")
        self.needs = [] if needs == "-" else needs.split(",")
        self.filter = None if filt == "-" else filt


def programs(path=PROGRAMS):
    out = []
    for line in open(path):
        line = line.split("#", 1)[0].split()
        if line:
            out.append(Program(*line))
    return out


def build_table(out):
    """build.tsv: {program: why it was skipped, '' if built}."""
    path = os.path.join(out, "build.tsv")
    if not os.path.exists(path):
        raise SystemExit(f"mibench: {path} is missing: run mibench build first")
    table = {}
    for line in open(path):
        name, _, why = line.rstrip("\n").split("\t")
        table[name] = why
    return table


def built(out):
    """The programs build.tsv says were built."""
    table = build_table(out)
    return [p for p in programs() if table.get(p.name) == ""]


def copy_program(p, out, top):
    """Copy built program P, and the directories it reads, below TOP.
    One of them missing from OUT/tree fails the job, naming it."""
    for d in [p.directory] + p.needs:
        what = "its directory" if d == p.directory else "its input"
        jobs.copy_tree(os.path.join(out, "tree", d), os.path.join(top, d), f"{what} {d}")


def runme(path):
    """The commands of a runme script: (program, rest of the line)."""
    cmds = []
    for line in open(path):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        prog, _, rest = line.partition(" ")
        if "/" not in prog:
            prog = "./" + prog        # runme scripts expect . in PATH
        cmds.append((prog, rest.strip()))
    return cmds


def build_choice(out, name, default):
    """What mibench build was given as NAME (fp, link) for the programs
    of OUT, kept in OUT/NAME; DEFAULT for a build that did not keep it."""
    path = os.path.join(out, name)
    return open(path).read().strip() if os.path.exists(path) else default


def link_mode(out):
    """How mibench build linked the programs of OUT: static or dynamic."""
    return build_choice(out, "link", "static")


def guest_libraries(p, out):
    """The HOST:GUEST files (tools/leon3-run --add) of the shared objects
    that built program P's binaries load: the loader and libraries from
    the toolchain's sysroot, at their guest paths; [] if static.  A
    binary that cannot be read, or a library the sysroot lacks, fails
    the job that runs P (jobs.JobFailed)."""
    libs = {}
    for b in p.binaries:
        binary = os.path.join(out, "tree", p.directory, b)
        try:
            libs.update(elf.libraries(binary, SYSROOT))
        except (elf.NotElf, elf.MissingLibrary) as e:
            raise jobs.JobFailed(str(e)) from None
    return [f"{host}:{guest}" for guest, host in sorted(libs.items())]


# Shell functions for a guest script that times MiBench commands under
# perf stat -x, -o /tmp/s (tools/bench/mibench-cost, trace-cost): watch,
# a watchdog for the run about to start (its PID in $w) that after
# $limit s marks the run and kills what the perf processes run; took
# NAME MODE, the run's line "R NAME MODE MSEC" (TIMEOUT for MSEC where
# the watchdog stopped it), its watchdog gone
GUEST_WATCHDOG = """\
watch() {
\trm -f /tmp/timedout
\t(sleep "$limit" & s=$!
\t trap 'kill $s; exit' TERM
\t wait $s && touch /tmp/timedout && pkill -KILL -P "$(pidof perf | tr ' ' ,)") &
\tw=$!
}
took() {
\tkill $w 2>/dev/null
\twait $w 2>/dev/null
\tif [ -e /tmp/timedout ]; then
\t\techo "R $1 $2 TIMEOUT"
\telse
\t\techo "R $1 $2 $(grep task-clock /tmp/s | cut -d, -f1)"
\tfi
}
"""
