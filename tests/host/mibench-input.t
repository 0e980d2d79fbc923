#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# tests/run: one-core
"""make mibench's host half (tools/mibench/mibench build, reference,
table) when a program's input is missing: it costs that program alone,
with a one-line reason in the table's "Not in the table" list, and
every other program still has its reference; never a traceback.

Two ways an input goes missing, on copies of the project's stand-in
(tests/mibench/standin):

- the tree lacks telecomm/adpcm/data, which CRC32 reads, but has
  another directory named data (MiBench has several): CRC32 is skipped
  at the build, saying what it needs;
- the build's copy of a program's directory or of its input is gone by
  the time the reference runs (bitcount's, CRC32's data): each of those
  programs has no reference, and the reason says what is missing."""

import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lib import TOP, mibench_build_rows, check  # noqa: E402

MIBENCH = os.path.join(TOP, "tools/mibench/mibench")
STANDIN = os.path.join(TOP, "tests/mibench/standin")
BUILT = ("basicmath", "bitcount", "qsort", "stringsearch")


def run(*args):
    r = subprocess.run([MIBENCH, *args], capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


def said(lines, name, why):
    """Whether the reference step's line of program NAME gives WHY."""
    return any(re.fullmatch(rf"mibench: reference \d+/\d+ {name} \(small\): {re.escape(why)}", x)
               for x in lines)


def outputs(out, name):
    return os.path.exists(os.path.join(out, "ref-small", f"{name}.outputs"))


def main():
    T = tempfile.mkdtemp()
    try:
        # A tree without CRC32's data, with another program's "data"
        tree, out = os.path.join(T, "tree"), os.path.join(T, "out")
        shutil.copytree(STANDIN, tree)
        shutil.rmtree(os.path.join(tree, "telecomm/adpcm/data"))
        os.makedirs(os.path.join(tree, "consumer/typeset/data"))
        with open(os.path.join(tree, "consumer/typeset/data/fonts"), "w") as f:
            f.write("not CRC32's input\n")
        code, text = run("build", "--tree", tree, "--out", out)
        rows = mibench_build_rows(out) if os.path.exists(os.path.join(out, "build.tsv")) else {}
        check("build, a tree without telecomm/adpcm/data: exit 0, CRC32 skipped saying it "
              "needs it (another directory named data is not its)",
              code == 0 and rows.get("CRC32") ==
              ("skipped", "needs telecomm/adpcm/data, which is not in MIBENCH_DIR"),
              f"exit {code}: {rows.get('CRC32')} {text[-300:]}")
        check("build: every other program built as from the whole stand-in",
              all(rows.get(n, ("",))[0] == "built" for n in BUILT), str(rows))
        code, text = run("reference", "--out", out)
        check("reference: exit 0, a reference for each program built, no traceback",
              code == 0 and all(outputs(out, n) for n in BUILT) and "Traceback" not in text,
              f"exit {code}: {text[-600:]}")

        # Inputs lost between the build and the reference
        out = os.path.join(T, "out2")
        code, text = run("build", "--tree", STANDIN, "--out", out)
        check("build of the whole stand-in: CRC32 built", code == 0 and
              mibench_build_rows(out).get("CRC32", ("",))[0] == "built", text[-300:])
        shutil.rmtree(os.path.join(out, "tree/telecomm/adpcm/data"))
        shutil.rmtree(os.path.join(out, "tree/automotive/bitcount"))
        code, text = run("reference", "--out", out)
        lines = text.splitlines()
        crc = os.path.join(out, "ref-small/CRC32.failed")
        want = (f"its input telecomm/adpcm/data is missing "
                f"({out}/tree/telecomm/adpcm/data)")
        check("reference: exit 1 and no traceback, the programs after a failed one still run",
              code == 1 and "Traceback" not in text and
              all(outputs(out, n) for n in ("basicmath", "qsort", "stringsearch")), text[-600:])
        check("reference: CRC32's missing input is its one-line reason, said and kept in "
              "CRC32.failed", said(lines, "CRC32", want) and
              os.path.exists(crc) and open(crc).read() == want + "\n", text[-600:])
        check("reference: bitcount's missing directory is its reason",
              said(lines, "bitcount", "its directory automotive/bitcount is missing "
                   f"({out}/tree/automotive/bitcount)"), text[-600:])

        # The guest job of a program without a reference fails at once,
        # with the reason, before any guest boots
        code, text = run("job", "--out", out, "--name", "CRC32", "--cpus", "1")
        failed = os.path.join(out, "runs-small/CRC32.1.failed")
        why = (f"the reference of CRC32 (mibench reference) is missing "
               f"({out}/ref-small/CRC32.outputs)")
        check("job of a program without a reference: exit 1, FAILED with the reason in one "
              "line, no traceback", code == 1 and "Traceback" not in text and
              f"mibench: CRC32 on 1 CPU(s): FAILED: {why}" in text.splitlines() and
              os.path.exists(failed) and open(failed).read() == why + "\n",
              f"exit {code}: {text[-400:]}")

        code, text = run("table", "--out", out)
        notes = text.split("Not in the table:\n", 1)[-1].splitlines()
        check("table: CRC32 and bitcount each on one line of \"Not in the table\", with "
              "the reason; exit 1",
              code == 1 and f"  CRC32: no reference: {want}" in notes and
              any(x.startswith("  bitcount: no reference: its directory automotive/bitcount "
                               "is missing") for x in notes) and "Traceback" not in text,
              f"exit {code}: {text[-800:]}")
    finally:
        shutil.rmtree(T, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
