#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# tests/run: one-core
#
# The guest measures what a LEON3 would: user-only counts of known code
# (tests/pmu/fidelity.c), in the guest of tools/leon3-run on 1, 2 and 4
# CPUs, each CPU in turn, against what an independent calculation
# predicts from the cache geometry, the TLB size and the timing table.
# Every one of those figures is read from Documentation/pmu-registers.md
# (the QEMU properties' defaults and the timing model), so the document,
# the model and the guest are held to each other; /proc/cpuinfo must
# report the same geometry and the caches on, as the PROM leaves them,
# and cacheinfo (/sys/devices/system/cpu/cpuN/cache, the kernel patch
# "sparc32: LEON: describe the caches to cacheinfo")
# each CPU's two caches; both again, and a sweep's cycles, for another
# geometry and memory timing than the document's, given to QEMU through
# tools/leon3-run; and a memory timing out of its range is refused.
#
# Each measurement runs 5 times; the checks take the median run (a
# timer interrupt in the middle of one run evicts lines) and say which
# runs they saw.  Equalities that hold in every run (cache accesses and
# the loads, stores and instructions they come from) are checked in
# every run.

import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lib import TOP, RUN, CC, ok, not_ok, check, cache_geometry, \
    doc_cache_geometry, doc_memory_timing  # noqa: E402

DOC = os.path.join(TOP, "Documentation/pmu-registers.md")
PAGE = 4096


def within(desc, got, lo, hi, runs=None):
    """GOT in [LO, HI]; RUNS, the values of every run GOT is the median of."""
    seen = f" (median of {' '.join(f'{v:g}' for v in runs)})" if runs else ""
    check(f"{desc}: {got:g} in [{lo:g}, {hi:g}]{seen}", lo - 1e-9 <= got <= hi + 1e-9,
          "outside the predicted range")


class Doc:
    """The figures of Documentation/pmu-registers.md the checks need."""

    def __init__(self, path):
        with open(path) as f:
            self.text = f.read()

    def row(self, first):
        """The cells after the first of the table row whose first cell is FIRST."""
        for line in self.text.splitlines():
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) >= 2 and cells[0] == first:
                return cells[1:]
        raise SystemExit(f"fidelity.t: no table row '{first}' in {DOC}")

    def number(self, first, pattern=r"(\d+)"):
        cell = self.row(first)[0]
        m = re.search(pattern, cell)
        if not m:
            raise SystemExit(f"fidelity.t: row '{first}' of {DOC}: '{cell}' has no figure")
        return int(m.group(1))


doc = Doc(DOC)
ICACHE, DCACHE = doc_cache_geometry("icache"), doc_cache_geometry("dcache")
DTLB = int(doc.row("`itlb-entries`, `dtlb-entries`")[0].split(",")[1])
# The timing table: cycles of each instruction and penalty.
CYC = {
    "most": doc.number("most"),
    "st": doc.number("ST, STB, STH, STF"),
    "mul": doc.number("UMUL/SMUL(cc)", r"default (\d+)"),
    "load_use": doc.number("+ load-use interlock", r"\+(\d+)"),
    "branch_cc": doc.number("+ branch after cc", r"\+(\d+)"),
}
TIMING = doc_memory_timing()                       # the guest runs with the MMU on
TLB_MISS = TIMING["tlb"]

# The kernels' instruction mixes (tests/pmu/fidelity.c).
DSWEEP_LOAD = CYC["most"] * 5 + CYC["branch_cc"]          # ld add cmp bne nop
DSWEEP_PASS = CYC["most"] * 5 + CYC["branch_cc"]          # mov add subcc bne nop
IPC_ITER = (CYC["most"] * 5 + CYC["load_use"] + CYC["st"] + CYC["mul"] +
            CYC["branch_cc"])                              # ld add st umul subcc bne nop
IPC_INSNS = 7
# Runs of the same IPC loop differ by up to 152 cycles (two lines a
# timer interrupt evicted: 220312 to 220464 and 2420312 to 2420464,
# three boots on 2026-12-06); the short and the long median run can
# differ by that much each way, which moves the slope by twice that
IPC_NOISE = 2 * 152
# The write buffer (its section of the document, and its properties)
WBUF = {"depth": int(doc.row("`pmu-write-buffer`")[0]),
        "write": int(doc.row("`pmu-mem-write`")[0])}
