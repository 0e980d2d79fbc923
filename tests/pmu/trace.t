#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# tests/run: one-core
"""The trace unit under Linux: the leon3_trace PMU (kernel/leon3_pmu_trace.c)
records a process's tags into its AUX area.  tests/pmu/trace-aux.c opens
the event on a program as perf record would and prints the records, which
tools/leon3lib/trace.py decodes; each trace is held to the code
that made it:

- tests/pmu/trace-work.c's hand-tagged loops: the tags, each at the
  address of its symbol, in the order and number the code runs them (a
  loop of 1000 iterations, one with a call in its body, nested loops of
  1 to 30 trips), from a handful of records: a run of one tag is one
  record, a repeated path one REPEAT record;
- tests/guest-binaries/tags-loops.c built with the tag plugin: each
  tag's runs in the trace equal its runs in QEMU's log of every
  instruction of the same program in user mode (tools/leon3-tags
  --exec-log), and what leon3-methods counts for the tag's instruction
  alone with the counters (an address filter on each tag), and the
  loops' trips are the arguments';
- with insn_time the records' times are the program's own
  instructions: a loop's exit tag as many after its first iteration as
  its code has, whatever interrupts came;
- in deterministic mode (a LEON3's clock, a fixed seed) two boots give
  the same records, times included;
- an AUX area too small for the trace: a PERF_RECORD_AUX flagged
  truncated, and the records before the loss intact (a prefix of the
  program's tags); in snapshot mode the unit overwrites, and the last
  records are the end of the program's tags;
- a process the event does not follow (a child of the traced shell)
  records no tag;
- perf record -e leon3_trace// records the same trace into perf.data,
  whose records perf report -D prints, in the guest and on the host
  (perf-host reading the guest's file: the records are big-endian);
  perf script gives a sample of leon3-tags a record, at the tag's
  function, of the traced command, whose periods add up per function
  to what QEMU's exec log counts for the plugin-built program; with
  --itrace=ig perf report's and perf script's call chains of fib's
  samples are fib(9)'s recursion, each depth's calls exactly;
- a CPU's trace (perf record -a, with PID records): each sample of a
  program's tags has the program's comm and tid, from the records;
- the samples' times are on the event's clock (perf record -k
  CLOCK_REALTIME, the guest's date set to 2027, far from the kernel's
  own clock since boot): a tag that runs 5 times with 20 ms asleep
  after each gives 5 samples in order, each sample's time and the
  program's own clock_gettime() right after the tag lie in the same
  stretch of the task on the CPU, between the SYNC records the driver
  wrote at its START and STOP records, and the stretch of the next tag
  starts at least 20 ms after that clock_gettime();
- tools/leon3-trace on tests/pmu/trace-uses.c (built with the plugin):
  the call tree is the code's (fib's recursion, depth by depth, as
  often as the recursion calls), from trace-aux's records and from
  perf record's perf.data alike; a triangular loop nest's histogram has
  each trip count 1 to N once; a function's one path runs N times; a
  model learnt from two normal runs finds nothing new in a third and
  flags the run that takes a rare path, with the path's source line;
  tools/bench/trace-stat in the guest counts the records and tags of
  the perf.data as the host's decoder does;
- bad input: an unknown config bit, a sampling frequency, excluding
  both user and kernel: EINVAL (a period, which perf record sets to 1
  for AUX events, means nothing); a second event on the same task:
  EBUSY (the unit is exclusive)."""

import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from lib import TOP, CC, check, not_ok, build_guest, guest_sections, exit_code, \
    qemu_user  # noqa: E402
from leon3lib import elf, tags, trace  # noqa: E402

PLUGIN = os.path.join(TOP, "build/tags/leon3_tags.so")
LEON3_TAGS = os.path.join(TOP, "tools/leon3-tags")
LEON3_TRACE = os.path.join(TOP, "tools/leon3-trace")
PERF_HOST = os.path.join(TOP, "build/perf-host/perf")
PERF_AUX_FLAG_TRUNCATED = 0x01
PERF_AUX_FLAG_OVERWRITE = 0x02
EINVAL, EBUSY = 22, 16
SEED = "5eed" * 16

# Tags: kind << 19 | id
ENTRY, FENTRY, FEXIT = 0x080001, 0x080002, 0x100002
LATCH, EXIT = 0x200001, 0x280001
IENTRY, ILATCH, IEXIT = 0x180002, 0x200002, 0x280002

