#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# tests/run: one-core
#
# The per-thread profiling walkthrough of Documentation/driver.md, run as
# written, against the work each thread of tests/pmu/workload.c's "team"
# does: "spin" runs work(), 3 instructions an iteration and no load;
# "stream" runs stream(), 6 instructions and one load an iteration, each
# load a D-cache miss (a 16-byte stride over 64 KiB, checked against the
# geometry /proc/cpuinfo reports).  Cycles from the timing table of
# Documentation/pmu-registers.md.  Two CPUs: the team's threads each run
# on one of their own (workload.c says why).
#
#   perf stat --per-thread      each thread's instructions and load misses
#   perf record -s, report -T   each thread's count, from the read records
#   report --sort pid,sym       each thread's samples in its own function
#   {cycles,instructions,L1-dcache-load-misses}:S   one trigger reads all
#                               (attached to each thread: perf 6.12 does not
#                               follow new threads with a sampled group)
#   perf stat -I 100            interval counts add up to the run's
#   perf report --stats         lost samples: samples + lost = overflows

import os
import re
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lib import RUN, ok, not_ok, check, build_workload, sections, doc_memory_timing  # noqa: E402

N_SPIN = 2000000        # spin: 3 instructions an iteration
M_STREAM = 500000       # stream: 6 instructions and one load an iteration
STREAM_STRIDE = 16      # workload.c's STREAM_STRIDE, STREAM_BYTES
STREAM_BYTES = 65536
OVERHEAD = 1000         # a thread's instructions and misses outside its loop
START = 20000           # a process's instructions outside its loop (libc's start, exit)
PERIOD = 100003
N_INTERVAL = 400000000  # perf stat -I: 1.2G instructions, about 1 s
N_LOST = 3000000        # 9M instructions, one sample per 10000
N_END = 20000000        # perf stat -I 10: 60M instructions, a few intervals
RUNS_END = 10
N_PAIRS = 50            # workload pairs: pairs of threads that exit together
N_PAIR_WORK = 10000     # ... each with 3 * 10000 instructions
PAIR_SAMPLING = 10007   # the period: a few samples a thread: perf report needs some

GUEST = r"""
w=/root/workload
echo 0 >/proc/sys/kernel/perf_cpu_time_max_percent
sec() { echo "== $1"; }
# team: start the team, paused until a line comes on fd 3
team() {
	rm -f /tmp/go; mkfifo /tmp/go
	$w team N_SPIN M_STREAM </tmp/go &
	pid=$!
	exec 3>/tmp/go
	while [ "$(ls /proc/$pid/task 2>/dev/null | wc -l)" -lt 3 ]; do sleep 0.05; done
	for t in /proc/$pid/task/*; do
		case $(cat $t/comm) in spin) spin=${t##*/};; stream) stream=${t##*/};; esac
	done
}
go_and_wait() { echo go >&3; exec 3>&-; while [ -d /proc/$pid ]; do sleep 0.05; done; }
sec cpuinfo; grep dcache /proc/cpuinfo
sec stat-per-thread
team
perf stat --per-thread -x, -e instructions:u,L1-dcache-load-misses:u -p $pid -- \
	sh -c "sleep 0.3; echo go >&3; while [ -d /proc/$pid ]; do sleep 0.05; done" 2>&1
exec 3>&-
sec record-s
echo go | perf record -q -s -e instructions:u -c PERIOD -o /root/s.data $w team N_SPIN M_STREAM 2>&1
sec report-T; perf report -i /root/s.data -T --stdio 2>&1 | sed -n '/^# *PID  *TID/,$p'
sec report-pid-sym; perf report -i /root/s.data --stdio --no-children --sort pid,sym -n -g none -q 2>&1 | cat
# two threads that exit at once, one on each CPU, write to both CPUs' buffers
sec record-pairs
perf record -q -s -e instructions:u -c PAIR_SAMPLING -o /root/p.data $w pairs N_PAIRS N_PAIR_WORK 2>&1
sec report-pairs; perf report -i /root/p.data -T --stdio 2>&1 | sed -n '/^# *PID  *TID/,$p'
sec record-group
team
echo "tids spin $spin stream $stream"
# the threads go once perf says its counters are on (--control's ack)
rm -f /tmp/ctl /tmp/ack; mkfifo /tmp/ctl /tmp/ack
perf record -q -D -1 --control=fifo:/tmp/ctl,/tmp/ack \
	-e '{cycles:u,instructions:u,L1-dcache-load-misses:u}:S' -c PERIOD \
	-t $spin,$stream -o /root/g.data 2>&1 &
rec=$!
echo enable >/tmp/ctl; read -r ack </tmp/ack; echo "perf record: $ack"
go_and_wait
wait $rec
sec dump-group; perf report -i /root/g.data -D 2>&1 | grep -E 'PERF_RECORD_SAMPLE|group nr|\.\.\.\.\. id '
# a group: one read() takes both counts, while the loop runs on the other CPU
sec stat-interval; perf stat -I 100 --summary -x, -e '{instructions:u,cycles:u}' $w spin N_INTERVAL 2>&1
# the workload often ends while perf stat reads an interval (kernel/patches/0026)
sec stat-end; perf stat -x, -e instructions:u $w spin N_END 2>&1
for i in $(seq 1 RUNS_END); do
	echo "== stat-end-$i"
	perf stat -I 10 --summary -x, -e instructions:u,cycles:u $w spin N_END 2>&1
done
sec record-lost
# perf record shares the loop's CPU, so that the real-time loop starves it
taskset 1 perf record -m 1 -c 10000 -e instructions:u -o /root/l.data -- chrt -f 99 $w spin N_LOST 2>&1
sec report-stats; perf report -i /root/l.data --stats 2>&1 | cat
sec report-lost; perf report -i /root/l.data --stdio 2>&1 | grep -E '^# (Total Lost Samples|Samples)'
sec stat-lost; taskset 1 perf stat -x, -e instructions:u -- chrt -f 99 $w spin N_LOST 2>&1
sec end
"""


