#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# tests/run: one-core
#
# Reports on the host: a perf.data recorded in the guest, brought back
# with its binaries by tools/leon3-run --perf-data, read by the host's
# perf (build/perf-host/perf, through tools/leon3-perf) with the guest's
# binaries and the project's vmlinux.  A big-endian 32-bit perf.data read
# on x86-64 must give the report the guest gives: the same top functions
# with the same shares.  perf annotate disassembles work() of
# tests/pmu/workload.c as objdump does.  A perf.data of --call-graph
# dwarf, which only the guest's perf can unwind: the host's reports its
# samples by IP, with a warning (kernel/patches/0030), not made-up
# chains.  Bad input: an unknown metric, a
# --symfs that does not exist, a truncated perf.data, a perf.data that
# was never written.

import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lib import (TOP, RUN, ok, not_ok, check, build_workload,  # noqa: E402
                 sections, function_symbols)

LEON3_PERF = os.path.join(TOP, "tools/leon3-perf")
TOP_N = 5

GUEST = r"""
w=/root/workload
echo 0 >/proc/sys/kernel/perf_cpu_time_max_percent
sec() { echo "== $1"; }
perf record -q -g -e instructions:u -c 100003 -o /root/u.data $w spin 3000000 2>&1
sec report-u
perf report -i /root/u.data --stdio --no-children --sort dso,sym -g none -q 2>&1 | cat
perf record -q -g -e instructions -c 100003 -o /root/a.data -- \
	sh -c "ls -R /sys >/dev/null; $w spin 1000000" 2>&1
sec report-a
perf report -i /root/a.data --stdio --no-children --sort dso,sym -g none -q 2>&1 | cat
perf record -q --call-graph dwarf -e instructions:u -c 100003 -o /root/d.data $w leaf 3000000 2>&1
sec report-d
perf report -i /root/d.data --stdio --no-children --sort dso,sym -g none -q 2>&1 | cat
sec bad-metric
perf stat -M NoSuchMetric -- true 2>&1; echo "exit $?"
sec end
"""


def report_rows(lines):
    """perf report -q --sort dso,sym rows: [(percent, dso, symbol)]."""
    rows = []
    for line in lines:
        m = re.match(r"^\s+(\d+\.\d+)%\s+(\S+)\s+\[([.k])\]\s+(\S+)", line)
        if m:
            rows.append((m.group(1), m.group(2), f"[{m.group(3)}] {m.group(4)}"))
    return rows


def host_perf(d, *args):
    return subprocess.run([LEON3_PERF, d] + list(args), capture_output=True, text=True)


