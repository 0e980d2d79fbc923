#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# tests/run: one-core
"""Shadow I-caches (QEMU's icache-shadow): one run, several I-cache
geometries, counted through the driver and perf in the guest.

- In the same run, a shadow with the real I-cache's geometry counts
  exactly the real I-cache's misses (icache_miss), on 1 CPU and on the
  second of 2 (each CPU its own I-cache and shadows), beside shadows of
  other line sizes (the model then looks the caches up by the smallest
  line, each cache only where execution enters one of its own lines).
- "ishadow-work P" (tests/pmu/ishadow-work.c) runs 12 KiB of straight
  code P times.  From P = 1 to P = 11, each cache's misses grow by
  10 x its lines of the code (384 of 32 bytes, 768 of 16) where each
  of its sets gets more of them than it has ways (LRU and LRR both miss
  every line of a cyclic sweep then), and by almost nothing where each
  set keeps a way to spare: the code fits.  These boots run on a
  LEON3's clock, the passes started at a whole second of the guest's
  clock: the 10 passes take about 1 ms of it, so one timer tick at most
  falls in them, whose code evicts a few of the code's lines, on a slow
  host as on a fast one (on the host's clock, a slow host put several
  ticks in longer runs and so several hundred misses more).
- A shadow's misses equal those of another boot whose real I-cache has
  its geometry, in deterministic mode (a LEON3's clock, QEMU -icount,
  a fixed seed, the passes started at a whole second of the guest's
  clock): three boots, each of three geometries the real I-cache once
  and a shadow in the other two.
- caps/icache_shadowK names each shadow's geometry, sysfs lists the
  events of the shadows there are and no others, and an event of a
  shadow that is not there is refused (perf: <not supported>).
- QEMU refuses an icache-shadow it cannot model, saying why.
"""

import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lib import TOP, CC, not_ok, check, guest_sections, csv_counts, qemu_refuses  # noqa: E402

# The runs of boots A and B, and of the deterministic comparison (its
# passes take some 2 ticks of the guest's timer: the kernel's evictions
# are part of what the geometries must agree on)
P1, P2, P_ROT = 1, 11, 101
CODE = 12 * 1024
PMU = "/sys/bus/event_source/devices/leon3_pmu"
SEED = "5eed" * 16


def geometry(spec):
    """(KiB, ways, line) of SIZEkxWAYS/LINE[/REPL]."""
    size, rest = spec.split("kx")
    ways, line = rest.split("/")[:2]
    return int(size), int(ways), int(line)


def real_opts(spec):
    """QEMU options giving the real I-cache the geometry SPEC."""
    kib, ways, line = geometry(spec)
    repl = spec.split("/")[2] if spec.count("/") == 2 else "lru"
    return [f"--qemu-opt=-global", f"--qemu-opt=LEON3-sparc-cpu.icache-ways={ways}",
            f"--qemu-opt=-global", f"--qemu-opt=LEON3-sparc-cpu.icache-way-kib={kib // ways}",
            f"--qemu-opt=-global", f"--qemu-opt=LEON3-sparc-cpu.icache-line={line}",
            f"--qemu-opt=-global", f"--qemu-opt=LEON3-sparc-cpu.icache-repl={repl}"]


