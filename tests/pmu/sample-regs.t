#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# tests/run: one-core
#
# Sampled registers and user stacks on sparc32 (kernel/patches/0018) and
# perf's DWARF unwinding with them (0026, 0027), in the guest:
#   - tests/pmu/sample-regs.c checks PERF_SAMPLE_REGS_USER, _REGS_INTR and
#     _STACK_USER against a function that sets its own registers, and the
#     errno of bad masks;
#   - perf record --call-graph dwarf on tests/pmu/workload.c: a sample in
#     the leaf function leaf_work() unwinds to outer_leaf() and main(),
#     where the frame-pointer chain (-g) skips outer_leaf(); a sample in
#     work(), which has a window, unwinds to outer() and main();
#   - perf record --user-regs and perf script -F uregs name the registers,
#     and the sampled pc is the sample's ip and %o7 the call in
#     outer_leaf(), as nm places them;
#   - perf's own "Test dwarf unwind" (perf test, kernel/patches/0031).

import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lib import (ok, not_ok, check, build_guest, build_workload, guest_sections,  # noqa: E402
                 exit_code, function_symbols, symbol_chains)

PERIOD = 100003
LOOPS = 3000000

GUEST = rf"""
cd /root
# (every sample kept: perf's interrupt-time limit off, as in perf.t)
echo 0 >/proc/sys/kernel/perf_cpu_time_max_percent
sec() {{ echo "== $1"; }}
sec regs; /root/sample-regs 2>&1; echo "exit $?"
for mode in leaf spin; do
sec dwarf-$mode
# (8 KiB of stack a sample: a ring of 2 MiB, so that none is lost)
perf record -q -m 512 --call-graph dwarf -e instructions:u -c {PERIOD} -o /tmp/d.data \
	/root/workload $mode {LOOPS} 2>&1; echo "exit $?"
perf script -i /tmp/d.data -F ip,sym 2>&1; echo "exit $?"
done
sec fp-leaf
perf record -q -g -e instructions:u -c {PERIOD} -o /tmp/f.data /root/workload leaf {LOOPS} 2>&1
perf script -i /tmp/f.data -F ip,sym 2>&1
sec uregs
perf record -q --user-regs=pc,sp,o7 -e instructions:u -c {PERIOD} -o /tmp/r.data \
	/root/workload leaf {LOOPS} 2>&1; echo "exit $?"
perf script -i /tmp/r.data -F ip,uregs 2>&1; echo "exit $?"
sec regs-list; perf record --user-regs=? 2>&1
sec perf-test; perf test dwarf 2>&1; echo "exit $?"
sec end
"""


def named(chain):
    """A call chain's function names."""
    return [sym for _, sym in chain]


def main():
    tmp = tempfile.mkdtemp()
    try:
        prog = build_guest(tmp, "sample-regs")
    except RuntimeError as e:
        not_ok(str(e))
        return
    try:
        workload = build_workload(tmp)
    except RuntimeError as e:
        not_ok(str(e))
        return
    funcs = function_symbols(workload)
    syms = {n: (a, b) for a, b, n in funcs}

    s, why = guest_sections(tmp, GUEST, [prog, workload], "--timeout", "300")
    if s is None:
        not_ok(f"the guest ran the register and unwinding checks: {why}")
        return

    # sample-regs.c's own TAP lines
    tap = [x for x in s.get("regs", []) if re.match(r"^(not )?ok - ", x)]
    for line in tap:
        print(line)
    check("sample-regs: 9 checks ran, and it exited 0",
          len(tap) == 9 and exit_code(s.get("regs", [])) == 0,
          f"{len(tap)} checks, exit {exit_code(s.get('regs', []))}")

    # --call-graph dwarf through a leaf function
    for mode, want in (("leaf", ["leaf_work", "outer_leaf", "main"]),
                       ("spin", ["work", "outer", "main"])):
        lines = s.get(f"dwarf-{mode}", [])
        every = symbol_chains(lines)
        chains = [c for c in every if c[0][1] == want[0]]
        bad = [named(c)[:4] for c in chains if named(c)[:3] != want]
        check(f"perf record --call-graph dwarf: every sample in {want[0]}() unwinds to "
              f"{', '.join(want[1:])} ({len(chains)} samples)",
              exit_code(lines) == 0 and len(chains) >= LOOPS * 3 // PERIOD - 2 and not bad,
              f"exit {exit_code(lines)}; {len(chains)} samples of {len(every)}; "
              f"{len(bad)} wrong: {bad[:3]}; elsewhere: {[named(c)[:2] for c in every if c not in chains][:3]}")
    fp = [c for c in symbol_chains(s.get("fp-leaf", [])) if c[0][1] == "leaf_work"]
    check("perf record -g: a frame-pointer chain from leaf_work() goes to main(), "
          "without outer_leaf() (Documentation/driver.md: why dwarf)",
          fp and all(named(c)[1:2] == ["main"] for c in fp),
          str([named(c)[:3] for c in fp[:3]]))

    # --user-regs: names, and values against the code
    regs = []
    for line in s.get("uregs", []):
        m = re.match(r"^\s*([0-9a-f]+)\s+ABI:(\d+)\s+(.*)$", line)
        if m:
            vals = {k: int(v, 16) for k, v in re.findall(r"(\w+):0x([0-9a-f]+)", m.group(3))}
            regs.append((int(m.group(1), 16), int(m.group(2)), vals))
    lw, ol = syms["leaf_work"], syms["outer_leaf"]
    inleaf = [r for r in regs if lw[0] <= r[0] < lw[1]]
    bad = [r for r in inleaf if r[1] != 1 or sorted(r[2]) != ["o7", "pc", "sp"]
           or r[2]["pc"] != r[0] or not ol[0] <= r[2]["o7"] < ol[1] or r[2]["sp"] % 8]
    check("perf script -F uregs: ABI 32, pc the sample's ip, o7 the call in outer_leaf(), "
          "sp aligned, in every sample in leaf_work()",
          exit_code(s.get("uregs", [])) == 0 and len(inleaf) >= LOOPS * 3 // PERIOD - 2 and not bad,
          f"{len(inleaf)} samples; wrong: {bad[:3]}")
    listed = " ".join(s.get("regs-list", []))
    names = "g0 g1 g2 g3 g4 g5 g6 g7 o0 o1 o2 o3 o4 o5 sp o7 pc npc psr y".split()
    check("perf record --user-regs=? lists the 20 sparc32 registers",
          all(re.search(rf"\b{n}\b", listed) for n in names), listed[:200])
    pt = s.get("perf-test", [])
    check("perf test dwarf: Test dwarf unwind: Ok",
          exit_code(pt) == 0 and any(re.search(r"Test dwarf unwind\s*:\s*Ok", x) for x in pt),
          " | ".join(pt)[-300:])


main()
