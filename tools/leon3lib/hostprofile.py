# SPDX-License-Identifier: GPL-2.0
"""Host profiles of QEMU (perf record -e cpu-clock, read back with perf
report): where QEMU's time goes, by function, and what one profile adds
to another.  tools/bench/model-profile compares a guest that runs a
program alone with one that runs it under perf stat, so that the
difference is what counting costs on the host, function by function."""

import re

# TCG's translated code: perf names anonymous executable memory [JIT]
TRANSLATED = "(translated code)"
HOST_KERNEL = "(host kernel)"
QEMU_DSO = "qemu-system-sparc"

# perf report --stdio -q --sort dso,sym -F period,dso,sym: "PERIOD DSO
# [.] SYMBOL" ([k] for the kernel); a DSO may hold spaces ("[JIT] tid 7")
LINE = re.compile(r"^\s*(\d+)\s+(.*?)\s+\[([.kgu])\]\s+(.*?)\s*$")


def parse_report(text, qemu=QEMU_DSO):
    """{name: cpu-clock nanoseconds} of a perf report in the form above,
    of the QEMU binary whose file name is QEMU.  Translated code and the
    host kernel are one name each; a function of another file than
    QEMU's own is named with it (libc.so.6: memmove)."""
    out = {}
    for line in text.splitlines():
        m = LINE.match(line)
        if not m:
            continue
        period, dso, kind, sym = int(m.group(1)), m.group(2), m.group(3), m.group(4)
        if dso.startswith("[JIT]"):
            name = TRANSLATED
        elif kind == "k" or dso.startswith("[kernel"):
            name = HOST_KERNEL
        elif dso == qemu or dso.endswith("/" + qemu):
            name = sym
        else:
            name = f"{dso}: {sym}"
        out[name] = out.get(name, 0) + period
    return out


def difference(base, other, top):
    """What profile OTHER adds to BASE ({name: ns}): the rows (name,
    base ns, other ns, other - base) of the TOP largest differences,
    largest first, then a row "(the rest)" for all the others (if there
    are any), and the total row.  Names in one profile only count 0 in
    the other."""
    names = set(base) | set(other)
    rows = sorted(((n, base.get(n, 0), other.get(n, 0), other.get(n, 0) - base.get(n, 0))
                   for n in names), key=lambda r: (-r[3], r[0]))
    shown, rest = rows[:top], rows[top:]
    if rest:
        shown.append(("(the rest)", sum(r[1] for r in rest), sum(r[2] for r in rest),
                      sum(r[3] for r in rest)))
    tb, to = sum(base.values()), sum(other.values())
    shown.append(("(all)", tb, to, to - tb))
    return shown
