#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# tests/run: one-core
"""PAPI on the LEON3 (make papi: tools/papi/patches on libpfm4's LEON3
model), in the guest.

papi_avail lists every preset of the leon3 section of papi_events.csv as
available; papi_native_avail lists every event of
Documentation/pmu-registers.md; papi_command_line counts presets;
tests/pmu/papi-count.c counts a loop whose counts are known from its
code with the low-level and the high-level APIs, exactly (the difference
of two loop lengths, so that what PAPI runs around the loop cancels
out).  PAPI_read() reads its counter from user space (the perf_event
component's fast read, through the driver's user window) where sysfs
rdpmc is 1 and with read() where it is 0: exact either way, and two
reads back to back count kernel instructions only with read().
papi_mem_info reports the document's cache geometry, which PAPI
reads from the kernel's cacheinfo, and PAPI_L1_LDM, PAPI_L1_STM and
PAPI_L1_DCM count exactly what that geometry predicts for sweeps of
loads and of stores over 8 times the D-cache.

Bad input: an unknown event and a preset the LEON3 has no event for
(PAPI_ENOEVNT), and a guest booted without the leon3_pmu driver, where
PAPI's perf_event component is disabled (libpfm4 finds no PMU), no
preset is available, a native leon3:: event is PAPI_ENOEVNT and a
preset PAPI_ECMP_DISABLED, as on any machine without a PMU.
"""

import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lib import TOP, CC, ok, not_ok, check, guest_sections, exit_code, doc_event_codes, \
    prom_clock_hz, doc_cache_geometry  # noqa: E402

PAPI = os.path.join(TOP, "build/papi")
HERE = os.path.dirname(os.path.abspath(__file__))
N1, N2 = 100000, 1100000
P1, P2 = 1, 3           # sweeps of papi-count dcm
OVF_N, OVF_T = 2000000, 100003  # papi-count overflow: 10M instructions, a handler call per 100003


def leon3_presets():
    """{preset: [native events]} of the leon3 section that
    tools/papi/patches adds to papi_events.csv."""
    pdir = os.path.join(TOP, "tools/papi/patches")
    added = []
    for p in sorted(os.listdir(pdir)):
        if not p.endswith(".patch"):
            continue
        cur = None
        for line in open(os.path.join(pdir, p)):
            m = re.match(r"^\+\+\+ b/(\S+)", line)
            if m:
                cur = m.group(1)
            elif cur == "src/papi_events.csv" and line.startswith("+"):
                added.append(line[1:].rstrip("\n"))
    out, inside = {}, False
    for line in added:
        if line.startswith("CPU,"):
            inside = line == "CPU,leon3"
        elif inside and line.startswith("PRESET,"):
            f = line.split(",")
            out[f[1]] = f[3:]
    return out


def boot(tmp, script, adds, *extra):
    return guest_sections(tmp, script, adds, "--timeout", "600", "--cpus", "2",
                          "--mem", "512M", *extra)


GUEST = r"""
cd /root
B=/root/papi/bin
RDPMC=/sys/bus/event_source/devices/leon3_pmu/rdpmc
sec() { echo "== $1"; }
sec avail; $B/papi_avail -a 2>&1; echo "exit $?"
sec native; $B/papi_native_avail 2>&1; echo "exit $?"
sec command-line; $B/papi_command_line PAPI_TOT_INS PAPI_L1_DCM PAPI_BR_TKN 2>&1; echo "exit $?"
sec ll; ./papi-count ll N1 N2 2>&1; echo "exit $?"
sec hl; PAPI_EVENTS=PAPI_TOT_INS,PAPI_LD_INS,PAPI_BR_TKN PAPI_OUTPUT_DIRECTORY=/tmp/hl ./papi-count hl N1 N2 2>&1
echo "exit $?"; cat /tmp/hl/papi_hl_output/*.json
sec fast; ./papi-count read N1 N2 2>&1; echo "exit $?"
sec slow; echo 0 >$RDPMC; ./papi-count read N1 N2 2>&1; echo "exit $?"; echo 1 >$RDPMC
sec meminfo; $B/papi_mem_info 2>&1; echo "exit $?"
sec dcm; ./papi-count dcm P1 P2 2>&1; echo "exit $?"
sec overflow; echo 0 >/proc/sys/kernel/perf_cpu_time_max_percent
./papi-count overflow OVF_N OVF_T 2>&1; ./papi-count overflow OVF_N 999 2>&1
sec bad; ./papi-count event leon3::NO_SUCH_EVENT; ./papi-count event PAPI_L2_TCM
$B/papi_command_line NO_SUCH_EVENT 2>&1; echo "exit $?"
sec end
"""