GUEST = """
echo == loop; /root/trace-aux /root/trace-work loop 1000; echo exit $?
echo == call; /root/trace-aux /root/trace-work call 500; echo exit $?
echo == nest; /root/trace-aux /root/trace-work nest 30; echo exit $?
echo == insn-time; /root/trace-aux -c 4 /root/trace-work call 500; echo exit $?
echo == small; /root/trace-aux -a 1 /root/trace-work nest 200; echo exit $?
echo == snapshot; /root/trace-aux -S -a 1 /root/trace-work nest 200; echo exit $?
echo == plugin; /root/trace-aux /root/tags-loops 7 9; echo exit $?
echo == methods; cd /root && leon3-methods -f TAGRANGES -e instructions -- ./tags-loops 7 9 2>&1; echo exit $?
echo == child; /root/trace-aux sh -c '/root/trace-work loop 50; true'; echo exit $?
echo == bad-config; /root/trace-aux -e -c 16 /root/trace-work loop 1
echo == bad-freq; /root/trace-aux -e -F 1000 /root/trace-work loop 1
echo == period; /root/trace-aux -P 1 /root/trace-work loop 10; echo exit $?
echo == bad-exclude; /root/trace-aux -e -U /root/trace-work loop 1
echo == second; /root/trace-aux -2 /root/trace-work loop 1; echo exit $?
echo == perf-record; perf record -q -e leon3_trace// -o /tmp/trace.data -- /root/trace-work call 300; echo exit $?
echo == perf-report; perf report -D -i /tmp/trace.data 2>&1 | grep -E '^\.  [0-9a-f]{8}:  |LEON3'; echo exit $?
echo == perf-script; cd /root && perf record -q -e leon3_trace// -o /tmp/loops.data -- ./tags-loops 7 9 >/dev/null && perf script -i /tmp/loops.data -F comm,event,period,ip,sym 2>&1; echo exit $?
echo == sleep; date -u -s '2027-01-15 08:00:00' >/dev/null; perf record -q -k CLOCK_REALTIME -e leon3_trace// -o /tmp/sleep.data -- /root/trace-work sleep 5; echo exit $?; perf script -i /tmp/sleep.data --ns -F time,ip,sym 2>&1; perf report -D -i /tmp/sleep.data 2>&1 | grep -E '^\.  [0-9a-f]{8}:  '
echo == system; perf record -q -a -e leon3_trace/pidrec/u -o /tmp/sys.data -- /root/trace-work loop 100; echo exit $?; perf script -i /tmp/sys.data -F comm,tid,period,ip,sym 2>&1
echo == uses; /root/trace-aux /root/trace-uses 9 -1; echo exit $?
echo == uses-normal; /root/trace-aux /root/trace-uses 7 -1; echo exit $?
echo == uses-rare; /root/trace-aux /root/trace-uses 7 4; echo exit $?
echo == uses-record; perf record -q -e leon3_trace// -o /tmp/uses.data -- /root/trace-uses 9 -1; echo exit $?
echo == trace-stat; /root/trace-stat /tmp/uses.data; echo exit $?
echo == end
"""


def symbols(path):
    """{name: address} of the ELF file's symbols (nm)"""
    nm = CC.replace("gcc", "nm")
    out = subprocess.run([nm, path], capture_output=True, text=True).stdout
    return {f[2]: int(f[0], 16) for f in (x.split() for x in out.splitlines()) if len(f) == 3}


def each_tag(d):
    """[(imm22, pc) of each tag that ran] of trace.runs()'s D"""
    return [(e.a, e.pc) for e in d.events if e.kind == "TAG" for _ in range(e.n)]


def tags_of(lines):
    """(decoded, [(imm22, pc) of each tag that ran])"""
    d = trace.runs(trace.from_dump(lines))
    return d, each_tag(d)


def aux_flags(lines):
    return [int(x.split()[3]) for x in lines if x.startswith("aux ")]


def check_exact(name, lines, want, least_records, period=1):
    """The tags of LINES are WANT, in LEAST_RECORDS TAG and REPEAT records
    when the process ran without a context switch; each switch (a STOP
    and a START record) may cut a run in two, or a repeated path of
    PERIOD records, which then takes up to two copies and a REPEAT again."""
    d, got = tags_of(lines)
    check(f"{name}: the program ran to its end under the trace", exit_code(lines) == 0 and
          any(x.startswith("done ") for x in lines), " | ".join(lines[-4:]))
    check(f"{name}: every record decodes", not d.errors, str(d.errors))
    first = next((i for i, (g, w) in enumerate(zip(got, want)) if g != w), None)
    check(f"{name}: the trace's tags are the code's, in order: {len(want)} tags",
          got == want, f"{len(got)} tags; first difference at {first}: "
          f"{got[first] if first is not None else None} for {want[first] if first is not None else None}")
    recs = trace.from_dump(lines)
    n = sum(r.type in ("TAG", "REPEAT") for r in recs)
    switches = sum(r.type == "START" for r in recs) - 1
    most = least_records + switches * (2 * period + 1)
    check(f"{name}: in {n} TAG and REPEAT records, {least_records} and at most "
          f"{2 * period + 1} more for each of the {switches} context switches: runs and "
          "repeats are one record each", least_records <= n <= most, str(recs[:8]))
    return d


