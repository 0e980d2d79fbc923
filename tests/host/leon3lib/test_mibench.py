# SPDX-License-Identifier: GPL-2.0
"""leon3lib.mibench and leon3lib.machines: the programs list, a runme
script's commands, a built program's copy whose input is missing, the
paper's machine and the check of the caches a guest describes."""

import os
import shutil
import tempfile
import unittest

import libpath  # noqa: F401
from leon3lib import jobs, machines, mibench


class MiBench(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_programs(self):
        """the thirteen programs; CRC32 reads adpcm's data"""
        progs = {p.name: p for p in mibench.programs()}
        self.assertEqual(len(progs), 13)
        self.assertEqual(progs["CRC32"].needs, ["telecomm/adpcm/data"])
        self.assertEqual(progs["adpcm"].binaries, ["bin/rawcaudio", "bin/rawdaudio"])
        self.assertIsNone(progs["qsort"].filter)

    def test_runme(self):
        """runme lines: ./ before a program named without a path; comments left out"""
        path = os.path.join(self.tmp, "runme_small.sh")
        with open(path, "w") as f:
            f.write("#!/bin/sh\n\nqsort_small input_small.dat > output_small.txt\n"
                    "  ../bin/x -d  \ncrc\n")
        self.assertEqual(mibench.runme(path), [
            ("./qsort_small", "input_small.dat > output_small.txt"), ("../bin/x", "-d"),
            ("./crc", "")])

    def test_built_and_copy(self):
        """a built program's copy; its input missing fails that copy, naming the input"""
        out = os.path.join(self.tmp, "out")
        os.makedirs(os.path.join(out, "tree", "telecomm", "CRC32"))
        os.makedirs(os.path.join(out, "tree", "automotive", "qsort"))
        with open(os.path.join(out, "build.tsv"), "w") as f:
            f.write("qsort\tbuilt\t\nCRC32\tbuilt\t\nsha\tskipped\tmake failed: x\n")
        built = {p.name: p for p in mibench.built(out)}
        self.assertEqual(sorted(built), ["CRC32", "qsort"])
        top = os.path.join(self.tmp, "copy")
        mibench.copy_program(built["qsort"], out, top)
        self.assertTrue(os.path.isdir(os.path.join(top, "automotive", "qsort")))
        value, why = jobs.attempt(mibench.copy_program, built["CRC32"], out, top)
        self.assertEqual(why, "its input telecomm/adpcm/data is missing "
                         f"({out}/tree/telecomm/adpcm/data)")
        self.assertRaises(SystemExit, mibench.build_table, self.tmp + "/nosuch")

    def test_paper(self):
        """the paper's machine: its caches as QEMU properties, 75 MHz"""
        props, clock = machines.machine_props("paper")
        self.assertEqual(clock, 75e6)
        self.assertNotIn("clock", props)
        self.assertEqual((props["dcache-ways"], props["dcache-way-kib"], props["icache-line"]),
                         ("2", "2", "32"))
        opts = machines.qemu_opts(props)
        self.assertEqual(opts[:2], ["-global", "LEON3-sparc-cpu.icache-ways=2"])
        self.assertEqual(len(opts), 2 * len(props))
        self.assertRaises(SystemExit, machines.machine_props, "nosuch")

    def test_cacheinfo(self):
        """the guest's cacheinfo: the machine's caches, or what differs"""
        props, _ = machines.machine_props("paper")
        good = "cache Data 4K 2 16\ncache Instruction 8K 2 32\n"
        self.assertEqual(machines.cacheinfo_mismatch(props, good), "")
        self.assertEqual(machines.cacheinfo_mismatch(props, "cache Data 8K 2 16\n"
                                                     "cache Instruction 8K 2 32\n"),
                         "the guest's dcache is 8K, 2 ways, 16-byte lines, not 4K, 2 ways, "
                         "16-byte lines")
        self.assertEqual(machines.cacheinfo_mismatch(props, "cache Data 4K 2 16\n"),
                         "the guest's icache is not in its cacheinfo")


if __name__ == "__main__":
    unittest.main()
