# SPDX-License-Identifier: GPL-2.0
"""Helpers for the Python test programs run by tests/run (the Python
twin of tests/lib.sh): the project's paths and the "ok"/"not ok" lines.

A test imports it with:
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    from lib import TOP, CC, RUN, ok, not_ok, check
"""

import csv
import json
import os
import re
import subprocess

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CC = os.path.join(TOP, "build/toolchain/bin/sparc-leon3-linux-gnu-gcc")
RUN = os.path.join(TOP, "tools/leon3-run")
QEMU_USER = os.path.join(TOP, "build/bin/qemu-sparc")


def ok(desc):
    print(f"ok - {desc}")


def not_ok(desc):
    print(f"not ok - {desc}")


def check(desc, cond, why=""):
    if cond:
        ok(desc)
    else:
        not_ok(f"{desc}{': ' + why if why else ''}")


def patch_new_files(patch):
    """{path: text} of the files a patch (git format-patch) creates."""
    files, cur, path = {}, None, None
    for line in open(patch).read().split("\n"):
        m = re.match(r"diff --git a/(\S+) b/", line)
        if m:
            cur, path = m.group(1), None
        elif line == "new file mode 100644":
            path = cur
            files[path] = []
        elif path and line.startswith("+") and not line.startswith("+++"):
            files[path].append(line[1:])
    return {p: "\n".join(lines) + "\n" for p, lines in files.items()}


def series_new_files(pdir):
    """{path: text} of the files the patches of directory PDIR (relative
    to TOP) create, in their order."""
    files = {}
    for name in sorted(os.listdir(os.path.join(TOP, pdir))):
        if name.endswith(".patch"):
            files.update(patch_new_files(os.path.join(TOP, pdir, name)))
    return files


def guest_sections(tmp, script, adds, *opts):
    """Boot a guest (tools/leon3-run OPTS) with the files ADDS
    ("HOST[:GUEST]"), run SCRIPT there with sh: its sections (see
    sections()) and "", or None and the last lines when it failed or
    did not reach its "== end"."""
    path = os.path.join(tmp, "guest.sh")
    with open(path, "w") as f:
        f.write(script)
    cmd = [RUN, *opts]
    for a in adds:
        cmd += ["--add", a]
    p = subprocess.run(cmd + ["--add", path, "--", "sh", "/root/guest.sh"],
                       capture_output=True, text=True)
    s = sections(p.stdout)
    if p.returncode or "end" not in s:
        return None, " | ".join((p.stderr + p.stdout).strip().splitlines()[-8:])
    return s, ""


def qemu_user(prog, args, exec_log=None):
    """PROG ARGS in user-mode QEMU (-cpu LEON3), the CompletedProcess; with
    EXEC_LOG, QEMU logs every instruction it runs there (-one-insn-per-tb
    -d exec,nochain), as tools/leon3-tags --exec-log reads it."""
    cmd = [QEMU_USER, "-cpu", "LEON3"]
    if exec_log:
        cmd += ["-one-insn-per-tb", "-d", "exec,nochain", "-D", exec_log]
    return subprocess.run(cmd + [prog, *args], capture_output=True, text=True, timeout=300)


def prom_clock_hz():
    """The system clock the PROM gives the guest by default (prom/prom.h)."""
    with open(os.path.join(TOP, "prom/prom.h")) as f:
        return int(re.search(r"^#define DEFAULT_CLOCK_HZ\s+(\d+)", f.read(), re.M).group(1))


def exit_code(lines):
    """N of the last line "exit N" of a section, None without one."""
    codes = [int(m.group(1)) for m in (re.match(r"^exit (\d+)$", x) for x in lines) if m]
    return codes[-1] if codes else None


PERF_JSON_DIR = "tools/perf/pmu-events/arch/sparc/"


def doc_event_descriptions():
    """{perf name: description} of the event table in
    Documentation/pmu-registers.md, capitalized as perf shows it."""
    text = open(os.path.join(TOP, "Documentation/pmu-registers.md")).read()
    return {m.group(1): m.group(2)[0].upper() + m.group(2)[1:] for m in
            re.finditer(r"^\| 0x[0-9A-F]{2} \| `(\w+)` \| ([^|]+?) \|", text, re.M)}


