#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# tests/run: one-core
"""A task reads its own counter without a system call: the leon3_pmu
driver marks a task's events readable, perf's mmap page says so
(cap_user_rdpmc, index, pmc_width 32), and the task loads its counter
from the PMU's user window (tests/pmu/user-read.c, on 1, 2 and 4 CPUs):

- a loop of N2 iterations counts 3 (N2 - N1) user instructions more
  than one of N1, read from the window as read() reads it (both exact),
  and on 2 CPUs and more also with the task moved to the other CPU in
  the middle of each loop;
- read() and a window read at once differ by the same few instructions
  (the return from read() to the load) every time;
- reads in a row beside a task that spins on the same CPU: the mmap
  page's lock retries the reads a context switch cuts, and no read goes
  back;
- nothing of another task's counts or of a closed event: the window
  reads 0 in a task before it maps an event, in a child without one,
  and after the event is unmapped and closed, and in a task without an
  event while a CPU-wide event counts (which a task with its own event
  mapped does read, as x86's rdpmc would); a task with its event mapped
  reads nothing of another task's two events that count beside it on
  the same CPU; a disabled event's index is 0;
- a store to the window ends the task with SIGSEGV;
- perf's own "User space counter reading" tests (libperf's
  perf_mmap__read_self(), kernel patch 0051) pass, their loops' counts
  read from the window, and are skipped with sysfs rdpmc 0;
- sysfs rdpmc: 0 makes new events unreadable (cap_user_rdpmc 0), values
  other than 0 and 1 are refused;
- a machine without the window (pmu-window=0) has neither sysfs rdpmc
  nor caps/user_window; QEMU refuses a window address that is not 4 KiB
  aligned.
"""

import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lib import not_ok, check, guest_sections, build_guest, qemu_refuses  # noqa: E402

N1, N2 = 1000, 101000
STORM = 200000          # window reads beside a task spinning on the same CPU
RDPMC = "/sys/bus/event_source/devices/leon3_pmu/rdpmc"


def values(lines):
    """{name: [fields]} of the program's "name value..." lines."""
    out = {}
    for line in lines:
        f = line.split()
        if f:
            out[f[0]] = f[1:]
    return out


def check_perf_test(what, out, off):
    """perf test "User space counter reading" (tools/perf/tests/mmap-basic.c):
    each of its two tests opens an event, maps it and reads it with
    libperf's perf_mmap__read_self() around loops of 0x10000 << i
    iterations of a volatile int's decrement (i = 0..4), with -vv their
    counts.  libperf reads the window whenever the page's cap_user_rdpmc
    and index allow it, never read(): counts that grow with the loops are
    the window's."""
    text = re.sub(r"\x1b\[[0-9;]*m", "", "\n".join(out))     # perf's colours
    for ev in ("instructions", "cycles"):
        got = re.findall(rf"User space counter reading of {ev}[ \t]*:[ \t]*(\S+)", text)
        check(f"{what}: perf test: User space counter reading of {ev}: Ok",
              got[-1:] == ["Ok"], text[-600:])
    # its -vv lines: "loop = N, count = C", instructions' first
    loops = [(int(a), int(b)) for a, b in re.findall(r"loop = (\d+), count = (\d+)", text)]
    ins = loops[:5]
    # its loop, a volatile int's decrement and test, is 4 instructions an
    # iteration or more (a load, the decrement, a store, a branch), and
    # not 12.  The event counts kernel mode too, whose work in a loop (a
    # timer tick; on 4 CPUs sharing the host's 2, a cross-call that
    # waits for a CPU the host does not run: 6.6 million instructions
    # once) only adds: so every loop's count is 4 an iteration or more,
    # and the loop with the fewest an iteration has 4 to 12.
    rate = min((c / n for n, c in ins), default=0)
    check(f"{what}: perf test: its instruction counts, read from the window, follow its "
          "loops (4 to 12 instructions an iteration)",
          len(loops) == 10 and all(c >= 4 * n for n, c in ins) and 4 <= rate <= 12,
          str(loops))
    text = re.sub(r"\x1b\[[0-9;]*m", "", "\n".join(off))
    check(f"{what}: perf test with sysfs rdpmc 0: both user-read tests skipped (no "
          "cap_user_rdpmc)", len(re.findall(r"User space counter reading of \w+[ \t]*:[ \t]*Skip",
                                                text)) == 2, text[-600:])


