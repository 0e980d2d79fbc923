#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# tests/run: one-core
"""The tag plugin (tools/tags/, Documentation/tags.md) on
tests/guest-binaries/tags-loops.c, whose loops' trip counts come from
its arguments:

- every record of .leon3_tags names a tag instruction at its address,
  and every tag instruction in the program's own functions has one;
- each function has its entry and exit tags, each loop its entry, latch
  and exit tags, at the depth and on the source line of the loop's
  "loop:" comment; the loop that -O2 unrolls whole has none at -O2 and
  has them at -O0 (the loop tree after optimisation);
- the tags are no-ops: the program prints what it prints without them
  (user-mode QEMU, -cpu LEON3), and is pure SPARC V8;
- how often each tag ran, counted from QEMU's log of every instruction
  (tools/leon3-tags --exec-log), is what the arguments give: at -O2 GCC
  tests a loop's condition at its bottom, so its latch runs trips - 1
  times an entry; at -O0 at its top, trips times; and --loops says so
  per loop;
- a shared object's records are its link-time addresses;
- the project's own guest programs build with the plugin, with records
  for their tags (and none in glibc's functions);
- bad input: an argument the plugin does not know, a file with no tags."""

import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from lib import TOP, CC, check, function_symbols, qemu_user  # noqa: E402
from leon3lib import elf, tags  # noqa: E402

PLUGIN = os.path.join(TOP, "build/tags/leon3_tags.so")
SRC = os.path.join(TOP, "tests/guest-binaries/tags-loops.c")
LEON3_TAGS = os.path.join(TOP, "tools/leon3-tags")
ROWS, COLS = 7, 9
OWN = ("grid", "four", "sign", "main")
# The project's own single-file guest programs: more code for the plugin
# (compiling MiBench with it once found an exit test whose location had
# no file, which crashed GCC's final pass)
PROGRAMS = ("tests/pmu/fidelity.c", "tests/pmu/hunt-workload.c", "tests/pmu/refresh-signals.c",
            "tests/pmu/sample-regs.c", "tests/pmu/throttle.c", "tests/pmu/unprivileged.c",
            "tests/pmu/workload.c", "tools/hunt/leon3-hunt-run.c", "tools/pidlog/leon3-pidlog.c",
            "tools/sweep/sweep-workload.c")


def marked_lines():
    """{"grid outer": line, ...} of the source's "loop:" comments"""
    out = {}
    for n, line in enumerate(open(SRC), 1):
        m = re.search(r"/\* loop: (.*?) \*/", line)
        if m:
            out[m.group(1)] = n
    return out


def build(tmp, name, *flags):
    out = os.path.join(tmp, name)
    cc = subprocess.run([CC, "-Wall", "-Werror", *flags, SRC, "-o", out],
                        capture_output=True, text=True)
    if cc.returncode:
        raise RuntimeError(f"{name}: {cc.stderr.strip()[:300]}")
    return out


def word_at(f, addr):
    off = f.file_offset(addr)
    return int.from_bytes(f.data[off:off + 4], "big")


def check_records(name, path, functions=None):
    """Each record names a tag at its address; each tag word of
    FUNCTIONS (default: all the text) has a record."""
    f = elf.Elf(path)
    recs = tags.records(path)
    bad = [t for t in recs if word_at(f, t.addr) != t.insn or not tags.is_tag(t.insn)]
    check(f"{name}: each of the {len(recs)} records names a tag instruction at its address",
          recs and not bad, f"{len(bad)} do not, e.g. {bad[:2]}")
    ranges = [(a, b) for a, b, n in function_symbols(path) if functions is None or n in functions]
    seen = {a for a, b in ranges for a in range(a, b, 4) if tags.is_tag(word_at(f, a))}
    check(f"{name}: every tag instruction in {', '.join(functions or ['the text'])} has a record",
          seen and seen == {t.addr for t in recs if any(a <= t.addr < b for a, b in ranges)},
          f"tags without a record: {sorted(hex(a) for a in seen - {t.addr for t in recs})}")
    return recs


def loops(recs, func):
    """{id: {kind: [Tag]}} of FUNC's loop tags"""
    out = {}
    for t in recs:
        if t.func == func and t.kind.startswith("loop-"):
            out.setdefault(t.id, {}).setdefault(t.kind, []).append(t)
    return out


