#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# tests/run: one-core
#
# Exact counts inside a function with the stock perf: leon3_pmu's
# address filters (one range per counter) through perf stat --filter and
# perf record --filter, which name functions by symbol (the kernel
# patches on address filters and perf's auxtrace code), and leon3-methods, the
# per-function table built on them (tools/methods/).  Expected counts
# come from tests/pmu/workload.c: work(n) is 3n + 3 instructions,
# stream(m) 6m + 6, m loads 16 bytes apart; function and segment
# addresses from the binary (nm, readelf), kernel ones from
# /proc/kallsyms (a module's functions too: the kernel patch "perf
# auxtrace: Size a kernel symbol by the nearest symbol").  Where ranges
# cover the program's whole text, they must add up to the unfiltered
# count, every event, in the same run.

import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lib import (ok, not_ok, check, build_workload, guest_sections, csv_counts,  # noqa: E402
                 exit_code, function_symbols, report_samples)

N, M = 1000000, 100000
WORK, STREAM = 3 * N + 3, 6 * M + 6
EVENTS = ["instructions", "cycles", "L1-dcache-load-misses", "L1-icache-load-misses"]


def text_segment(binary):
    """(file offset, address, size) of the executable LOAD segment."""
    out = subprocess.run(["sparc64-linux-gnu-readelf", "-lW", binary], check=True,
                         capture_output=True, text=True).stdout
    for line in out.splitlines():
        f = line.split()
        if f and f[0] == "LOAD" and "E" in f[6:-1]:
            return int(f[1], 16), int(f[2], 16), int(f[4], 16)
    raise RuntimeError("no executable LOAD segment in " + binary)