def doc_event_codes():
    """{perf name: event number} of Documentation/pmu-registers.md's table."""
    text = open(os.path.join(TOP, "Documentation/pmu-registers.md")).read()
    return {m.group(2): int(m.group(1), 16) for m in
            re.finditer(r"^\| (0x[0-9A-F]{2}) \| `(\w+)` \|", text, re.M)}


def cache_geometry(ways, way_kib, line, repl):
    """A cache geometry as the tests use it, with its size in bytes."""
    return {"ways": ways, "way_kib": way_kib, "line": line, "repl": repl,
            "size": ways * way_kib * 1024}


def doc_cache_geometry(cache):
    """The default geometry of CACHE ("icache" or "dcache"), from the row
    of its QEMU properties in Documentation/pmu-registers.md: ways, KiB
    a way, line bytes, replacement and the size in bytes."""
    names = ", ".join(f"`{cache}-{p}`" for p in ("ways", "way-kib", "line", "repl"))
    text = open(os.path.join(TOP, "Documentation/pmu-registers.md")).read()
    m = re.search(rf"^\| {re.escape(names)} \| ([^|]*) \|", text, re.M)
    if not m:
        raise SystemExit(f"no row {names} in Documentation/pmu-registers.md")
    ways, way_kib, line, repl = (v.strip() for v in m.group(1).split(","))
    return cache_geometry(int(ways), int(way_kib), int(line), repl)