def expected(spec):
    """The misses P2 - P1 more passes add in an I-cache of SPEC: every
    line of each pass where each set gets more of the code's lines than
    it has ways, none where each set keeps a way to spare, None between;
    and the slack.  The passes take 11 x 3073 instructions, 1.1 ms at a
    LEON3's clock, and the timer ticks every 4 ms (HZ=250): one tick at
    most falls in them (and, on 2 CPUs, what the other CPU interrupts
    them with), whose code evicts some of the code's lines where it
    fits, and adds misses to the run's exit where it does not.
    Measured in 8 boots, idle host and busy: 3 to 58 misses more than
    none, 0 to 50 more than every line; so a quarter of a pass's lines
    (96 or 192) either way."""
    kib, ways, line = geometry(spec)
    lines, sets = CODE // line, kib * 1024 // ways // line
    if lines // sets > ways:
        return (P2 - P1) * lines, lines // 4
    if -(-lines // sets) < ways:
        return 0, lines // 4
    return None, None


def boot(tmp, workload, real, shadows, deterministic=False, cpus=1):
    """Counts {(index, P): n} of one boot on CPUS CPUs whose real I-cache is
    REAL and whose shadow I-caches are SHADOWS (index 0 the I-cache,
    k + 1 shadow k), and its sections.  Every run starts its passes at a
    whole second of the guest's clock, a LEON3's.  DETERMINISTIC: also a
    fixed seed, one run of P_ROT passes, and nothing else (the kernel's
    work for anything else would differ with the geometries, and move
    the timer's interrupts in the run)."""
    evs = ["icache_miss"] + [f"icache_shadow{k}_miss" for k in range(len(shadows))]
    group = ",".join(f"leon3_pmu/{e}/u" for e in evs)
    script = ["cd /root"]
    if not deterministic:
        script += ["echo '== caps'",
                   f'for f in {PMU}/caps/icache_shadow*; do [ -e "$f" ] && '
                   'echo "$(basename $f) $(cat $f)"; done',
                   "echo '== events'",
                   f"ls {PMU}/events | grep icache_shadow",
                   "echo '== absent'",
                   f"perf stat -x, -e leon3_pmu/config=0x{0x98 + len(shadows):x}/u true 2>&1"
                   if len(shadows) < 4 else "true"]
    passes = (P_ROT,) if deterministic else (P1, P2)
    for p in passes:
        script += [f"echo '== run-{p}'",
                   # on 2 CPUs, on the second (its own I-cache and shadows),
                   # perf too: the workload starts there, not moved there
                   f"{'taskset 2 ' if cpus > 1 else ''}perf stat -x, -e '{{{group}}}' "
                   f"./{os.path.basename(workload)} {p} align 2>&1"]
    script.append("echo '== end'")
    opts = ["--cpus", str(cpus), "--timeout", "600", *real_opts(real),
            "--qemu-opt=-global",
            f"--qemu-opt=LEON3-sparc-cpu.icache-shadow={':'.join(shadows)}",
            "--leon3-clock"]
    if deterministic:
        opts += ["--rng-seed", SEED]
    s, why = guest_sections(tmp, "\n".join(script) + "\n", [workload], *opts)
    if s is None:
        return None, why
    counts = {}
    for p in passes:
        for i, e in enumerate(evs):
            v = csv_counts(s.get(f"run-{p}", []), f"leon3_pmu/{e}/u")
            if len(v) == 1 and v[0] is not None:
                counts[(i, p)] = v[0]
    return counts, s


def main():
    T = tempfile.mkdtemp()
    workload = os.path.join(T, "ishadow-work")
    cc = subprocess.run([CC, "-static", "-O2", "-Wall", "-Werror",
                         os.path.join(TOP, "tests/pmu/ishadow-work.c"), "-o", workload],
                        capture_output=True, text=True)
    if cc.returncode:
        not_ok(f"tests/pmu/ishadow-work.c builds for the guest: {cc.stderr[:300]}")
        return

    runs = {
        # the default I-cache, and shadows of both line sizes
        "A": ("8kx2/32/lru", ["8kx2/32/lru", "16kx4/32/lru", "4kx1/16/lru", "32kx4/16/lrr"], 1),
        # a real I-cache of 16-byte lines that the code fits, a shadow of
        # 32-byte lines it does not; 2 CPUs, each with its own shadows
        "B": ("16kx4/16/lru", ["16kx4/16/lru", "4kx2/32/lrr"], 2),
    }
    for name, (real, shadows, cpus) in runs.items():
        c, s = boot(T, workload, real, shadows, cpus=cpus)
        what = (f"boot {name} (I-cache {real}, shadows {':'.join(shadows)}, "
                f"{cpus} CPU{'s' * (cpus > 1)})")
        if c is None:
            not_ok(f"{what} counts its workload: {s}")
            continue
        check(f"{what}: caps/ names each of the {len(shadows)} shadows' geometry",
              s.get("caps") == [f"icache_shadow{k} {g}" for k, g in enumerate(shadows)],
              str(s.get("caps")))
        check(f"{what}: events/ lists the events of these shadows, no others",
              sorted(s.get("events", [])) ==
              [f"icache_shadow{k}_miss" for k in range(len(shadows))],
              str(s.get("events")))
        if len(shadows) < 4:
            check(f"{what}: an event of shadow {len(shadows)}, which is not there, is "
                  "refused (<not supported>)",
                  any("<not supported>" in x for x in s.get("absent", [])),
                  " | ".join(s.get("absent", []))[-300:])
        missing = [(i, p) for i in range(len(shadows) + 1) for p in (P1, P2)
                   if (i, p) not in c]
        if missing:
            not_ok(f"{what}: every count is there: missing {missing}")
            continue
        print(f"# {what}: misses of {P1} and {P2} passes: " +
              ", ".join(f"{g} {c[(i, P1)]} {c[(i, P2)]}"
                        for i, g in enumerate(["I-cache"] + shadows)))
        check(f"{what}: shadow 0 ({shadows[0]}, the I-cache's geometry) counts exactly "
              f"the I-cache's misses, in runs of {P1} and {P2} passes",
              all(c[(0, p)] == c[(1, p)] for p in (P1, P2)), str(c))
        for i, geom in enumerate([real] + shadows):
            want, slack = expected(geom)
            if want is None:
                continue
            got = c[(i, P2)] - c[(i, P1)]
            check(f"{what}, {'the I-cache' if i == 0 else f'shadow {i - 1}'} ({geom}): "
                  f"{P2 - P1} passes over {CODE // 1024} KiB of code add {want} misses "
                  f"(the code {'fits' if want == 0 else 'does not fit'}), within {slack}",
                  abs(got - want) <= slack, f"{got} ({c[(i, P1)]} and {c[(i, P2)]})")

    # Each geometry the real I-cache of one boot and a shadow of the two
    # others, deterministic mode: the same misses
    geoms = ["8kx2/32/lru", "16kx4/16/lru", "4kx2/32/lrr"]
    rot = []
    for i, real in enumerate(geoms):
        shadows = geoms[:i] + geoms[i + 1:]
        c, why = boot(T, workload, real, shadows, deterministic=True)
        if c is None or len(c) != 3:
            not_ok(f"deterministic boot, I-cache {real}, shadows {':'.join(shadows)}: "
                   f"every count is there: {why if c is None else c}")
            break
        order = [real] + shadows
        rot.append({g: c[(order.index(g), P_ROT)] for g in geoms})
    if len(rot) == 3:
        for g in geoms:
            counts = [r[g] for r in rot]
            print(f"# {g}, deterministic mode, in the boots whose real I-cache is "
                  f"{', '.join(geoms)}: {counts}")
            check(f"{g}, 1 CPU, deterministic mode, {P_ROT} passes: the misses as the real "
                  f"I-cache and as a shadow of two other boots are the same",
                  min(counts) == max(counts),
                  f"in the boots whose real I-cache is {', '.join(geoms)}: {counts}")

    # bad input: refused when QEMU starts, with the reason
    for shadow, why in (("3kx2", "icache-shadow 3kx2: the KiB of a way must be a power of 2"),
                        ("8kx5", "icache-shadow 8kx5: 5 ways: must be 1-4"),
                        ("8kx2/64", "icache-shadow 8kx2/64: icache-shadow-line 64: must be "
                                    "16 or 32"),
                        ("8k2", "icache-shadow 8k2: not SIZEkxWAYS[/LINE][/REPL]"),
                        ("1kx1:2kx1:4kx1:8kx1:16kx1", "at most 4 geometries")):
        rc, err = qemu_refuses(f"icache-shadow={shadow}")
        check(f"QEMU refuses icache-shadow={shadow}, saying {why!r}",
              rc == 1 and why in err, f"exit {rc}: {err[-300:]}")
    rc, err = qemu_refuses("icache-shadow=8kx2", "leon3-pmu=off")
    check("QEMU refuses icache-shadow without the PMU (leon3-pmu=off)",
          rc == 1 and "needs leon3-pmu=on" in err, f"exit {rc}: {err[-300:]}")


main()
