#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The PMU's register map and event table are written once, in
Documentation/pmu-registers.md; every copy the builds need is held to it
here, so that none can drift:

  kernel/leon3_pmu.h            the driver's registers and bits
  kernel/leon3_pmu_core.c       its counters and events
  tests/baremetal/pmu.h         the bare-metal tests' registers and bits
  build/qemu-src/.../pmu.h      the QEMU model's (the patched source the
                                qemu stage keeps)

Each macro is evaluated (BIT(), shifts, other macros, function-like
macros at 0, 1 and 2) and compared with the document's value.
"""

import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lib import TOP, ok, not_ok, check  # noqa: E402

DOC = os.path.join(TOP, "Documentation/pmu-registers.md")
DRIVER_H = os.path.join(TOP, "kernel/leon3_pmu.h")
DRIVER = os.path.join(TOP, "kernel/leon3_pmu_core.c")
BAREMETAL = os.path.join(TOP, "tests/baremetal/pmu.h")
QEMU = os.path.join(TOP, "build/qemu-src/target/sparc/pmu.h")


# --- the document ------------------------------------------------------------

def doc_tables(text):
    """Register rows {NAME: (base, stride, bits text)} and event rows {id: name}."""
    regs, events = {}, {}
    for line in text.splitlines():
        m = re.match(r"^\| (0x[0-9A-F]+)(?: \+ (\d+)([a-z]))? \| (\w+)[^|]*\| (.*) \|$", line)
        if m:
            regs[m.group(4)] = (int(m.group(1), 16), int(m.group(2) or 0), m.group(5))
            continue
        m = re.match(r"^\| (0x[0-9A-F]{2}) \| `(\w+)` \|", line)
        if m:
            events[int(m.group(1), 16)] = m.group(2)
    return regs, events


class Doc:
    def __init__(self, path):
        self.text = open(path).read()
        self.regs, self.events = doc_tables(self.text)

    def reg(self, name, i=0):
        base, stride, _ = self.regs[name]
        return base + stride * i

    def field(self, reg, label):
        """(low bit, width) of the field of @reg whose text starts with @label."""
        for item in self.regs[reg][2].split(" · "):
            m = re.match(r"^(\d+)(?::(\d+))? (.*)$", item)
            if m and m.group(3).startswith(label):
                hi, lo = int(m.group(1)), int(m.group(2) or m.group(1))
                return lo, hi - lo + 1
        raise KeyError(f"{reg}: no field '{label}'")

    def bit(self, reg, label):
        lo, width = self.field(reg, label)
        return ((1 << width) - 1) << lo

    def shift(self, reg, label):
        return self.field(reg, label)[0]

    def number(self, pattern):
        m = re.search(pattern, self.text)
        if not m:
            raise KeyError(pattern)
        return int(m.group(1), 0)


# --- the C copies ------------------------------------------------------------

class Macros:
    """The #defines of a C file, evaluated on demand."""

    def __init__(self, *paths):
        text = "".join(open(p).read() for p in paths).replace("\\\n", " ")
        self.defs = {}
        for m in re.finditer(r"^#define\s+(\w+)(\(([\w\s,]*)\))?[ \t]+(.*)$", text, re.M):
            body = re.sub(r"/\*.*?\*/", "", m.group(4)).strip()
            args = [a.strip() for a in m.group(3).split(",")] if m.group(2) else None
            self.defs[m.group(1)] = (args, body)

    def has(self, name):
        return name in self.defs

    def value(self, name, *args):
        params, body = self.defs[name]
        if params is not None:
            for p, a in zip(params, args):
                body = re.sub(rf"\b{p}\b", f"({a})", body)
        return self.eval(body)

    def eval(self, expr):
        expr = re.sub(r"\bBIT\(", "_bit(", expr)
        expr = re.sub(r"\b(0x[0-9a-fA-F]+|\d+)(?:ULL|UL|U|u|ull)\b", r"\1", expr)

        def name(m):
            n = m.group(1)
            if n in ("_bit", "GENMASK_ULL"):
                return n
            if n in self.defs and self.defs[n][0] is None:
                return f"({self.value(n)})"
            return n
        expr = re.sub(r"\b([A-Za-z_]\w*)\b", name, expr)
        return eval(expr, {"_bit": lambda b: 1 << b,
                           "GENMASK_ULL": lambda h, l: ((1 << (h - l + 1)) - 1) << l})


