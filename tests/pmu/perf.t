#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# tests/run: one-core
#
# The stock perf tool in the guest (build/perf/perf, in the initramfs)
# against the leon3_pmu driver (loaded at boot): perf list, perf stat
# (default events, -e lists, multiplexing, -a -A, -C, --per-thread),
# perf record and perf report, call chains; the LEON3 JSON event tables
# and metrics (perf list, perf stat -M); and leon3-pidlog, the PID log's
# timeline tool (tools/pidlog/).  Expected values come from
# tests/pmu/workload.c: its loop is 3 instructions per iteration, and its
# functions' addresses are read from the binary with nm; event
# descriptions from Documentation/pmu-registers.md; metric formulas from
# the JSON in kernel/patches.

import bisect
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lib import (RUN, KERNBASE, ok, not_ok, check, perf_json,  # noqa: E402
                 doc_event_descriptions, doc_event_codes, build_workload, sections, csv_counts,
                 function_symbols, kernel_symbols, symbol_chains, report_samples,
                 doc_cache_geometry, doc_memory_timing)

PER_THREAD_RUNS = 10


# The guest script: each section starts with a line "== NAME".
GUEST = r"""
cd /root
w=/root/workload
# (exact sample counts need perf's interrupt-time limit off: tests/pmu/driver.t)
echo 0 >/proc/sys/kernel/perf_cpu_time_max_percent
sec() { echo "== $1"; }
sec events; (cd /sys/bus/event_source/devices/leon3_pmu/events && printf '%s\n' *)
sec list; perf --no-pager list 2>/dev/null
sec metricgroups; perf --no-pager list metricgroups 2>/dev/null
sec list-details; perf --no-pager list --details 2>/dev/null
METRIC_GROUPS
sec stat-small; perf stat -x, -e instructions:u $w spin 1000000 2>&1
sec stat-big; perf stat -x, -e instructions:u $w spin 9000000 2>&1
sec stat-raw; perf stat -x, -e leon3_pmu/instructions/u $w spin 1000000 2>&1
sec stat-default; perf stat -x, $w spin 1000000 2>&1
sec stat-a; perf stat -x, -a -A -e instructions -- sleep 0.2 2>&1
sec stat-c1; perf stat -x, -C 1 -e instructions:u -- taskset 2 $w spin 1000000 2>&1
sec stat-c0; perf stat -x, -C 0 -e instructions:u -- taskset 2 $w spin 1000000 2>&1
for run in $(seq 1 PER_THREAD_RUNS); do
sec per-thread-$run
rm -f /tmp/go; mkfifo /tmp/go
$w threads 1000000 </tmp/go &
pid=$!
exec 3>/tmp/go
while [ "$(ls /proc/$pid/task 2>/dev/null | wc -l)" -lt 3 ]; do sleep 0.05; done
echo "pid $pid"
perf stat -vv --per-thread -x, -e instructions:u -p $pid -- \
	sh -c "sleep 0.3; echo go >&3; while [ -d /proc/$pid ]; do sleep 0.05; done" 2>&1
exec 3>&-
done
sec record
perf record -q -e instructions:u -c 100003 -o /tmp/u.data $w spin 3000000 2>&1
perf report -i /tmp/u.data --stdio 2>&1 | grep -E '^# (Samples|Event count)'
sec script-user
perf record -q -g -e instructions:u -c 100003 -o /tmp/g.data $w spin 3000000 2>&1
perf script -i /tmp/g.data -F ip 2>&1
sec script-kernel
perf record -q -g -e instructions:k -c 100003 -o /tmp/k.data -- ls -R /sys/bus >/dev/null 2>&1
perf script -i /tmp/k.data -F ip 2>&1
sec report-sym; perf report -i /tmp/g.data --stdio --no-children --sort sym -g none 2>&1 | grep '%'
sec script-usym; perf script -i /tmp/g.data -F ip,sym 2>&1
sec script-ksym; perf script -i /tmp/k.data -F ip,sym 2>&1
sec pidlog
leon3-pidlog -n 3 -- sh -c 'taskset 2 /root/workload spin 30000000 & echo "A $!"; taskset 2 /root/workload spin 30000000 & echo "B $!"; wait' 2>&1
sec end
"""