def check_shape(name, recs, lines, unrolled):
    for fn in OWN:
        kinds = [t.kind for t in recs if t.func == fn]
        check(f"{name}: {fn} has one func-entry tag and a func-exit tag",
              kinds.count("func-entry") == 1 and kinds.count("func-exit") >= 1, str(kinds))
    want = {"grid outer": ("grid", 1), "grid inner": ("grid", 2)}
    if not unrolled:
        want["four"] = ("four", 1)
    found = {}
    for fn in ("grid", "four"):
        for ident, k in loops(recs, fn).items():
            every = [t for ts in k.values() for t in ts]
            same = {(t.line, t.depth) for t in every}
            check(f"{name}: {fn}'s loop {ident} has entry, latch and exit tags, all of one line and depth",
                  set(k) == {"loop-entry", "loop-latch", "loop-exit"} and len(same) == 1,
                  f"{sorted(k)}, {same}")
            found[(fn, *same.pop())] = ident
    got = {label: (fn, depth) for label, (fn, depth) in want.items()
           if (fn, lines[label], depth) in found}
    check(f"{name}: the loops are those of the source's loop: lines, at their depths "
          f"({', '.join(f'{k} line {lines[k]} depth {v[1]}' for k, v in want.items())})",
          got == want and len(found) == len(want),
          f"found (function, line, depth): {sorted(found)}")
    if unrolled:
        check(f"{name}: the loop of four(), unrolled whole, has no tags",
              not loops(recs, "four"))


def run(prog, log=None):
    return qemu_user(prog, [str(ROWS), str(COLS)], log)


def runs(log, prog):
    """{(function, line, kind): runs} from tools/leon3-tags --exec-log"""
    out = subprocess.run([LEON3_TAGS, "--exec-log", log, prog], capture_output=True, text=True)
    counts = {}
    for line in out.stdout.splitlines()[1:]:
        f = line.split()
        file, _, ln = f[5].rpartition(":")
        key = (f[4], int(ln), f[1])
        counts[key] = counts.get(key, 0) + int(f[6])
    return counts


def check_runs(name, counts, lines, want):
    """WANT: {(function, label or None, kind): runs}"""
    bad = []
    for (fn, label, kind), n in want.items():
        line = lines[label] if label else None
        got = sum(v for (f, ln, k), v in counts.items()
                  if f == fn and k == kind and (line is None or ln == line))
        if got != n:
            bad.append(f"{fn} {label or ''} {kind}: {got}, want {n}")
    check(f"{name}: each tag ran as often as the arguments {ROWS} {COLS} say "
          f"({len(want)} counts)", not bad, "; ".join(bad))


