# SPDX-License-Identifier: GPL-2.0
"""leon3lib.trace: the record types as Documentation/pmu-registers.md
lists them, and the expansion of compressed records built by hand."""

import struct
import unittest

import libpath  # noqa: F401
from leon3lib import trace


def rec(kind, a=0, b=0, c=0, time=0, cpu=0):
    """The four words of a record of type KIND (a name)"""
    return (trace.NUMBERS[kind] << 28 | cpu << 24 | a, b, c, time)


def dump(*recs):
    return [f"rec {w0:08x} {w1:08x} {w2:08x} {w3:08x}" for w0, w1, w2, w3 in recs]


class Trace(unittest.TestCase):
    def test_types(self):
        """the document's eight record types of the unit, 1 to 8, and the
        driver's SYNC"""
        self.assertEqual(trace.TYPES, {1: "TAG", 2: "REPEAT", 3: "START", 4: "PID",
                                       5: "OVERFLOW", 6: "LOST", 7: "STOP", 8: "TIME",
                                       9: "SYNC", 10: "BRANCH", 11: "TARGET", 12: "FLOW"})

    def test_parse(self):
        """the fields of each word; big-endian bytes as the unit writes them"""
        words = rec("TAG", 0x200001, 1000, 0x10594, 77, cpu=3)
        r = trace.parse(words)
        self.assertEqual(r, trace.Record("TAG", 3, 0x200001, 1000, 0x10594, 77))
        self.assertEqual(trace.from_bytes(struct.pack(">IIII", *words) + b"\0" * 7), [r])
        self.assertEqual(trace.from_dump(dump(words) + ["head 16 tail 0"]), [r])
        self.assertEqual(trace.parse((0xd << 28, 0, 0, 0)).type, "type-13")

    def test_perf_dump(self):
        """the records of perf report -D's lines, not its other hex dumps"""
        lines = [". ... LEON3 trace data: size 0x20 bytes",
                 ".  00000000:  30000000 0000002d 00000000 0016102f  cpu 0  START pid 45 clock cycles  time 0x16102f",
                 ".  0000:  09 00 00 00 01 00 38 00 08 40 01 00 00 00 00 00  ..........",
                 ".  00000010:  102000011 00000001 00010594 00161030  cpu 0  junk",
                 ".  00000010:  10200001 000003e8 00010594 00161031  cpu 0  TAG loop-latch 1 x1000"]
        self.assertEqual(trace.from_perf_dump(lines),
                         [trace.Record("START", 0, 0, 0x2d, 0, 0x16102f),
                          trace.Record("TAG", 0, 0x200001, 1000, 0x10594, 0x161031)])

    def test_perf_data(self):
        """the AUX data of a perf.data, in either byte order: the
        records of each PERF_RECORD_AUXTRACE event in the data section,
        other events skipped; a file that is not one, or is cut short,
        refused"""
        import os
        import tempfile
        words = [rec("START", b=45, time=1), rec("TAG", 0x080001, 3, 0x10594, 2)]
        aux = b"".join(struct.pack(">IIII", *w) for w in words)
        for order in "<>":
            comm = struct.pack(order + "IHH", 3, 0, 16) + b"\0" * 8
            auxev = struct.pack(order + "IHHQQQIIII", 71, 0, 48, len(aux), 0, 0, 0, 1, 0, 0)
            body = comm + auxev + aux
            head = struct.pack(order + "QQQQQQQ", trace.PERF_MAGIC2, 104, 0, 0, 0, 104, len(body))
            data = head + b"\0" * (104 - len(head)) + body
            with tempfile.TemporaryDirectory() as tmp:
                path = os.path.join(tmp, "perf.data")
                with open(path, "wb") as f:
                    f.write(data)
                self.assertEqual(trace.from_perf_data(path), [trace.parse(w) for w in words])
                with open(path, "wb") as f:
                    f.write(data[:-1])
                with self.assertRaisesRegex(trace.NotPerfData, "cut short|past the file"):
                    trace.from_perf_data(path)
                with open(path, "wb") as f:
                    f.write(b"PERFFILE" + data[8:])
                with self.assertRaisesRegex(trace.NotPerfData, "no PERFILE2 magic"):
                    trace.from_perf_data(path)

    def test_runs_and_repeat(self):
        """a TAG record's run one event with its count; REPEAT the last
        p TAG records n times more, TIME records not among them; the
        driver's SYNC records are no event"""
        d = trace.runs(trace.from_dump(dump(
            rec("SYNC", b=0, c=123456, time=10),
            rec("START", b=5, c=0, time=10), rec("TAG", 1, 1, 0x100, 12),
            rec("TAG", 2, 2, 0x104, 13), rec("TAG", 3, 1, 0x108, 15),
            rec("TIME", c=1, time=2), rec("REPEAT", 2, 3, time=20),
            rec("TAG", 4, 1, 0x10c, 30), rec("STOP", time=31),
            rec("SYNC", b=0, c=234567, time=31))))
        tags = [(e.a, e.pc, e.n) for e in d.events if e.kind == "TAG"]
        self.assertEqual(tags, [(1, 0x100, 1), (2, 0x104, 2), (3, 0x108, 1)] +
                         [(2, 0x104, 2), (3, 0x108, 1)] * 3 + [(4, 0x10c, 1)])
        self.assertEqual((d.records, d.tags, d.errors), (10, 14, []))
        self.assertEqual([e.kind for e in d.events if e.kind != "TAG"], ["START", "STOP"])
        self.assertEqual(trace.tag_counts(d.events), {0x100: 1, 0x104: 8, 0x108: 4, 0x10c: 1})

    def test_time(self):
        """the clock's high word from START, LOST and TIME; a repeated
        tag has no time, a run its first tag's"""
        d = trace.runs(trace.from_dump(dump(
            rec("TAG", 1, 1, 0x100, 5),                      # before any high word
            rec("START", b=1, c=2, time=0xfffffff0), rec("TAG", 1, 1, 0x100, 0xfffffff8),
            rec("TIME", c=3, time=4), rec("TAG", 2, 3, 0x104, 4), rec("REPEAT", 2, 1, time=9))))
        times = [(e.time, e.n) for e in d.events]
        self.assertEqual(times, [(None, 1), (2 << 32 | 0xfffffff0, 1), (2 << 32 | 0xfffffff8, 1),
                                 (3 << 32 | 4, 3), (None, 1), (None, 3)])

    def test_errors(self):
        """a REPEAT without its records is an error, not a guess; an event
        record ends the records a REPEAT may refer to; zeroes are no record"""
        d = trace.runs(trace.from_dump(dump(
            rec("TAG", 1, 1, 0x100), rec("PID", b=7), rec("REPEAT", 1, 5), (0, 0, 0, 0))))
        self.assertEqual(len(d.errors), 1)
        self.assertIn("REPEAT of 1 records after 0 TAG records", d.errors[0])
        self.assertEqual([(e.kind, e.b) for e in d.events], [("TAG", 0), ("PID", 7)])
        self.assertEqual(d.records, 3)


if __name__ == "__main__":
    unittest.main()