def main():
    tmp = tempfile.mkdtemp()
    try:
        prog = build_guest(tmp, "user-read", "-I" + os.path.dirname(os.path.abspath(__file__)))
    except RuntimeError as e:
        not_ok(str(e))
        return
    for cpus in (1, 2, 4):
        script = ["cd /root",
                  "echo '== run'", "./user-read; echo \"exit $?\"",
                  "echo '== storm'", f"./user-read storm {STORM}",
                  "echo '== bad'", f"echo 2 >{RDPMC} 2>&1; echo \"exit $?\"; cat {RDPMC}",
                  "echo '== off'", f"echo 0 >{RDPMC}; ./user-read rdpmc-off; echo 1 >{RDPMC}",
                  # a CPU-wide event counts on every CPU meanwhile
                  "echo '== cpuwide'",
                  "perf stat -a -e instructions -- sleep 3 >/dev/null 2>&1 &",
                  "sleep 1", "./user-read peek", "./user-read mapped", "wait",
                  # another task's events on CPU 0 beside it: two counters
                  "echo '== beside'",
                  "taskset 1 perf stat -e instructions:u,branches:u -- ./user-read spin 30000000 "
                  ">/dev/null 2>&1 &",
                  "sleep 1", "taskset 1 ./user-read mapped", "wait",
                  # perf's own test, through libperf's perf_mmap__read_self()
                  "echo '== perftest'", "perf test -vv 'User space counter reading' 2>&1",
                  "echo '== perftest-off'",
                  # (perf ends its colour after the last newline)
                  f"echo 0 >{RDPMC}; perf test 'User space counter reading' 2>&1; "
                  f"echo; echo 1 >{RDPMC}",
                  "echo '== end'"]
        s, why = guest_sections(tmp, "\n".join(script) + "\n", [prog], "--cpus", str(cpus))
        what = f"{cpus} CPU{'s' * (cpus > 1)}"
        if s is None:
            not_ok(f"{what}: the guest runs user-read: {why}")
            continue
        v = values(s.get("run", []))
        print(f"# {what}: " + " | ".join(s.get("run", [])))
        check(f"{what}: user-read exits 0", v.get("exit") == ["0"], str(v.get("exit")))
        win = v.get("window", ["0x0", ""])
        check(f"{what}: caps/user_window names the window's address, the UAPI's "
              "LEON_PMU_USER_WINDOW", win[0] != "0x0" and win[:1] == win[1:], str(win))
        check(f"{what}: a task's event is readable from user space: cap_user_rdpmc 1, "
              "pmc_width 32, an index",
              v.get("cap_user_rdpmc") == ["1"] and v.get("pmc_width") == ["32"] and
              v.get("index", ["0"])[0] != "0", str(v))
        want = str(3 * (N2 - N1))
        check(f"{what}: from the window, {N2} iterations count {want} user instructions "
              f"more than {N1}", v.get("self", [None] * 3)[2] == want, str(v.get("self")))
        check(f"{what}: with read(), the same", v.get("read", [None] * 3)[2] == want,
              str(v.get("read")))
        if cpus > 1:
            check(f"{what}: from the window, moved to CPU 1 in the middle of each loop, "
                  "the same", v.get("migrate") == [want], str(v.get("migrate")))
        gap = v.get("gap", [])
        check(f"{what}: read() then a window read: the same few instructions apart "
              "each time (the return from read() to the load)",
              len(gap) == 3 and len(set(gap)) == 1 and 0 < int(gap[0]) < 200, str(gap))
        st = values(s.get("storm", [])).get("storm", [])
        check(f"{what}: {STORM} window reads in a row beside a task that spins on the same "
              "CPU: the lock retried some (a context switch in the middle of a read), no read "
              "went back, and a read() then a window read after them are a few instructions "
              "apart", len(st) == 4 and st[0] == str(STORM) and int(st[1]) > 0 and
              st[2] == "0" and 0 < int(st[3]) < 200, str(st))
        for name, why in (("before", "a task before it maps an event"),
                          ("child", "a child without an event"),
                          ("closed", "the task once its event is unmapped and closed")):
            check(f"{what}: the window reads 0 in {why}", v.get(name) == ["0"] * 7,
                  str(v.get(name)))
        check(f"{what}: a store to the window ends the task with SIGSEGV (the page is "
              "read-only)", v.get("store") == ["11"], str(v.get("store")))
        check(f"{what}: a disabled event's index is 0 (no user read)",
              v.get("disabled") == ["0"], str(v.get("disabled")))
        bad = s.get("bad", [])
        check(f"{what}: sysfs rdpmc refuses 2 and keeps 1",
              len(bad) >= 2 and bad[-2] != "exit 0" and bad[-1] == "1", str(bad))
        wide = values(s.get("cpuwide", []))
        check(f"{what}: while a CPU-wide event counts, the window reads 0 in a task "
              "without an event", wide.get("peek") == ["0"] * 7, str(wide.get("peek")))
        mapped = wide.get("mapped", [])
        check(f"{what}: ... and a task with its own event mapped reads a CPU-wide "
              "event's counter too, as with x86's rdpmc (two words counting)",
              sum(x != "0" for x in mapped) >= 2, str(mapped))
        beside = values(s.get("beside", [])).get("mapped", [])
        check(f"{what}: while another task's two events count on the same CPU, a task "
              "reads only its own counter from the window (a counter an event leaves is "
              "cleared)", len(beside) == 7 and sum(x != "0" for x in beside) == 1,
              str(beside))
        check_perf_test(what, s.get("perftest", []), s.get("perftest-off", []))
        off = values(s.get("off", []))
        check(f"{what}: with sysfs rdpmc 0, a new event is not readable (cap_user_rdpmc 0, "
              "index 0)", off.get("cap_user_rdpmc") == ["0"] and off.get("index") == ["0"],
              str(off))

    # a machine without the window: nothing readable, and no sysfs for it
    script = ["cd /root", "echo '== none'", f"ls {RDPMC} 2>&1",
              "ls /sys/bus/event_source/devices/leon3_pmu/caps/user_window 2>&1",
              "./user-read; echo \"exit $?\"", "echo '== end'"]
    s, why = guest_sections(tmp, "\n".join(script) + "\n", [prog],
                            "--qemu-opt=-global", "--qemu-opt=LEON3-sparc-cpu.pmu-window=0")
    if s is None:
        not_ok(f"pmu-window=0: the guest runs user-read: {why}")
    else:
        none = s.get("none", [])
        check("pmu-window=0 (no window): neither sysfs rdpmc nor caps/user_window, and "
              "user-read says there is no window (exit 1)",
              len(none) >= 3 and "No such file" in none[0] and "No such file" in none[1] and
              none[-1] == "exit 1", str(none))
    # bad input: refused when QEMU starts, with the reason
    rc, err = qemu_refuses("pmu-window=0x80100004")
    check("QEMU refuses pmu-window=0x80100004, saying it must be 4 KiB aligned",
          rc == 1 and "pmu-window 0x80100004: must be 4 KiB aligned" in err,
          f"exit {rc}: {err[-300:]}")


main()
