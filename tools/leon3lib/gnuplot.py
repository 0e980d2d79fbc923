# SPDX-License-Identifier: GPL-2.0
"""The tools' plots: a gnuplot script run as it is.  A plot that fails
is said, and costs nothing else: the tables and CSVs are already
written."""

import subprocess


def plot(script, msgs):
    """Run gnuplot on SCRIPT (its text); False, and a line through MSGS
    (a Messages) with the end of gnuplot's complaint, if it failed."""
    try:
        r = subprocess.run(["gnuplot"], input=script, capture_output=True, text=True)
    except OSError as e:
        msgs.warn(f"gnuplot failed: {e.strerror} (Debian's gnuplot-nox; make deps installs it)")
        return False
    if r.returncode:
        msgs.warn(f"gnuplot failed: {' '.join(r.stderr.split())[-300:]}")
        return False
    return True
