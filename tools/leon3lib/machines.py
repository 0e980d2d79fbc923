# SPDX-License-Identifier: GPL-2.0
"""The named LEON3 machines of tools/mibench/machines (QEMU CPU
properties and a clock), and the check that a guest got the caches it
was given: its kernel's cacheinfo, printed by CACHEINFO in the guest."""

import os

from . import TOP

MACHINES = os.path.join(TOP, "tools/mibench/machines")

# In the guest: the kernel's description of CPU 0's two caches
CACHEINFO = ("for i in 0 1; do d=/sys/devices/system/cpu/cpu0/cache/index$i; "
             "echo cache $(cat $d/type $d/size $d/ways_of_associativity "
             "$d/coherency_line_size); done")


def machine_props(name, path=MACHINES):
    """A named machine: its LEON3 CPU properties {name: value} and its
    clock (Hz, None if not given)."""
    for line in open(path):
        f = line.split("#", 1)[0].split()
        if f and f[0] == name:
            items = dict(x.split("=", 1) for x in f[1:])
            clock = items.pop("clock", None)
            return items, float(clock) if clock is not None else None
    raise SystemExit(f"mibench: no machine '{name}' in {path}")


def qemu_opts(props):
    """QEMU's options that give the LEON3 CPU the properties PROPS."""
    opts = []
    for k, v in props.items():
        opts += ["-global", f"LEON3-sparc-cpu.{k}={v}"]
    return opts


def cacheinfo_mismatch(props, out):
    """What the guest's cacheinfo lines (CACHEINFO's) in OUT say that
    differs from the caches of the LEON3 CPU properties PROPS ("" if
    nothing).  A property not given is QEMU's default: not checked."""
    seen = {f[1]: f[2:] for f in (x.split() for x in out.splitlines())
            if len(f) == 5 and f[0] == "cache"}
    wrong = []
    for c, kind in (("dcache", "Data"), ("icache", "Instruction")):
        got = seen.get(kind)
        if not got:
            wrong.append(f"the guest's {c} is not in its cacheinfo")
            continue
        ways = props.get(f"{c}-ways", got[1])
        kib = props.get(f"{c}-way-kib")
        want = [f"{int(ways) * int(kib)}K" if kib else got[0], str(int(ways)),
                props.get(f"{c}-line", got[2])]
        if got != want:
            wrong.append(f"the guest's {c} is {got[0]}, {got[1]} ways, {got[2]}-byte lines, "
                         f"not {want[0]}, {want[1]} ways, {want[2]}-byte lines")
    return "; ".join(wrong)
