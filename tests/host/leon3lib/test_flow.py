# SPDX-License-Identifier: GPL-2.0
"""leon3lib.flow: call trees, loop histograms and paths rebuilt from tag
events that a model of the code made here, so that what they must give
is known from the code: a recursion's calls at each depth, a triangular
loop's trip counts, a function's early return."""

import os
import subprocess
import unittest

import libpath
from leon3lib import flow, tags, trace

KIND = {v: k for k, v in tags.KIND_NAMES.items()}


class Code:
    """Tags of made-up functions at made-up addresses, and the events of
    running them: each tag one Event (analyse() also gives a tag's runs
    in a row as one Event, as trace.runs() does)"""

    def __init__(self):
        self.by_pc, self.events, self.addr = {}, [], 0x10000

    def tag(self, kind, ident, func, line, depth=0):
        self.addr += 4
        self.by_pc[self.addr] = flow.Site(kind, ident, func, "t.c", line, depth)
        return self.addr

    def run(self, pc, cpu=0, time=None):
        site = self.by_pc.get(pc)
        a = KIND[site.kind] << 19 | site.id if site else 1 << 19
        self.events.append(trace.Event("TAG", cpu, a, 0, pc, time))

    def event(self, kind, b=0, cpu=0, a=0):
        self.events.append(trace.Event(kind, cpu, a, b, 0, None))

    def analyse(self):
        """the Flow of the events, one a tag; checked to be the Flow of
        the same events as trace.runs() gives them, a run one event"""
        fl = flow.analyse(self.events, self.by_pc)
        same = flow.analyse(runs_of(self.events), self.by_pc)
        assert flow.summary(same) == flow.summary(fl), "a tag's runs as one event give another Flow"
        return fl


def runs_of(events):
    """EVENTS (one a tag) with each tag's runs in a row one Event with
    their count n, as trace.runs() makes them of a TAG record"""
    out = []
    for e in events:
        last = out[-1] if out else None
        if (e.kind == "TAG" and e.time is None and last is not None and last.kind == "TAG"
                and (last.cpu, last.a, last.pc) == (e.cpu, e.a, e.pc)):
            out[-1] = last._replace(n=last.n + 1)
        else:
            out.append(e)
    return out



def fib_code():
    c = Code()
    t = {k: c.tag(k, 1, "fib", 10) for k in ("func-entry", "func-exit")}
    m = {k: c.tag(k, 2, "main", 20) for k in ("func-entry", "func-exit")}

    def fib(n):
        c.run(t["func-entry"])
        r = n if n < 2 else fib(n - 1) + fib(n - 2)
        c.run(t["func-exit"])
        return r

    c.run(m["func-entry"])
    fib(10)
    c.run(m["func-exit"])
    return c


def fib_calls_at_depth(n, depth):
    """calls of fib at DEPTH below the first call of fib(N): the code's
    recursion, counted apart from any trace"""
    level = [n]
    for _ in range(depth):
        level = [m for k in level if k >= 2 for m in (k - 1, k - 2)]
    return len(level)


