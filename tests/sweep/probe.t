#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""leon3-sweep plan's check of each geometry: the guest boots with it and
its kernel describes the caches it was given (cacheinfo), or the
geometry is refused, named with what the guest saw, and the rest of the
sweep is planned.

To see a guest that does not get its geometry, LEON3_QEMU is a wrapper
that drops every -global of dcache-ways before it starts the project's
QEMU, as a QEMU that ignored the property would: a 16 KiB 4-way
D-cache comes out 8 KiB in 2 ways (4 KiB a way, the QEMU default of 2
ways), while the paper's 4 KiB 2-way one is unchanged.  The plan
records the QEMU its jobs are to run."""

import json
import os
import stat
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lib import TOP, check  # noqa: E402

SWEEP = os.path.join(TOP, "tools/sweep/leon3-sweep")
QEMU = os.path.join(TOP, "build/bin/qemu-system-sparc")
WRAPPER = f"""#!/usr/bin/env python3
import os, sys
args = []
for a in sys.argv[1:]:
    if a.startswith("LEON3-sparc-cpu.dcache-ways=") and args[-1:] == ["-global"]:
        args.pop()
        continue
    args.append(a)
os.execv({QEMU!r}, [{QEMU!r}] + args)
"""


def plan(out, *geometries, env=None):
    args = [SWEEP, "plan", "--out", out, "--workload", "stream:8:1"]
    for g in geometries:
        args += ["--geometry", g]
    r = subprocess.run(args, capture_output=True, text=True, env=env)
    return r, r.stdout + r.stderr


def planned(out):
    with open(os.path.join(out, "plan.json")) as f:
        return json.load(f)


def main():
    T = tempfile.mkdtemp()
    out = os.path.join(T, "own")
    r, text = plan(out, "d4kx2", "d16kx4", "i4kx4/16")
    p = planned(out) if r.returncode == 0 else {}
    check("the project's QEMU: every geometry's guest sees its caches, none refused",
          r.returncode == 0 and "refused" not in text and not p.get("refused") and
          sorted(p.get("geometries", {})) == ["d16kx4", "d4kx2", "i4kx4/16"], text[-600:])
    check("... and the plan records no other QEMU", r.returncode == 0 and p.get("qemu") is None,
          str(p.get("qemu")))

    wrapper = os.path.join(T, "qemu-without-dcache-ways")
    with open(wrapper, "w") as f:
        f.write(WRAPPER)
    os.chmod(wrapper, os.stat(wrapper).st_mode | stat.S_IXUSR)
    out = os.path.join(T, "wrapped")
    r, text = plan(out, "d4kx2", "d16kx4", env={**os.environ, "LEON3_QEMU": wrapper})
    p = planned(out) if r.returncode == 0 else {}
    check("a guest that does not get its D-cache: the geometry is refused with what the "
          "guest's kernel saw", "geometry d16kx4 refused, left out: the guest's dcache is "
          "8K, 2 ways, 16-byte lines, not 16K, 4 ways, 16-byte lines" in text, text[-600:])
    check("... the rest of the sweep is planned (d4kx2, whose guest is as asked)",
          r.returncode == 0 and list(p.get("geometries", {})) == ["d4kx2"] and
          list(p.get("refused", {})) == ["d16kx4"], text[-600:])
    check("... and the plan records LEON3_QEMU for its jobs", p.get("qemu") == wrapper,
          str(p.get("qemu")))


if __name__ == "__main__":
    main()
