# SPDX-License-Identifier: GPL-2.0
"""Helpers for the Python test programs run by tests/run (the Python
twin of tests/lib.sh): the project's paths and the "ok"/"not ok" lines.

A test imports it with:
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    from lib import TOP, CC, RUN, ok, not_ok, check
"""

import os

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CC = os.path.join(TOP, "build/toolchain/bin/sparc-leon3-linux-gnu-gcc")
RUN = os.path.join(TOP, "tools/leon3-run")


def ok(desc):
    print(f"ok - {desc}")


def not_ok(desc):
    print(f"not ok - {desc}")


def check(desc, cond, why=""):
    if cond:
        ok(desc)
    else:
        not_ok(f"{desc}{': ' + why if why else ''}")