class Flow(unittest.TestCase):
    def test_recursion(self):
        """fib(10)'s call tree: at each depth d as many calls as the
        recursion makes at d, under main, and 177 calls of fib in all"""
        fl = fib_code().analyse()
        rows = list(fl.root.walk())
        self.assertEqual([(d, n.func) for d, n in rows][:2], [(0, "main"), (1, "fib")])
        got = [n.calls for d, n in rows[1:]]
        want = [fib_calls_at_depth(10, d) for d in range(len(got))]
        self.assertEqual(got, want)
        self.assertEqual(fib_calls_at_depth(10, len(got)), 0)
        self.assertEqual(fl.calls, {(None, "main"): 1, ("main", "fib"): 1, ("fib", "fib"): 176})
        self.assertEqual((fl.unmatched, fl.resyncs, fl.unknown), (0, 0, {}))

    def test_triangular_loops(self):
        """for i < 40: for j <= i: the inner loop entered 40 times with
        1 to 40 iterations, once each (more than 32 values: bins of
        powers of two); the outer once with 40; a return from inside the
        outer loop on a second call leaves both"""
        c = Code()
        f = {k: c.tag(k, 1, "tri", 5) for k in ("func-entry", "func-exit")}
        o = {k: c.tag(k, 2, "tri", 6, 1) for k in ("loop-entry", "loop-latch", "loop-exit")}
        i = {k: c.tag(k, 3, "tri", 7, 2) for k in ("loop-entry", "loop-latch", "loop-exit")}

        def loop(tg, n, body=lambda k: None):
            c.run(tg["loop-entry"])
            for k in range(n):
                body(k)
                if k < n - 1:
                    c.run(tg["loop-latch"])
            c.run(tg["loop-exit"])

        c.run(f["func-entry"])
        loop(o, 40, lambda k: loop(i, k + 1))
        c.run(f["func-exit"])
        # again, returning in the outer loop's third iteration
        c.run(f["func-entry"])
        c.run(o["loop-entry"])
        c.run(o["loop-latch"])
        c.run(o["loop-latch"])
        c.run(i["loop-entry"])
        c.run(f["func-exit"])
        fl = c.analyse()
        inner, outer = fl.loops[("tri", 3)], fl.loops[("tri", 2)]
        self.assertEqual(inner.hist, {**{k: 1 for k in range(2, 41)}, 1: 2})
        self.assertEqual(outer.hist, {40: 1, 3: 1})
        self.assertEqual((inner.left_by_return, outer.left_by_return), (1, 1))
        # more than 32 values: 1, then 2-3, 4-7, ... 32-63
        self.assertEqual(inner.bins(), [("1", 2), ("2-3", 2), ("4-7", 4), ("8-15", 8),
                                        ("16-31", 16), ("32-63", 9)])
        self.assertEqual(outer.bins(), [("3", 1), ("40", 1)])

    def test_paths(self):
        """a function that returns early on one argument: two paths, the
        early one taken once; the loop's own iteration path counted"""
        c = Code()
        f = {k: c.tag(k, 1, "chk", 30) for k in ("func-entry", "func-exit")}
        lp = {k: c.tag(k, 2, "chk", 32, 1) for k in ("loop-entry", "loop-latch", "loop-exit")}
        for x in range(5):
            c.run(f["func-entry"])
            if x != 3:
                c.run(lp["loop-entry"])
                for _ in range(x):
                    c.run(lp["loop-latch"])
                c.run(lp["loop-exit"])
            c.run(f["func-exit"])
        fl = c.analyse()
        got = {(a.kind, b.kind): n for (_, a, b), n in fl.paths.items()}
        self.assertEqual(got, {("func-entry", "loop-entry"): 4, ("loop-entry", "loop-latch"): 3,
                               ("loop-latch", "loop-latch"): 4, ("loop-latch", "loop-exit"): 3,
                               ("loop-entry", "loop-exit"): 1, ("loop-exit", "func-exit"): 4,
                               ("func-entry", "func-exit"): 1})

    def test_callee_between_tags(self):
        """a callee's tags are the callee's: the caller's path goes on
        from its last tag across the call"""
        c = Code()
        a = {k: c.tag(k, 1, "a", 1) for k in ("func-entry", "func-exit")}
        b = {k: c.tag(k, 2, "b", 2) for k in ("func-entry", "func-exit")}
        c.run(a["func-entry"])
        c.run(b["func-entry"])
        c.run(b["func-exit"])
        c.run(a["func-exit"])
        fl = c.analyse()
        self.assertEqual(sorted((f, x.kind, y.kind) for f, x, y in fl.paths),
                         [("a", "func-entry", "func-exit"), ("b", "func-entry", "func-exit")])

    def test_times(self):
        """a call's cycles from its entry tag's time to its exit tag's,
        callees included; a call without both times, or that moved to
        another CPU (whose unit has a clock of its own), is not timed"""
        c = Code()
        a = {k: c.tag(k, 1, "a", 1) for k in ("func-entry", "func-exit")}
        b = {k: c.tag(k, 2, "b", 2) for k in ("func-entry", "func-exit")}
        c.event("START", 7)
        c.run(a["func-entry"], time=100)
        for t0, t1 in ((110, 150), (160, None), (170, 190)):
            c.run(b["func-entry"], time=t0)
            c.run(b["func-exit"], time=t1)
        c.run(a["func-exit"], time=200)
        c.run(a["func-entry"], time=300)
        c.event("START", 7, cpu=1)
        c.run(a["func-exit"], cpu=1, time=20)
        fl = c.analyse()
        na = fl.root.children["a"]
        nb = na.children["b"]
        self.assertEqual((na.calls, na.timed, na.time), (2, 1, 100))
        self.assertEqual((nb.calls, nb.timed, nb.time), (3, 2, 60))
        self.assertEqual(fl.clock, "cycles")

    def test_clock(self):
        """what the times count, from the START records' A (TRCTRL.IC)"""
        for starts, want in (((0,), "cycles"), ((1, 1), "instructions"),
                             ((1, 0), "cycles and instructions"), ((), "cycles")):
            c = Code()
            for cpu, a in enumerate(starts):
                c.event("START", 7, cpu=cpu, a=a)
            self.assertEqual(c.analyse().clock, want, starts)

    def test_gaps(self):
        """a trace that begins inside a function, tags at no listed
        address, kinds that are no tag's, a LOST record that starts the
        stacks again, and two processes apart by their PID records"""
        c = Code()
        f = {k: c.tag(k, 1, "f", 1) for k in ("func-entry", "func-exit")}
        g = {k: c.tag(k, 2, "g", 2) for k in ("func-entry", "func-exit")}
        c.run(f["func-exit"])                       # began inside f
        c.events.append(trace.Event("TAG", 0, 6 << 19 | 5, 0, 0x999, None))  # kind 6
        c.events.append(trace.Event("TAG", 0, 1 << 19 | 5, 0, 0x998, None))  # unlisted
        c.event("PID", 7)
        c.run(f["func-entry"])
        c.event("PID", 8)
        c.run(g["func-entry"])                      # process 8: g at the root
        c.event("PID", 7)
        c.run(g["func-entry"])                      # process 7: g called by f
        c.event("LOST", 100)
        c.run(g["func-exit"])                       # after the loss: began inside g
        fl = c.analyse()
        self.assertEqual((fl.unmatched, fl.not_tags, fl.unknown, fl.resyncs), (2, 1, {0x998: 1}, 1))
        self.assertEqual(fl.calls, {(None, "f"): 1, (None, "g"): 1, ("f", "g"): 1})

    def test_long_trace(self):
        """make bench-trace-decode's made-up trace (a little of it): a
        loop's latches in a row as one event with their count and as one
        event each give the same call tree, loops and paths"""
        r = subprocess.run([os.path.join(libpath.TOP, "tools/bench/trace-decode"), "0.02"],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("the same call tree, loops and paths", r.stdout)


if __name__ == "__main__":
    unittest.main()