def main():
    lines = marked_lines()
    check("tags-loops.c marks its three loops", set(lines) == {"grid outer", "grid inner", "four"},
          str(lines))
    check("the tag plugin is built (make tag-plugin)", os.path.exists(PLUGIN), PLUGIN)
    with tempfile.TemporaryDirectory() as tmp:
        plain = build(tmp, "plain", "-O2", "-static")
        o2 = build(tmp, "o2", "-O2", "-static", f"-fplugin={PLUGIN}")
        o0 = build(tmp, "o0", "-O0", "-static", f"-fplugin={PLUGIN}")
        check("a program built without the plugin has no .leon3_tags",
              tags.records(plain) == [])

        recs2 = check_records("-O2", o2, OWN)
        check_shape("-O2", recs2, lines, unrolled=True)
        recs0 = check_records("-O0", o0, OWN)
        check_shape("-O0", recs0, lines, unrolled=False)
        check("-O2: the file of each record is tags-loops.c",
              {os.path.basename(t.file) for t in recs2} == {"tags-loops.c"},
              str({t.file for t in recs2}))

        want_out = f"{sum(r * c for r in range(ROWS) for c in range(COLS))} 10 " \
                   f"{(ROWS > COLS) - (ROWS < COLS)}\n"
        outs = {n: run(p) for n, p in (("plain", plain), ("-O2", o2), ("-O0", o0))}
        check(f"the program prints {want_out.strip()!r} with and without tags, at -O2 and -O0",
              all(o.returncode == 0 and o.stdout == want_out for o in outs.values()),
              "; ".join(f"{n}: {o.returncode} {o.stdout!r} {o.stderr.strip()[:100]}"
                        for n, o in outs.items()))
        v8 = subprocess.run([os.path.join(TOP, "tools/check-sparc-v8"), o2],
                            capture_output=True, text=True)
        check("the tagged program is pure SPARC V8 (tools/check-sparc-v8)", v8.returncode == 0,
              (v8.stdout + v8.stderr).strip()[:300])

        once = {(fn, None, k): 1 for fn in OWN for k in ("func-entry", "func-exit")}
        for name, prog, latch in (("-O2", o2, lambda trips: trips - 1),
                                  ("-O0", o0, lambda trips: trips)):
            log = os.path.join(tmp, f"{name}.log")
            r = run(prog, log)
            if r.returncode:
                check(f"{name}: the program runs with QEMU's exec log", False, r.stderr[:300])
                continue
            want = dict(once)
            want.update({
                ("grid", "grid outer", "loop-entry"): 1,
                ("grid", "grid outer", "loop-latch"): latch(ROWS),
                ("grid", "grid outer", "loop-exit"): 1,
                ("grid", "grid inner", "loop-entry"): ROWS,
                ("grid", "grid inner", "loop-latch"): ROWS * latch(COLS),
                ("grid", "grid inner", "loop-exit"): ROWS,
            })
            if name == "-O0":
                want.update({("four", "four", "loop-entry"): 1,
                             ("four", "four", "loop-latch"): latch(4),
                             ("four", "four", "loop-exit"): 1})
            check_runs(name, runs(log, prog), lines, want)
            # --loops: the inner loop's header ran COLS times an entry
            # where the test is at the bottom, COLS + 1 at the top
            per = COLS if name == "-O2" else COLS + 1
            out = subprocess.run([LEON3_TAGS, "--exec-log", log, "--loops", prog],
                                 capture_output=True, text=True).stdout
            row = [ln.split() for ln in out.splitlines()
                   if ln.startswith("grid ") and ln.split()[1].endswith(f":{lines['grid inner']}")]
            check(f"{name}: leon3-tags --loops: grid's inner loop entered {ROWS} times, "
                  f"its header {per} times an entry",
                  row and row[0][2:] == ["2", str(ROWS), str(ROWS * latch(COLS)), str(ROWS), str(per)],
                  out.strip())

        so = os.path.join(tmp, "libtl.so")
        cc = subprocess.run([CC, "-O2", "-fPIC", "-shared", f"-fplugin={PLUGIN}", SRC, "-o", so],
                            capture_output=True, text=True)
        check("a shared object builds with the plugin", cc.returncode == 0, cc.stderr[:300])
        if cc.returncode == 0:
            check_records("a shared object", so, OWN)

        for src in PROGRAMS:
            prog = os.path.join(tmp, os.path.basename(src)[:-2])
            cc = subprocess.run([CC, "-O2", "-static", "-pthread", f"-I{TOP}/kernel",
                                 f"-fplugin={PLUGIN}", os.path.join(TOP, src), "-o", prog, "-lm"],
                                capture_output=True, text=True)
            check(f"{src} builds with the plugin", cc.returncode == 0, cc.stderr.strip()[-300:])
            if cc.returncode == 0:
                check_records(src, prog)

        bad = subprocess.run([CC, "-O2", "-c", f"-fplugin={PLUGIN}", "-fplugin-arg-leon3_tags-ids=1",
                              SRC, "-o", os.path.join(tmp, "bad.o")], capture_output=True, text=True)
        check("an argument the plugin does not know fails the compile, named",
              bad.returncode != 0 and "unknown argument" in bad.stderr and "-fplugin-arg-leon3_tags-ids" in bad.stderr,
              bad.stderr.strip()[:300])
        none = subprocess.run([LEON3_TAGS, plain], capture_output=True, text=True)
        check("tools/leon3-tags on a program without tags exits 1 and says so",
              none.returncode == 1 and "no .leon3_tags section" in none.stderr,
              f"{none.returncode} {none.stderr.strip()}")


main()
