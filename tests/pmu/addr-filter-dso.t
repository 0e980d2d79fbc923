#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# tests/run: one-core
#
# Address filters follow a file wherever it is mapped: perf core turns
# "filter FUNC @ FILE" into a range at each mapping of FILE, per process
# (perf_event_addr_filters_apply() and the mmap hook; for perf stat the
# kernel patch "perf/core: Move address filters to new mappings without
# mmap records"), and leon3_pmu counts that range.  tests/pmu/dso-main.c
# is a position-independent executable, loaded away from its link
# address, that dlopen()s tests/pmu/dso-work.c's libdsowork.so after
# reserving PAD pages, so the library lands at a different address in
# each process.  spin(n) and dso_work(m) are 3n + 3 and 3m + 3
# instructions; their file offsets come from the binaries (nm, readelf).
# The guest gets the dynamic loader and libc from the toolchain.

import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lib import (TOP, CC, ok, not_ok, check, guest_sections, csv_counts,  # noqa: E402
                 exit_code, function_symbols, report_samples)

N, M = 1000000, 500000
SYSROOT = os.path.join(TOP, "build/toolchain/sparc-leon3-linux-gnu/sysroot/lib")
LIB = "/root/libdsowork.so"
PERIOD = 10007
# A run that lost a process's count of the executable's filter came one in
# about fifteen (a context switch swapping the shell's events and its
# child's, with their ranges): 80 runs miss it with odds under 1 in 100.
REPEAT = 80

GUEST = r"""
cd /root
lib=LIB
echo 0 >/proc/sys/kernel/perf_cpu_time_max_percent
sec() { echo "== $1"; }
sec where
./dso-main 0 1 1 $lib; ./dso-main 64 1 1 $lib; ./dso-main 0 1 1 $lib
sec stat-exe; perf stat -x, -e instructions:u --filter "filter spin @ /root/dso-main" -- ./dso-main 0 N 1 $lib 2>&1; echo "exit $?"
sec stat-lib
perf stat -x, -e instructions:u --filter "filter dso_work @ $lib" -- sh -c "./dso-main 0 1 M $lib; ./dso-main 64 1 2M $lib" 2>&1
echo "exit $?"
sec stat-lib-numeric
perf stat -x, -e instructions:u --filter "filter LIBRANGE @ $lib" -- sh -c "./dso-main 0 1 M $lib; ./dso-main 64 1 2M $lib" 2>&1
sec stat-both
perf stat -x, -e instructions:u --filter "filter spin @ /root/dso-main" -e instructions:u --filter "filter dso_work @ $lib" -- sh -c "./dso-main 0 N M $lib; ./dso-main 64 N 2M $lib" 2>&1
sec stat-both-repeat
for i in $(seq 1 REPEAT); do
	perf stat -x, -e instructions:u --filter "filter spin @ /root/dso-main" -e instructions:u --filter "filter dso_work @ $lib" -- sh -c "./dso-main 0 N M $lib; ./dso-main 64 N 2M $lib; true" 2>&1 >/dev/null | cut -d, -f1 | tr '\n' ' '
	echo
done
sec record
perf record -q -e instructions:u -c PERIOD --filter "filter dso_work @ $lib" -o /tmp/d.data -- ./dso-main 16 N M $lib 2>&1
perf report -i /tmp/d.data --stdio -q --sort dso,sym 2>&1
perf report -i /tmp/d.data --stdio 2>&1 | grep '^# Samples'
sec end
"""


def build(tmp):
    """libdsowork.so and the PIE dso-main, or the compiler's complaint."""
    lib, exe = os.path.join(tmp, "libdsowork.so"), os.path.join(tmp, "dso-main")
    for cmd in ([CC, "-O2", "-Wall", "-Werror", "-shared", "-fPIC",
                 os.path.join(TOP, "tests/pmu/dso-work.c"), "-o", lib],
                [CC, "-O2", "-Wall", "-Werror", "-fPIE", "-pie",
                 os.path.join(TOP, "tests/pmu/dso-main.c"), "-o", exe]):
        cc = subprocess.run(cmd, capture_output=True, text=True)
        if cc.returncode:
            raise RuntimeError(f"{cmd[-3]} does not build: {cc.stderr.strip()[:300]}")
    return lib, exe