def main():
    tmp = tempfile.mkdtemp()
    try:
        wl = build_workload(tmp)
    except RuntimeError as e:
        not_ok(str(e))
        return 1
    script = os.path.join(tmp, "guest.sh")
    with open(script, "w") as f:
        f.write(GUEST)
    du, da, dd = (os.path.join(tmp, x) for x in ("u", "a", "d"))
    p = subprocess.run([RUN, "--timeout", "300", "--add", wl, "--add", script,
                        "--perf-data", f"/root/u.data:{du}", "--perf-data", f"/root/a.data:{da}", "--perf-data", f"/root/d.data:{dd}",
                        "--", "sh", "/root/guest.sh"], capture_output=True, text=True)
    s = sections(p.stdout)
    if p.returncode or "end" not in s:
        not_ok(f"the guest session runs to its end (exit {p.returncode}): "
               + " | ".join((p.stderr + p.stdout).strip().splitlines()[-8:]))
        return 1
    ok("the guest session runs to its end")

    # leon3-run --perf-data brought back each perf.data and the binaries
    # it names, by their guest paths
    check("leon3-run --perf-data: perf.data and the workload binary come back",
          all(os.path.isfile(os.path.join(d, "perf.data")) for d in (du, da))
          and open(os.path.join(du, "symfs/root/workload"), "rb").read() == open(wl, "rb").read(),
          str([os.path.join(r, f) for d in (du, da) for r, _, fs in os.walk(d) for f in fs]))
    check("leon3-run --perf-data: busybox (ls) comes back with the second perf.data",
          os.path.isfile(os.path.join(da, "symfs/bin/busybox")))

    # the host's report equals the guest's: user-only, then user + kernel
    for name, d, what in (("u", du, "user samples"), ("a", da, "user and kernel samples")):
        guest = report_rows(s[f"report-{name}"])
        h = host_perf(d, "report", "--stdio", "--no-children", "--sort", "dso,sym",
                      "-g", "none", "-q")
        host = report_rows(h.stdout.splitlines())
        check(f"host report of the guest's perf.data ({what}): the guest's top {TOP_N} "
              f"functions, shares and objects",
              h.returncode == 0 and len(guest) >= min(TOP_N, 1) and
              host[:TOP_N] == guest[:TOP_N],
              f"exit {h.returncode}; guest {guest[:TOP_N]}; host {host[:TOP_N]}; "
              f"{h.stderr.strip()[-300:]}")
    # --call-graph dwarf data: the host does not unwind a sparc stack
    guest = report_rows(s["report-d"])
    # (not -q: it silences perf's warnings)
    h = host_perf(dd, "report", "--stdio", "--no-children", "--sort", "dso,sym")
    host = report_rows(h.stdout.splitlines())
    check("host report of --call-graph dwarf data: the guest's shares by IP, and a warning "
          "that it cannot unwind sparc samples",
          h.returncode == 0 and guest[:1] == [("100.00", "workload", "[.] leaf_work")]
          and host[:TOP_N] == guest[:TOP_N]
          and "Cannot unwind sparc samples with libdw on x86" in h.stderr,
          f"exit {h.returncode}; guest {guest[:TOP_N]}; host {host[:TOP_N]}; "
          f"{h.stderr.strip()[-300:]}")
    chained = [line for line in h.stdout.splitlines() if re.match(r"^\s+\|?\s*---", line)]
    check("host report of --call-graph dwarf data: no call chain made up from x86 registers",
          not chained, " | ".join(chained[:3]))
    guest_u = report_rows(s["report-u"])
    check("the user-only report: work() has every sample",
          guest_u[:1] == [("100.00", "workload", "[.] work")], str(guest_u[:3]))
    guest_a = report_rows(s["report-a"])
    check("the user + kernel report names kernel functions (vmlinux on the host)",
          any(sym.startswith("[k] ") and not sym.startswith("[k] 0x") for _, _, sym in guest_a[:TOP_N]),
          str(guest_a[:TOP_N]))

    # perf annotate on the host: work() disassembled as objdump does,
    # every sample on its loop (the overflow is taken at a block start)
    funcs = {n: (a, b) for a, b, n in function_symbols(wl)}
    lo, hi = funcs["work"]
    objdump = subprocess.run(["sparc64-linux-gnu-objdump", "-d", f"--start-address={lo:#x}",
                              f"--stop-address={hi:#x}", wl], capture_output=True, text=True).stdout
    want = [(int(m.group(1), 16), m.group(2).split()[0])
            for m in re.finditer(r"^\s+([0-9a-f]+):\s+(?:[0-9a-f]{2} ){4}\s*(.+)$", objdump, re.M)]
    a = host_perf(du, "annotate", "--stdio", "work")
    got = [(int(m.group(2), 16), float(m.group(1)), m.group(3).split()[0])
           for m in re.finditer(r"^\s+(\d+\.\d+)\s+:\s+([0-9a-f]+):\s+(.+)$", a.stdout, re.M)]
    check("host perf annotate work: objdump's instructions, address by address",
          a.returncode == 0 and [(x, i) for x, _, i in got] == want,
          f"exit {a.returncode}; annotate {[(hex(x), i) for x, _, i in got]}; objdump "
          f"{[(hex(x), i) for x, i in want]}; {a.stderr.strip()[-200:]}")
    loop = [pct for x, pct, _ in got if lo + 4 <= x < lo + 16]
    check("host perf annotate work: 100 % of the samples in the 3-instruction loop",
          got and abs(sum(loop) - 100.0) < 0.01, str([(hex(x), pct) for x, pct, _ in got]))

    # bad input: an unknown metric in the guest
    bm = s["bad-metric"]
    check("perf stat -M NoSuchMetric: perf says so and fails",
          any("NoSuchMetric" in line for line in bm[:-1]) and bm[-1:] != ["exit 0"], " | ".join(bm))

    # a --symfs that does not exist
    r = host_perf(du, "report", "--stdio", "--symfs", os.path.join(tmp, "nowhere"))
    check("leon3-perf --symfs nowhere: a clear error, no report",
          r.returncode != 0 and "nowhere" in r.stderr and "no such directory" in r.stderr
          and "%" not in r.stdout, f"exit {r.returncode}: {r.stderr.strip()[-200:]}")

    # a truncated perf.data: perf report fails (kernel/patches/0025), and
    # says so, without a crash
    dt = os.path.join(tmp, "t")
    os.makedirs(dt)
    data = open(os.path.join(du, "perf.data"), "rb").read()
    m = re.search(r"data offset\s*:\s*(\d+)\n# data size\s*:\s*(\d+)",
                  host_perf(du, "report", "--header-only").stdout)
    cut = int(m.group(1)) + int(m.group(2)) // 2 if m else len(data) // 2
    with open(os.path.join(dt, "perf.data"), "wb") as f:
        f.write(data[:cut])
    r = host_perf(dt, "report", "--stdio")
    check("a truncated perf.data: perf report says it failed, exits non-zero, does not crash",
          r.returncode > 0 and "failed to process" in r.stderr,
          f"exit {r.returncode}: {r.stderr.strip()[-200:]}")
    r = host_perf(dt, "script")
    check("a truncated perf.data: perf script too", r.returncode > 0,
          f"exit {r.returncode}: {r.stderr.strip()[-200:]}")

    # a perf.data the command never wrote: the command's own exit status
    # stays, and leon3-run says what is missing
    p = subprocess.run([RUN, "--timeout", "120", "--perf-data", f"/root/none.data:{tmp}/none",
                        "--", "sh", "-c", "exit 3"], capture_output=True, text=True)
    check("leon3-run --perf-data of a file never written: the command's exit status (3) "
          "and a message", p.returncode == 3 and "--perf-data /root/none.data: no such file"
          in p.stderr and not os.path.exists(os.path.join(tmp, "none")),
          f"exit {p.returncode}: {p.stderr.strip()[-200:]}")
    r = host_perf(os.path.join(tmp, "none"), "report")
    check("leon3-perf on a directory without perf.data: a clear error",
          r.returncode == 2 and "perf.data: no such file" in r.stderr, r.stderr.strip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