# cycles around the loop: its call and return (276 measured), and the 8
# load misses of wburst_cached (374 with them)
WB_SLACK = 500


def wburst_iteration():
    """Cycles and write-buffer holds of an iteration of fidelity.c's wburst
    (8 stores, subcc, bne, nop) in the steady state, by the document's
    rules: a store waits until the buffer has a place (the oldest write in
    it ended, if it holds pmu-write-buffer writes), a write starts when
    the one before it ended and takes pmu-mem-write cycles."""
    body = ["st"] * 8 + ["subcc", "bne", "nop"]
    cost = {"st": CYC["st"], "subcc": CYC["most"], "bne": CYC["most"] + CYC["branch_cc"],
            "nop": CYC["most"]}
    depth, write = WBUF["depth"], WBUF["write"]
    t, ends, iters = 0, [], []
    for _ in range(4):
        begin, held = t, 0
        for insn in body:
            if insn == "st":
                pending = [e for e in ends if e > t]
                if depth == 0:
                    hold = max([t] + ends[-1:]) + write - t
                    ends.append(t + hold)
                else:
                    hold = pending[-depth] - t if len(pending) >= depth else 0
                    ends.append(max([t + hold] + ends[-1:]) + write)
                t += hold
                held += hold
            t += cost[insn]
        iters.append((t - begin, held))
    return iters[-1]


WB_ITER, WB_HOLD = wburst_iteration()
SLACK = 12          # misses of the user code around a run (ioctl(), the loop's call)


def repl_name(r):
    return {"lru": "LRU", "lrr": "LRR", "random": "random"}[r]


def cpuinfo_geometry(g, snoop):
    return (f"{g['size'] // 1024} KiB, {g['ways']} x {g['way_kib']} KiB, "
            f"{g['line']}-byte lines, {repl_name(g['repl'])}{', snooping' if snoop else ''}")


def parse(out):
    """{name: {cpu: [{key: value}, ...]}}, the snoop lines, and the sizes
    of the loops ({"small": B, "big": B, "wburst": iterations})."""
    runs, snoops, iloops = {}, [], None
    for line in out.splitlines():
        words = line.split()
        if not words:
            continue
        if words[0] in ("iloops", "wburst") and "run=" not in line:
            kv = {k: int(v) for k, v in (w.split("=") for w in words[1:])}
            if words[0] == "iloops":
                iloops = {**(iloops or {}), **kv}
            else:
                iloops = {**(iloops or {}), "wburst": kv["iterations"]}
            continue
        if not all("=" in w for w in words[1:]) or len(words) < 2:
            continue
        kv = {k: int(v) for k, v in (w.split("=") for w in words[1:])}
        if words[0] == "snoop":
            snoops.append(kv)
        elif "run" in kv:
            runs.setdefault(words[0], {}).setdefault(kv["cpu"], []).append(kv)
    return runs, snoops, iloops


