#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# tests/run: one-core
"""The trace unit's branch mode under Linux: perf record -e
leon3_trace/branch/u records the path a program takes, and perf's decoder
(--itrace=b) follows the program's code with it, each branch taken, call
and jump a sample of "branches" from the branch to its target.  Each
trace is held to what it must be:

- tests/pmu/branch-work.c's loop of 1000 iterations: its bne's samples
  are 999, to the loop's start; its call loop of 300: 300 calls and 300
  jumps through a register to the leaf, 300 returns to each call site
  (the instruction after the delay slot), the loop's bne 299 times, as
  the code says;
- the whole program (its C library included): the samples whose branch
  is a Bicc or FBfcc are as many as the PMU's taken_branches counts for
  the same run under perf stat, and those whose branch is a CALL as many
  as its calls (the instructions read from the binary); no instruction
  trace error;
- perf report -D prints the records: the trace starts with a FLOW record
  that enters at the program's ELF entry point;
- perf-host on the host decodes the guest's perf.data (big-endian
  records, the binary from --perf-data's symfs) to the same samples;
- a CPU's branch trace (perf record -a, with PID records, by which
  perf knows whose code the flow is in): the loop's samples, of
  branch-work's thread, as many as the code says, and no instruction
  trace error in any process's."""

import os
import re
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from lib import TOP, CC, check, not_ok, build_guest, guest_sections, csv_counts  # noqa: E402
from leon3lib import elf  # noqa: E402

PERF_HOST = os.path.join(TOP, "build/perf-host/perf")
LOOP, CALLS = 1000, 300

# The program's C library branches on its environment (getenv, the
# tunables) and on the stack's alignment (its string functions): the
# same environment for perf stat's run as perf record's (which sets
# DEBUGINFOD_URLS empty for its child, in place if it is there), and
# ASLR off, so that both runs take the same path.
GUEST = f"""
echo 0 > /proc/sys/kernel/randomize_va_space
export DEBUGINFOD_URLS=
echo == loop; perf record -q -e leon3_trace/branch/u -o /tmp/loop.data -- /root/branch-work loop {LOOP}; echo exit $?; perf script -i /tmp/loop.data --itrace=be -F ip,addr 2>&1
echo == calls; perf record -q -e leon3_trace/branch/u -o /tmp/calls.data -- /root/branch-work calls {CALLS}; echo exit $?; perf script -i /tmp/calls.data --itrace=be -F ip,addr 2>&1
echo == counts; perf stat -x, -e leon3_pmu/taken_branches/u,leon3_pmu/calls/u -- /root/branch-work calls {CALLS} 2>&1; echo exit $?
echo == dump; perf report -D -i /tmp/calls.data 2>&1 | grep -E '^\\.  [0-9a-f]{{8}}:  '
echo == system; perf record -q -a -e leon3_trace/branch,pidrec/u -o /tmp/sys.data -- /root/branch-work loop {LOOP}; echo exit $?; perf script -i /tmp/sys.data --itrace=be -F comm,tid,ip,addr 2>&1
echo == end
"""


def symbols(path):
    """{name: address} of the ELF file's symbols (nm)"""
    nm = CC.replace("gcc", "nm")
    out = subprocess.run([nm, path], capture_output=True, text=True).stdout
    return {f[2]: int(f[0], 16) for f in (x.split() for x in out.splitlines()) if len(f) == 3}


def samples(lines):
    """[(from, to)] of perf script -F ip,addr's branch samples"""
    return [(int(m.group(1), 16), int(m.group(2), 16))
            for m in (re.match(r"^\s*([0-9a-f]+)\s+=>\s+([0-9a-f]+)\s*$", x) for x in lines) if m]


def errors(lines):
    return [x for x in lines if "instruction trace error" in x]


def insn_at(e, addr):
    """The big-endian instruction word at ADDR of ELF E's loaded segments"""
    for s in e.segments:
        if s.type == elf.PT_LOAD and s.vaddr <= addr < s.vaddr + s.filesz:
            return struct.unpack_from(">I", e.data, s.offset + addr - s.vaddr)[0]
    return None


def kind(word):
    """A branch's kind by its instruction word: bicc (Bicc, FBfcc), call, jmpl"""
    if word is None:
        return "none"
    op, op2, op3 = word >> 30, (word >> 22) & 7, (word >> 19) & 0x3f
    if op == 1:
        return "call"
    if op == 0 and op2 in (2, 6):
        return "bicc"
    if op == 2 and op3 in (0x38, 0x39):
        return "jmpl"
    return f"other {word:#010x}"