def file_offset(binary, addr):
    """The file offset of address ADDR of BINARY (its LOAD segments)."""
    out = subprocess.run(["sparc64-linux-gnu-readelf", "-lW", binary], check=True,
                         capture_output=True, text=True).stdout
    for line in out.splitlines():
        f = line.split()
        if f and f[0] == "LOAD" and int(f[2], 16) <= addr < int(f[2], 16) + int(f[4], 16):
            return addr - int(f[2], 16) + int(f[1], 16)
    raise RuntimeError(f"{addr:#x} is in no LOAD segment of {binary}")


def main():
    tmp = tempfile.mkdtemp()
    try:
        lib, exe = build(tmp)
    except RuntimeError as e:
        not_ok(str(e))
        return
    syms = {name: (lo, hi) for lo, hi, name in function_symbols(lib) + function_symbols(exe)}
    lo, hi = syms["dso_work"]
    lib_range = f"{file_offset(lib, lo):#x}/{hi - lo:#x}"
    script = (GUEST.replace("LIBRANGE", lib_range).replace("LIB", LIB)
              .replace("PERIOD", str(PERIOD)).replace("REPEAT", str(REPEAT)).replace(" 2M ", f" {2 * M} ")
              .replace(" N ", f" {N} ").replace(" M ", f" {M} "))
    adds = [os.path.realpath(os.path.join(SYSROOT, "ld-linux.so.2")) + ":/lib/ld-linux.so.2",
            os.path.realpath(os.path.join(SYSROOT, "libc.so.6")) + ":/lib/libc.so.6",
            lib, exe]
    s, why = guest_sections(tmp, script, adds, "--timeout", "600")
    if s is None:
        not_ok(f"the guest runs the dynamic programs under perf: {why}")
        return

    where = [re.match(r"^spin 0x([0-9a-f]+) dso_work 0x([0-9a-f]+)$", x) for x in s["where"]]
    where = [(int(m.group(1), 16), int(m.group(2), 16)) for m in where if m]
    check("dso-main runs in the guest, three times", len(where) == 3, str(s["where"]))
    if len(where) != 3:
        return
    check(f"the PIE's spin() runs at {where[0][0]:#x}, not at its link address "
          f"{syms['spin'][0]:#x}", where[0][0] != syms["spin"][0], str(where))
    check("libdsowork.so lands elsewhere in a process that reserved 64 pages first "
          f"({where[0][1]:#x}, {where[1][1]:#x}), and where it was in the same process again",
          where[0][1] != where[1][1] and where[0][1] == where[2][1], str(where))

    got = csv_counts(s["stat-exe"], "instructions:u")
    check(f"perf stat --filter 'filter spin @ dso-main', a PIE: {3 * N + 3} instructions",
          got == [3 * N + 3] and exit_code(s["stat-exe"]) == 0, str(s["stat-exe"][-3:]))
    want = (3 * M + 3) + (6 * M + 3)
    got = csv_counts(s["stat-lib"], "instructions:u")
    check(f"'filter dso_work @ libdsowork.so' over two processes that map it at two "
          f"addresses: {want} instructions, both calls",
          got == [want] and exit_code(s["stat-lib"]) == 0, str(s["stat-lib"][-6:]))
    got = csv_counts(s["stat-lib-numeric"], "instructions:u")
    check(f"the same by file offset ({lib_range}): {want}", got == [want], str(got))
    got = csv_counts(s["stat-both"], "instructions:u")
    check(f"one event on the executable, one on the library, one run of two processes: "
          f"{2 * (3 * N + 3)} and {want}", got == [2 * (3 * N + 3), want], str(got))

    runs = [x.split() for x in s["stat-both-repeat"]]
    bad = [(i + 1, r) for i, r in enumerate(runs)
           if r != [str(2 * (3 * N + 3)), str(want)]]
    check(f"the same {REPEAT} times, the shell forking both processes: every run counts "
          "both processes in both ranges (the shell and its child are not given each "
          "other's ranges at a context switch)",
          len(runs) == REPEAT and not bad,
          f"{len(runs)} runs, {len(bad)} wrong, first: {bad[:3]}")

    rec = [re.sub(r"\x1b\[[0-9;]*m", "", x) for x in s["record"]]   # perf's colours
    samples = report_samples(rec)
    rows = [x.split()[1:] for x in rec if re.match(r"^\s+[0-9.]+%", x)]
    check(f"perf record --filter 'filter dso_work @ libdsowork.so': {(3 * M + 3) // PERIOD} "
          "samples", samples == [(3 * M + 3) // PERIOD], str(rec[-4:]))
    check("... every one in libdsowork.so's dso_work",
          rows == [["libdsowork.so", "[.]", "dso_work"]], str(rows))


main()
