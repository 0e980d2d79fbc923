# SPDX-License-Identifier: GPL-2.0
"""leon3lib.perfstat: perf stat -x lines as perf 6.x prints them."""

import unittest

import libpath  # noqa: F401
from leon3lib import perfstat

# perf stat -x, -e cycles:u,instructions:u,...: what the guest's perf
# printed for a run, plus the lines around it that are not counts
OUTPUT = """# started on Thu Jan  1 00:00:05 1970

11229835,,cycles:u,41230000,100.00,,
8765432,,instructions:u,41230000,100.00,0.78,insn per cycle
<not counted>,,L1-dcache-loads:u,0,0.00,,
<not supported>,,L1-dcache-store-misses:u,0,100.00,,
2468013,,L1-dcache-load-misses:u,20615000,49.87,,
0,,leon3_pmu/fp_instructions/u,41230000,100.00,,
12.34,msec,task-clock:u,12340000,100.00,0.987,CPUs utilized
"""


class PerfStat(unittest.TestCase):
    def setUp(self):
        self.counts = {c.event: c for c in perfstat.parse(OUTPUT)}

    def test_lines(self):
        """every count line, in order; a comment and a blank line are none"""
        self.assertEqual([c.event for c in perfstat.parse(OUTPUT)],
                         ["cycles:u", "instructions:u", "L1-dcache-loads:u",
                          "L1-dcache-store-misses:u", "L1-dcache-load-misses:u",
                          "leon3_pmu/fp_instructions/u", "task-clock:u"])

    def test_counted(self):
        """a count: its value, run time and percentage"""
        c = self.counts["cycles:u"]
        self.assertEqual((c.value, c.unit, c.runtime, c.percent), (11229835, "", 41230000, 100.0))
        self.assertIsInstance(c.value, int)
        self.assertTrue(c.counted)
        self.assertFalse(c.multiplexed)
        self.assertEqual(self.counts["leon3_pmu/fp_instructions/u"].value, 0)
        self.assertTrue(self.counts["leon3_pmu/fp_instructions/u"].counted)

    def test_not_counted(self):
        """<not counted>: no value, and never on the PMU (0 %)"""
        c = self.counts["L1-dcache-loads:u"]
        self.assertEqual((c.value, c.text, c.counted), (None, "<not counted>", False))
        self.assertTrue(c.multiplexed)

    def test_not_supported(self):
        """<not supported>: no value, said as perf said it"""
        c = self.counts["L1-dcache-store-misses:u"]
        self.assertEqual((c.value, c.text, c.counted), (None, "<not supported>", False))

    def test_multiplexed(self):
        """a count taken 49.87 % of the time is multiplexed"""
        c = self.counts["L1-dcache-load-misses:u"]
        self.assertEqual((c.value, c.percent), (2468013, 49.87))
        self.assertTrue(c.multiplexed)
        self.assertFalse(perfstat.parse_line("5,,cycles,10,100.00,,").multiplexed)
        self.assertTrue(perfstat.parse_line("5,,cycles,10,99.98,,").multiplexed)

    def test_float_and_metric(self):
        """task-clock: a float in msec, the metric fields after it ignored"""
        c = self.counts["task-clock:u"]
        self.assertEqual((c.value, c.unit, c.runtime, c.percent), (12.34, "msec", 12340000, 100.0))

    def test_not_a_count(self):
        """what is not a count line gives None"""
        for line in ("", "# started on", "Performance counter stats for 'true':",
                     "abc,,cycles,1,100.00", "<garbage>,,cycles,1,100.00", ",,cycles,1,100.00",
                     "1,,", "1,,cycles,x,100.00"):
            self.assertIsNone(perfstat.parse_line(line), line)

    def test_separator(self):
        """-x ';': the same fields"""
        c = perfstat.parse_line("7;;cpu/event=0x3c,umask=0x0/u;100;50.00", sep=";")
        self.assertEqual((c.value, c.event, c.percent), (7, "cpu/event=0x3c,umask=0x0/u", 50.0))

    def test_without_runtime(self):
        """a line with value, unit and event alone: no run time, no percentage"""
        c = perfstat.parse_line("42,,cycles")
        self.assertEqual((c.value, c.runtime, c.percent, c.multiplexed), (42, None, None, False))

    def test_user_only(self):
        """user_only() and base_event() undo each other"""
        for event, user in (("cycles", "cycles:u"),
                            ("leon3_pmu/fp_instructions/", "leon3_pmu/fp_instructions/u"),
                            ("L1-dcache-load-misses", "L1-dcache-load-misses:u")):
            self.assertEqual(perfstat.user_only(event), user)
            self.assertEqual(perfstat.base_event(user), event)


if __name__ == "__main__":
    unittest.main()