def check_decoded(name, lines, want):
    """The program ran; each (from, to) of WANT has its number of samples"""
    got = samples(lines)
    check(f"{name}: the program ran to its end under the trace, with branch samples",
          "exit 0" in lines and got, " | ".join(lines[:6]))
    check(f"{name}: no instruction trace error", not errors(lines), str(errors(lines)[:3]))
    for (frm, to, what), n in want.items():
        k = sum(1 for s in got if s == (frm, to))
        check(f"{name}: {what}: {n} samples from {frm:#x} to {to:#x}", k == n, f"{k}")
    return got


def main():
    with tempfile.TemporaryDirectory() as tmp:
        try:
            work = build_guest(tmp, "branch-work")
        except RuntimeError as e:
            not_ok(str(e))
            return
        pdata = os.path.join(tmp, "perf-data")
        s, why = guest_sections(tmp, GUEST, [work], "--timeout", "600",
                                "--perf-data", f"/tmp/calls.data:{pdata}")
        if s is None:
            not_ok(f"the guest runs the traced programs: {why}")
            return
        sym = symbols(work)
        e = elf.Elf(work)

        check_decoded(f"loop {LOOP}", s["loop"], {
            (sym["bw_loop_bne"], sym["bw_loop"], "the loop's bne, taken but for the last"):
            LOOP - 1})
        call, jmpl, ret = sym["bw_call"], sym["bw_jmpl"], sym["bw_leaf_ret"]
        got = check_decoded(f"calls {CALLS}", s["calls"], {
            (call, sym["bw_leaf"], "the call"): CALLS,
            (jmpl, sym["bw_leaf"], "the jmpl through a register"): CALLS,
            (ret, call + 8, "the leaf's retl to after the call's delay slot"): CALLS,
            (ret, jmpl + 8, "... and to after the jmpl's"): CALLS,
            (sym["bw_calls_bne"], call, "the loop's bne"): CALLS - 1})

        # The whole program against the PMU's counts of the same run
        taken = csv_counts(s["counts"], "leon3_pmu/taken_branches/u")
        calls = csv_counts(s["counts"], "leon3_pmu/calls/u")
        kinds = {}
        for frm, _ in got:
            k = kind(insn_at(e, frm))
            kinds[k] = kinds.get(k, 0) + 1
        check(f"calls {CALLS}: every sample's branch is a Bicc, FBfcc, CALL, JMPL or RETT "
              "of the binary", set(kinds) <= {"bicc", "call", "jmpl"}, str(kinds))
        check(f"calls {CALLS}: the samples of Bicc and FBfcc are the PMU's taken_branches "
              f"of the whole program ({taken})",
              taken and taken[0] is not None and kinds.get("bicc") == taken[0],
              f"{kinds.get('bicc')} samples | {s['counts'][:3]}")
        check(f"calls {CALLS}: the samples of CALL are the PMU's calls ({calls})",
              calls and calls[0] is not None and kinds.get("call") == calls[0],
              f"{kinds.get('call')} samples")

        # The records, as perf report -D prints them
        flows = [x for x in s["dump"] if " FLOW " in x]
        m = re.search(r"FLOW enter pc (0x[0-9a-f]+)", flows[0]) if flows else None
        entry = struct.unpack_from(">I", e.data, 24)[0]
        check("perf report -D: the first FLOW record enters at the ELF entry point "
              f"({entry:#x}), the program's first instruction",
              m and int(m.group(1), 16) == entry, str(flows[:2]))
        check("perf report -D: BRANCH and TARGET records",
              any(" BRANCH " in x for x in s["dump"]) and any(" TARGET " in x for x in s["dump"]),
              str(s["dump"][:6]))

        # A CPU's trace: every process on the CPU, PID records say whose
        sysl = s["system"]
        mine = [x for x in sysl if x.split()[:1] == ["branch-work"]]
        loop = samples([" ".join(x.split()[2:]) for x in mine])
        k = sum(1 for x in loop if x == (sym["bw_loop_bne"], sym["bw_loop"]))
        check(f"perf record -a: branch-work's loop bne {LOOP - 1} times, in its own thread's "
              "samples", "exit 0" in sysl and k == LOOP - 1 and
              len({x.split()[1] for x in mine}) == 1, f"{k} | {sysl[:3]}")
        check("perf record -a: no instruction trace error in any process's branches",
              not errors(sysl), str(errors(sysl)[:3]))

        # The host's perf on the guest's file
        r = subprocess.run([PERF_HOST, "script", "-i", os.path.join(pdata, "perf.data"),
                            "--symfs", os.path.join(pdata, "symfs"), "--itrace=be",
                            "-F", "ip,addr"], capture_output=True, text=True)
        host = r.stdout.splitlines()
        check("perf-host script on the guest's perf.data: the guest's samples, no error",
              samples(host) == got and not errors(host),
              f"{len(samples(host))} samples against {len(got)}; "
              f"{(errors(host) or r.stderr.splitlines())[:3]}")


main()
