# SPDX-License-Identifier: GPL-2.0
"""What a program did, rebuilt from its control-flow tags (Documentation/
tags.md) as the trace unit recorded them (trace.runs()): the call tree
with exact call counts, each loop's iterations per entry, and the paths
from tag to tag inside each function, which tools/leon3-trace prints
and its anomaly detector compares.

The tags see function entries and exits and loop entries, latches and
exits, nothing between them.  So a path here is what runs from one tag
of a function to its next (its callees' tags aside): entry to exit,
entry to a loop, one iteration (latch to latch), a loop left by one of
its exits to the next loop or the return.  Which exit, which loop next,
whether a loop runs at all: those are what differ between two paths."""

from typing import NamedTuple

from . import tags as tagdefs

# Kinds that are not a tag (0, 6, 7) are counted and skipped
KINDS = set(tagdefs.KIND_NAMES.values())


class Site(NamedTuple):
    """A tag as the analysis names it: stable across builds of the same
    source (no address), for the anomaly detector's model."""
    kind: str
    id: int             # the function's or the loop's, in its compilation unit
    func: str
    file: str
    line: int
    depth: int

    def __str__(self):
        return f"{self.kind} {self.file}:{self.line}"


class Node:
    """A node of the call tree: a function called from its parent's
    function, CALLS times along this chain of calls; TIMED of them with
    their TIME in all, from entry tag to exit tag, callees included (the
    unit's clock: the cycles the process ran on that CPU, or with
    TRCTRL.IC its instructions; Flow.clock says which)."""
    __slots__ = ("func", "where", "calls", "children", "timed", "time")

    def __init__(self, func, where=""):
        self.func, self.where, self.calls, self.children = func, where, 0, {}
        self.timed = self.time = 0

    def child(self, func, where):
        n = self.children.get(func)
        if n is None:
            n = self.children[func] = Node(func, where)
        return n

    def walk(self, depth=0):
        """(depth, node) of the subtree below this node, callers first"""
        for n in self.children.values():
            yield depth, n
            yield from n.walk(depth + 1)


class Loop:
    """A loop's entries: iterations -> how many entries ran that many
    (its header's runs: latches + 1 where GCC tests at the bottom, -O1
    and above; tools/leon3-tags --loops says the same)"""
    __slots__ = ("site", "hist", "left_by_return", "unfinished")

    def __init__(self, site):
        self.site, self.hist, self.left_by_return, self.unfinished = site, {}, 0, 0

    @property
    def entries(self):
        return sum(self.hist.values())

    def bins(self):
        """[(label, entries)]: each number of iterations if there are at
        most 32, else bins of powers of two"""
        if len(self.hist) <= 32:
            return [(str(k), self.hist[k]) for k in sorted(self.hist)]
        bins = {}
        for k, n in self.hist.items():
            b = k.bit_length() - 1
            bins[b] = bins.get(b, 0) + n
        return [(f"{1 << b}-{(2 << b) - 1}" if b else "1", bins[b]) for b in sorted(bins)]


class _Frame:
    __slots__ = ("func", "node", "last", "loops", "cpu", "t0")

    def __init__(self, func, node, last, cpu=None, t0=None):
        self.func, self.node, self.last = func, node, last
        self.cpu, self.t0 = cpu, t0     # the entry tag's CPU and time, if known
        self.loops = []         # [site, latches] of the loops it is in, innermost last


class Flow(NamedTuple):
    root: Node          # its children: the functions the trace starts in
    loops: dict         # (func, loop id) -> Loop
    paths: dict         # (func, from Site, to Site) -> runs
    calls: dict         # (caller, callee) -> calls (caller None: the trace started there)
    tags: int           # tags analysed
    not_tags: int       # runs of an immediate whose kind is not a tag's
    unknown: dict       # pc -> runs of tags at addresses no ELF file lists
    resyncs: int        # LOST records: what the program did then is unknown, the stacks start again
    unmatched: int      # exits whose entry the trace did not see (it began inside)
    clock: str          # what the times count: "cycles", "instructions" (TRCTRL.IC)
                        # or "cycles and instructions" (units set up apart)


def sites(tag_records):
    """{address: Site} of leon3lib.tags records"""
    return {t.addr: Site(t.kind, t.id, t.func, t.file, t.line, t.depth) for t in tag_records}


