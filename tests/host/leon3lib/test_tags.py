# SPDX-License-Identifier: GPL-2.0
"""leon3lib.tags: the encoding as tools/tags/leon3_tags.h writes it, and
the records of an ELF file built by hand."""

import os
import struct
import tempfile
import unittest

import libpath  # noqa: F401
from leon3lib import elf, tags


def elf32_with(sections, order=">"):
    """An ELF32 SPARC file with no segments and the given {name: bytes}
    sections (plus the null section and .shstrtab)."""
    names = b"\0" + b"".join(n.encode() + b"\0" for n in sections) + b".shstrtab\0"
    body, heads, off = b"", [b"\0" * 40], 52
    for n, data in list(sections.items()) + [(".shstrtab", names)]:
        heads.append(struct.pack(order + "IIIIIIIIII", names.index(n.encode() + b"\0"),
                                 1, 0, 0, off + len(body), len(data), 0, 0, 1, 0))
        body += data
    shoff = 52 + len(body)
    head = b"\x7fELF" + bytes([1, 2 if order == ">" else 1, 1]) + b"\0" * 9 + \
        struct.pack(order + "HHIIIIIHHHHHH", 2, elf.EM_SPARC, 1, 0, 0, shoff, 0, 52, 32, 0,
                    40, len(heads), len(heads) - 1)
    return head + body + b"".join(heads)


class Tags(unittest.TestCase):
    def test_header(self):
        """the five kinds 1-5, the 24-byte record, the kind above 19 id bits"""
        self.assertEqual(tags.KIND_NAMES, {1: "func-entry", 2: "func-exit", 3: "loop-entry",
                                           4: "loop-latch", 5: "loop-exit"})
        self.assertEqual(tags.H["RECORD_SIZE"], 24)
        self.assertEqual(tags.H["KIND_SHIFT"], tags.H["ID_BITS"])

    def test_is_tag(self):
        """sethi of a tag kind into %g0 only: not the nop, not kind 0, 6 or 7, not another register"""
        self.assertTrue(tags.is_tag(0x01180002))
        self.assertEqual(tags.decode(0x01180002), ("loop-entry", 2))
        self.assertEqual(tags.decode(0x012fffff), ("loop-exit", 0x7ffff))
        for word in (0x01000000, 0x01000005, 0x01300000, 0x013fffff, 0x03180002, 0x81c3e008):
            self.assertFalse(tags.is_tag(word), hex(word))

    def test_records(self):
        """a record's fields and names; a section not of whole records is an error"""
        strs = b"grid\0a.c\0"
        rec = struct.pack(">IIIHHII", 0x10594, 0x01180001, 17, 1, 0, 0, 5)
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "f")
            with open(path, "wb") as f:
                f.write(elf32_with({".leon3_tags": rec, ".leon3_tagstr": strs}))
            self.assertEqual(tags.records(path),
                             [tags.Tag(0x10594, 0x01180001, "loop-entry", 1, 17, 1, "grid", "a.c")])
            with open(path, "wb") as f:
                f.write(elf32_with({".leon3_tags": rec[:20], ".leon3_tagstr": strs}))
            with self.assertRaisesRegex(elf.NotElf, "not whole records"):
                tags.records(path)
            with open(path, "wb") as f:
                f.write(elf32_with({".text": b"\1\0\0\0"}))
            self.assertEqual(tags.records(path), [])


if __name__ == "__main__":
    unittest.main()