def ranges(binary, n):
    """The text segment in n ranges as perf takes them: OFFSET/SIZE."""
    off, _, size = text_segment(binary)
    step = (size // n + 3) & ~3
    out, at = [], off
    while at < off + size:
        part = min(step, off + size - at)
        out.append(f"{at:#x}/{part:#x}")
        at += part
    return out


GUEST = r"""
cd /root
w=/root/workload
echo 0 >/proc/sys/kernel/perf_cpu_time_max_percent
sec() { echo "== $1"; }
sec caches; grep -E '^(i|d)cache' /proc/cpuinfo
sec nr; cat /sys/bus/event_source/devices/leon3_pmu/nr_addr_filters
sec stat-work; perf stat -x, -e instructions:u --filter "filter work @ $w" -- $w spin 1000000 2>&1; echo "exit $?"
sec stat-work2; perf stat -x, -e instructions:u --filter "filter work @ $w" -- $w spin 2000000 2>&1
sec stat-raw; perf stat -x, -e leon3_pmu/instructions/u --filter "filter work @ $w" -- $w spin 1000000 2>&1
sec stat-numeric; perf stat -x, -e instructions:u --filter "filter WORKRANGE @ $w" -- $w spin 1000000 2>&1
sec stat-two; perf stat -x, -e instructions:u --filter "filter work @ $w" -e instructions:u --filter "filter stream @ $w" -e instructions:u -- $w mix N M 2>&1
sec stat-misses; perf stat -x, -e L1-dcache-load-misses:u --filter "filter stream @ $w" -e L1-dcache-load-misses:u --filter "filter work @ $w" -e L1-dcache-loads:u --filter "filter stream @ $w" -e leon3_pmu/loads/u --filter "filter stream @ $w" -- $w mix N M 2>&1
sec stat-kernel1; perf stat -x, -e instructions:k --filter "filter sys_getppid" -- $w ppid 1000 2>&1
sec stat-kernel2; perf stat -x, -e instructions:k --filter "filter sys_getppid" -- $w ppid 2000 2>&1
# A module's functions: /proc/kallsyms lists them in its symbol table's
# order, not by address.  Every symbol at or above the module's lowest,
# then what perf makes of a filter on each of its functions.
lo=$(grep '\[leon3_pmu\]' /proc/kallsyms | cut -d' ' -f1 | sort | head -n 1)
sec kallsyms; awk -v lo="$lo" '$1 "" >= lo ""' /proc/kallsyms
sec module-filters
for f in $(awk '$4 == "[leon3_pmu]" && $2 ~ /^[tT]$/ { print $3 }' /proc/kallsyms); do
	echo "$f $(awk -v f="$f" '$3 == f' /proc/kallsyms | wc -l)" \
		"$(perf stat -v -e instructions:k --filter "filter $f" -- true 2>&1 |
		grep -E 'Address filter|Cannot determine|Multiple|failed to set' | tr '\n' ' ')"
done
sec handler1; perf stat -x, -e instructions:k --filter "filter leon3_pmu_handle_irq" -- perf record -q -e instructions:u -c 10007 -o /tmp/h1.data -- $w spin 1000000 2>&1; echo "exit $?"
perf report -i /tmp/h1.data --stdio 2>&1 | grep '^# Samples'
sec handler2; perf stat -x, -e instructions:k --filter "filter leon3_pmu_handle_irq" -- perf record -q -e instructions:u -c 10007 -o /tmp/h2.data -- $w spin 2000000 2>&1; echo "exit $?"
perf report -i /tmp/h2.data --stdio 2>&1 | grep '^# Samples'
sec record
perf record -q -e instructions:u -c 10007 --filter "filter work @ $w" -o /tmp/f.data -- $w mix N M 2>&1
perf report -i /tmp/f.data --stdio -q --sort sym 2>&1
perf report -i /tmp/f.data --stdio 2>&1 | grep '^# Samples'
sec bad-symbol; perf stat -e instructions:u --filter "filter nosuch @ $w" -- $w spin 10 2>&1; echo "exit $?"
sec bad-file; perf stat -e instructions:u --filter "filter 0x0/0x100 @ /no/such/file" -- $w spin 10 2>&1; echo "exit $?"
sec bad-start; perf stat -e instructions:u --filter "start work @ $w" -- $w spin 10 2>&1; echo "exit $?"
sec bad-two; perf stat -e instructions:u --filter "filter work @ $w, filter stream @ $w" -- $w spin 10 2>&1; echo "exit $?"
sec methods; leon3-methods -f work,stream,outer -o /tmp/m.csv -- $w mix N M 2>&1; echo "exit $?"
cat /tmp/m.csv
sec methods-top; leon3-methods -t 2 -e instructions,cycles -- $w mix N M 2>&1; echo "exit $?"
ADDUP
sec methods-kernel; leon3-methods -k -f sys_getppid -e instructions,cycles -- $w ppid 1000 2>&1; echo "exit $?"
sec methods-handler; leon3-methods -k -f leon3_pmu_handle_irq -e instructions -- perf record -q -e instructions:u -c 10007 -o /tmp/m.data -- $w spin 1000000 2>&1; echo "exit $?"
perf report -i /tmp/m.data --stdio 2>&1 | grep '^# Samples'
sec methods-ktop; leon3-methods -k -t 3 -e instructions -- $w ppid 20000 2>&1; echo "exit $?"
sec methods-bisect; leon3-methods -k -b 25000 -e instructions -- $w ppid 5000 2>&1; echo "exit $?"
sec methods-bisect-user; leon3-methods -b 100 -- $w ppid 10 2>&1; echo "exit $?"
k=$(cat /proc/sys/kernel/kptr_restrict)
echo 2 >/proc/sys/kernel/kptr_restrict
sec methods-bisect-hidden; leon3-methods -k -b 100 -- $w ppid 10 2>&1; echo "exit $?"
echo "$k" >/proc/sys/kernel/kptr_restrict
sec methods-shared; leon3-methods -k -f sys_getppid -e instructions -- perf stat -x, -o /dev/null -e instructions:uD -e instructions:uD -e instructions:uD -e instructions:uD -e instructions:uD -- $w ppid 1000 2>&1; echo "exit $?"
sec methods-bad; leon3-methods -f nosuch,work -- $w spin 1000 2>&1; echo "exit $?"
sec methods-fails; leon3-methods -f work -- $w bogus 2>&1; echo "exit $?"
sec methods-overlap; leon3-methods -f work,WORKLOOP -e instructions -- $w spin 1000 2>&1; echo "exit $?"
sec methods-empty; leon3-methods -f WORKEMPTY,work -e instructions -- $w spin 1000 2>&1; echo "exit $?"
sec end
"""


def module_filters(kallsyms, results):
    """perf's filter on each function of the module: from its address to
    the nearest symbol above it in /proc/kallsyms (lines in any order),
    refused where no symbol is above it or the name is not unique."""
    addrs = []
    for line in kallsyms:
        f = line.split()
        if len(f) >= 3 and re.fullmatch(r"[0-9a-f]+", f[0]):
            addrs.append((int(f[0], 16), f[2]))
    where = {name: a for a, name in addrs}
    out_of_order = sum(1 for (a, _), (b, _) in zip(addrs, addrs[1:]) if b < a)
    check("/proc/kallsyms: the module's symbols are not in address order "
          "(what the filter must cope with)", out_of_order > 0, f"{out_of_order} steps down")
    bad, good, refused = [], 0, 0
    for line in results:
        m = re.match(r"^(\S+) (\d+) (.*)$", line)
        if not m or m.group(1) not in where:
            bad.append(line)
            continue
        name, copies, said = m.group(1), int(m.group(2)), m.group(3)
        a = where[name]
        above = [b for b, _ in addrs if b > a]
        if copies > 1:
            ok_ = "Multiple kernel symbols" in said
        elif above:
            r = re.search(r"Address filter: filter 0x([0-9a-f]+)/0x([0-9a-f]+)", said)
            ok_ = bool(r) and "failed" not in said and \
                (int(r.group(1), 16), int(r.group(2), 16)) == (a, min(above) - a)
            good += ok_
        else:
            ok_ = f"Cannot determine size of symbol '{name}'" in said
            refused += ok_
        if not ok_:
            bad.append(line)
    check(f"a filter on each of the driver's {len(results)} functions, by name: from its "
          "address to the nearest symbol above it in /proc/kallsyms "
          f"({good} of them), or refused without one ({refused})",
          results and not bad, "; ".join(bad[:4]))


# More filtered events than counters: perf multiplexes them, moving them
# over the counters at every tick, and each move changes the counters'
# ranges.  QEMU used to flush all translated code at each change, and a
# guest doing kernel work under seven such events never finished
# (qemu-patches/0017).  The same events three at a time give the exact
# counts the multiplexed estimates should be near.  On a LEON3's clock
# (QEMU -icount): perf's rotations then come at the same guest time on
# any host; on the host's clock, at half speed, estimates were 11 and
# 15 % off.
HOT = ["vsnprintf", "number", "format_decode", "seq_read_iter", "s_show", "s_next"]
MULTIPLEX = r"""
f() { for x in "$@"; do printf " -e instructions:k --filter 'filter %s'" "$x"; done; }
sec() { echo "== $1"; }
sec exact1; eval timeout 120 perf stat -x, $(f HOT1) -- cat /proc/kallsyms 2>&1 >/dev/null; echo "exit $?"
sec exact2; eval timeout 120 perf stat -x, $(f HOT2) -- cat /proc/kallsyms 2>&1 >/dev/null; echo "exit $?"
sec multiplexed; eval timeout 120 perf stat -x, -e instructions:k $(f HOT) -- cat /proc/kallsyms 2>&1 >/dev/null; echo "exit $?"
sec end
"""


def multiplexed(tmp):
    """Seven filtered kernel events on six counters: they finish, and
    their estimates are near the exact counts."""
    script = (MULTIPLEX.replace("HOT1", " ".join(HOT[:3])).replace("HOT2", " ".join(HOT[3:]))
              .replace("HOT", " ".join(HOT)))
    s, why = guest_sections(tmp, script, [], "--timeout", "400", "--leon3-clock")
    if s is None:
        not_ok(f"seven filtered kernel events on six counters (multiplexed) finish: {why}")
        return
    exact = csv_counts(s["exact1"], "instructions:k") + csv_counts(s["exact2"], "instructions:k")
    rows = [line.split(",") for line in s["multiplexed"] if ",instructions:k," in line]
    est = [int(r[0]) if r[0].isdigit() else None for r in rows]
    shares = [float(r[4]) if r[4] else None for r in rows]
    check("seven filtered kernel events on six counters (multiplexed, cat /proc/kallsyms) "
          "finish, each running part of the time",
          exit_code(s["multiplexed"]) == 0 and len(rows) == 7 and None not in est and
          all(x is not None and x < 100 for x in shares), " | ".join(s["multiplexed"][-8:]))
    near = len(exact) == 6 and None not in exact and None not in est and len(est) == 7 and \
        all(e > 0 and abs(m - e) <= 0.1 * e for m, e in zip(est[1:], exact))
    check(f"... their estimates within 10 % of the exact counts of the same functions "
          f"({', '.join(HOT)}), counted 3 at a time", near, f"exact {exact} estimated {est[1:]}")


def table(lines):
    """leon3-methods' table: {row: [fields after the name]}."""
    rows = {}
    for line in lines:
        f = line.split()
        if len(f) > 2 and not line.startswith("leon3-methods:") and f[0] != "function":
            rows[f[0]] = f[1:]
    return rows


def main():
    tmp = tempfile.mkdtemp()
    try:
        w = build_workload(tmp)
    except RuntimeError as e:
        not_ok(str(e))
        return
    funcs = {name: (lo, hi) for lo, hi, name in function_symbols(w)}
    seg_off, seg_vaddr, _ = text_segment(w)
    lo, hi = funcs["work"]
    work_range = f"{lo - seg_vaddr + seg_off:#x}/{hi - lo:#x}"
    # work()'s loop alone (subcc, bne, nop: after its save), and nothing
    work_loop = f"{lo - seg_vaddr + seg_off + 4:#x}/0xc"
    work_empty = f"{lo - seg_vaddr + seg_off + 4:#x}/0x0"
    parts = ranges(w, 5)
    addup = "".join(f"sec addup-{e}; leon3-methods -e {e} -f {','.join(parts)} "
                    f"-- $w mix N M 2>&1; echo \"exit $?\"\n" for e in EVENTS)
    script = (GUEST.replace("ADDUP", addup).replace("WORKRANGE", work_range)
              .replace("WORKLOOP", work_loop).replace("WORKEMPTY", work_empty)
              .replace(" N M", f" {N} {M}"))
    s, why = guest_sections(tmp, script, [w], "--timeout", "900")
    if s is None:
        not_ok(f"the guest runs the address-filter script: {why}")
        return
    dline = int(re.search(r"(\d+)-byte lines", next(
        x for x in s["caches"] if x.startswith("dcache"))).group(1))

    check("sysfs: one address filter per event (nr_addr_filters)", s["nr"] == ["1"], str(s["nr"]))
    got = csv_counts(s["stat-work"], "instructions:u")
    check(f"perf stat --filter 'filter work @ workload': {WORK} instructions, work()'s alone",
          got == [WORK] and exit_code(s["stat-work"]) == 0, str(s["stat-work"][-3:]))
    got = csv_counts(s["stat-work2"], "instructions:u")
    check("... and twice the loop, 6000003", got == [2 * WORK - 3], str(got))
    got = csv_counts(s["stat-raw"], "leon3_pmu/instructions/u")
    check("the PMU's own event takes the filter as the generic one does", got == [WORK], str(got))
    got = csv_counts(s["stat-numeric"], "instructions:u")
    check(f"a numeric range ({work_range}, work()'s file offset and size) counts the same",
          got == [WORK], str(got))

    got = csv_counts(s["stat-two"], "instructions:u")
    check(f"three events, each its own filter, one run: work {WORK}, stream {STREAM}, "
          "and the whole program more than both",
          len(got) == 3 and got[:2] == [WORK, STREAM] and got[2] > WORK + STREAM, str(got))

    # (perf names the generic cache events without their modifiers)
    miss = csv_counts(s["stat-misses"], "L1-dcache-load-misses")
    loads = csv_counts(s["stat-misses"], "L1-dcache-loads")
    raw = csv_counts(s["stat-misses"], "leon3_pmu/loads/u")
    # The buffer's 16 pages fault in on first use: the faulting loads look
    # the D-cache up, then run again (Documentation/pmu-registers.md).
    want, pages = M * 16 // dline, 65536 // 4096
    check(f"stream()'s D-cache misses: its {M} loads 16 bytes apart, one per {dline}-byte line "
          f"({want}, + up to {pages} page faults), and none in work()",
          len(miss) == 2 and want - 2 <= miss[0] <= want + pages + 2 and miss[1] == 0, str(miss))
    check(f"stream()'s loads: {M} exactly; its D-cache read accesses {M} + up to {pages}",
          raw == [M] and len(loads) == 1 and M <= loads[0] <= M + pages, f"{loads} {raw}")

    k1 = csv_counts(s["stat-kernel1"], "instructions:k")
    k2 = csv_counts(s["stat-kernel2"], "instructions:k")
    check("a kernel function (filter sys_getppid): twice the calls, twice the instructions",
          len(k1) == 1 and len(k2) == 1 and k1[0] and k1[0] >= 1000 and k2[0] == 2 * k1[0],
          f"{k1} {k2}")

    module_filters(s["kallsyms"], s["module-filters"])
    handler = []
    for sec in ("handler1", "handler2"):
        c = csv_counts(s[sec], "instructions:k")
        n = report_samples(s[sec])
        handler.append((c[0] if len(c) == 1 else None, n[0] if len(n) == 1 else None,
                        exit_code(s[sec])))
    (c1, n1, e1), (c2, n2, e2) = handler
    per = c1 // n1 if c1 and n1 else None
    check("the driver's interrupt handler, by name (filter leon3_pmu_handle_irq, under "
          f"perf record -c 10007): the same instructions every interrupt ({per}), "
          "for twice the samples twice the count",
          e1 == 0 and e2 == 0 and per and n2 >= 2 * n1 - 1 and
          c1 == per * n1 and c2 == per * n2, str(handler))

    rec = [re.sub(r"\x1b\[[0-9;]*m", "", x) for x in s["record"]]   # perf's colours
    samples = report_samples(rec)
    syms = [x.split()[-1] for x in rec if re.match(r"^\s+[0-9.]+%", x)]
    check(f"perf record --filter work: {WORK // 10007} samples of work()'s instructions",
          samples == [WORK // 10007], str(rec[-4:]))
    check("... and every one in work()", syms == ["work"], str(rec))

    for name, want_msg in (("bad-symbol", "nosuch"),
                           ("bad-file", "Failed to parse address filter"),
                           ("bad-start", "Operation not supported"),
                           ("bad-two", "exceeds maximum")):
        text = " ".join(s[name])
        check(f"perf refuses {name.replace('bad-', 'a bad ')} with a message ({want_msg}) "
              "and a failure status",
              want_msg in text and exit_code(s[name]) not in (None, 0), text[-300:])

    rows = table(s["methods"])
    check("leon3-methods: a row per function, the total and the rest; exit 0",
          all(r in rows for r in ("work", "stream", "outer", "(total)", "(rest)")) and
          exit_code(s["methods"]) == 0, " | ".join(s["methods"][-8:]))
    if all(r in rows for r in ("work", "stream", "(total)")):
        check(f"leon3-methods: work {WORK}, stream {STREAM} instructions, exactly",
              rows["work"][0] == str(WORK) and rows["stream"][0] == str(STREAM),
              f"{rows['work']} {rows['stream']}")
        ins, cyc = int(rows["work"][0]), int(rows["work"][1])
        check("leon3-methods: IPC is instructions over cycles",
              rows["work"][4] == f"{ins / cyc:.3f}", str(rows["work"]))
        check("leon3-methods: work's share of the cycles, and no D-cache misses in it",
              rows["work"][-1] == f"{100 * cyc / int(rows['(total)'][1]):.2f}%" and
              rows["work"][2] == "0", str(rows["work"]))
    csv = [x for x in s["methods"] if "," in x]
    check("leon3-methods -o: the table as CSV, a header and a line per row",
          csv and csv[0].startswith("function,instructions,cycles,") and
          any(x.startswith(f"work,{WORK},") for x in csv), str(csv[:3]))

    rows = table(s["methods-top"])
    check("leon3-methods -t 2: the two functions with the most cycles, work and stream",
          set(rows) - {"(total)", "(rest)"} == {"work", "stream"} and
          exit_code(s["methods-top"]) == 0, " | ".join(s["methods-top"][-6:]))

    for e in EVENTS:
        rows = table(s[f"addup-{e}"])
        runs = [x for x in s[f"addup-{e}"] if re.match(r"^leon3-methods: run \d+ of 1:", x)]
        check(f"{len(parts)} ranges covering the text add up to the program's {e}, "
              "in one run: the rest is 0",
              rows.get("(rest)", [None])[0] == "0" and runs and
              int(rows["(total)"][0]) > 0, " | ".join(s[f"addup-{e}"][-4:]))

    rows = table(s["methods-kernel"])
    k1 = csv_counts(s["stat-kernel1"], "instructions:k")
    check(f"leon3-methods -k: sys_getppid's instructions in 1000 calls, as perf stat "
          f"--filter counts them ({k1}), and the rest is the total minus them",
          k1 and rows.get("sys_getppid", [None])[0] == str(k1[0]) and
          int(rows["(rest)"][0]) == int(rows["(total)"][0]) - k1[0] and
          exit_code(s["methods-kernel"]) == 0, " | ".join(s["methods-kernel"][-5:]))
    rows = table(s["methods-handler"])
    n = report_samples(s["methods-handler"])
    got = int(rows.get("leon3_pmu_handle_irq", ["0"])[0])
    check("leon3-methods -k on a module's function, the interrupt handler under perf record: "
          f"the same instructions every interrupt ({got // n[0] if n else None}; "
          f"{per} with one counter fewer running)",
          n and n[0] >= 300 and got and got % n[0] == 0 and per and got // n[0] >= per and
          exit_code(s["methods-handler"]) == 0, " | ".join(s["methods-handler"][-5:]))
    rows = table(s["methods-ktop"])
    funcs = [r for r in rows if r not in ("(total)", "(rest)")]
    check("leon3-methods -k -t 3: the 3 kernel functions with the most cycles in 20000 "
          "getppid() calls, the first run once a call at least, and they and the rest "
          "add up to the total",
          len(funcs) == 3 and int(rows[funcs[0]][0]) >= 20000 and
          sum(int(rows[f][0]) for f in funcs) + int(rows["(rest)"][0]) ==
          int(rows["(total)"][0]) and exit_code(s["methods-ktop"]) == 0,
          " | ".join(s["methods-ktop"][-6:]))

    rows = table(s["methods-bisect"])
    funcs = [r for r in rows if r not in ("(total)", "(rest)")]
    counts = [int(rows[f][0]) for f in funcs if rows[f][0].isdigit()]
    check(f"leon3-methods -k -b 25000: the kernel functions that run 25000 instructions "
          f"or more in 5000 getppid() calls, found by splitting ranges of the kernel's text: "
          f"sys_getppid among them with its {5 * k1[0] if k1 else None} (5 x perf stat "
          f"--filter's count for 1000 calls), each at least 25000, and they and the rest "
          f"add up to the total ({len(funcs)} functions)",
          k1 and rows.get("sys_getppid", [None])[0] == str(5 * k1[0]) and
          len(counts) == len(funcs) and min(counts) >= 25000 and
          sum(counts) + int(rows["(rest)"][0]) == int(rows["(total)"][0]) and
          exit_code(s["methods-bisect"]) == 0, " | ".join(s["methods-bisect"][-8:]))
    text = "\n".join(s["methods-bisect-user"])
    check("leon3-methods -b without -k: refused, it finds kernel functions",
          "-b finds kernel functions: it needs -k" in text and
          exit_code(s["methods-bisect-user"]) == 1, text[-300:])
    text = "\n".join(s["methods-bisect-hidden"])
    check("leon3-methods -k -b with the kernel's addresses hidden (kptr_restrict 2): "
          "refused, nothing measured",
          "-b needs the kernel's symbol addresses in /proc/kallsyms" in text and
          exit_code(s["methods-bisect-hidden"]) == 1, text[-300:])

    text = "\n".join(s["methods-shared"])
    rows = table(s["methods-shared"])
    m = re.search(r"did not count every event exactly; left out \(event, function, "
                  r"what perf stat said\): (.*)$", text, re.M)
    left = {}
    for item in (m.group(1).split(";") if m else []):
        f = item.split()
        if len(f) == 3 and re.fullmatch(r"shared:[0-9.]+%|<not-counted>", f[2]):
            left[f[1]] = f[2]
    shown = {"sys_getppid": rows.get("sys_getppid", ["n/a"])[0],
             "-": rows.get("(total)", ["n/a"])[0]}
    exact = all(shown[f] == "n/a" if f in left else
                (f != "sys_getppid" or (k1 and shown[f] == str(k1[0])))
                for f in shown)
    # Five pinned events (:D) hold five of the six counters while the
    # program runs, so leon3-methods' two flexible ones share the last:
    # one at least runs part of the time, with or without rotation.
    check("leon3-methods: counts that perf stat scaled (the program's own five pinned "
          "events leave one counter for its two) are left out and named, not shown as "
          "counts; what it "
          f"shows is exact (left out: {left or None})",
          left and exact and exit_code(s["methods-shared"]) == (1 if len(left) == 2 else 0),
          text[-500:])

    text = "\n".join(s["methods-bad"])
    check("leon3-methods: a function perf cannot find is left out, with perf's reason, "
          "and the others are measured",
          re.search(r"nosuch: left out: .*nosuch", text) and "work" in table(s["methods-bad"]) and
          exit_code(s["methods-bad"]) == 0, text[-300:])
    text = "\n".join(s["methods-fails"])
    check("leon3-methods: a program that fails on its own is reported, nothing measured",
          "exits with status 2 without perf" in text and exit_code(s["methods-fails"]) == 1,
          text[-300:])

    text = "\n".join(s["methods-overlap"])
    rows = table(s["methods-overlap"])
    check(f"leon3-methods: overlapping ranges (work and its loop, {work_loop}) are both "
          "counted (3003 and 3000 instructions), named as overlapping, and the table "
          "gives no rest",
          f"these ranges overlap, so the table gives no rest: work and {work_loop}" in text and
          rows.get("work", [None])[0] == "3003" and rows.get(work_loop, [None])[0] == "3000" and
          "(total)" in rows and "(rest)" not in rows and exit_code(s["methods-overlap"]) == 0,
          text[-400:])
    text = "\n".join(s["methods-empty"])
    rows = table(s["methods-empty"])
    check(f"leon3-methods: an empty range ({work_empty}) is left out with the kernel's "
          "reason (EINVAL), and work() still measured",
          re.search(re.escape(work_empty) + r": left out: .*Invalid argument", text) and
          rows.get("work", [None])[0] == "3003" and exit_code(s["methods-empty"]) == 0,
          text[-400:])
    multiplexed(tmp)


main()
