#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# tests/run: one-core
"""tools/sweep/leon3-sweep in a tree where nothing is built yet (a
fresh clone before make): plan says which stage is missing, in one
line, and exits with status 1; never a traceback."""

import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lib import TOP, check  # noqa: E402


def main():
    T = tempfile.mkdtemp()
    try:
        # The tools alone, as a fresh clone has them: no build/
        shutil.copytree(os.path.join(TOP, "tools"), os.path.join(T, "tools"),
                        ignore=shutil.ignore_patterns("__pycache__"))
        r = subprocess.run([os.path.join(T, "tools/sweep/leon3-sweep"), "plan",
                            "--out", os.path.join(T, "out"), "--workload", "loop"],
                           capture_output=True, text=True)
        err = r.stderr.strip()
        check("plan without a toolchain exits with status 1", r.returncode == 1,
              f"status {r.returncode}")
        check("and says so in one line, naming the compiler and the make target",
              err.count("\n") == 0 and "no LEON3 compiler at build/toolchain/bin/" in err
              and "make" in err, repr(err[:300]))
        check("no traceback", "Traceback" not in r.stderr + r.stdout)
    finally:
        shutil.rmtree(T)


main()