def median_run(rs, key):
    """The run whose KEY is the median of the runs'."""
    s = sorted(rs, key=lambda r: r[key])
    return s[len(s) // 2]


def check_dsweep_cycles(tag, runs, cpu, dcache, timing=TIMING):
    """The cycles of 3 passes of loads a line apart over 16 times the
    D-cache: every load misses, and every page a D-TLB miss when the pages
    are more than the TLB holds; with the memory timing TIMING."""
    a = runs.get("dbig_cycles", {}).get(cpu, [])
    b = runs.get("dbig_cycles_miss", {}).get(cpu, [])
    if len(a) != 5 or len(b) != 5:
        not_ok(f"{tag}: the sweep's cycles measured 5 times alone and 5 beside "
               f"a miss event (got {len(a)} and {len(b)})")
        return
    loads = 16 * dcache["size"] // dcache["line"]
    pages = 16 * dcache["size"] // PAGE
    tlb = pages if pages > DTLB else 0
    miss = timing["dmiss"](dcache["line"])
    want = 3 * (loads * (DSWEEP_LOAD + miss) + DSWEEP_PASS + tlb * timing["tlb"])
    ca = median_run(a, "cycles")["cycles"]
    cb = median_run(b, "cycles")["cycles"]
    within(f"{tag}: cycles of 3 passes over {16 * dcache['size']} bytes, a load per "
           f"{dcache['line']}-byte line, counted alone (timing table: {miss} a miss, "
           f"{timing['tlb']} a TLB miss)", ca, want * 0.99, want * 1.01, [x["cycles"] for x in a])
    within(f"{tag}: ... and beside a D-cache miss event",
           cb, want * 0.99, want * 1.01, [x["cycles"] for x in b])
    check(f"{tag}: counting a cache event beside cycles leaves them unchanged "
          f"({ca} alone, {cb} with L1-dcache-load-misses)", abs(ca - cb) <= ca * 0.005)


def check_cpu(runs, cpu, ncpus, iloops):
    tag = f"{ncpus} CPU(s), CPU {cpu}"

    def get(name):
        rs = runs.get(name, {}).get(cpu, [])
        if len(rs) != 5:
            not_ok(f"{tag}: {name}: 5 runs measured (got {len(rs)})")
            return None
        return rs

    dl = DCACHE["line"]
    rs = get("dfit")
    if rs:
        lines = DCACHE["size"] // 2 // dl
        r = median_run(rs, "l1d_load_misses")
        within(f"{tag}: D-cache read misses, 20 passes over {DCACHE['size'] // 2} bytes "
               f"(fits: {lines} cold lines)", r["l1d_load_misses"], lines, lines + SLACK,
               [x["l1d_load_misses"] for x in rs])
        check(f"{tag}: D-cache read accesses equal the loads, every run, non-zero",
              all(x["l1d_loads"] == x["loads"] > 20 * lines for x in rs),
              "; ".join(f"{x['l1d_loads']} vs {x['loads']}" for x in rs))
    rs = get("dbig")
    if rs:
        want = 3 * 16 * DCACHE["size"] // dl
        r = median_run(rs, "l1d_load_misses")
        within(f"{tag}: D-cache read misses, 3 passes over {16 * DCACHE['size']} bytes "
               f"(every line misses)", r["l1d_load_misses"], want, want * 1.01 + SLACK,
               [x["l1d_load_misses"] for x in rs])
    check_dsweep_cycles(tag, runs, cpu, DCACHE)
    il = ICACHE["line"]
    rs = get("ismall")
    if rs and iloops:
        lines = iloops["small"] // il + 1        # + the line of the return
        r = median_run(rs, "l1i_load_misses")
        within(f"{tag}: I-cache misses, 20 runs of a {iloops['small']}-byte loop "
               f"(fits: {lines} cold lines)", r["l1i_load_misses"], lines, lines + SLACK,
               [x["l1i_load_misses"] for x in rs])
        check(f"{tag}: I-cache accesses equal the instructions, every run",
              all(x["l1i_loads"] == x["instructions"] > 20 * iloops["small"] // 4
                  for x in rs),
              "; ".join(f"{x['l1i_loads']} vs {x['instructions']}" for x in rs))
    rs = get("ibig")
    if rs and iloops:
        want = 20 * iloops["big"] // il
        r = median_run(rs, "l1i_load_misses")
        within(f"{tag}: I-cache misses, 20 runs of a {iloops['big']}-byte loop "
               f"(larger than the {ICACHE['size']}-byte I-cache: every line misses)",
               r["l1i_load_misses"], want, want * 1.01 + SLACK,
               [x["l1i_load_misses"] for x in rs])
    for name, how in (("wburst", "to lines not cached"),
                      ("wburst_cached", "to cached lines")):
        rs = get(name)
        if not rs or not iloops:
            continue
        n = iloops["wburst"]
        r = median_run(rs, "cycles")
        within(f"{tag}: {n} x 8 stores {how} (write buffer of {WBUF['depth']}, writes of "
               f"{WBUF['write']} cycles: {WB_ITER} cycles an iteration, {WB_HOLD} of them "
               f"waiting)", r["cycles"], n * WB_ITER, n * WB_ITER + WB_SLACK,
               [x["cycles"] for x in rs])
        within(f"{tag}: ... write_buffer_hold of that run", r["write_buffer_hold"],
               n * WB_HOLD - WB_SLACK // 4, n * WB_HOLD + WB_SLACK // 4)
        check(f"{tag}: ... dcache_hold counts the write buffer's cycles too",
              r["write_buffer_hold"] <= r["dcache_hold"] <=
              r["write_buffer_hold"] + WB_SLACK, f"{r['dcache_hold']}")
        check(f"{tag}: ... {8 * n} stores counted and at most 8 of the code around the "
              "loop, the same every run",
              len({x["stores"] for x in rs}) == 1 and 0 <= rs[0]["stores"] - 8 * n <= 8,
              str([x["stores"] for x in rs]))
    s, l = get("ipc_small"), get("ipc_large")
    if s and l:
        rs_, rl = median_run(s, "cycles"), median_run(l, "cycles")
        dn = 220000 - 20000
        cyc = (rl["cycles"] - rs_["cycles"]) / dn
        lo, hi = IPC_ITER - IPC_NOISE / dn, IPC_ITER + IPC_NOISE / dn
        ins = (rl["instructions"] - rs_["instructions"]) / dn
        check(f"{tag}: the IPC loop runs {IPC_INSNS} instructions an iteration "
              f"(got {ins:g})", ins == IPC_INSNS)
        within(f"{tag}: cycles an iteration of ld/add/st/umul/subcc/bne/nop "
               f"(timing table: {IPC_ITER}; median runs of cycles "
               f"{' '.join(str(x['cycles']) for x in s)} and "
               f"{' '.join(str(x['cycles']) for x in l)}; +-{IPC_NOISE} cycles of "
               f"interrupts over {dn} iterations)", cyc, lo, hi)
        within(f"{tag}: IPC of that loop ({IPC_INSNS}/{IPC_ITER} = {IPC_INSNS / IPC_ITER:.4f})",
               ins / cyc, IPC_INSNS / hi, IPC_INSNS / lo)
        check(f"{tag}: D-cache write accesses equal the stores, every run, non-zero",
              all(x["l1d_stores"] == x["stores"] >= 20000 for x in s + l),
              "; ".join(f"{x['l1d_stores']} vs {x['stores']}" for x in s + l))


def build(tmp):
    prog = os.path.join(tmp, "fidelity")
    r = subprocess.run([CC, "-static", "-pthread", "-O2", "-Wall", "-Werror",
                        os.path.join(TOP, "tests/pmu/fidelity.c"), "-o", prog],
                       capture_output=True, text=True)
    if r.returncode:
        not_ok(f"fidelity.c builds: {' '.join(r.stderr.splitlines()[:3])}")
        sys.exit(1)
    return prog


# What the kernel gives cacheinfo (/sys/devices/system/cpu/cpuN/cache/)
CACHEINFO = "grep -r . /sys/devices/system/cpu/cpu*/cache/"


def guest(prog, ncpus, caches="on", timeout=300):
    script = ["cat /proc/cpuinfo", CACHEINFO]
    for cpu in range(ncpus):
        script.append(f"/root/fidelity {cpu} {DCACHE['line']} {DCACHE['size']}")
    if ncpus > 1:
        script.append(f"/root/fidelity snoop 0 {ncpus - 1} {DCACHE['line']}")
    r = subprocess.run([RUN, "--timeout", str(timeout), "--cpus", str(ncpus),
                        "--caches", caches, "--add", prog, "--",
                        "sh", "-c", " && ".join(script)],
                       capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


def check_cpuinfo(out, ncpus, state="on"):
    tag = f"{ncpus} CPU(s)"
    info = dict(re.findall(r"^(\S[^\t:]*?)\s*:\s*(.*)$", out, re.M))
    check(f"{tag}: /proc/cpuinfo gives the I-cache geometry of the document",
          info.get("icache") == cpuinfo_geometry(ICACHE, False),
          f"'{info.get('icache')}'")
    check(f"{tag}: /proc/cpuinfo gives the D-cache geometry of the document",
          info.get("dcache") == cpuinfo_geometry(DCACHE, True),
          f"'{info.get('dcache')}'")
    # Linux sets DS itself (leon_configure_cache_smp(), an SMP kernel's
    # boot, whatever the cache states), so snooping is on either way.
    flag = "on" if state == "on" else "off"
    for cpu in range(ncpus):
        want = f"I {state}, D {state}, snooping on, burst fetch {flag}"
        got = info.get(f"CPU{cpu} caches", "")
        check(f"{tag}: CPU {cpu}'s caches as the PROM left them: {want}",
              got.startswith(want + " (control 0x"), f"'{got}'")


def check_cacheinfo(out, tag, ncpus, icache=ICACHE, dcache=DCACHE):
    """Each CPU's /sys/devices/system/cpu/cpuN/cache: its own level 1
    D-cache (index0) and I-cache (index1) of the geometry given, their
    policies those of a LEON3 (allocate on read misses, write through)."""
    got = {}
    for cpu, index, name, value in re.findall(
            r"^/sys/devices/system/cpu/cpu(\d+)/cache/index(\d+)/(\w+):(.*)$", out, re.M):
        got.setdefault(int(cpu), {}).setdefault(int(index), {})[name] = value
    check(f"{tag}: cacheinfo describes each CPU's caches, two each",
          sorted(got) == list(range(ncpus)) and
          all(sorted(got[c]) == [0, 1] for c in got), str(got)[:300])
    for cpu in range(ncpus):
        for index, kind, g in ((0, "Data", dcache), (1, "Instruction", icache)):
            want = {"level": "1", "type": kind, "size": f"{g['size'] // 1024}K",
                    "ways_of_associativity": str(g["ways"]),
                    "coherency_line_size": str(g["line"]),
                    "number_of_sets": str(g["way_kib"] * 1024 // g["line"]),
                    "allocation_policy": "ReadAllocate",
                    "id": str(cpu), "shared_cpu_list": str(cpu)}
            if kind == "Data":
                want["write_policy"] = "WriteThrough"
            have = got.get(cpu, {}).get(index, {})
            check(f"{tag}: cpu{cpu}/cache/index{index}: the {kind} cache of "
                  f"{want['size']}, {g['ways']} ways, {g['line']}-byte lines",
                  {k: have.get(k) for k in want} == want and
                  ("write_policy" in have) == (kind == "Data"), str(have))


# The memory timing of the other geometry's run: not the defaults
OTHER_LATENCY, OTHER_BURST = 10, 2


def check_other_geometry(prog):
    """Another geometry and memory timing than the document's, on 2 CPUs:
    what the guest reports is what QEMU was given, not the defaults, and
    a sweep's cycles are what that geometry and timing imply."""
    icache = cache_geometry(4, 1, 16, "random")
    dcache = cache_geometry(4, 4, 32, "lrr")
    opts = []
    for name, g in (("icache", icache), ("dcache", dcache)):
        for prop, key in (("ways", "ways"), ("way-kib", "way_kib"), ("line", "line"),
                          ("repl", "repl")):
            opts += ["--qemu-opt=-global", "--qemu-opt",
                     f"LEON3-sparc-cpu.{name}-{prop}={g[key]}"]
    for prop, value in (("pmu-mem-latency", OTHER_LATENCY), ("pmu-mem-burst", OTHER_BURST)):
        opts += ["--qemu-opt=-global", "--qemu-opt", f"LEON3-sparc-cpu.{prop}={value}"]
    r = subprocess.run([RUN, "--timeout", "300", "--cpus", "2", *opts, "--add", prog, "--",
                        "sh", "-c", f"cat /proc/cpuinfo && {CACHEINFO} && "
                        f"/root/fidelity 0 {dcache['line']} {dcache['size']}"],
                       capture_output=True, text=True)
    tag = ("2 CPUs, I-cache 4 x 1 KiB random, D-cache 4 x 4 KiB 32-byte lines LRR, "
           f"memory latency {OTHER_LATENCY}, burst {OTHER_BURST}")
    if r.returncode:
        not_ok(f"{tag}: the guest booted (exit {r.returncode}): "
               f"{' | '.join((r.stderr + r.stdout).strip().splitlines()[-8:])}")
        return
    info = dict(re.findall(r"^(\S[^\t:]*?)\s*:\s*(.*)$", r.stdout, re.M))
    check(f"{tag}: /proc/cpuinfo gives both geometries",
          info.get("icache") == cpuinfo_geometry(icache, False) and
          info.get("dcache") == cpuinfo_geometry(dcache, True),
          f"'{info.get('icache')}' '{info.get('dcache')}'")
    check_cacheinfo(r.stdout, tag, 2, icache, dcache)
    runs, _, _ = parse(r.stdout)
    check_dsweep_cycles(f"{tag}, CPU 0", runs, 0, dcache,
                        doc_memory_timing(OTHER_LATENCY, OTHER_BURST))


# Out of range: each property of the memory timing with the first value
# its range leaves out (Documentation/pmu-registers.md, QEMU properties)
BAD_TIMING = (("pmu-mem-latency", 1001, "pmu-mem-latency 1001: at most 1000 cycles"),
              ("pmu-mem-write", 0, "pmu-mem-write 0: must be 1-64 cycles"),
              ("pmu-mem-write", 65, "pmu-mem-write 65: must be 1-64 cycles"),
              ("pmu-mem-burst", 17, "pmu-mem-burst 17: at most 16 cycles"),
              ("pmu-write-buffer", 5, "pmu-write-buffer 5: at most 4 stores"))


def check_bad_timing():
    """QEMU refuses a memory timing out of its range, through the
    launcher, with the property and the range, and boots nothing."""
    for prop, value, why in BAD_TIMING:
        r = subprocess.run([RUN, "--timeout", "60", "--qemu-opt=-global", "--qemu-opt",
                            f"LEON3-sparc-cpu.{prop}={value}", "--", "echo", "BOOTED"],
                           capture_output=True, text=True)
        out = r.stdout + r.stderr
        check(f"leon3-run with {prop}={value}: QEMU refuses it, saying {why!r}",
              r.returncode != 0 and why in out and "BOOTED" not in r.stdout,
              f"exit {r.returncode}: {out.strip()[-300:]}")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        prog = build(tmp)
        for ncpus in (1, 2, 4):
            rc, out, err = guest(prog, ncpus)
            if rc:
                not_ok(f"{ncpus} CPU(s): the measurements ran (exit {rc}): "
                       f"{' | '.join((err + out).strip().splitlines()[-8:])}")
                continue
            check_cpuinfo(out, ncpus)
            check_cacheinfo(out, f"{ncpus} CPU(s)", ncpus)
            runs, snoops, iloops = parse(out)
            check(f"{ncpus} CPU(s): the I-cache loops have their sizes", iloops and
                  iloops["small"] == 1024 and iloops["big"] == 16384, str(iloops))
            for cpu in range(ncpus):
                check_cpu(runs, cpu, ncpus, iloops)
            if ncpus > 1:
                if len(snoops) != 1:
                    not_ok(f"{ncpus} CPU(s): the snooping measurement ran")
                    continue
                s = snoops[0]
                lo = s["rounds"] * s["lines"]
                within(f"{ncpus} CPU(s): the reader on CPU 0 misses again on each line "
                       f"the writer on CPU {s['writer']} stored to ({s['rounds']} rounds x "
                       f"{s['lines']} lines: snooping)", s["l1d_load_misses"], lo,
                       s["rounds"] * (s["lines"] + 2) + SLACK)

        check_other_geometry(prog)
        check_bad_timing()

        # Booted with the caches off, as documented: nothing is cached.
        rc, out, err = guest(prog, 1, caches="off", timeout=120)
        if rc:
            not_ok(f"--caches off: the measurements ran (exit {rc}): "
                   f"{' | '.join((err + out).strip().splitlines()[-8:])}")
            return
        check_cpuinfo(out, 1, "off")
        runs, _, _ = parse(out)
        rs = runs.get("dfit", {}).get(0, [])
        check("--caches off: no D-cache read accesses or misses while loads run",
              len(rs) == 5 and all(x["l1d_loads"] == 0 and x["l1d_load_misses"] == 0 and
                                   x["loads"] > 0 for x in rs), str(rs[:1]))


if __name__ == "__main__":
    main()