def analyse(events, by_pc):
    """The Flow of trace.runs()'s EVENTS (a tag's runs in a row one
    Event, or each run one), each TAG event's site found by its PC in
    BY_PC ({address: Site}).  A stack of calls is kept for
    each process (the PID of the START and PID records, 0 before one),
    so a per-CPU trace with PID records is taken apart."""
    root = Node("")
    loops, paths, calls, unknown = {}, {}, {}, {}
    stacks, pid_of = {}, {}
    ntags = not_tags = resyncs = unmatched = 0
    clocks = set()

    def loop(site):
        return loops.setdefault((site.func, site.id), Loop(site))

    def close_loops(frame, upto=None, how="exit"):
        """Leave FRAME's loops innermost first, down to and including
        the loop UPTO (a Site), or all of them; each entry into its
        histogram (an entry the trace did not see is not counted)"""
        while frame.loops:
            site, latches = frame.loops.pop()
            if latches is not None:
                hist = loop(site).hist
                hist[latches + 1] = hist.get(latches + 1, 0) + 1
                if how == "return":
                    loop(site).left_by_return += 1
            if upto is not None and site.id == upto.id:
                return

    def tag(site, cpu, time, stack):
        """one run of the tag at SITE, in the calls of STACK"""
        nonlocal unmatched
        top = stack[-1] if stack else None
        if site.kind == "func-entry":
            caller = top.node if top else root
            node = caller.child(site.func, f"{site.file}:{site.line}")
            node.calls += 1
            key = (top.func if top else None, site.func)
            calls[key] = calls.get(key, 0) + 1
            stack.append(_Frame(site.func, node, site, cpu, time))
            return
        # the other tags are the function's own: find its frame (a
        # function left without its exit tag, by longjmp or a tag-less
        # tail call, is popped here)
        depth = next((i for i in range(len(stack) - 1, -1, -1)
                      if stack[i].func == site.func), None)
        if depth is None:
            # the trace began inside this function: it becomes a root
            node = root.child(site.func, "")
            frame = _Frame(site.func, node, None)
            stack.append(frame)
            if site.kind == "func-exit":
                unmatched += 1
        else:
            del stack[depth + 1:]
            frame = stack[-1]
        if frame.last is not None:
            key = (site.func, frame.last, site)
            paths[key] = paths.get(key, 0) + 1
        frame.last = site
        if site.kind == "loop-entry":
            if any(s.id == site.id for s, _ in frame.loops):
                close_loops(frame, site)    # left untagged, now entered again
            frame.loops.append([site, 0])
        elif site.kind == "loop-latch":
            if any(s.id == site.id for s, _ in frame.loops):
                while frame.loops[-1][0].id != site.id:
                    close_loops(frame, frame.loops[-1][0])  # an inner loop left untagged
                if frame.loops[-1][1] is not None:
                    frame.loops[-1][1] += 1
            else:
                # entered before the trace began: its trips are not known
                loop(site).unfinished += 1
                frame.loops.append([site, None])
        elif site.kind == "loop-exit":
            if any(s.id == site.id for s, _ in frame.loops):
                close_loops(frame, site)
        elif site.kind == "func-exit":
            close_loops(frame, how="return")
            if frame.t0 is not None and time is not None and cpu == frame.cpu:
                frame.node.timed += 1
                frame.node.time += time - frame.t0
            stack.pop()

    for e in events:
        if e.kind in ("START", "PID"):
            if e.kind == "START":
                clocks.add("instructions" if e.a & 1 else "cycles")
            pid_of[e.cpu] = e.b
            # each CPU's unit has a clock of its own: a call that moves
            # to another CPU is not timed
            for frame in stacks.get(e.b, ()):
                if frame.cpu != e.cpu:
                    frame.t0 = None
            continue
        if e.kind == "LOST":
            # what ran while the unit lost tags is unknown: start again
            stacks[pid_of.get(e.cpu, 0)] = []
            resyncs += 1
            continue
        if e.kind != "TAG":
            continue
        site = by_pc.get(e.pc)
        if site is None:
            kind, _ = tagdefs.decode(tagdefs.H["SETHI_G0"] | e.a)
            if kind not in KINDS:
                not_tags += e.n
            else:
                unknown[e.pc] = unknown.get(e.pc, 0) + e.n
            continue
        ntags += e.n
        stack = stacks.setdefault(pid_of.get(e.cpu, 0), [])
        tag(site, e.cpu, e.time, stack)
        rest = e.n - 1
        if rest and site.kind == "loop-latch":
            # a loop's iterations in a row: each the path from the latch
            # to itself and one trip more, in the frame and loop that the
            # first of them left on top
            key = (site.func, site, site)
            paths[key] = paths.get(key, 0) + rest
            latches = stack[-1].loops[-1]
            if latches[1] is not None:
                latches[1] += rest
            rest = 0
        for _ in range(rest):
            tag(site, e.cpu, None, stack)
    # entries not yet left when the trace ended: in no histogram
    for stack in stacks.values():
        for frame in stack:
            for site, latches in frame.loops:
                if latches is not None:
                    loop(site).unfinished += 1
    clock = " and ".join(sorted(clocks)) or "cycles"
    return Flow(root, loops, paths, calls, ntags, not_tags, unknown, resyncs, unmatched, clock)


def summary(fl):
    """Everything the Flow FL says, as plain values: two analyses agree
    when their summaries are equal"""
    return (
        [(d, n.func, n.where, n.calls, n.timed, n.time) for d, n in fl.root.walk()],
        {k: (sorted(v.hist.items()), v.left_by_return, v.unfinished) for k, v in fl.loops.items()},
        fl.paths, fl.calls, fl.tags, fl.not_tags, fl.unknown, fl.resyncs, fl.unmatched, fl.clock)