NO_DRIVER = r"""
cd /root
sec() { echo "== $1"; }
sec avail; /root/papi/bin/papi_avail -a 2>&1; echo "exit $?"
sec component; /root/papi/bin/papi_component_avail 2>&1
sec event; ./papi-count event PAPI_TOT_INS 2>&1; ./papi-count event leon3::INSTRUCTIONS 2>&1
sec end
"""


def check_fast_read(s, d):
    """PAPI_read() reads the counter from user space where the driver lets
    a task read it (sysfs rdpmc 1, tools/papi patch 0006), with a read()
    system call where not (rdpmc 0), and counts exactly either way."""
    hdr = "\n".join(s.get("avail", []))
    check("papi_avail's header: Fast counter read (rdpmc): yes",
          "Fast counter read (rdpmc): yes" in hdr, hdr[:600])
    for sec, fast, how in (("fast", 1, "from user space (rdpmc 1)"),
                           ("slow", 0, "with read() (rdpmc 0)")):
        v = {x.split()[0]: x.split()[1:] for x in s.get(sec, []) if x.split()}
        check(f"PAPI's perf_event component: fast_counter_read {fast} with sysfs "
              f"rdpmc {fast}", v.get("fast") == [str(fast)] and v.get("exit") == ["0"], str(v))
        r = [int(x) for x in v.get("read", [])]
        check(f"PAPI_read() {how}: loop({N2}) - loop({N1}) between reads = {5 * d} "
              f"instructions, exactly", len(r) == 2 and r[1] - r[0] == 5 * d, str(r))
        gap = [int(x) for x in v.get("gap", [])]
        # Kernel mode counted too: a read() system call is a trap, the
        # syscall's entry and exit and perf's read, more than 1000
        # instructions; a read from user space enters no kernel, and runs
        # PAPI's own code alone, a few hundred.  The smaller of two gaps,
        # so that a timer tick in one does not count.
        if fast:
            check("PAPI_read() from user space enters no kernel: two PAPI_read()s back to "
                  "back count under 1000 instructions, kernel mode included",
                  len(gap) == 2 and 0 < min(gap) < 1000, str(gap))
        else:
            check("PAPI_read() with read(): two PAPI_read()s back to back count over 1000 "
                  "instructions with kernel mode (the system call's)",
                  len(gap) == 2 and min(gap) > 1000, str(gap))