# The boot on a LEON3's clock: multiplexing, and sampling on a miss event
# and on cycles (work() and stream() of tests/pmu/workload.c's mix)
N_WORK, M_STREAM = 3000000, 1000000
MISS_PERIOD, CYCLE_PERIOD = 1009, 100003
CLOCK_GUEST = r"""
w=/root/workload
echo 0 >/proc/sys/kernel/perf_cpu_time_max_percent
sec() { echo "== $1"; }
sec stat-mux; perf stat -x, -e instructions:u,cycles:u,branches:u,leon3_pmu/loads/u,leon3_pmu/stores/u,leon3_pmu/calls/u,leon3_pmu/taken_branches/u,leon3_pmu/int_instructions/u,leon3_pmu/traps/,leon3_pmu/window_overflows/ $w spin 300000000 2>&1
for ev in miss:leon3_pmu/dcache_read_miss/u:MISS_PERIOD cycles:cycles:u:CYCLE_PERIOD; do
name=${ev%%:*}; period=${ev##*:}; ev=${ev#*:}; ev=${ev%:*}
sec record-$name
perf record -q -e $ev -c $period -o /tmp/$name.data -- $w mix N_WORK M_STREAM 2>&1 >/dev/null
echo "exit $?"
perf report -i /tmp/$name.data --stdio 2>&1 | grep -E '^# Samples'
perf script -i /tmp/$name.data -F ip,sym 2>&1 | awk '{ print $2 }' | sort | uniq -c
done
sec record-short
perf record -q -e leon3_pmu/dcache_read_miss/u -c 999 -o /tmp/short.data -- $w mix 10 10 2>&1
echo "exit $?"
sec record-short-k
perf record -q -e instructions -c 99999 -o /tmp/short.data -- $w mix 10 10 2>&1
echo "exit $?"
sec end
"""


def listed_events(lines):
    """{name: description} of the events perf list shows for leon3_pmu."""
    out = {}
    for name, desc in zip(lines, lines[1:]):
        m = re.match(r"^\s+\[(.*)\. Unit: leon3_pmu\]$", desc)
        if m and re.match(r"^  [a-z0-9_]+$", name):
            out[name.strip()] = m.group(1)
    return out


def metric_stat(lines):
    """perf stat -x, -M output: {event: count}, {event: % running},
    {metric: value}."""
    counts, running, metrics = {}, {}, {}
    for line in lines:
        f = line.split(",")
        if len(f) < 7:
            continue
        if f[0].isdigit():
            counts[f[2]] = int(f[0])
            running[f[2]] = float(f[4]) if f[4] else 0.0
        if f[5] and f[6].split():
            metrics[f[6].split()[-1]] = float(f[5])
    return counts, running, metrics


def metric_value(metric, counts):
    """A JSON metric computed from the counts, in its ScaleUnit's unit."""
    scale = float(re.match(r"[0-9.e+-]+", metric["ScaleUnit"]).group(0))
    env = dict(counts, d_ratio=lambda a, b: a / b if b else 0.0)
    return eval(metric["MetricExpr"], {"__builtins__": {}}, env) * scale


def chains(lines):
    """perf script -F ip output of call-chain samples: lists of ips."""
    out, cur = [], []
    for line in lines:
        s = line.strip()
        if re.fullmatch(r"[0-9a-f]+", s):
            cur.append(int(s, 16))
        elif not s and cur:
            out.append(cur)
            cur = []
    if cur:
        out.append(cur)
    return out


def inside(ip, rng):
    return rng[0] <= ip < rng[1]


def record_summary(lines):
    """perf report's sample count, and perf script -F ip,sym's samples
    per symbol (uniq -c), from a record section."""
    samples = report_samples(lines)
    per_sym = {}
    for line in lines:
        m = re.match(r"^\s*(\d+)\s+(\S+)$", line)
        if m:
            per_sym[m.group(2)] = int(m.group(1))
    return samples[0] if samples else None, per_sym