def loop_tags(s, n):
    return [(ENTRY, s["tw_entry"])] + [(LATCH, s["tw_latch"])] * n + [(EXIT, s["tw_exit"])]


def call_tags(s, n):
    body = [(FENTRY, s["tw_fentry"]), (FEXIT, s["tw_fexit"]), (LATCH, s["tw_clatch"])]
    return [(ENTRY, s["tw_centry"])] + body * n + [(EXIT, s["tw_cexit"])]


def nest_tags(s, n):
    out = [(ENTRY, s["tw_nentry"])]
    for i in range(1, n + 1):
        out += [(IENTRY, s["tw_ientry"])] + [(ILATCH, s["tw_ilatch"])] * i + \
               [(IEXIT, s["tw_iexit"]), (LATCH, s["tw_olatch"])]
    return out + [(EXIT, s["tw_oexit"])]


def check_sleep(lines, sym):
    """perf's times for the records: the program's own clock, read right
    after each tag, and the samples' times in the same stretch of the task
    on a CPU, between the driver's SYNC records at its START and STOP"""
    at = [int(m.group(1)) * 10**9 + int(m.group(2))
          for m in (re.match(r"^at (\d+)\.(\d{9})$", x) for x in lines) if m]
    check("sleep 5 under perf record -k CLOCK_REALTIME: the program ran to its end",
          exit_code(lines) == 0 and len(at) == 5, " | ".join(lines[-4:]))
    got = [(int(m.group(1)) * 10**9 + int(m.group(2)), int(m.group(3), 16), m.group(4))
           for m in (re.match(r"^\s*(\d+)\.(\d{9}):\s+([0-9a-f]+)\s+(\S+)", x) for x in lines)
           if m]
    tag = [t for t, ip, name in got if ip == sym["tw_stag"]]
    check("perf script: a sample at the tag for each of its 5 runs, in time order",
          len(tag) == 5 and tag == sorted(tag), f"{tag} | {lines[5:12]}")
    recs = [r for r in trace.from_perf_dump(lines) if r.type != "type-0"]
    spans, opened = [], None
    for i, r in enumerate(recs):
        if r.type == "SYNC" and i + 1 < len(recs) and recs[i + 1].type == "START":
            opened = r.b << 32 | r.c
        elif r.type == "SYNC" and i and recs[i - 1].type == "STOP" and opened is not None:
            spans.append((opened, r.b << 32 | r.c))
            opened = None
    nstart = sum(r.type == "START" for r in recs)
    check(f"the driver's SYNC records: one before each of the {nstart} START records and one "
          f"after each STOP", nstart and len(spans) == nstart and
          sum(r.type == "SYNC" for r in recs) == 2 * nstart, str(recs[:6]))
    # the stretch of the task on a CPU (between the SYNC records at its
    # START and STOP) that holds each tag's time
    where = [next((k for k, (p0, p1) in enumerate(spans) if p0 <= t <= p1), None) for t in tag]
    # (or in the next, where the task was preempted between the two)
    check("each tag's time and the program's clock_gettime() right after it: in the same "
          "stretch of the task on a CPU, between two SYNC records",
          len(tag) == 5 and len(at) == 5 and None not in where and
          all(any(spans[j][0] <= a <= spans[j][1] for j in (k, k + 1) if j < len(spans))
              for k, a in zip(where, at)),
          f"tags {tag} program {at} stretches {spans[:8]}")
    check("... and the stretch of each next tag starts at least 20 ms after the program's "
          "clock before its sleep (nanosleep of 20 ms)",
          len(tag) == 5 and len(at) == 5 and None not in where and
          all(spans[where[i + 1]][0] - at[i] >= 20 * 10**6 for i in range(4)),
          f"tags {tag} program {at} stretches {spans[:8]}")