def stat_rows(lines):
    """perf stat --per-thread -x, lines: {(comm, event): count}."""
    out = {}
    for line in lines:
        f = line.split(",")
        if len(f) > 3 and f[1].isdigit():
            out[(f[0].rsplit("-", 1)[0], f[3].split(":")[0])] = int(f[1])
    return out


def interval_rows(lines):
    """perf stat -I -x, lines: ([{event: count}, one per interval, in time
    order], {event: count} of the summary)."""
    iv, summary = {}, {}
    for r in lines:
        f = r.split(",")
        if len(f) > 3 and f[1].isdigit():
            (summary if f[0] == "summary" else iv.setdefault(f[0], {}))[f[3].split(":")[0]] = int(f[1])
    return [v for _, v in sorted(iv.items(), key=lambda t: float(t[0]))], summary


def read_rows(lines):
    """perf report -T lines: [[pid, tid, count]] of the read records."""
    return [r.split() for r in lines[1:] if re.match(r"^\s+\d+\s+\d+\s+\d+$", r)]


def group_samples(lines):
    """perf report -D of a :S group: {tid: [(time, [cycles, instructions,
    misses])]}, the time stamp and the counters' values read at each
    trigger, in the order the ring buffer gave them (the records' file
    offsets: the dump is sorted by time stamp)."""
    out, cur = {}, None
    for line in lines:
        m = re.search(r"^(\d+) (0x[0-9a-f]+) \[0x[0-9a-f]+\]: PERF_RECORD_SAMPLE\(.*?\): "
                      r"\d+/(\d+):", line)
        if m:
            cur = (int(m.group(2), 16), int(m.group(1)), [])
            out.setdefault(int(m.group(3)), []).append(cur)
        m = re.match(r"^\.+ id [0-9a-f]+, value ([0-9a-f]+)", line)
        if m and cur is not None:
            cur[2].append(int(m.group(1), 16))
    return {tid: [(t, v) for _, t, v in sorted(vs)] for tid, vs in out.items()}


def deltas(samples):
    """What each trigger adds to the counters since the one before."""
    return [tuple(b - a for a, b in zip(p, q)) for p, q in zip(samples, samples[1:])]