def boot(tmp, cpus, script, *opts):
    path = os.path.join(tmp, "guest.sh")
    with open(path, "w") as f:
        f.write(script)
    p = subprocess.run([RUN, "--timeout", "300", "--cpus", str(cpus), *opts,
                        "--add", os.path.join(tmp, "workload"), "--add", path,
                        "--", "sh", "/root/guest.sh"],
                       capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def main():
    tmp = tempfile.mkdtemp()
    try:
        wl = build_workload(tmp)
    except RuntimeError as e:
        not_ok(str(e))
        return 1
    funcs = function_symbols(wl)
    syms = {n: (a, b) for a, b, n in funcs if n in ("work", "outer", "main")}

    _, _, metrics = perf_json()
    groups = sorted({g for m in metrics for g in m["MetricGroup"].split(";")})
    script = GUEST.replace("PER_THREAD_RUNS", str(PER_THREAD_RUNS)).replace(
        "METRIC_GROUPS", "\n".join(f"sec metric-{g}; perf stat -x, -M {g} $w spin 1000000 2>&1"
                                    for g in groups))
    rc, out, err = boot(tmp, 2, script)
    s = sections(out)
    if rc or "end" not in s:
        not_ok(f"the perf session runs to its end (exit {rc}): "
               + " | ".join((err + out).strip().splitlines()[-8:]))
        return 1
    ok("the perf session runs to its end (2 CPUs)")

    # sysfs lists every event of the driver but the shadow caches' (the
    # guest has none); perf list shows every event of the JSON tables
    # (pmu-events/arch/sparc), with its description, which must be the
    # document's
    events = [e for e in s["events"] if e]
    listed = listed_events(s["list"])
    doc = doc_event_descriptions()
    present = sorted(n for n in doc if not re.match(r"[di]cache_shadow", n))
    check(f"sysfs lists the {len(present)} leon3_pmu events of a machine without "
          f"shadow caches", sorted(events) == present,
          f"{sorted(set(events) ^ set(present))}")
    check(f"perf list shows all {len(doc)} leon3_pmu events, each with the "
          f"document's description", listed == doc,
          f"not as the document: {sorted(set(listed.items()) ^ set(doc.items()))}")
    check("perf list shows the generic hardware and cache events",
          all(re.search(rf"^\s+{re.escape(e)}\b", "\n".join(s["list"]), re.M)
              for e in ("instructions", "cpu-cycles OR cycles",
                        "branch-instructions OR branches",
                        "L1-dcache-load-misses", "dTLB-load-misses")))

    # perf list --details: each event's encoding, each metric's formula
    det = s["list-details"]
    enc = {}
    for name, desc, code in zip(det, det[1:], det[2:]):
        m = re.match(r"^\s+leon3_pmu/event=(0x[0-9a-f]+|\d+)/$", code)
        if m and re.match(r"^  [a-z0-9_]+$", name) and "Unit: leon3_pmu" in desc:
            enc[name.strip()] = int(m.group(1), 0)
    check("perf list --details: every leon3_pmu event with the document's event number",
          enc == doc_event_codes(), f"{sorted(set(enc.items()) ^ set(doc_event_codes().items()))}")
    def formula(expr):
        """EXPR without blanks, its numbers as floats (jevents writes 1000 as 1e3)"""
        return re.sub(r"(?<![\w.])\d+(?:\.\d+)?(?:e[+-]?\d+)?",
                      lambda n: repr(float(n.group(0))), re.sub(r"\s", "", expr))
    forms = {}
    for name, desc, expr in zip(det, det[1:], det[2:]):
        if re.match(r"^  [a-z0-9_]+$", name) and re.match(r"^\s+\[", expr):
            forms[name.strip()] = formula(expr.strip()[1:-1])
    wrong = [(m["MetricName"], forms.get(m["MetricName"])) for m in metrics
             if forms.get(m["MetricName"]) != formula(m["MetricExpr"])]
    check(f"perf list --details: the {len(metrics)} metrics with their JSON formulas",
          metrics and not wrong, str(wrong[:5]))

    # the metrics: every group listed, counted without multiplexing, and
    # each metric what its formula gives on the counts perf printed
    check(f"perf list metricgroups: the {len(groups)} LEON3 metric groups",
          groups and set(groups) <= {x.strip() for x in s["metricgroups"]},
          " | ".join(s["metricgroups"]))
    for g in groups:
        counts, running, shown = metric_stat(s.get(f"metric-{g}", []))
        want = [m for m in metrics if g in m["MetricGroup"].split(";")]
        check(f"perf stat -M {g}: its events count all the time (no multiplexing)",
              counts and all(r == 100.0 for r in running.values()), str(running))
        bad = [(m["MetricName"], shown.get(m["MetricName"]),
                round(metric_value(m, counts), 3) if counts else None) for m in want
               if m["MetricName"] not in shown or not counts or
               abs(shown[m["MetricName"]] - metric_value(m, counts)) > 0.051]
        check(f"perf stat -M {g}: {', '.join(m['MetricName'] for m in want)} as their "
              f"formulas give on the counts", not bad, f"(shown, computed): {bad}")

    # perf stat: exact counts, generic and raw alike
    small = csv_counts(s["stat-small"], "instructions:u")
    big = csv_counts(s["stat-big"], "instructions:u")
    raw = csv_counts(s["stat-raw"], "leon3_pmu/instructions/u")
    check("perf stat -e instructions:u: 8M more iterations are exactly 24M more instructions",
          small and big and small[0] and big[0] and big[0] - small[0] == 24000000,
          f"{small} {big}")
    check("perf stat -e leon3_pmu/instructions/u counts what instructions:u does",
          raw and small and raw[0] == small[0], f"{raw} {small}")

    # default events: the hardware ones are counted, not "<not supported>"
    for ev in ("cycles", "instructions", "branches"):
        v = csv_counts(s["stat-default"], ev)
        check(f"perf stat (default events): {ev} counted", v and v[0],
              " | ".join(s["stat-default"][:12]))

    # ten events multiplexed on seven counters: scaled, close to exact.
    # perf rotates them every 4 ms of the guest's time, so this boot runs
    # on a LEON3's clock (32 ns an instruction): 900M instructions are
    # some 29 s of guest time, about 7000 rotations, however busy the
    # host.  On the host's clock the run took about 0.5 s, some 130
    # rotations, and was 16 % off once under a busy host (30M iterations,
    # about 15 rotations, were 21 % off once in a while).
    #
    # The same boot samples on a D-cache miss event and on cycles.  Under
    # -icount (--leon3-clock) a counter that overflows on a miss, inside
    # a translated block, once made QEMU abort (qemu-patches/0015).
    rc, out, err = boot(tmp, 1, CLOCK_GUEST.replace("N_WORK", str(N_WORK))
                        .replace("M_STREAM", str(M_STREAM))
                        .replace("MISS_PERIOD", str(MISS_PERIOD))
                        .replace("CYCLE_PERIOD", str(CYCLE_PERIOD)), "--leon3-clock")
    sc = sections(out)
    check("the boot on a LEON3's clock (-icount) runs to its end",
          rc == 0 and "end" in sc, " | ".join((err + out).strip().splitlines()[-8:]))
    s["stat-mux"] = sc.get("stat-mux", [])
    mux = [line.split(",") for line in s["stat-mux"] if line.count(",") >= 5]
    pct = [float(f[4]) for f in mux if f[4].replace(".", "").isdigit()]
    ins = csv_counts(s["stat-mux"], "instructions:u")
    check("perf stat with 10 events multiplexes them (each ran part of the time)",
          len(pct) == 10 and all(0 < p < 100 for p in pct), str(pct))
    check("... and the scaled instruction count is within 10 % of 900M",
          ins and ins[0] and abs(ins[0] - 900000000) < 90000000, str(ins))

    # perf record on dcache_read_miss: every load of stream() misses (its
    # 16-byte stride, one load a line, over 64 KiB), so M_STREAM of the
    # misses are its own; a miss elsewhere (start-up) moves the phase of
    # the period by less than one sample.  (perf report's event count is
    # samples x period under -c: no check of its own.)
    samples, syms_seen = record_summary(sc.get("record-miss", []))
    want = M_STREAM / MISS_PERIOD
    check(f"perf record -e dcache_read_miss -c {MISS_PERIOD} under -icount: "
          f"{int(want)} or {int(want) + 1} samples in stream(), at most 2 elsewhere",
          "exit 0" in sc.get("record-miss", []) and samples
          and syms_seen.get("stream", 0) in (int(want), int(want) + 1)
          and samples - syms_seen.get("stream", 0) <= 2,
          " | ".join(sc.get("record-miss", [])))

    # a fixed period below the driver's minimum (1000 user events, 100000
    # for one that counts in the kernel) is refused: perf record -c
    # records no period, so a raised one would make perf report's counts
    # short by the factor.  perf names the PMU's shortest from its caps/
    # (the kernel patch "perf evsel: Say the PMU's shortest sampling
    # period ..."), where it used to suggest -a, which fails the
    # same way.
    for sec, ev, period, shortest in (("record-short", "leon3_pmu/dcache_read_miss/u", 999, 1000),
                                      ("record-short-k", "instructions", 99999, 100000)):
        short = sc.get(sec, [])
        said = (f"The sampling period of {ev}, {period}, is below its PMU's shortest, "
                f"{shortest}.")
        check(f"perf record -e {ev} -c {period} (below the shortest period, {shortest}) "
              f"fails and says: {said}", "exit 0" not in short
              and any(x.startswith("exit ") for x in short) and said in short,
              " | ".join(short))

    # perf record on cycles: work()'s loop is 4 cycles an iteration
    # (subcc, bne + 1 after a cc-setter, nop), stream()'s 7 (6
    # instructions, + 1 for its bne) and a read miss's line fill with the
    # MMU on, and a D-TLB miss each 256 loads (a new page; 16 pages cycle
    # through 8 entries): Documentation/pmu-registers.md's timing model.
    # Interrupts add a few I-cache and TLB misses, well under a period.
    samples, syms_seen = record_summary(sc.get("record-cycles", []))
    timing = doc_memory_timing()
    want_work = 4 * N_WORK / CYCLE_PERIOD
    want_stream = ((7 + timing["dmiss"](doc_cache_geometry("dcache")["line"])) * M_STREAM +
                   timing["tlb"] * M_STREAM / 256) / CYCLE_PERIOD
    check(f"perf record -e cycles:u -c {CYCLE_PERIOD} under -icount: "
          f"{want_work:.1f} +- 1.5 samples in work(), {want_stream:.1f} +- 2 in stream(), "
          f"at most 2 elsewhere",
          "exit 0" in sc.get("record-cycles", []) and samples
          and abs(syms_seen.get("work", 0) - want_work) <= 1.5
          and abs(syms_seen.get("stream", 0) - want_stream) <= 2
          and samples - syms_seen.get("work", 0) - syms_seen.get("stream", 0) <= 2,
          " | ".join(sc.get("record-cycles", [])))

    # system wide, per CPU
    cpus = [line.split(",") for line in s["stat-a"] if re.match(r"CPU\d+,", line)]
    check("perf stat -a -A: a count for each of the 2 CPUs",
          len(cpus) == 2 and all(f[1].isdigit() and int(f[1]) > 0 for f in cpus),
          " | ".join(s["stat-a"]))
    c1 = csv_counts(s["stat-c1"], "instructions:u")
    c0 = csv_counts(s["stat-c0"], "instructions:u")
    check("perf stat -C 1 counts the workload pinned to CPU 1",
          c1 and c1[0] and c1[0] >= 3000000, str(c1))
    check("perf stat -C 0 does not", c0 and c0[0] is not None and c0[0] < 3000000,
          str(c0))

    # per thread: the two workers, with N and 3N iterations, in each of
    # PER_THREAD_RUNS runs.  -vv prints each thread's raw "value enabled
    # running" as read from the kernel; perf's own lines must show the
    # same counts.  On 2+ CPUs, 1-7 % of runs once had a thread
    # that exited while perf was attached came back "<not counted>" (its
    # exact count, but enabled and running times of 0; software events
    # lost their times too).  Not seen since the QEMU patch that made TLB
    # flushes reach every CPU (0 of 210 runs), until 2026-11-26 (1 of 10
    # in a full make test, 1 in 60 runs): sched_clock() stood still on
    # CPU1 while the host did not run CPU0, fixed by kernel/patches/0010
    # (tests/boot/boot.t holds CPU0 to check it).  Seen again in CI
    # (2026-11-27; 2 of 80 runs on a loaded host): sched_clock() stood
    # still after a tick taken late, fixed by kernel/patches/0011 (0 of
    # 80; boot.t stops QEMU from the host to check it).  Every run
    # counts, and one such run fails the test.
    def workers(lines):
        return sorted(int(f[1]) for f in (line.split(",") for line in lines)
                      if len(f) > 3 and f[0].startswith("workload-") and f[1].isdigit())

    def workers_ok(counts):
        return (len(counts) >= 2 and 3000000 <= counts[-2] < 3020000
                and 9000000 <= counts[-1] < 9020000)

    bad_raw, bad_shown = [], []
    for run in range(1, PER_THREAD_RUNS + 1):
        lines = s.get(f"per-thread-{run}", [])
        raw = sorted(int(m.group(1)) for m in
                     (re.match(r"^instructions:u: -?\d+: (\d+) \d+ \d+$", line)
                      for line in lines) if m)
        raw_ok = (len(raw) == 3 and 3000000 <= raw[1] < 3020000
                  and 9000000 <= raw[2] < 9020000)
        if not raw_ok:
            bad_raw.append(f"run {run}: {raw}")
        pt = [line for line in lines if line.startswith("workload-")]
        if not workers_ok(workers(pt)):
            bad_shown.append(f"run {run}: " + " | ".join(pt))
    check(f"perf stat --per-thread: the kernel counts the workers' 3M and 9M "
          f"instructions ({PER_THREAD_RUNS} runs)", not bad_raw, "; ".join(bad_raw))
    check(f"perf stat --per-thread: perf shows the workers' 3M and 9M "
          f"instructions ({PER_THREAD_RUNS} runs)", not bad_shown, "; ".join(bad_shown))

    # perf record -c 100003 of "spin 3000000": one sample per 100003 of
    # its user instructions, which perf stat counted above: those of
    # "spin 1000000" and 3 x 2M more (exact, as stat-big shows).  (Under
    # -c perf report's event count is samples x period, whatever was
    # lost: no check of its own.)
    hdr = "\n".join(s["record"])
    m1 = re.search(r"Samples: (\d+)", hdr)
    ins = small[0] + 6000000 if small and small[0] else None
    check(f"perf record -c 100003 of spin 3000000 ({ins} instructions): "
          f"{ins // 100003 if ins else '?'} samples, one per period",
          ins and m1 and int(m1.group(1)) == ins // 100003, hdr)

    # perf record -g: user call chains work <- outer <- main
    ch = chains(s["script-user"])
    good = [c for c in ch if len(c) >= 3 and inside(c[0], syms["work"])
            and inside(c[1], syms["outer"]) and inside(c[2], syms["main"])]
    check("perf record -g: user samples in work(), called from outer(), from main()",
          ch and len(good) >= 0.9 * len(ch), f"{len(good)} of {len(ch)}")

    # kernel call chains: several kernel frames
    kch = [[ip for ip in c if ip >= KERNBASE] for c in chains(s["script-kernel"])]
    deep = [c for c in kch if len(c) >= 3]
    check("perf record -g: kernel samples have kernel call chains (3+ frames)",
          kch and len(deep) >= 0.5 * len(kch), f"{len(deep)} of {len(kch)}")

    # symbols (perf with libelf): perf names each frame as nm and the
    # kernel's System.map do
    rep = [line.split() for line in s["report-sym"] if "%" in line]
    check("perf report --sort sym: the user samples are all in work()",
          rep and rep[0][0] == "100.00%" and rep[0][-1] == "work", str(rep))
    uchains = symbol_chains(s["script-usym"])
    # (no frame 0 either: the chain ends at _start, kernel/patches/0007)
    wrong = [(hex(ip), sym) for c in uchains for ip, sym in c
             if not any(a <= ip < b and sym == n for a, b, n in funcs)]
    uframes = sum(len(c) for c in uchains)
    check("perf script -F ip,sym: every user frame named as nm names its address",
          uframes and not wrong, f"{len(wrong)} of {uframes}: {wrong[:5]}")
    ksyms = kernel_symbols()
    kaddr = sorted(ksyms)
    stext, etext = (min(a for a, names in ksyms.items() if n in names)
                    for n in ("_stext", "_etext"))
    kwrong, kframes = [], 0
    for c in symbol_chains(s["script-ksym"]):
        for ip, sym in c:
            if ip < KERNBASE:
                continue        # the user frames
            kframes += 1
            if not stext <= ip < etext:
                kwrong.append((hex(ip), sym, "outside the kernel text"))
                continue
            i = bisect.bisect_right(kaddr, ip) - 1
            names = ksyms[kaddr[i]] if i >= 0 else set()
            if sym not in names:
                kwrong.append((hex(ip), sym, sorted(names)))
    check("perf script -F ip,sym: every kernel frame in the kernel text, named as System.map "
          "names its address",
          kframes and not kwrong, f"{len(kwrong)} of {kframes}: {kwrong[:5]}")

    # leon3-pidlog: both workloads, taking turns on CPU 1
    pl = s["pidlog"]
    pids = dict(re.findall(r"^([AB]) (\d+)$", "\n".join(pl), re.M))
    rows = [l.split() for l in pl if re.match(r"^\s+\d+\s+\d+\s+\d+\s+\d+\s", l)]
    # (each starts as taskset on the shell's CPU, then moves to CPU 1)
    mine = [r for r in rows if r[3] in pids.values()]
    on1 = [r for r in mine if r[0] == "1"]
    turns = sum(1 for a, b in zip(on1, on1[1:]) if a[3] != b[3])
    check("leon3-pidlog: the timeline shows the two workloads taking turns on CPU 1",
          len(pids) == 2 and turns >= 2,
          f"pids {pids}, {len(on1)} slices on CPU 1, {turns} turns")
    spent = {p: sum(int(r[2]) for r in mine if r[3] == p) for p in pids.values()}
    check("leon3-pidlog: each ran at least its 90M instructions' worth of cycles",
          len(spent) == 2 and all(c >= 90000000 for c in spent.values()), str(spent))
    check("leon3-pidlog: per-process summary and longest slices printed",
          any(l.startswith("# per process") for l in pl)
          and any(l.startswith("# longest slices") for l in pl))

    # four CPUs: system-wide counting on each
    rc, out, err = boot(tmp, 4, "sec() { echo \"== $1\"; }\n"
                        "sec stat-a; perf stat -x, -a -A -e instructions,cycles -- sleep 0.2 2>&1\n"
                        "sec stat-c3; perf stat -x, -C 3 -e instructions:u -- taskset 8 /root/workload spin 1000000 2>&1\n"
                        "sec end\n")
    s = sections(out)
    cpus = [line.split(",") for line in s.get("stat-a", []) if re.match(r"CPU\d+,", line)]
    check("4 CPUs: perf stat -a -A counts instructions and cycles on each CPU",
          rc == 0 and len(cpus) == 8
          and all(f[1].isdigit() and int(f[1]) > 0 for f in cpus),
          " | ".join(s.get("stat-a", (err + out).splitlines()[-6:])))
    c3 = csv_counts(s.get("stat-c3", []), "instructions:u")
    check("4 CPUs: perf stat -C 3 counts the workload pinned to CPU 3",
          c3 and c3[0] and c3[0] >= 3000000, str(c3))
    return 0


if __name__ == "__main__":
    sys.exit(main())