def check_callchains(data_dir, n=9):
    """perf report --itrace=ig: each leon3-tags sample of fib has a call
    chain of as many fib frames as its call is deep in the recursion of
    fib(N), then main: each call's entry and exit tags, exactly"""
    r = subprocess.run([PERF_HOST, "report", "-i", os.path.join(data_dir, "perf.data"),
                        "--symfs", os.path.join(data_dir, "symfs"), "--itrace=ig", "--stdio",
                        "--no-children", "--sort", "sym", "-g", "flat,0,callee,function,count"],
                       capture_output=True, text=True)
    chains, sym = [], None      # [count, [frame, ...]] of fib's samples
    for line in r.stdout.splitlines():
        m = re.match(r"^\s+[\d.]+%\s+\[\.\] (\S+)", line)
        f = line.split()
        if m:
            sym = m.group(1)
        elif sym == "fib" and f and f[0].isdigit():
            chains.append([int(f[0]), []])
        elif sym == "fib" and f and chains:
            chains[-1][1].append(f[0])
    got = {}
    for count, frames in chains:
        got[tuple(frames)] = got.get(tuple(frames), 0) + count
    want = {}
    depth = 0
    while fib_calls_at_depth(n, depth):
        want[("fib",) * (depth + 1) + ("main",)] = 2 * fib_calls_at_depth(n, depth)
        depth += 1
    check(f"perf report --itrace=ig: fib's samples have call chains of fib({n})'s recursion, "
          f"depth by depth, an entry and an exit tag a call ({sum(want.values())} samples at "
          f"{len(want)} depths)", r.returncode == 0 and got == want,
          f"{got} for {want} | {r.stderr[-300:]}")
    # perf script prints the same chains, a block of lines a sample
    r = subprocess.run([PERF_HOST, "script", "-i", os.path.join(data_dir, "perf.data"),
                        "--symfs", os.path.join(data_dir, "symfs"), "--itrace=ig", "-F", "ip,sym"],
                       capture_output=True, text=True)
    got = {}
    for block in re.split(r"\n\s*\n", r.stdout):
        frames = tuple(x.split()[1] for x in block.splitlines() if len(x.split()) == 2)
        if frames[:1] == ("fib",):
            got[frames] = got.get(frames, 0) + 1
    check("perf script --itrace=ig prints each of fib's samples with the same call chain",
          r.returncode == 0 and got == want, f"{got} for {want} | {r.stderr[-300:]}")


def exec_log_runs(tmp, prog, args):
    """tools/leon3-tags' listing with each tag's runs from QEMU's exec log"""
    log = os.path.join(tmp, "exec.log")
    r = qemu_user(prog, args, log)
    if r.returncode:
        raise RuntimeError(f"{prog} in user-mode QEMU: {r.stderr[:300]}")
    return subprocess.run([LEON3_TAGS, "--exec-log", log, prog], capture_output=True,
                          text=True).stdout


def fib_calls_at_depth(n, depth):
    """calls of fib at DEPTH below the call fib(N): the code's recursion"""
    level = [n]
    for _ in range(depth):
        level = [m for k in level if k >= 2 for m in (k - 1, k - 2)]
    return len(level)


def call_tree(text, cycles=False):
    """{(main, ..., function): calls} of leon3-trace calls' output, or
    with CYCLES {...: (timed calls, cycles a call or '-')}"""
    tree, chain = {}, []
    for line in text.splitlines()[1:]:
        m = re.match(r"^ *(\d+) +(\d+) +(-|[0-9.e+]+)  ( *)(\S+)", line)
        if m:
            depth = len(m.group(4)) // 2
            chain = chain[:depth] + [m.group(5)]
            tree[tuple(chain)] = (int(m.group(2)), m.group(3) if m.group(3) == "-"
                                  else float(m.group(3))) if cycles else int(m.group(1))
    return tree