def main():
    tmp = tempfile.mkdtemp()
    try:
        wl = build_workload(tmp)
    except RuntimeError as e:
        not_ok(str(e))
        return 1
    script = os.path.join(tmp, "guest.sh")
    text = GUEST
    for k in ("N_SPIN", "M_STREAM", "PERIOD", "N_INTERVAL", "N_LOST", "N_END", "RUNS_END",
              "N_PAIRS", "N_PAIR_WORK", "PAIR_SAMPLING"):
        text = text.replace(k, str(globals()[k]))
    with open(script, "w") as f:
        f.write(text)
    p = subprocess.run([RUN, "--timeout", "400", "--cpus", "2", "--add", wl, "--add", script,
                        "--", "sh", "/root/guest.sh"], capture_output=True, text=True)
    s = sections(p.stdout)
    if p.returncode or "end" not in s:
        not_ok(f"the walkthrough runs to its end (exit {p.returncode}): "
               + " | ".join((p.stderr + p.stdout).strip().splitlines()[-8:]))
        return 1
    ok("the walkthrough runs to its end")

    # the geometry: every stream load misses where the stride reaches a
    # new line and the buffer does not fit
    m = re.search(r"dcache\s*:\s*(\d+) KiB, .*?(\d+)-byte lines, LRU", "\n".join(s["cpuinfo"]))
    if not m:
        not_ok(f"/proc/cpuinfo shows the D-cache geometry: {s['cpuinfo']}")
        return 1
    kib, line = int(m.group(1)), int(m.group(2))
    misses = M_STREAM * STREAM_STRIDE // max(STREAM_STRIDE, line)
    check(f"the D-cache ({kib} KiB, LRU) is smaller than stream()'s {STREAM_BYTES} bytes",
          kib * 1024 < STREAM_BYTES)
    want = {"spin": (3 * N_SPIN, 0), "stream": (6 * M_STREAM, misses)}

    def close(count, base):
        return count is not None and base <= count < base + OVERHEAD

    # perf stat --per-thread
    st = stat_rows(s["stat-per-thread"])
    for comm, (ins, miss) in want.items():
        check(f"perf stat --per-thread: {comm} counts its {ins} instructions and {miss} "
              f"load misses (+ < {OVERHEAD})",
              close(st.get((comm, "instructions")), ins)
              and close(st.get((comm, "L1-dcache-load-misses")), miss),
              " | ".join(s["stat-per-thread"]))

    # perf record -s, perf report -T: the read records of the threads.
    # The task that holds perf's own events at its exit writes none: the
    # records are those of inherited events, and the kernel swaps the
    # contexts of sibling threads at context switches (inherit_stat swaps
    # their counts back), so one of the three goes without.
    tid_comm = {int(t): c for t, c in re.findall(r"\s(\d+):(\S+)\s", "\n".join(s["report-pid-sym"]))}
    rows = read_rows(s["report-T"])
    wrong = [r for r in rows if tid_comm.get(int(r[1])) in want
             and not close(int(r[2]), want[tid_comm[int(r[1])]][0])]
    workers = [r for r in rows if tid_comm.get(int(r[1])) in want]
    check("perf record -s + perf report -T: the threads' read records (kernel/patches/0022), "
          "each worker's with its exact instructions",
          len(rows) == 2 and workers and not wrong,
          f"{' | '.join(s['report-T'])}; threads {tid_comm}")

    # Pairs of threads that exit together, one on each CPU.  perf record
    # has a ring buffer per CPU, and each exiting thread writes a read
    # record into both: the kernel writes each on its own CPU (patch
    # 0019), or two exits at once lose records.  Only the thread that
    # holds perf's own events at its exit writes none.
    pair_workers = [r for r in read_rows(s["report-pairs"]) if r[0] != r[1]]
    pair_ins = 3 * N_PAIR_WORK
    pair_wrong = [r for r in pair_workers if not close(int(r[2]), pair_ins)]
    check(f"perf record -s of {N_PAIRS} pairs of threads that exit together, one on each CPU: "
          f"perf report -T has {2 * N_PAIRS - 1} threads or more, each with its {pair_ins} "
          f"instructions (+ < {OVERHEAD})",
          len(pair_workers) >= 2 * N_PAIRS - 1 and not pair_wrong,
          f"{len(pair_workers)} threads, wrong: {pair_wrong[:5]}; "
          + " | ".join(s["report-pairs"][:3]))

    # --sort pid,sym: each thread's samples in its own function, one for
    # each period of its instructions; the thread's few instructions
    # outside its loop, and the main thread's whose inherited event it
    # may take over at the start (the kernel swaps equivalent contexts),
    # can add one
    samples = {}
    for r in s["report-pid-sym"]:
        mm = re.match(r"^\s+\d+\.\d+%\s+(\d+)\s+\d+:(\S+)\s+\[\.\]\s+(\S+)", r)
        if mm:
            samples[(mm.group(2), mm.group(3))] = int(mm.group(1))
    fn = {"spin": "work", "stream": "stream"}
    for comm, (ins, _) in want.items():
        mine = sum(n for (c, _), n in samples.items() if c == comm)
        lo, hi = ins // PERIOD, (ins + OVERHEAD + START) // PERIOD
        check(f"perf report --sort pid,sym -n: {comm}'s samples in {fn[comm]}, "
              f"one every {PERIOD} of its {ins} instructions ({lo}..{hi})",
              lo <= mine <= hi and samples.get((comm, fn[comm]), 0) >= mine - 1,
              " | ".join(s["report-pid-sym"]))
    others = {k: n for k, n in samples.items() if k[0] not in want}
    check("perf report --sort pid,sym -n: no samples in the main thread", not others, str(others))

    # leader sampling: each cycles overflow reads all three counters
    tids = dict(re.findall(r"(spin|stream) (\d+)", "\n".join(s["record-group"])))
    g = group_samples(s["dump-group"])
    spin_ts = g.get(int(tids.get("spin", -1)), [])
    stream_ts = g.get(int(tids.get("stream", -1)), [])
    spin, stream = [v for _, v in spin_ts], [v for _, v in stream_ts]
    odd = [(name, i, v[i:i + 2]) for name, v in (("spin", spin), ("stream", stream))
           for i, d in enumerate(deltas(v)) if d[0] != PERIOD]
    check("leader sampling {cycles,instructions,L1-dcache-load-misses}:S, attached to each "
          f"thread: every trigger reads all three counters, every {PERIOD} cycles",
          len(spin) > 10 and len(stream) > 10 and all(len(x) == 3 for x in spin + stream)
          and not odd,
          f"{len(spin)} spin, {len(stream)} stream samples; triggers not {PERIOD} cycles "
          f"apart: {odd[:6]}; {s['dump-group'][:4]}")
    ds = [d for d in deltas(spin) if d[0] == PERIOD]
    dm = [d for d in deltas(stream) if d[0] == PERIOD]
    # 4 cycles an iteration of 3 instructions (subcc, bne after cc: 2, nop)
    ipc = statistics.median(d[1] / d[0] for d in ds) if ds else 0
    check("leader sampling: between spin's triggers, 3 instructions per 4 cycles and no miss",
          abs(ipc - 0.75) < 0.0075 and all(d[2] == 0 for d in ds),
          f"median IPC {ipc:.4f}; misses {[d[2] for d in ds if d[2]][:10]}")
    # an iteration: 7 cycles (ld, add, and, subcc, bne after cc: 2, nop),
    # + a D-cache miss's line fill, + a dTLB miss every 4096 / 16 loads
    # (Documentation/pmu-registers.md, the timing table, MMU on)
    timing = doc_memory_timing()
    cyc = 7 + timing["dmiss"](line) * misses / M_STREAM + timing["tlb"] * STREAM_STRIDE / 4096
    mpi = statistics.median(d[2] / d[1] for d in dm) if dm else 0
    cpi = statistics.median(d[0] / d[1] for d in dm) if dm else 0
    check(f"leader sampling: between stream's triggers, {misses / M_STREAM / 6:.4f} misses and "
          f"{cyc / 6:.3f} cycles per instruction (±2 %)",
          dm and abs(mpi * 6 * M_STREAM / misses - 1) < 0.02 and abs(cpi / (cyc / 6) - 1) < 0.02,
          f"misses/instruction {mpi:.4f}, cycles/instruction {cpi:.3f}")
    # perf record had its counters on before the threads went (its
    # --control ack): the triggers cover each thread's whole loop
    lo_spin = 4 * N_SPIN // PERIOD
    hi_spin = (4 * N_SPIN + 4 * OVERHEAD) // PERIOD
    want_stream = M_STREAM * cyc / PERIOD
    check("leader sampling: perf record acks that its counters are on, then the threads go",
          "perf record: ack" in s["record-group"], " | ".join(s["record-group"]))
    check(f"leader sampling: the triggers cover each thread's loop: spin {lo_spin}..{hi_spin}, "
          f"stream {want_stream:.1f} ± 1",
          lo_spin <= len(spin) <= hi_spin and abs(len(stream) - want_stream) <= 1,
          f"spin {len(spin)}, stream {len(stream)}")
    # each thread runs on its own CPU: its samples come from one ring
    # buffer, in the order they were taken
    back = [(name, i, ts[i - 1][0], ts[i][0]) for name, ts in (("spin", spin_ts), ("stream", stream_ts))
            for i in range(1, len(ts)) if ts[i][0] < ts[i - 1][0]]
    check("leader sampling: each thread's time stamps never go back (sched_clock(), "
          "kernel/patches/0009)", spin_ts and stream_ts and not back,
          f"{len(back)} steps back: {back[:5]}")

    # perf stat -I 100: the intervals add up to the run, and each whole
    # interval inside the loop runs at 0.75 IPC
    rows, summary = interval_rows(s["stat-interval"])
    ins = [v.get("instructions", 0) for v in rows]
    total = summary.get("instructions")
    check(f"perf stat -I 100 --summary: the run counts the loop's {3 * N_INTERVAL} "
          f"instructions (+ < {START}), and the intervals add up to it",
          len(ins) >= 3 and total is not None and 3 * N_INTERVAL <= total < 3 * N_INTERVAL + START
          and sum(ins) == summary.get("instructions"),
          f"summary {summary}; {len(ins)} intervals: {ins}; {s['stat-interval'][-4:]}")
    check("perf stat -I 100: every interval inside the loop at 0.75 IPC",
          rows[1:-1] and all(abs(v["instructions"] / v["cycles"] - 0.75) < 0.005
                             for v in rows[1:-1]), str(rows))

    # perf stat -I 10 of a short run, again and again: whenever the
    # workload ends, its last interval is printed and in the summary
    ref = [int(r.split(",")[0]) for r in s["stat-end"] if r.split(",")[0].isdigit()]
    short = []
    for i in range(1, RUNS_END + 1):
        rows_i, summary_i = interval_rows(s.get(f"stat-end-{i}", []))
        got = summary_i.get("instructions")
        added = sum(v.get("instructions", 0) for v in rows_i)
        if got is None or not ref or got != ref[0] or added != got:
            short.append((i, got, added))
    check(f"perf stat -I 10 --summary, {RUNS_END} runs: every summary is perf stat's count "
          f"without -I ({ref[0] if ref else '?'}), and the intervals add up to it",
          ref and ref[0] >= 3 * N_END and not short,
          f"runs (summary, sum of intervals) that differ: {short}")

    # lost samples: a real-time workload leaves perf record no time to
    # read its 1-page buffer; every overflow is a sample or counted lost
    st = "\n".join(s["report-stats"])
    nsamp = re.search(r"^\s+SAMPLE events:\s+(\d+)", st, re.M)
    nlost = re.search(r"^\s+LOST_SAMPLES events:\s+(\d+)", st, re.M)
    rl = "\n".join(s["report-lost"])
    lost_total = re.search(r"Total Lost Samples: (\d+)", rl)
    total = [int(r.split(",")[0]) for r in s["stat-lost"] if r.split(",")[0].isdigit()]
    over = total[0] // 10000 if total else -1
    check("perf report --stats: samples were lost, and shown (LOST_SAMPLES)",
          nlost and int(nlost.group(1)) > 0, st)
    nl = int(lost_total.group(1)) if lost_total else -1
    ns = int(nsamp.group(1)) if nsamp else -1
    check("perf report: samples + lost samples = the event's overflows (count / period, ±2)",
          nsamp and lost_total and abs(ns + nl - over) <= 2,
          f"{ns} samples + {nl} lost vs {over} overflows ({rl})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
