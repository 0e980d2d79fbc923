#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# tests/run: one-core
"""libpfm4 with the LEON3 model (tools/libpfm4/patches) in the guest.

libpfm4's own tests/validate passes there (its LEON3 encodings, with the
PMU type the guest's sysfs gives); showevtinfo lists the detected leon3
PMU with every event of Documentation/pmu-registers.md; check_events
gives the control register values the document defines; perf_examples'
task counts a known workload exactly as the stock perf stat does (the
same events, by libpfm4 names and by perf's); self counts its own loop
as its code says (instructions per iteration times the iterations);
syst counts per CPU; perf stat --pfm-events agrees with the raw events.

Bad input: unknown events and modifiers, a pid of 0, and a guest booted
without the leon3_pmu driver, where libpfm4 detects no LEON3 PMU and
reports its events not found (PFM_ERR_NOTFOUND), as on any machine
without the PMU.
"""

import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lib import (TOP, ok, not_ok, check, build_workload, guest_sections,  # noqa: E402
                 exit_code, csv_counts, doc_event_codes)

PFM = os.path.join(TOP, "build/libpfm4/bin")
OBJDUMP = "sparc64-linux-gnu-objdump"

# (libpfm4 name, perf name) of the events task and perf stat count
TASK_EVENTS = [("INSTRUCTIONS", "instructions"), ("LOADS", "loads"),
               ("STORES", "stores"), ("BRANCHES", "branches"),
               ("CALLS", "calls")]

GUEST = r"""
cd /root
w=/root/workload
P=/root/pfm
sec() { echo "== $1"; }
sec validate; $P/validate 2>&1; echo "exit $?"
sec showevtinfo; $P/showevtinfo 2>&1; echo "exit $?"
sec check_events
for e in leon3::INSTRUCTIONS leon3::DCACHE_READ_MISS:u leon3::CYCLES:k \
	leon3::STORES:u:pid=42 leon3::dtlb_miss:k=0:u=0; do
	$P/check_events $e 2>&1 | grep -E '^(Requested|Actual|Codes)'
done
sec bad
for e in leon3::NO_SUCH_EVENT leon3::INSTRUCTIONS:h leon3::LOADS:pid=0 leon3::LOADS:u=2; do
	$P/check_events $e >/dev/null 2>/tmp/err; echo "$e exit $? $(cat /tmp/err)"
done
# perf stat gives its child PATH, PERF_BUILDID_DIR and PREFIX of its own,
# and glibc's start-up reads the environment: task's child gets the same
sec task; (export $(perf stat -o /dev/null env | grep -E '^(PATH|PERF_BUILDID_DIR|PREFIX)=')
	$P/task -e TASK_PFM $w spin 1000000 2>&1; echo "exit $?")
sec task-2m; (export $(perf stat -o /dev/null env | grep -E '^(PATH|PERF_BUILDID_DIR|PREFIX)=')
	$P/task -e leon3::INSTRUCTIONS:u $w spin 2000000 2>&1; echo "exit $?")
sec task-perf; perf stat -x, -e TASK_PERF $w spin 1000000 2>&1
sec pfm-events; perf stat -x, --pfm-events leon3::INSTRUCTIONS:u,leon3::DCACHE_READ_MISS:u,leon3::CYCLES:u $w spin 1000000 2>&1; echo "exit $?"
sec pfm-bad; perf stat -x, --pfm-events leon3::NO_SUCH_EVENT $w spin 1000 2>&1; echo "exit $?"
sec self; $P/self leon3::INSTRUCTIONS:u leon3::BRANCHES:u leon3::LOADS:u 2>&1; echo "exit $?"
sec syst; $P/syst -d 2 -e leon3::INSTRUCTIONS:k,leon3::CYCLES 2>&1; echo "exit $?"
sec end
"""