def leon3_trace(*args):
    r = subprocess.run([LEON3_TRACE, *args], capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


def check_uses(tmp, s, uses, perf_data):
    """tools/leon3-trace's call tree, loop histograms, paths and anomaly
    detector on trace-uses.c, against what its code does"""
    dumps = {}
    for name in ("uses", "uses-normal", "uses-rare"):
        dumps[name] = os.path.join(tmp, name + ".dump")
        with open(dumps[name], "w") as f:
            f.write("\n".join(s[name]) + "\n")
    src = open(os.path.join(TOP, "tests/pmu/trace-uses.c")).read().splitlines()
    line = {m.group(1): i + 1 for i, x in enumerate(src)
            for m in [re.search(r"/\* loop: (.*) \*/", x)] if m}
    n = 9
    rc, out, err = leon3_trace("calls", dumps["uses"], uses)
    want = {("main",): 1, ("main", "check"): n, ("main", "tri"): 1}
    depth = 0
    while fib_calls_at_depth(n, depth):
        want[("main",) + ("fib",) * (depth + 1)] = fib_calls_at_depth(n, depth)
        depth += 1
    got = call_tree(out)
    check(f"leon3-trace calls: main calls check {n} times, tri once, fib({n}) once, whose "
          f"recursion calls fib {sum(want.values()) - n - 3} times more, at each of its "
          f"{depth - 1} depths as often as the code does", rc == 0 and got == want and
          exit_code(s["uses"]) == 0, f"{err[-300:]} | {got} for {want}")
    rc2, out2, err2 = leon3_trace("calls", perf_data, uses)
    check("... the same tree from perf record's perf.data of another run",
          rc2 == 0 and call_tree(out2) == got and exit_code(s["uses-record"]) == 0,
          f"{err2[-300:]} | {out2[:300]}")
    timed = call_tree(out, cycles=True)
    tri, main = timed.get(("main", "tri")), timed.get(("main",))
    check("... the calls of main and tri timed (their entry and exit tags have the clock), "
          "tri's cycles a part of main's",
          tri and main and tri[0] == main[0] == 1 and 0 < tri[1] < main[1], str(timed))

    rc, out, err = leon3_trace("loops", dumps["uses"], uses, "--csv", os.path.join(tmp, "l.csv"))
    inner = re.search(rf"^tri  \S*trace-uses\.c:{line['tri inner']}  depth 2  loop \d+: "
                      rf"{n} entries, iterations min 1 mean {(n + 1) / 2:g} max {n}\n"
                      r"    iterations  entries\n((?:    .*\n)+)", out, re.M)
    hist = [tuple(int(x) for x in r.split()) for r in inner.group(1).splitlines()] \
        if inner else None
    check(f"leon3-trace loops: tri's inner loop entered {n} times, with 1 to {n} iterations "
          "once each", rc == 0 and hist == [(k, 1) for k in range(1, n + 1)],
          f"{err[-200:]} | {out[:600]}")
    check(f"... tri's outer loop and main's each entered once, for {n} iterations",
          all(re.search(rf"^{f}  \S*trace-uses\.c:{line[k]}  depth 1  loop \d+: 1 entries, "
                        rf"iterations min {n} mean {n} max {n}$", out, re.M)
              for f, k in (("tri", "tri outer"), ("main", "main"))), out[:600])
    csv = open(os.path.join(tmp, "l.csv")).read().splitlines()
    check("... --csv: a row for each loop and number of iterations",
          csv[0] == "function,loop,iterations,entries" and len(csv) == 1 + n + 2, str(csv[:4]))

    rc, out, err = leon3_trace("paths", dumps["uses"], uses)
    chk = [x.split(None, 1) for x in out.splitlines()[1:] if " check: " in x]
    check(f"leon3-trace paths: check runs one path, {n} times, from its entry to its exit",
          rc == 0 and len(chk) == 1 and chk[0][0] == str(n) and
          re.match(r"check: func-entry \S+ -> func-exit \S+$", chk[0][1]), out[:600])

    # tools/bench/trace-stat (make bench-trace's count, in the guest)
    lines = subprocess.run([PERF_HOST, "report", "-D", "-i", perf_data], capture_output=True,
                           text=True).stdout.splitlines()
    recs = trace.from_perf_dump(lines)
    d = trace.runs(recs)
    want = f"bytes {16 * len(recs)} records {len(recs)} tags {d.tags} lost 0"
    check(f"trace-stat in the guest reads perf.data as the host's decoder does: {want}",
          s["trace-stat"][:1] == [want] and exit_code(s["trace-stat"]) == 0 and d.tags > 0,
          f"{s['trace-stat'][:3]} for {want}")

    model = os.path.join(tmp, "model.json")
    rc1, out1, _ = leon3_trace("learn", "--model", model, perf_data, uses)
    rc2, out2, _ = leon3_trace("learn", "--model", model, dumps["uses-normal"], uses)
    check("leon3-trace learn: two normal runs (a perf.data and a dump) make a model",
          rc1 == rc2 == 0 and "2 runs" in out2 and "(0 paths and 0 calls new" in out2,
          out1 + out2)
    rc, out, err = leon3_trace("check", "--model", model, dumps["uses-normal"], uses)
    check("leon3-trace check: a normal run has no path or call the model has not seen",
          rc == 0 and out.startswith("no path or call"), out + err)
    rc, out, err = leon3_trace("check", "--model", model, dumps["uses-rare"], uses)
    new = [x for x in out.splitlines() if x.startswith("new ")]
    check(f"... a run that takes check's rare path is flagged (exit 1): the path from check's "
          f"entry into its loop at trace-uses.c:{line['check rare']}, and nothing outside check",
          rc == 1 and exit_code(s["uses-rare"]) == 0 and
          any(re.match(rf"new path, 1 runs: check: func-entry \S+ -> loop-entry "
                       rf"\S*trace-uses\.c:{line['check rare']}$", x) for x in new) and
          all(x.startswith("new path, ") and " check: " in x for x in new), out + err)
    rc, out, err = leon3_trace("check", "--model", os.path.join(tmp, "none.json"),
                               dumps["uses"], uses)
    check("... a model that does not exist: a clear error, exit 2",
          rc == 2 and "no such model" in err, err)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        try:
            aux = build_guest(tmp, "trace-aux", f"-I{TOP}/tests/pmu")
            work = build_guest(tmp, "trace-work")
            uses = build_guest(tmp, "trace-uses", f"-fplugin={PLUGIN}",
                               "-fno-optimize-sibling-calls")
            stat = os.path.join(tmp, "trace-stat")
            cc = subprocess.run([CC, "-static", "-O2", "-Wall", "-Werror",
                                 os.path.join(TOP, "tools/bench/trace-stat.c"), "-o", stat],
                                capture_output=True, text=True)
            if cc.returncode:
                raise RuntimeError(f"tools/bench/trace-stat.c does not build: {cc.stderr[:300]}")
        except RuntimeError as e:
            not_ok(str(e))
            return
        loops = os.path.join(tmp, "tags-loops")
        cc = subprocess.run([CC, "-static", "-O2", f"-fplugin={PLUGIN}",
                             os.path.join(TOP, "tests/guest-binaries/tags-loops.c"), "-o", loops],
                            capture_output=True, text=True)
        if cc.returncode:
            not_ok(f"tags-loops.c builds with the tag plugin: {cc.stderr[:300]}")
            return
        pdata = os.path.join(tmp, "perf-data")
        loops_elf = elf.Elf(loops)
        tag_addrs = sorted(t.addr for t in tags.records(loops))
        ranges = ",".join(f"{loops_elf.file_offset(a):#x}/4" for a in tag_addrs)
        udata = os.path.join(tmp, "uses-data")
        s, why = guest_sections(tmp, GUEST.replace("TAGRANGES", ranges),
                                [aux, work, loops, uses, stat], "--timeout", "600",
                                "--perf-data", f"/tmp/trace.data:{pdata}",
                                "--perf-data", f"/tmp/uses.data:{udata}")
        if s is None:
            not_ok(f"the guest runs the traced programs: {why}")
            return
        sym = symbols(work)

        d = check_exact("loop 1000", s["loop"], loop_tags(sym, 1000), 3)
        starts = [e for e in d.events if e.kind == "START"]
        pid = [x.split()[1] for x in s["loop"] if x.startswith("itrace_start ")]
        check("loop 1000: START records with the traced process's PID (PERF_RECORD_ITRACE_START)",
              starts and pid and all(str(e.b) == pid[0] for e in starts), f"{starts[:2]} {pid}")
        ts = [e.time for e in d.events if e.kind == "TAG" and e.time is not None]
        check("loop 1000: the exit tag at least 1000 iterations of 4 cycles after the first "
              "latch (the timing table; more if an interrupt came between)",
              len(ts) >= 3 and ts[-1] - ts[1] >= 4 * 1000 - 1, str(ts))

        d = check_exact("call 500", s["call"], call_tags(sym, 500), 6, period=3)
        reps = [r for r in trace.from_dump(s["call"]) if r.type == "REPEAT"]
        check("call 500: the loop's path repeated is a REPEAT of 3 records",
              reps and all(r.a == 3 for r in reps), str(reps))
        check_exact("nest 30", s["nest"], nest_tags(sym, 30), 4 * 30 + 2)

        # insn_time: the clock counts the user instructions the program ran
        d = check_exact("insn_time, call 500", s["insn-time"], call_tags(sym, 500), 6, period=3)
        starts = [e.a for e in d.events if e.kind == "START"]
        check("insn_time: each START record says the clock counts instructions (A = 1)",
              starts and all(a == 1 for a in starts), str(starts))
        # an iteration: the loop's call, nop, subcc, latch tag, bne, nop
        # and the function's entry tag, nop, exit tag, retl, nop
        per = (sym["tw_cexit"] - sym["tw_centry"]) // 4 - 1 + \
            (sym["tw_fexit"] - sym["tw_fentry"]) // 4 + 3
        timed = [(e.pc, e.time) for e in d.events if e.kind == "TAG" and e.time is not None]
        first = next((t for pc, t in timed if pc == sym["tw_fentry"]), None)
        last = timed[-1] if timed else (None, None)
        check(f"insn_time: the exit tag {per} x 500 - 2 user instructions after the first "
              f"call's entry tag (the code's {per} an iteration, whatever interrupts came)",
              first is not None and last[0] == sym["tw_cexit"] and
              last[1] - first == per * 500 - 2, f"{first} {last}")

        # Too small: 1 page, 256 records, for some 800
        want = nest_tags(sym, 200)
        d, got = tags_of(s["small"])
        check("a 1-page AUX area: the program still runs to its end", exit_code(s["small"]) == 0 and
              any(x.startswith("done ") for x in s["small"]), " | ".join(s["small"][-3:]))
        check("a 1-page AUX area: a PERF_RECORD_AUX flagged truncated",
              any(f & PERF_AUX_FLAG_TRUNCATED for f in aux_flags(s["small"])), str(s["small"][:4]))
        check(f"... the records before the loss intact: the first {len(got)} tags of the "
              f"program's {len(want)}", 0 < len(got) < len(want) and got == want[:len(got)] and
              not d.errors, f"{len(got)} tags, errors {d.errors}")
        nrec = len(trace.from_dump(s["small"]))
        check("... the page written up to perf's free space, which leaves one byte free "
              "(CIRC_SPACE): 4095 bytes, 255 records", nrec == 255, str(nrec))

        d, got = tags_of(s["snapshot"])
        check("snapshot mode: PERF_RECORD_AUX flagged overwrite",
              any(f & PERF_AUX_FLAG_OVERWRITE for f in aux_flags(s["snapshot"])),
              str(s["snapshot"][:4]))
        check(f"... its last records are the end of the program's tags ({len(got)} of "
              f"{len(want)})", 0 < len(got) < len(want) and got == want[-len(got):],
              f"{got[-3:]} for {want[-3:]}")
        recs = trace.from_dump(s["snapshot"])
        check("... a page of them, the last two STOP and the driver's SYNC after it",
              len(recs) == 256 and [r.type for r in recs[-2:]] == ["STOP", "SYNC"],
              f"{len(recs)} records, last {recs[-2:]}")

        # The plugin's tags, against QEMU's exec log of the same program
        d, _ = tags_of(s["plugin"])
        dump = os.path.join(tmp, "plugin.dump")
        with open(dump, "w") as f:
            f.write("\n".join(s["plugin"]) + "\n")
        got = subprocess.run([LEON3_TAGS, "--trace", dump, loops], capture_output=True, text=True)
        listing = exec_log_runs(tmp, loops, ["7", "9"])
        runs = [int(x.split()[-1]) for x in listing.splitlines()[1:]]
        check(f"tags-loops 7 9 (the tag plugin): each tag's runs in the trace are its runs in "
              f"QEMU's exec log ({len(runs)} tags, {sum(runs)} runs)",
              got.returncode == 0 and got.stdout == listing and sum(runs) > 0,
              f"{got.stderr[:200]} | {got.stdout[:300]} | {listing[:300]}")
        counts = trace.tag_counts(d.events)
        counted = {}
        for line in s["methods"]:
            m = re.match(r"^(0x[0-9a-f]+)/4\s+(\d+)\s", line)
            if m:
                counted[int(m.group(1), 16)] = int(m.group(2))
        want = {loops_elf.file_offset(a): counts.get(a, 0) for a in tag_addrs}
        check(f"... and what leon3-methods counts for each tag instruction alone with the "
              f"counters ({len(counted)} address filters)", counted == want and
              exit_code(s["methods"]) == 0, f"{counted} for {want}")
        got = subprocess.run([LEON3_TAGS, "--trace", dump, "--loops", loops], capture_output=True,
                             text=True).stdout
        check("... grid's inner loop entered 7 times, round 7 x 8 times (-O2: the test at the "
              "bottom), left 7 times",
              re.search(r"^grid  \S+:\d+  2  7  56  7  9$", got, re.M), got)

        check_uses(tmp, s, uses, os.path.join(udata, "perf.data"))
        check_callchains(udata)

        # Deterministic mode: the same records twice
        runs = []
        for _ in range(2):
            r, why = guest_sections(tmp, "echo == t; /root/trace-aux /root/trace-work call 300\n"
                                    "echo == end\n", [aux, work], "--timeout", "600",
                                    "--leon3-clock", "--rng-seed", SEED)
            runs.append([x for x in r["t"] if x.startswith("rec ")] if r else why)
        check(f"deterministic mode (a LEON3's clock, a fixed seed): two boots, the same "
              f"{len(runs[0])} records, times included", runs[0] == runs[1] and
              len(runs[0]) > 4, f"{runs[0][:3]} | {runs[1][:3]}")

        d, got = tags_of(s["child"])
        check("a child of the traced shell, which the event does not follow: no tag recorded",
              exit_code(s["child"]) == 0 and not got and
              any(e.kind == "START" for e in d.events), str(s["child"][-4:]))

        for name, why in (("bad-config", "an unknown config bit"),
                          ("bad-freq", "a sampling frequency (attr.freq)"),
                          ("bad-exclude", "excluding user and kernel")):
            check(f"{why}: EINVAL", s[name] == [f"open {EINVAL}"], str(s[name]))
        # perf record, and perf's decoder in the guest and on the host
        check("perf record -e leon3_trace// runs the program", exit_code(s["perf-record"]) == 0 and
              "done call 300" in s["perf-record"], " | ".join(s["perf-record"][-4:]))
        for where, lines in (("in the guest", s["perf-report"]),
                             ("on the host (perf-host)",
                              subprocess.run([PERF_HOST, "report", "-D", "-i",
                                              os.path.join(pdata, "perf.data")],
                                             capture_output=True, text=True).stdout.splitlines())):
            d = trace.runs(trace.from_perf_dump(lines))
            got = each_tag(d)
            if where.startswith("on the host"):
                recs = trace.from_perf_data(os.path.join(pdata, "perf.data"))
                check("leon3lib.trace reads perf.data's AUX data itself: the records perf "
                      f"report -D prints ({len(recs)})",
                      recs == trace.from_perf_dump(lines) and len(recs) > 4, str(recs[:2]))
            check(f"perf report -D {where}: the records of perf.data decode to the program's "
                  f"tags ({len(got)} of {len(call_tags(sym, 300))})",
                  got == call_tags(sym, 300) and not d.errors,
                  f"{d.errors} {[x for x in lines if 'LEON3' in x][:2]}")

        # perf script's samples: a tag record each, period its runs
        samples = [x.split() for x in s["perf-script"] if "leon3-tags" in x]
        per_sym = {}
        for f in samples:
            i = f.index("leon3-tags:")
            per_sym[f[i + 2]] = per_sym.get(f[i + 2], 0) + int(f[i - 1])
        want = {}
        for line in listing.splitlines()[1:]:
            f = line.split()
            want[f[4]] = want.get(f[4], 0) + int(f[-1])
        check(f"perf script: leon3-tags samples of tags-loops, their periods per function the "
              f"tag runs QEMU's exec log counts ({want})",
              samples and per_sym == want and all(f[0] == "tags-loops" for f in samples),
              f"{per_sym} | {s['perf-script'][:4]}")

        check_sleep(s["sleep"], sym)

        # A CPU's trace (perf record -a): the PID records name the process
        lines = s["system"]
        # (the entry tag is at tw_loop, which perf names for tw_entry)
        got = [x.split() for x in lines if re.search(r"\stw_(loop|entry|latch|exit)$", x)]
        runs = {f[-1]: sum(int(g[2]) for g in got if g[-1] == f[-1]) for f in got}
        check("perf record -a -e leon3_trace/pidrec/u: each sample of trace-work's tags is "
              "trace-work's (its comm and tid from the START and PID records), its entry, "
              "100 latches and exit",
              exit_code(lines) == 0 and got and all(f[0] == "trace-work" for f in got) and
              len({f[1] for f in got}) == 1 and runs.get("tw_latch") == 100 and
              runs.get("tw_loop", 0) + runs.get("tw_entry", 0) == 1 and runs.get("tw_exit") == 1,
              f"{runs} | {lines[:6]}")

        d, got = tags_of(s["period"])
        check("a period of 1, as perf record sets for AUX events, means nothing: the trace "
              "as without", got == loop_tags(sym, 10), str(s["period"][-6:]))
        check("a second event on the same task: EBUSY (the unit is exclusive)",
              f"second {EBUSY}" in s["second"] and exit_code(s["second"]) == 0, str(s["second"]))


main()
