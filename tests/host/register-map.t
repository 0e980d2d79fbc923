#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# tests/run: one-core
"""The PMU's register map and event table are written once, in
Documentation/pmu-registers.md; every copy the builds need is held to it
here, so that none can drift:

  kernel/leon3_pmu.h            the driver's registers and bits
  kernel/leon3_pmu_core.c       its counters and events
  kernel/patches/               perf's LEON3 JSON events and metrics
                                (tools/perf/pmu-events/arch/sparc/)
  tests/baremetal/pmu.h         the bare-metal tests' registers and bits
  kernel/patches/               perf's decoder of the trace unit's records
                                (tools/perf/util/leon3-trace.h)
  tools/libpfm4/patches/        libpfm4's LEON3 event table
                                (lib/events/sparc_leon3_events.h)
  build/qemu-src/target/sparc/  the QEMU model's registers, timing model
                                (leon3-pmu.h) and events (leon3-pmu.c), in
                                the patched source the qemu stage keeps

Each fact is written once (facts(), with each copy's name for it); each
macro is evaluated (BIT(), shifts, other macros, function-like macros at
a first and a last index) and compared with the document's value.
"""

import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lib import (TOP, ok, not_ok, check, doc_event_descriptions, series_new_files,  # noqa: E402
                 perf_json as perf_json_tables)

DOC = os.path.join(TOP, "Documentation/pmu-registers.md")
DRIVER_H = os.path.join(TOP, "kernel/leon3_pmu.h")
DRIVER = os.path.join(TOP, "kernel/leon3_pmu_core.c")
BAREMETAL = os.path.join(TOP, "tests/baremetal/pmu.h")
QEMU = os.path.join(TOP, "build/qemu-src/target/sparc/leon3-pmu.h")
QEMU_C = os.path.join(TOP, "build/qemu-src/target/sparc/leon3-pmu.c")


def perf_json(d, ncnt):
    """perf's JSON event tables for the LEON3, as the kernel patch series
    adds them: the document's events, names and descriptions, and metrics
    of known events whose groups fit the counters."""
    files, events, metrics = perf_json_tables()
    check("kernel/patches: a patch adds perf's sparc mapfile.csv and LEON3 JSON files",
          "tools/perf/pmu-events/arch/sparc/mapfile.csv" in files and
          any(p.endswith("metrics.json") for p in files), str(sorted(files)))
    brief = doc_event_descriptions()
    doc = {n: i for i, n in d.events.items()}
    check(f"perf JSON: every event of the document once, none else ({len(doc)} events)",
          sorted(events) == sorted(doc) and all(len(v) == 1 for v in events.values()),
          f"only in JSON: {sorted(set(events) - set(doc))}, "
          f"only in the document: {sorted(set(doc) - set(events))}")
    bad = [n for n, (e, *_) in events.items() if n in doc and
           (int(e["EventCode"], 16) != doc[n] or
            e["BriefDescription"] != brief[n] or
            not e.get("PublicDescription"))]
    check("perf JSON: each event's code and brief description are the document's, "
          "and it has a public description", not bad, str(bad))
    groups = {}
    unknown = []
    for m in metrics:
        names = set(re.findall(r"[a-z_][a-z0-9_]*", m["MetricExpr"])) - {"d_ratio"}
        unknown += [(m["MetricName"], n) for n in names if n not in doc]
        for g in m["MetricGroup"].split(";"):
            groups.setdefault(g, set()).update(names)
    check(f"perf JSON: the {len(metrics)} metrics use only the document's events",
          metrics and not unknown, str(unknown))
    full = {g: sorted(n) for g, n in groups.items() if len(n - {"cycles"}) > ncnt}
    check(f"perf JSON: each metric group's events fit the {ncnt} event counters and "
          f"the cycle counter: perf stat -M GROUP never multiplexes", not full, str(full))


# --- the document ------------------------------------------------------------