def compare(copy, macros, facts):
    """facts: [(macro, args, want)]; one check per fact."""
    for macro, args, want in facts:
        label = f"{macro}({', '.join(map(str, args))})" if args else macro
        if not macros.has(macro):
            not_ok(f"{copy}: {label} is defined")
            continue
        try:
            got = macros.value(macro, *args)
        except Exception as e:  # a macro the evaluator cannot read
            not_ok(f"{copy}: {label} evaluates: {e}")
            continue
        check(f"{copy}: {label} = {want:#x} as in the document", got == want,
              f"got {got:#x}")


def counter_facts(d, cnt, ctrl):
    """A driver-style pair of CNT(c)/CTRL(c) macros: c = 0 the cycle counter."""
    return [(cnt, [0], d.reg("CYCCNT")), (ctrl, [0], d.reg("CYCCTRL")),
            (cnt, [1], d.reg("EVCNT", 0)), (ctrl, [1], d.reg("EVCTRL", 0)),
            (cnt, [6], d.reg("EVCNT", 5)), (ctrl, [6], d.reg("EVCTRL", 5))]


def ctrl_facts(d, prefix, bits):
    return [(prefix + b, [], d.bit("EVCTRL", b)) for b in bits] + \
           [(prefix + b, [], d.bit("CYCCTRL", b)) for b in bits]