def check_caches(s):
    """PAPI's view of the caches (cacheinfo, from the kernel's LEON cache
    description; tools/papi
    patch 0005) is the document's geometry, and PAPI_L1_LDM, PAPI_L1_STM
    and PAPI_L1_DCM count what that geometry predicts for sweeps sized
    from it."""
    mi = "\n".join(s["meminfo"])
    for kind, name in (("Data", "dcache"), ("Instruction", "icache")):
        g = doc_cache_geometry(name)
        m = re.search(rf"^L1 {kind} Cache:\n\s+Total size:\s+(\d+) KB\n\s+Line size:\s+(\d+) B\n"
                      rf"\s+Number of Lines:\s+\d+\n\s+Associativity:\s+(\d+)$", mi, re.M)
        want = (g["size"] // 1024, g["line"], g["ways"])
        check(f"papi_mem_info: the L1 {kind} cache of the document, {want[0]} KB, "
              f"{want[1]}-byte lines, {want[2]} ways",
              exit_code(s["meminfo"]) == 0 and m and tuple(map(int, m.groups())) == want,
              mi[-600:])

    # papi-count dcm: the D-cache misses of sweeps of 8 times its size
    g = doc_cache_geometry("dcache")
    dcm = s["dcm"]
    geom = next((x.split()[1:] for x in dcm if x.startswith("geometry ")), None)
    check("papi-count dcm: PAPI_get_hardware_info() gives the document's D-cache "
          f"({g['size']} bytes, {g['line']}-byte lines, {g['ways']} ways)",
          geom == [str(g["size"]), str(g["line"]), str(g["ways"])], str(dcm[-5:]))
    lines = 8 * g["size"] // g["line"]
    want = (P2 - P1) * lines
    for kind, what, miss, other in (("rd", "loads", 0, 1), ("wr", "stores", 1, 0)):
        runs = [list(map(int, x.split()[1:])) for x in dcm if x.startswith(kind + " ")]
        pairs = list(zip(runs[0::2], runs[1::2]))
        ok_runs = len(pairs) == 5 and all(a[0] == P1 and b[0] == P2 for a, b in pairs)
        d = [[b[i] - a[i] for i in (1, 2, 3)] for a, b in pairs]
        med = [statistics.median(x[i] for x in d) for i in range(3)] if ok_runs else None
        # Every round is shown: the median keeps a round that a timer
        # interrupt or the first touch of PAPI's code disturbed from
        # failing the check, not from being seen.
        check(f"PAPI_L1_{'LDM' if miss == 0 else 'STM'}: {P2} - {P1} sweeps of {what} over "
              f"{lines} lines (8 times the D-cache) miss {want} more times, exactly "
              f"({'LRU, a cyclic sweep' if miss == 0 else 'write-through, no write-allocate'}; "
              f"the median of 5 rounds: {' '.join(str(x[miss]) for x in d)})",
              ok_runs and med[miss] == want, f"{d} -> {med}")
        check(f"... PAPI_L1_{'STM' if miss == 0 else 'LDM'} no more, and PAPI_L1_DCM is "
              f"their sum", ok_runs and med[other] == 0 and
              all(x[2] == x[0] + x[1] for x in d), str(d))


def main():
    tmp = tempfile.mkdtemp()
    if not os.path.isfile(os.path.join(PAPI, "bin/papi_avail")):
        not_ok(f"PAPI is built (make papi): {PAPI}/bin/papi_avail is missing")
        return 1
    prog = os.path.join(tmp, "papi-count")
    cc = subprocess.run([CC, "-static", "-O2", "-Wall", "-Werror", f"-I{PAPI}/include",
                         os.path.join(HERE, "papi-count.c"), "-o", prog,
                         f"{PAPI}/lib/libpapi.a"], capture_output=True, text=True)
    if cc.returncode:
        not_ok(f"tests/pmu/papi-count.c builds against build/papi: {cc.stderr.strip()[:400]}")
        return 1
    ok("tests/pmu/papi-count.c builds against build/papi (static libpapi.a)")
    presets = leon3_presets()
    check("tools/papi/patches: papi_events.csv has a leon3 section", len(presets) > 10, str(presets))
    doc = {n.upper() for n in doc_event_codes()}
    unknown = sorted({e for evs in presets.values() for e in evs if e not in doc})
    check("the leon3 presets use only events of Documentation/pmu-registers.md",
          not unknown, str(unknown))

    bins = [f"{PAPI}/bin:/root/papi/bin", prog]
    script = GUEST.replace("N1", str(N1)).replace("N2", str(N2)) \
                  .replace("P1", str(P1)).replace("P2", str(P2)) \
                  .replace("OVF_N", str(OVF_N)).replace("OVF_T", str(OVF_T))
    s, why = boot(tmp, script, bins)
    if s is None:
        not_ok(f"the PAPI session runs to its end: {why}")
        return 1
    ok("the PAPI session runs to its end (2 CPUs)")

    # papi_avail: every leon3 preset available
    av = s["avail"]
    listed = {m.group(1) for m in (re.match(r"^(PAPI_\w+)\s+0x[0-9a-f]+\s+(Yes|No)\s", x)
                                   for x in av) if m}
    check(f"papi_avail -a: the {len(presets)} leon3 presets available, no other",
          exit_code(av) == 0 and listed == set(presets),
          f"missing {sorted(set(presets) - listed)}, extra {sorted(listed - set(presets))}")

    # papi_avail's header: the processor, from /proc/cpuinfo (tools/papi
    # patch 0004, and the kernel's clock of each CPU in /proc/cpuinfo):
    # its clock is the PROM's default
    hz = prom_clock_hz()
    hdr = "\n".join(av)
    want = {"Vendor string and code": "Gaisler (9, 0x9)", "CPU Max MHz": str(hz // 1000000),
            "CPU Min MHz": str(hz // 1000000), "Total cores": "2"}
    got = {k: (re.search(rf"^{k}\s*: (.*)$", hdr, re.M) or [None, None])[1] for k in want}
    check(f"papi_avail: vendor Gaisler, a {hz // 1000000} MHz clock (prom/prom.h), 2 cores",
          got == want, str(got))
    check("papi_avail: model leon3", re.search(r"^Model string and code\s*: leon3 \(", hdr, re.M),
          hdr[:600])

    # papi_native_avail: the document's events with descriptions
    nat = "\n".join(s["native"])
    names = set(re.findall(r"^\|\s+(?:leon3::)?([A-Z_0-9]+)\s*\|", nat, re.M))
    check(f"papi_native_avail: the {len(doc)} events of the document",
          exit_code(s["native"]) == 0 and doc <= names, f"missing {sorted(doc - names)}")

    # papi_command_line: three presets counted
    cl = "\n".join(s["command-line"])
    vals = {e: re.search(rf"^{e} : \t?(\d+)", cl, re.M) for e in
            ("PAPI_TOT_INS", "PAPI_L1_DCM", "PAPI_BR_TKN")}
    check("papi_command_line PAPI_TOT_INS PAPI_L1_DCM PAPI_BR_TKN: each counted",
          exit_code(s["command-line"]) == 0 and all(vals.values()) and
          int(vals["PAPI_TOT_INS"].group(1)) > 0, cl[-400:])

    # the low-level API: exact differences
    runs = [list(map(int, x.split()[1:])) for x in s["ll"] if x.startswith("ll ")]
    d = N2 - N1
    want = [5 * d, d, d, d, d]
    got = [b - a for a, b in zip(runs[0][1:], runs[1][1:])] if len(runs) == 2 else None
    check(f"PAPI low-level API: loop({N2}) - loop({N1}) = {5 * d} instructions, {d} loads, "
          f"stores, branches and taken branches, exactly", got == want, f"{runs} -> {got}")
    check(f"PAPI low-level API: PAPI_TOT_INS of loop({N1}) is its {5 * N1} instructions "
          f"and a few hundred of PAPI's", len(runs) == 2 and 0 <= runs[0][1] - 5 * N1 < 2000,
          str(runs))

    # the high-level API: the JSON report
    hl = "\n".join(s["hl"])
    js = hl[hl.find("{"):] if "{" in hl else ""
    try:
        rep = json.loads(js)
        # {"threads": {"0": {"regions": {"ID": {"name": ..., EVENT: value}}}}}
        regions = {r["name"]: r for th in rep["threads"].values()
                   for r in th["regions"].values()}
        diff = {e: int(regions["n2"][e]) - int(regions["n1"][e])
                for e in ("PAPI_TOT_INS", "PAPI_LD_INS", "PAPI_BR_TKN")}
    except (ValueError, KeyError, TypeError, AttributeError) as e:
        diff = f"no report: {e}: {js[:300]}"
    check(f"PAPI high-level API: regions n2 - n1 = {5 * d} instructions, {d} loads and "
          f"taken branches, exactly",
          diff == {"PAPI_TOT_INS": 5 * d, "PAPI_LD_INS": d, "PAPI_BR_TKN": d}, str(diff))

    check_fast_read(s, d)

    check_caches(s)

    # PAPI_overflow(): a handler call per threshold instructions (perf's
    # interrupt-time limit off: the driver's interrupts are timed in LEON3
    # cycles, Documentation/libpfm4-papi.md)
    ovf = "\n".join(s["overflow"])
    m = re.search(rf"^overflow {OVF_T} calls (\d+) count (\d+)$", ovf, re.M)
    check(f"PAPI_overflow(PAPI_TOT_INS, {OVF_T}) over {5 * OVF_N} instructions: "
          f"a handler call for each {OVF_T} of the count",
          m and int(m.group(2)) >= 5 * OVF_N and int(m.group(1)) == int(m.group(2)) // OVF_T,
          ovf)
    # a threshold below the driver's shortest period (1000) is refused,
    # not lengthened behind the program's back (a tenth of the calls)
    check("PAPI_overflow(PAPI_TOT_INS, 999): PAPI_EINVAL, below the driver's shortest period",
          re.search(r"^overflow 999 error PAPI_overflow -1 ", ovf, re.M), ovf)

    # bad input
    bad = "\n".join(s["bad"])
    check("an unknown event: PAPI_ENOEVNT",
          re.search(r"^event leon3::NO_SUCH_EVENT error -7 ", bad, re.M), bad)
    check("a preset the LEON3 cannot count (PAPI_L2_TCM, no L2): PAPI_ENOEVNT",
          re.search(r"^event PAPI_L2_TCM error -7 ", bad, re.M), bad)
    check("papi_command_line NO_SUCH_EVENT: says it failed to add it (and exits 0, as upstream)",
          exit_code(s["bad"]) == 0 and "Failed adding: NO_SUCH_EVENT" in bad, bad)

    # without the driver
    s2, why = boot(tmp, NO_DRIVER, bins, "--no-module")
    if s2 is None:
        not_ok(f"the PAPI session without the driver runs to its end: {why}")
    else:
        av = "\n".join(s2["avail"])
        check("without the leon3_pmu driver: papi_avail lists no leon3 preset available",
              not re.search(r"^PAPI_(TOT_INS|L1_DCM)\s+0x[0-9a-f]+\s+Yes", av, re.M), av[-300:])
        comp = "\n".join(s2["component"])
        check("without the driver: papi_component_avail shows perf_event disabled, "
              "libpfm4 finding no PMU", re.search(r"perf_event.*\n.*no default PMU", comp) or
              re.search(r"Disabled.*perf_event|perf_event.*Disabled", comp, re.S), comp[-500:])
        ev = "\n".join(s2["event"])
        check("without the driver: leon3::INSTRUCTIONS is PAPI_ENOEVNT, PAPI_TOT_INS "
              "PAPI_ECMP_DISABLED (its component is disabled), as on any machine without a PMU",
              re.search(r"^event PAPI_TOT_INS error -25 ", ev, re.M) and
              re.search(r"^event leon3::INSTRUCTIONS error -7 ", ev, re.M), ev)

    return 0


if __name__ == "__main__":
    sys.exit(main())