def libpfm4(d):
    """libpfm4's LEON3 event table, as tools/libpfm4/patches adds it: the
    document's events, their perf names in upper case, each description
    starting with the document's."""
    files = series_new_files("tools/libpfm4/patches")
    path = "lib/events/sparc_leon3_events.h"
    text = files.get(path, "")
    check(f"tools/libpfm4/patches: a patch adds {path}", text, str(sorted(files)))
    entries = re.findall(r'\.name = "(\w+)",\s*\.desc = "([^"]+)",\s*\.code = (0x[0-9a-f]+),', text)
    got = {}
    for name, desc, code in entries:
        got.setdefault(name, []).append((int(code, 16), desc))
    doc = {n.upper(): i for i, n in d.events.items()}
    check(f"libpfm4 leon3: every event of the document once, none else ({len(doc)} events)",
          sorted(got) == sorted(doc) and all(len(v) == 1 for v in got.values()),
          f"only in libpfm4: {sorted(set(got) - set(doc))}, "
          f"only in the document: {sorted(set(doc) - set(got))}")
    brief = {n.upper(): b for n, b in doc_event_descriptions().items()}
    bad = [n for n, [(code, desc), *_] in got.items()
           if n in doc and (code != doc[n] or not desc.startswith(brief[n]))]
    check("libpfm4 leon3: each event's code is the document's and its description "
          "starts with the document's", entries and not bad, str(bad))


def doc_tables(text):
    """Register rows {NAME: (base, stride, bits text)}, event rows {id: name}
    and timing rows {instruction: cycles text}."""
    regs, events, timing = {}, {}, {}
    timing_text = text[text.index("## Timing model"):]
    for m in re.finditer(r"^\| ([^|]+?) \| ([^|]+?) \|$", timing_text, re.M):
        timing[m.group(1)] = m.group(2)
    for line in text.splitlines():
        m = re.match(r"^\| (0x[0-9A-F]+)(?: \+ (\d+)([a-z]))? \| (\w+)[^|]*\| (.*) \|$", line)
        if m:
            regs[m.group(4)] = (int(m.group(1), 16), int(m.group(2) or 0), m.group(5))
            continue
        m = re.match(r"^\| (0x[0-9A-F]{2}) \| `(\w+)` \|", line)
        if m:
            events[int(m.group(1), 16)] = m.group(2)
    return regs, events, timing


class Doc:
    def __init__(self, path):
        self.text = open(path).read()
        self.regs, self.events, self.timing = doc_tables(self.text)
        # the trace unit's record types: {type: name}
        self.records = {int(t): n for t, n in
                        re.findall(r"^\| (\d+) \| ([A-Z]+) \| ", self.text, re.M)}
        # ... of which software writes these, never the unit
        self.software_records = set(re.findall(r"The unit never writes an? ([A-Z]+) record",
                                               self.text))

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

    def cycles(self, row, pattern=r"(\d+)"):
        """A number of the timing table's row @row."""
        m = re.search(pattern, self.timing[row])
        if not m:
            raise KeyError(f"timing row {row}: {pattern}")
        return int(m.group(1))

    def number(self, pattern):
        m = re.search(pattern, self.text)
        if not m:
            raise KeyError(pattern)
        return int(m.group(1), 0)


# --- the C copies ------------------------------------------------------------