def main():
    d = Doc(DOC)
    ncnt = d.number(r"7:3 NCNT = (\d+)")
    check("the document has the core and extension registers",
          {"GCTRL", "OVF", "CYCCNT", "CYCCTRL", "EVCNT", "EVCTRL", "FEATURES", "IRQLINE",
           "PID", "PIDLOG", "PIDLOG_PID", "PIDLOG_CYC", "PIDMATCH", "RANGE_LO",
           "RANGE_HI"} <= set(d.regs), str(sorted(d.regs)))
    window_end = d.number(r"Reserved addresses\s+in 0xC0–(0x[0-9A-F]+)")

    # The driver.
    k = Macros(DRIVER_H, DRIVER)
    compare("kernel/leon3_pmu.[ch]", k, [
        ("PMU_GCTRL", [], d.reg("GCTRL")), ("PMU_OVF", [], d.reg("OVF")),
        *counter_facts(d, "PMU_CNT", "PMU_CTRL"),
        ("PMU_FEATURES", [], d.reg("FEATURES")), ("PMU_IRQLINE", [], d.reg("IRQLINE")),
        ("PMU_PID", [], d.reg("PID")), ("PMU_PIDLOG", [], d.reg("PIDLOG")),
        ("PMU_PIDLOG_PID", [], d.reg("PIDLOG_PID")),
        ("PMU_PIDLOG_CYC", [], d.reg("PIDLOG_CYC")),
        ("PMU_PIDMATCH", [0], d.reg("PIDMATCH", 0)),
        ("PMU_PIDMATCH", [6], d.reg("PIDMATCH", 6)),
        ("GCTRL_EN", [], d.bit("GCTRL", "EN")),
        ("GCTRL_IRQCLR", [], d.bit("GCTRL", "IRQCLR")),
        ("GCTRL_NCNT", [0xffffffff], 0x1f),
        ("OVF_IRQ", [], d.bit("OVF", "interrupt pending")),
        ("OVF_COUNTERS", [], (1 << (ncnt + 1)) - 1),
        ("CTRL_EVENT", [], d.bit("EVCTRL", "event id")),
        *ctrl_facts(d, "CTRL_", ["EN", "CLR", "SU", "IRQEN", "NU", "PF"]),
        ("FEAT_PID", [], d.bit("FEATURES", "PID register")),
        ("FEAT_PIDLOG", [], d.bit("FEATURES", "PID log")),
        ("FEAT_NU", [], d.bit("FEATURES", "CTRL.NU")),
        ("IRQLINE_LINE", [0xffffffff], d.bit("IRQLINE", "the IRQMP")),
        ("PIDLOG_EN", [], d.bit("PIDLOG", "EN")),
        ("PIDLOG_CLR", [], d.bit("PIDLOG", "CLR")),
        ("PIDLOG_COUNT", [0xffffffff], d.bit("PIDLOG", "records") >> d.shift("PIDLOG", "records")),
        ("PIDLOG_OVF", [], d.bit("PIDLOG", "OVF")),
        ("LEON3_PMU_COUNTERS", [], ncnt + 1),
    ])

    # The driver's events: the same ids and names as the document's table.
    text = open(DRIVER).read()
    kev = {int(i, 16): n for i, n in re.findall(r'\{ (0x[0-9a-f]{2}), "(\w+)" \}', text)}
    check(f"kernel/leon3_pmu_core.c: leon3_events[] is the document's event table "
          f"({len(d.events)} events)", kev == d.events,
          f"only in the driver: {sorted(set(kev.items()) - set(d.events.items()))}, "
          f"only in the document: {sorted(set(d.events.items()) - set(kev.items()))}")
    used = {int(v, 16) for v in re.findall(r"=\s+(0x[0-9a-f]{2}),\n", text)}
    check("kernel/leon3_pmu_core.c: the generic and cache event maps use known events",
          used and used <= set(d.events), f"unknown: {sorted(used - set(d.events))}")

    # The bare-metal tests.
    b = Macros(BAREMETAL)
    compare("tests/baremetal/pmu.h", b, [
        ("PMU_NEV", [], ncnt),
        ("PMU_GCTRL", [], d.reg("GCTRL")), ("PMU_OVF", [], d.reg("OVF")),
        ("PMU_CYCCNT", [], d.reg("CYCCNT")), ("PMU_CYCCTRL", [], d.reg("CYCCTRL")),
        ("PMU_EVCNT", [0], d.reg("EVCNT", 0)), ("PMU_EVCNT", [5], d.reg("EVCNT", 5)),
        ("PMU_EVCTRL", [0], d.reg("EVCTRL", 0)), ("PMU_EVCTRL", [5], d.reg("EVCTRL", 5)),
        ("PMU_CORE_FIRST", [], d.reg("GCTRL")),
        ("PMU_CORE_LAST", [], d.reg("EVCTRL", ncnt - 1)),
        ("GCTRL_EN", [], d.bit("GCTRL", "EN")), ("GCTRL_RST", [], d.bit("GCTRL", "RST")),
        ("GCTRL_CRST", [], d.bit("GCTRL", "CRST")),
        ("GCTRL_NCNT_SHIFT", [], d.shift("GCTRL", "NCNT")),
        ("GCTRL_NCNT", [], d.bit("GCTRL", "NCNT")),
        ("GCTRL_IRQCLR", [], d.bit("GCTRL", "IRQCLR")),
        ("OVF_CYC", [], d.bit("OVF", "cycle counter")),
        ("OVF_EV", [0], d.bit("OVF", "cycle counter") << 1),
        ("OVF_IRQ", [], d.bit("OVF", "interrupt pending")),
        ("CTRL_EVENT", [], d.bit("EVCTRL", "event id")),
        *ctrl_facts(d, "CTRL_", ["EN", "CLR", "SU", "IRQEN", "NU", "PF", "AF"]),
    ])

    # The QEMU model, as the qemu stage left its patched source.
    if not os.path.exists(QEMU):
        not_ok(f"the patched QEMU source is kept (make qemu): {QEMU} is missing")
        return 1
    q = Macros(QEMU)
    compare("QEMU target/sparc/pmu.h", q, [
        ("LEON3_PMU_GCTRL", [], d.reg("GCTRL")), ("LEON3_PMU_OVF", [], d.reg("OVF")),
        ("LEON3_PMU_CYCCNT", [], d.reg("CYCCNT")),
        ("LEON3_PMU_CYCCTRL", [], d.reg("CYCCTRL")),
        ("LEON3_PMU_EVCNT", [0], d.reg("EVCNT", 0)),
        ("LEON3_PMU_EVCNT", [5], d.reg("EVCNT", 5)),
        ("LEON3_PMU_EVCTRL", [0], d.reg("EVCTRL", 0)),
        ("LEON3_PMU_EVCTRL", [5], d.reg("EVCTRL", 5)),
        ("LEON3_PMU_FEATURES", [], d.reg("FEATURES")),
        ("LEON3_PMU_IRQLINE", [], d.reg("IRQLINE")),
        ("LEON3_PMU_PID", [], d.reg("PID")), ("LEON3_PMU_PIDLOG", [], d.reg("PIDLOG")),
        ("LEON3_PMU_PIDLOG_PID", [], d.reg("PIDLOG_PID")),
        ("LEON3_PMU_PIDLOG_CYC", [], d.reg("PIDLOG_CYC")),
        ("LEON3_PMU_PIDMATCH", [0], d.reg("PIDMATCH", 0)),
        ("LEON3_PMU_PIDMATCH", [6], d.reg("PIDMATCH", 6)),
        ("LEON3_PMU_RANGE_LO", [0], d.reg("RANGE_LO", 0)),
        ("LEON3_PMU_RANGE_LO", [6], d.reg("RANGE_LO", 6)),
        ("LEON3_PMU_RANGE_HI", [0], d.reg("RANGE_HI", 0)),
        ("LEON3_PMU_RANGE_HI", [6], d.reg("RANGE_HI", 6)),
        ("LEON3_PMU_FIRST", [], d.reg("GCTRL")),
        ("LEON3_PMU_LAST", [], window_end - 3),
        ("LEON3_PMU_NCNT", [], ncnt),
        ("LEON3_PMU_NR_COUNTERS", [], ncnt + 1),
        ("LEON3_PMU_PIDLOG_DEPTH", [], d.number(r"a (\d+)-record FIFO")),
        ("LEON3_PMU_PIDLOG_EN", [], d.bit("PIDLOG", "EN")),
        ("LEON3_PMU_PIDLOG_CLR", [], d.bit("PIDLOG", "CLR")),
        ("LEON3_PMU_PIDLOG_COUNT_SHIFT", [], d.shift("PIDLOG", "records")),
        ("LEON3_PMU_PIDLOG_OVF", [], d.bit("PIDLOG", "OVF")),
        ("LEON3_PMU_GCTRL_EN", [], d.bit("GCTRL", "EN")),
        ("LEON3_PMU_GCTRL_RST", [], d.bit("GCTRL", "RST")),
        ("LEON3_PMU_GCTRL_CRST", [], d.bit("GCTRL", "CRST")),
        ("LEON3_PMU_GCTRL_NCNT_SHIFT", [], d.shift("GCTRL", "NCNT")),
        ("LEON3_PMU_GCTRL_IRQCLR", [], d.bit("GCTRL", "IRQCLR")),
        ("LEON3_PMU_OVF_IRQ", [], d.bit("OVF", "interrupt pending")),
        ("LEON3_PMU_OVF_COUNTERS", [], (1 << (ncnt + 1)) - 1),
        ("LEON3_PMU_CTRL_EVENT", [], d.bit("EVCTRL", "event id")),
        *ctrl_facts(d, "LEON3_PMU_CTRL_", ["EN", "CLR", "SU", "IRQEN", "NU", "PF", "AF"]),
        ("LEON3_PMU_FEAT_PID", [], d.bit("FEATURES", "PID register")),
        ("LEON3_PMU_FEAT_PIDLOG", [], d.bit("FEATURES", "PID log")),
        ("LEON3_PMU_FEAT_NU", [], d.bit("FEATURES", "CTRL.NU")),
        ("LEON3_PMU_FEAT_AF", [], d.bit("FEATURES", "address ranges")),
        ("LEON3_PMU_FEAT_VERSION_SHIFT", [], d.shift("FEATURES", "version")),
    ])
    return 0


if __name__ == "__main__":
    sys.exit(main())