# The same guest without the driver.
NO_DRIVER = r"""
P=/root/pfm
sec() { echo "== $1"; }
sec showevtinfo; $P/showevtinfo 2>&1; echo "exit $?"
sec check; $P/check_events leon3::INSTRUCTIONS 2>&1; echo "exit $?"
sec perf; perf stat --pfm-events leon3::INSTRUCTIONS true 2>&1; echo "exit $?"
sec end
"""


def boot(tmp, script, *extra):
    return guest_sections(tmp, script, [f"{PFM}:/root/pfm", os.path.join(tmp, "workload")],
                          "--timeout", "300", "--cpus", "2", *extra)


def task_counts(lines):
    """{event: count} of perf_examples/task's output."""
    out = {}
    for line in lines:
        m = re.match(r"^\s*(\d+) (\S+) \(", line)
        if m:
            out[m.group(2)] = int(m.group(1))
    return out


def loop_length(binary, func):
    """Instructions per iteration of the one loop in FUNC, from its code:
    from the target of its backward branch to the branch's delay slot."""
    nm = subprocess.run([OBJDUMP, "-d", f"--disassemble={func}", binary],
                        capture_output=True, text=True).stdout
    insns = [(int(a, 16), i) for a, i in
             re.findall(r"^\s+([0-9a-f]+):\s+(?:[0-9a-f]{2} ){4}\s*(.*)$", nm, re.M)]
    for addr, ins in insns:
        m = re.match(r"b\w*(?:,a)?\s+([0-9a-f]+)", ins)
        if m and int(m.group(1), 16) <= addr and int(m.group(1), 16) >= insns[0][0]:
            return (addr - int(m.group(1), 16)) // 4 + 2
    return None