def doc_memory_timing(latency=None, burst=None):
    """The memory timing of the timing table in
    Documentation/pmu-registers.md, MMU on, with pmu-mem-latency LATENCY
    and pmu-mem-burst BURST (default: the table's defaults): "read" the
    cycles of a read's first word, "burst" those of each further word of
    a D-cache line fill, "tlb" those of a TLB miss; and dmiss(line) those
    of a D-cache read miss with LINE-byte lines."""
    text = open(os.path.join(TOP, "Documentation/pmu-registers.md")).read()

    def cell(first, pattern):
        m = re.search(rf"^\| {re.escape(first)} \| {pattern} \|$", text, re.M)
        if not m:
            raise SystemExit(f"Documentation/pmu-registers.md: no timing row '{first}' "
                             f"that reads '{pattern}'")
        return [int(g) for g in m.groups()]

    first, default_latency, mmu = cell("cache read miss, uncached load or fetch",
                                       r"\+(\d+) \+ `pmu-mem-latency` \(default (\d+)\); "
                                       r"\+(\d+) more with the MMU on")
    default_burst, = cell("+ D-cache line fill",
                          r"\+ \(words in a line − 1\) × `pmu-mem-burst` \(default (\d+)\)")
    latency = latency if latency is not None else default_latency
    burst = burst if burst is not None else default_burst
    reads, tlb_first = cell("TLB miss (MMU on)", r"(\d+) × \((\d+) \+ `pmu-mem-latency`\)")
    read = first + latency + mmu
    return {"read": read, "burst": burst, "tlb": reads * (tlb_first + latency),
            "dmiss": lambda line: read + (line // 4 - 1) * burst}


def perf_json():
    """perf's LEON3 event tables as kernel/patches adds them: the files
    {path: text}, the events {name: JSON object} and the metrics."""
    events, metrics = {}, []
    files = {p: t for p, t in series_new_files("kernel/patches").items()
             if p.startswith(PERF_JSON_DIR)}
    for path, text in sorted(files.items()):
        if path.endswith(".json"):
            for e in json.loads(text):
                if "MetricName" in e:
                    metrics.append(e)
                else:
                    events.setdefault(e["EventName"], []).append(e)
    return files, events, metrics


# Helpers of the perf tests (tests/pmu/perf*.t)

KERNBASE = 0xF0000000


def build_guest(tmp, name, *flags, out=None, static=True):
    """tests/pmu/NAME.c built for the guest (static, unless STATIC is
    False) into OUT (default TMP/NAME), with FLAGS: its path, or the
    compiler's complaint as an exception."""
    out = out or os.path.join(tmp, name)
    cc = subprocess.run([CC, *["-static"] * static, "-O2", "-Wall", "-Werror", *flags,
                         os.path.join(TOP, f"tests/pmu/{name}.c"), "-o", out],
                        capture_output=True, text=True)
    if cc.returncode:
        raise RuntimeError(f"{name}.c does not build: {cc.stderr.strip()[:300]}")
    return out


def qemu_refuses(*props):
    """The exit status and message of the project's QEMU started (and
    stopped at once, -S) with the LEON3 CPU properties PROPS
    ("NAME=VALUE"): how it refuses a value it cannot model."""
    qemu = os.path.join(TOP, "build/bin/qemu-system-sparc")
    r = subprocess.run([qemu, "-M", "leon3_generic", "-display", "none", "-S", "-monitor",
                        "none", "-serial", "none",
                        *(x for p in props for x in ("-global", f"LEON3-sparc-cpu.{p}"))],
                       capture_output=True, text=True, timeout=30)
    return r.returncode, r.stderr.strip()


def build_workload(tmp):
    """tests/pmu/workload.c built static into TMP/workload."""
    return build_guest(tmp, "workload", "-pthread", "-g", "-fno-optimize-sibling-calls")


def mibench_build_rows(out):
    """tools/mibench's OUT/build.tsv: {program: (status, why)}."""
    rows = {}
    for line in open(os.path.join(out, "build.tsv")):
        name, status, why = line.rstrip("\n").split("\t")
        rows[name] = (status, why)
    return rows


def read_csv(path):
    """The rows of a CSV file as dicts ([] if it is not there)."""
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return list(csv.DictReader(f))


def shadow_rows_ok(data, real, rows):
    """A --shadow sweep's sweep.csv DATA: ROWS rows, all counted, those of
    geometry REAL measured by the real cache, the others as its shadows
    (which count no cycles)."""
    return (len(data) == rows and all(x["status"] == "ok" for x in data) and
            all((x["measured"] == "real") == (x["geometry"] == real) for x in data) and
            all(x["measured"] == f"shadow of {real}" and x["prog_cycles"] == ""
                for x in data if x["geometry"] != real))


def sections(text):
    """A guest script's output, cut at its lines "== NAME": {NAME: lines}."""
    out, name = {}, None
    for line in text.splitlines():
        m = re.match(r"^== (\S+)$", line)
        if m:
            name = m.group(1)
            out[name] = []
        elif name:
            out[name].append(line)
    return out


def csv_counts(lines, event):
    """Values of EVENT in perf stat -x, output (None where not counted)."""
    vals = []
    for line in lines:
        f = line.split(",")
        if len(f) > 3 and f[2] == event:
            vals.append(int(f[0]) if f[0].isdigit() else None)
    return vals


def report_samples(lines):
    """The counts of perf report's "# Samples: N" lines."""
    return [int(m.group(1)) for m in (re.match(r"^# Samples: (\d+)", x) for x in lines) if m]


def symbol_chains(lines):
    """perf script -F ip,sym call chains: lists of (ip, symbol name)."""
    out, cur = [], []
    for line in lines:
        m = re.match(r"^\s+([0-9a-f]+) (\S+)", line)
        if m:
            cur.append((int(m.group(1), 16), re.sub(r"\+0x[0-9a-f]+$", "", m.group(2))))
        elif not line.strip() and cur:
            out.append(cur)
            cur = []
    if cur:
        out.append(cur)
    return out


def function_symbols(binary):
    """[(start, end, name)] of a binary's functions, from nm -S, sorted."""
    out = subprocess.run(["sparc64-linux-gnu-nm", "-S", binary], check=True,
                         capture_output=True, text=True).stdout
    funcs = []
    for line in out.splitlines():
        f = line.split()
        if len(f) == 4 and f[2] in "TtWw":
            funcs.append((int(f[0], 16), int(f[0], 16) + int(f[1], 16), f[3]))
    return sorted(funcs)


def kernel_symbols():
    """{address: names} of the kernel's text symbols (build/linux/System.map):
    aliases such as sys_statx and __se_sys_statx share an address."""
    out = {}
    for line in open(os.path.join(TOP, "build/linux/System.map")):
        f = line.split()
        if len(f) == 3 and f[1] in "Tt":
            out.setdefault(int(f[0], 16), set()).add(f[2])
    return out