class Macros:
    """The #defines of a C file, and the constants of its enums, evaluated
    on demand."""

    def __init__(self, *paths, text=""):
        text = (text + "".join(open(p).read() for p in paths)).replace("\\\n", " ")
        self.defs = {}
        for m in re.finditer(r"^#define\s+(\w+)(\(([\w\s,]*)\))?[ \t]+(.*)$", text, re.M):
            body = re.sub(r"/\*.*?\*/", "", m.group(4)).strip()
            args = [a.strip() for a in m.group(3).split(",")] if m.group(2) else None
            self.defs[m.group(1)] = (args, body)
        for m in re.finditer(r"^(?:typedef )?enum\s*\w*\s*\{(.*?)\}", text, re.M | re.S):
            body = re.sub(r"/\*.*?\*/", "", m.group(1))
            prev = "-1"
            for item in filter(None, (i.strip() for i in body.split(","))):
                name, _, value = (x.strip() for x in item.partition("="))
                self.defs[name] = (None, value or f"({prev}) + 1")
                prev = name

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
            if n in ("_bit", "GENMASK", "GENMASK_ULL"):
                return n
            if n in self.defs and self.defs[n][0] is None:
                return f"({self.value(n)})"
            return n
        expr = re.sub(r"\b([A-Za-z_]\w*)\b", name, expr)
        return eval(expr, {"_bit": lambda b: 1 << b,
                           "GENMASK": lambda h, l: ((1 << (h - l + 1)) - 1) << l,
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


def facts(d, ncnt, window_end):
    """Each fact of the document once, with its name in each copy:
    (value, driver, bare-metal tests, QEMU); None where a copy has none.
    A name with an argument is a function-like macro at that argument."""
    reg, bit, shift = d.reg, d.bit, d.shift
    rows = [
        (reg("GCTRL"), "PMU_GCTRL", "PMU_GCTRL", "LEON3_PMU_GCTRL"),
        (reg("OVF"), "PMU_OVF", "PMU_OVF", "LEON3_PMU_OVF"),
        # the driver numbers counters c = 0 (cycles), 1 + i (event counter i)
        (reg("CYCCNT"), "PMU_CNT(0)", "PMU_CYCCNT", "LEON3_PMU_CYCCNT"),
        (reg("CYCCTRL"), "PMU_CTRL(0)", "PMU_CYCCTRL", "LEON3_PMU_CYCCTRL"),
        (reg("EVCNT", 0), "PMU_CNT(1)", "PMU_EVCNT(0)", "LEON3_PMU_EVCNT(0)"),
        (reg("EVCTRL", 0), "PMU_CTRL(1)", "PMU_EVCTRL(0)", "LEON3_PMU_EVCTRL(0)"),
        (reg("EVCNT", 5), "PMU_CNT(6)", "PMU_EVCNT(5)", "LEON3_PMU_EVCNT(5)"),
        (reg("EVCTRL", 5), "PMU_CTRL(6)", "PMU_EVCTRL(5)", "LEON3_PMU_EVCTRL(5)"),
        (reg("GCTRL"), None, "PMU_CORE_FIRST", "LEON3_PMU_FIRST"),
        (reg("EVCTRL", ncnt - 1), None, "PMU_CORE_LAST", None),
        (window_end - 3, None, None, "LEON3_PMU_LAST"),
        (ncnt, None, "PMU_NEV", "LEON3_PMU_NCNT"),
        (ncnt + 1, "LEON3_PMU_COUNTERS", None, "LEON3_PMU_NR_COUNTERS"),
        (bit("GCTRL", "EN"), "GCTRL_EN", "GCTRL_EN", "LEON3_PMU_GCTRL_EN"),
        (bit("GCTRL", "RST"), None, "GCTRL_RST", "LEON3_PMU_GCTRL_RST"),
        (bit("GCTRL", "CRST"), None, "GCTRL_CRST", "LEON3_PMU_GCTRL_CRST"),
        (shift("GCTRL", "NCNT"), None, "GCTRL_NCNT_SHIFT", "LEON3_PMU_GCTRL_NCNT_SHIFT"),
        (bit("GCTRL", "NCNT"), None, "GCTRL_NCNT", None),
        (bit("GCTRL", "NCNT") >> shift("GCTRL", "NCNT"), "GCTRL_NCNT(0xffffffff)", None, None),
        (bit("GCTRL", "IRQCLR"), "GCTRL_IRQCLR", "GCTRL_IRQCLR", "LEON3_PMU_GCTRL_IRQCLR"),
        (bit("OVF", "cycle counter"), None, "OVF_CYC", None),
        (bit("OVF", "cycle counter") << 1, None, "OVF_EV(0)", None),
        (bit("OVF", "interrupt pending"), "OVF_IRQ", "OVF_IRQ", "LEON3_PMU_OVF_IRQ"),
        ((1 << (ncnt + 1)) - 1, "OVF_COUNTERS", None, "LEON3_PMU_OVF_COUNTERS"),
        (bit("EVCTRL", "event id"), "CTRL_EVENT", "CTRL_EVENT", "LEON3_PMU_CTRL_EVENT"),
    ]
    for reg_ in ("EVCTRL", "CYCCTRL"):
        for b in ("EN", "CLR", "SU", "IRQEN", "NU", "PF", "AF"):
            rows.append((bit(reg_, b), "CTRL_" + b, "CTRL_" + b, "LEON3_PMU_CTRL_" + b))
    for r in ("FEATURES", "IRQLINE", "PID"):
        rows.append((reg(r), "PMU_" + r, "PMU_FEATURES" if r == "FEATURES" else None,
                     "LEON3_PMU_" + r))
    for c in (0, 6):
        rows.append((reg("PIDMATCH", c), f"PMU_PIDMATCH({c})", None, f"LEON3_PMU_PIDMATCH({c})"))
        rows.append((reg("RANGE_LO", c), f"PMU_RANGE_LO({c})", f"PMU_RANGE_LO({c})",
                     f"LEON3_PMU_RANGE_LO({c})"))
        rows.append((reg("RANGE_HI", c), f"PMU_RANGE_HI({c})", f"PMU_RANGE_HI({c})",
                     f"LEON3_PMU_RANGE_HI({c})"))
    for name, label in (("PID", "PID register"), ("NU", "CTRL.NU"),
                        ("AF", "address ranges"), ("SHADOW", "shadow D-caches"),
                        ("MEMTIME", "the write buffer")):
        rows.append((bit("FEATURES", label), "FEAT_" + name,
                     "FEAT_" + name if name in ("SHADOW", "MEMTIME") else None,
                     "LEON3_PMU_FEAT_" + name))
    # the trace unit: registers, bits and record types (the driver's
    # leon3_trace has those it uses)
    rows.append((bit("FEATURES", "the trace unit"), "FEAT_TRACE", "FEAT_TRACE",
                 "LEON3_PMU_FEAT_TRACE"))
    rows.append((bit("OVF", "the trace unit"), "OVF_TRACE", "OVF_TRACE", "LEON3_PMU_OVF_TRACE"))
    for r in ("TRCTRL", "TRPID", "TRTABLE", "TRPAGES", "TRHEAD", "TRLIMIT", "TRWMARK",
              "TRLOST", "TRTIME_HI", "TRTIME_LO"):
        drv = None if r in ("TRPID", "TRTIME_HI") else "PMU_" + r
        rows.append((reg(r), drv, "PMU_" + r, "LEON3_PMU_" + r))
    rows.append((bit("FEATURES", "branch tracing"), "FEAT_BRANCH", "FEAT_BRANCH",
                 "LEON3_PMU_FEAT_BRANCH"))
    for b in ("EN", "SU", "NU", "PF", "PIDREC", "OVFREC", "IRQEN", "CLR", "FULL", "ERR", "IC",
              "BR"):
        drv = None if b == "PF" else "TRACE_" + b
        rows.append((bit("TRCTRL", b), drv, "TRACE_" + b, "LEON3_TRACE_" + b))
    for rtype, name in d.records.items():
        # the driver writes SYNC records; the unit and its tests skip the type
        drv = "TRACE_REC_" + name if name in d.software_records else None
        rows.append((rtype, drv, "REC_" + name, "LEON3_TRACE_REC_" + name))
    # the memory timing: MEMTIME holds four QEMU properties
    rows.append((reg("MEMTIME"), None, "PMU_MEMTIME", "LEON3_PMU_MEMTIME"))
    for field, prop in (("WRITE", "pmu-mem-write"), ("BURST", "pmu-mem-burst"),
                        ("WBUF", "pmu-write-buffer"), ("LAT", "pmu-mem-latency")):
        label = f"`{prop}`"
        rows.append((shift("MEMTIME", label), None, None, f"LEON3_PMU_MEMTIME_{field}_SHIFT"))
        rows.append((bit("MEMTIME", label) >> shift("MEMTIME", label), None,
                     f"MEMTIME_{field}(0xffffffff)", None))
    # ... and QEMU refuses values out of the ranges of its properties' rows
    for prop, macro in (("pmu-mem-write", "WRITE"), ("pmu-mem-burst", "BURST"),
                        ("pmu-write-buffer", "WBUF_DEPTH")):
        macro = "LEON3_PMU_MAX_" + ("MEM_" + macro if macro != "WBUF_DEPTH" else macro)
        rows.append((d.number(rf"`{prop}` \| \d+ \| [^|]*\((?:0|1)–(\d+)"), None, None,
                     macro))
    # the shadow D-caches: DSHADOW[k] is a D-cache configuration register
    nshadow = d.number(r"up\s+to (\d+) more D-caches")
    rows.append((nshadow, "LEON3_PMU_SHADOWS", "PMU_NSHADOW", "LEON3_PMU_NR_SHADOWS"))
    for k in (0, nshadow - 1):
        rows.append((reg("DSHADOW", k), f"PMU_DSHADOW({k})", f"PMU_DSHADOW({k})",
                     f"LEON3_PMU_DSHADOW({k})"))
    for field, label in (("REPL", "REPL"), ("SETS", "ways"), ("SSIZE", "log2 KiB"),
                         ("LSIZE", "log2 words")):
        rows.append((bit("DSHADOW", label) >> shift("DSHADOW", label),
                     f"DSHADOW_{field}(0xffffffff)", f"CFG_{field}(0xffffffff)", None))
    # the shadow I-caches: ISHADOW[k] the same for the I-cache
    rows.append((bit("FEATURES", "shadow I-caches"), "FEAT_ISHADOW", "FEAT_ISHADOW",
                 "LEON3_PMU_FEAT_ISHADOW"))
    for k in (0, nshadow - 1):
        rows.append((reg("ISHADOW", k), f"PMU_ISHADOW({k})", f"PMU_ISHADOW({k})",
                     f"LEON3_PMU_ISHADOW({k})"))
    # the user window: UWIN holds its address and EN
    rows.append((bit("FEATURES", "the user window"), "FEAT_UWIN", "FEAT_UWIN",
                 "LEON3_PMU_FEAT_UWIN"))
    rows.append((reg("UWIN"), "PMU_UWIN", "PMU_UWIN", "LEON3_PMU_UWIN"))
    rows.append((bit("UWIN", "EN"), "UWIN_EN", "UWIN_EN", "LEON3_PMU_UWIN_EN"))
    rows.append((bit("UWIN", "the window's"), "UWIN_BASE", "UWIN_BASE", "LEON3_PMU_UWIN_BASE"))
    rows.append((d.number(r"`leon3_generic` maps it at (0x[0-9A-Fa-f]+)"), None, "UWIN_WINDOW",
                 None))
    rows += [
        (shift("FEATURES", "version"), None, None, "LEON3_PMU_FEAT_VERSION_SHIFT"),
        (bit("IRQLINE", "the IRQMP"), "IRQLINE_LINE(0xffffffff)", None, None),
        (next(i for i, n in d.events.items() if n == "cycles"), None, None,
         "LEON3_PMU_EV_CYCLES"),
        # the timing model
        (d.cycles("JMPL, RETT"), None, None, "LEON3_CYC_JMPL_RETT"),
        (d.cycles("LDD"), None, None, "LEON3_CYC_LDD"),
        (d.cycles("ST, STB, STH, STF"), None, None, "LEON3_CYC_ST"),
        (d.cycles("STD, STDF"), None, None, "LEON3_CYC_STD"),
        (d.cycles("LDSTUB, SWAP, CASA"), None, None, "LEON3_CYC_ATOMIC"),
        (d.cycles("+ load-use interlock", r"\+(\d+)"), None, None, "LEON3_CYC_LOAD_USE"),
        (d.cycles("+ branch after cc", r"\+(\d+)"), None, None, "LEON3_CYC_BRANCH_CC"),
        (d.cycles("FPop", r"^(\d+)"), None, None, "LEON3_CYC_FPOP"),
        (d.cycles("FPop", r"FDIV (\d+)"), None, None, "LEON3_CYC_FDIV"),
        (d.cycles("FPop", r"FSQRT (\d+)"), None, None, "LEON3_CYC_FSQRT"),
        (d.cycles("taken trap or interrupt", r"\+(\d+)"), None, None, "LEON3_CYC_TRAP"),
        (d.cycles("cache read miss, uncached load or fetch", r"\+(\d+)"), None, None,
         "LEON3_CYC_MISS"),
        (d.cycles("cache read miss, uncached load or fetch", r"\+(\d+) more"), None, None,
         "LEON3_CYC_MISS_MMU"),
    ]
    return rows


def copy_facts(rows, column):
    """The (macro, args, want) of one copy (column 1, 2 or 3 of facts())."""
    out = []
    for row in rows:
        m = row[column] and re.fullmatch(r"(\w+)(?:\((\w+)\))?", row[column])
        if m:
            out.append((m.group(1), [int(m.group(2), 0)] if m.group(2) else [], row[0]))
    return out


def main():
    d = Doc(DOC)
    ncnt = d.number(r"7:3 NCNT = (\d+)")
    check("the document has the core and extension registers",
          {"GCTRL", "OVF", "CYCCNT", "CYCCTRL", "EVCNT", "EVCTRL", "FEATURES", "IRQLINE",
           "PID", "PIDMATCH", "RANGE_LO",
           "RANGE_HI", "DSHADOW", "MEMTIME", "TRCTRL", "TRTIME_LO"} <= set(d.regs),
          str(sorted(d.regs)))
    check("the document has the trace unit's eleven record types and software's SYNC",
          sorted(d.records) == list(range(1, 13)) and d.software_records == {"SYNC"} and
          d.records[9] == "SYNC", f"{d.records} {d.software_records}")
    window_end = d.number(r"Reserved addresses\s+in 0xC0–(0x[0-9A-F]+)")

    rows = facts(d, ncnt, window_end)

    # The driver.
    compare("kernel/leon3_pmu.[ch]", Macros(DRIVER_H, DRIVER), copy_facts(rows, 1))

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

    perf_json(d, ncnt)
    libpfm4(d)

    # The bare-metal tests.
    compare("tests/baremetal/pmu.h", Macros(BAREMETAL), copy_facts(rows, 2))

    # perf's decoder of the trace unit's records, as a kernel patch adds it
    path = "tools/perf/util/leon3-trace.h"
    text = series_new_files("kernel/patches").get(path, "")
    check(f"kernel/patches: a patch adds perf's {path}", text)
    returns = d.number(r"return addresses \(PC \+ 8\) of the last (\d+) calls")
    compare(f"perf {path}", Macros(text=text),
            [(f"LEON3_TRACE_REC_{name}", [], rtype) for rtype, name in d.records.items()] +
            [("LEON3_TRACE_REC_SIZE", [], d.number(r"Records are (\d+) bytes")),
             ("LEON3_TRACE_RETURNS", [], returns)])

    # The guest programs that read records themselves: leon3-pidlog's and
    # leon3-hunt-run's reader, and the benchmark's trace-stat
    pidrec = os.path.join(TOP, "tools/pidlog/pid-records.h")
    compare("tools/pidlog/pid-records.h", Macros(pidrec),
            [(f"PIDREC_{name}", [], rtype) for rtype, name in d.records.items()
             if name in ("START", "PID", "LOST", "STOP", "TIME")] +
            [("PIDREC_SIZE", [], d.number(r"Records are (\d+) bytes"))])
    stat = os.path.join(TOP, "tools/bench/trace-stat.c")
    compare("tools/bench/trace-stat.c", Macros(stat),
            [(name, [], rtype) for rtype, name in d.records.items()] +
            [("NTYPES", [], max(d.records) + 1), ("REC_SIZE", [],
                                                 d.number(r"Records are (\d+) bytes"))])

    # The QEMU model, as the qemu stage left its patched source.
    if not os.path.exists(QEMU):
        not_ok(f"the patched QEMU source is kept (make qemu): {QEMU} is missing")
        return 1
    qemu = Macros(QEMU)
    compare("QEMU target/sparc/leon3-pmu.h", qemu, copy_facts(rows, 3) +
            [("LEON3_TRACE_RETURNS", [], returns)])

    # The QEMU model's event table: the document's ids and names; and
    # address-range (AF) counters count every event: the document places
    # each one, and QEMU's table has no event an AF counter skips.
    text = open(QEMU_C).read()
    text = text[text.index("leon3_pmu_events[256] = {"):]
    text = text[:text.index("\n};")]
    qev, qaf = {}, set()
    for i, name, rest in re.findall(r"\[(\w+)\] = \{ \"(\w+)\",([^}]*)\}", text):
        i = int(i, 16) if i.startswith("0x") else qemu.value(i)
        qev[i] = name
        if ".af" in rest:
            qaf.add(i)
    check(f"QEMU leon3-pmu.c: leon3_pmu_events[] is the document's event table "
          f"({len(d.events)} events)", qev == d.events,
          f"only in QEMU: {sorted(set(qev.items()) - set(d.events.items()))}, "
          f"only in the document: {sorted(set(d.events.items()) - set(qev.items()))}")
    m = re.search(r"\*\*Address ranges\.\*\*(.*?)\*\*Trace unit\.\*\*", d.text, re.S)
    doc_af = {int(x, 16) for x in re.findall(r"0x[0-9A-F]{2}", m.group(1))} if m else set()
    check("Documentation: the address ranges say where each event of the table is "
          "attributed", doc_af == set(d.events),
          f"not placed: {sorted(map(hex, set(d.events) - doc_af))}")
    check("QEMU leon3-pmu.c: no event that AF counters skip", not qaf,
          f"marked .af: {sorted(map(hex, qaf))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