def main():
    tmp = tempfile.mkdtemp()
    if not os.path.isfile(os.path.join(PFM, "validate")):
        not_ok(f"libpfm4 is built (make libpfm4): {PFM}/validate is missing")
        return 1
    try:
        build_workload(tmp)
    except RuntimeError as e:
        not_ok(str(e))
        return 1

    script = GUEST.replace("TASK_PFM", ",".join(f"leon3::{n}:u" for n, _ in TASK_EVENTS)) \
                  .replace("TASK_PERF", ",".join(f"leon3_pmu/{p}/u" for _, p in TASK_EVENTS))
    s, why = boot(tmp, script)
    if s is None:
        not_ok(f"the libpfm4 session runs to its end: {why}")
        return 1
    ok("the libpfm4 session runs to its end (2 CPUs)")

    # libpfm4's own validation, LEON3 encodings included
    doc = {n.upper(): c for n, c in doc_event_codes().items()}
    v = s["validate"]
    check("libpfm4 tests/validate passes in the guest",
          exit_code(v) == 0 and "All tests passed" in v, " | ".join(v[-6:]))
    check("tests/validate: the leon3 table, its encodings and its perf_event encodings",
          any(re.search(rf"checking leon3 \({len(doc)} events\): Passed", x) for x in v) and
          any(re.search(r"\d+ SPARC events: 0 errors", x) for x in v) and
          any(re.search(r"\d+ SPARC perf_events events: 0 errors", x) for x in v),
          " | ".join(x for x in v if "SPARC" in x or "leon3" in x))

    # showevtinfo: leon3 detected, every event of the document
    sh = "\n".join(s["showevtinfo"])
    detected = sh.split("Detected PMU models:")[-1].split("Total events")[0]
    check(f"showevtinfo: the leon3 PMU is detected, {len(doc)} events, 6 + 1 counters",
          re.search(rf'\[\d+, leon3, "Gaisler LEON3", {len(doc)} events, 2 max encoding, 7 counters, core PMU\]',
                    detected) and "ultra" not in detected and "niagara" not in detected, detected.strip())
    evs = dict((n, int(c, 16)) for n, c in
               re.findall(r"PMU name : leon3 \(Gaisler LEON3\)\nName\s+: (\w+)\n(?:.*\n){2}"
                          r"Desc\s+: .+\nCode\s+: (0x[0-9a-f]+)", sh))
    check(f"showevtinfo: every event of the document with its code ({len(doc)})",
          evs == doc, f"{sorted(set(evs.items()) ^ set(doc.items()))}")
    check("showevtinfo: each event has the k, u and pid modifiers",
          sh.count("[pid] : count only while the process with this PID runs (integer)") == len(doc))

    # check_events: the control register values (EN bit 8, SU 10, NU 12, PF 13)
    got = {}
    lines = s["check_events"]
    for req, act, codes in zip(lines[0::3], lines[1::3], lines[2::3]):
        got[req.split(":", 1)[1].strip()] = (act.split(":", 1)[1].strip(),
                                             [int(c, 16) for c in codes.split(":")[1].split()])
    want = {
        "leon3::INSTRUCTIONS": ("leon3::INSTRUCTIONS:k=1:u=1", [0x11 | 1 << 8 | 1 << 10]),
        "leon3::DCACHE_READ_MISS:u": ("leon3::DCACHE_READ_MISS:k=0:u=1", [0x08 | 1 << 8]),
        "leon3::CYCLES:k": ("leon3::CYCLES:k=1:u=0", [0x15 | 1 << 8 | 1 << 10 | 1 << 12]),
        "leon3::STORES:u:pid=42": ("leon3::STORES:k=0:u=1:pid=42", [0x3A | 1 << 8 | 1 << 13, 42]),
        "leon3::dtlb_miss:k=0:u=0": ("leon3::DTLB_MISS:k=0:u=0", [0x09 | 1 << 8 | 1 << 12]),
    }
    check("check_events: each event's control register value, as the document defines the bits",
          got == want, f"{got}")
    bad = {m.group(1): (int(m.group(2)), m.group(3)) for m in
           (re.match(r"^(\S+) exit (\d+) (.*)$", x) for x in s["bad"]) if m}
    check("check_events: an unknown event is not found",
          bad.get("leon3::NO_SUCH_EVENT", (0,))[0] != 0 and
          "event not found" in bad.get("leon3::NO_SUCH_EVENT", (0, ""))[1], str(bad))
    check("check_events: the h modifier (no hypervisor on a LEON3) is an invalid attribute",
          bad.get("leon3::INSTRUCTIONS:h", (0,))[0] != 0 and
          "invalid event attribute" in bad.get("leon3::INSTRUCTIONS:h", (0, ""))[1], str(bad))
    check("check_events: pid=0 and u=2 are invalid attribute values",
          all(bad.get(e, (0,))[0] != 0 and "invalid event attribute value" in bad.get(e, (0, ""))[1]
              for e in ("leon3::LOADS:pid=0", "leon3::LOADS:u=2")), str(bad))

    # perf_examples/task counts the workload as the stock perf stat does
    t = task_counts(s["task"])
    pf = {p: csv_counts(s["task-perf"], f"leon3_pmu/{p}/u") for _, p in TASK_EVENTS}
    pairs = [(n, t.get(f"leon3::{n}:u"), (pf[p] or [None])[0]) for n, p in TASK_EVENTS]
    check("perf_examples/task: the workload's user instructions, loads, stores, branches and "
          "calls exactly as perf stat counts them",
          exit_code(s["task"]) == 0 and all(a is not None and a == b and a > 0 for _, a, b in pairs),
          str(pairs))
    # the workload's loop is 3 instructions an iteration: a million more
    # iterations (a number of as many digits: the same start-up) are
    # exactly 3 million more instructions
    ins = t.get("leon3::INSTRUCTIONS:u") or 0
    ins2 = task_counts(s["task-2m"]).get("leon3::INSTRUCTIONS:u") or 0
    check("perf_examples/task: a million more iterations of the workload's loop are exactly "
          "3 million more instructions", ins and ins2 - ins == 3_000_000,
          f"{ins} and {ins2}")
    # what is not the loop: the static program's start-up and exit, 10584
    # instructions measured (as many under perf stat: tests/pmu/perf.t)
    startup = 12000
    check(f"perf_examples/task: a million iterations are 3 million instructions and at most "
          f"{startup} of the program's start-up and exit ({ins})", 3_000_000 < ins <= 3_000_000 + startup,
          str(ins))

    # perf stat --pfm-events: libpfm4's names, the same counts as raw events
    names = ["leon3::INSTRUCTIONS:u", "leon3::DCACHE_READ_MISS:u", "leon3::CYCLES:u"]
    got = [csv_counts(s["pfm-events"], n) for n in names]
    check("perf stat --pfm-events leon3::INSTRUCTIONS:u,...: every event counted",
          exit_code(s["pfm-events"]) == 0 and all(g and g[0] for g in got), str(got))
    check("perf stat --pfm-events: the user instructions are perf's raw event's",
          got[0] and got[0][0] == (pf["instructions"] or [None])[0], f"{got[0]} vs {pf['instructions']}")
    pb = s["pfm-bad"]
    check("perf stat --pfm-events with an unknown event: an error naming it, exit non-zero",
          exit_code(pb) not in (0, None) and any("NO_SUCH_EVENT" in x for x in pb), " | ".join(pb))

    # perf_examples/self: its own loop, as its code says
    selfc = task_counts([re.sub(r"^FINAL:\s+", "", x) for x in s["self"] if x.startswith("FINAL:")])
    n = loop_length(os.path.join(PFM, "self"), "noploop")
    i, b, ld = (selfc.get(f"leon3::{e}:u", 0) for e in ("INSTRUCTIONS", "BRANCHES", "LOADS"))
    check("perf_examples/self: one load and one branch per iteration of its loop",
          exit_code(s["self"]) == 0 and b > 1_000_000 and abs(ld - b) < 10_000, f"{selfc}")
    check(f"perf_examples/self: instructions = {n} per iteration (objdump of noploop) x "
          f"iterations, within the printing around it",
          n and abs(i - n * b) < 100_000, f"{i} vs {n} x {b} = {n * b if n else None}")

    # perf_examples/syst: both CPUs, every second
    sy = [re.match(r"^CPU(\d) val=(\d+)\s+(\d+) .* (leon3::\S+)$", x) for x in s["syst"]]
    sy = [(int(m.group(1)), m.group(4), int(m.group(3))) for m in sy if m]
    check("perf_examples/syst: kernel instructions and cycles on CPU0 and CPU1, each second",
          exit_code(s["syst"]) == 0 and
          sorted({(c, e) for c, e, _ in sy}) ==
          [(c, e) for c in (0, 1) for e in ("leon3::CYCLES", "leon3::INSTRUCTIONS:k")] and
          len(sy) == 8 and all(d > 0 for *_, d in sy), str(sy))

    # without the driver: no LEON3 PMU, its events not found
    s, why = boot(tmp, NO_DRIVER, "--no-module")
    if s is None:
        not_ok(f"the session without the driver runs to its end: {why}")
        return 1
    det = "\n".join(s["showevtinfo"]).split("Detected PMU models:")[-1]
    check("without the leon3_pmu driver: showevtinfo detects no leon3 PMU",
          "leon3" not in det.split("Total events")[0], det.strip()[:300])
    check("without the driver: check_events leon3::INSTRUCTIONS fails, event not found",
          exit_code(s["check"]) not in (0, None) and any("event not found" in x for x in s["check"]),
          " | ".join(s["check"]))
    check("without the driver: perf stat --pfm-events leon3::INSTRUCTIONS fails with a message",
          exit_code(s["perf"]) not in (0, None) and any("leon3::INSTRUCTIONS" in x for x in s["perf"]),
          " | ".join(s["perf"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
