# SPDX-License-Identifier: GPL-2.0
"""leon3lib.gnuplot: a plot that works, and one that fails and is said."""

import os
import shutil
import tempfile
import unittest

import libpath  # noqa: F401
from leon3lib import gnuplot


class Said:
    def __init__(self):
        self.lines = []

    def warn(self, msg):
        self.lines.append(msg)


class Gnuplot(unittest.TestCase):
    def setUp(self):
        if not shutil.which("gnuplot"):
            self.skipTest("no gnuplot on the host (make deps installs it)")
        self.tmp = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_plot(self):
        """a script that works: True, a PNG, nothing said"""
        png, said = os.path.join(self.tmp, "x.png"), Said()
        self.assertTrue(gnuplot.plot(f"set terminal pngcairo\nset output '{png}'\nplot x\n", said))
        self.assertEqual(open(png, "rb").read(8), b"\x89PNG\r\n\x1a\n")
        self.assertEqual(said.lines, [])

    def test_failure(self):
        """a script gnuplot refuses: False, and one line with gnuplot's words"""
        said = Said()
        self.assertFalse(gnuplot.plot("plot nosuchfunction(x)\n", said))
        self.assertEqual(len(said.lines), 1)
        self.assertRegex(said.lines[0], r"^gnuplot failed: .*undefined function")
        self.assertNotIn("\n", said.lines[0])


if __name__ == "__main__":
    unittest.main()
