# SPDX-License-Identifier: GPL-2.0
"""LEON3 control-flow tags (Documentation/tags.md): their encoding and
record layout, read from the tag plugin's own header
(tools/tags/leon3_tags.h, the one place they are written), and the
records of an ELF file's .leon3_tags section."""

import os
import re
import struct
from typing import NamedTuple

from . import elf

HEADER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tags", "leon3_tags.h")


def header(path=HEADER):
    """{NAME: value} of the header's LEON3_TAG_NAME defines that are an
    integer or a string (the expressions among them are not needed)."""
    out = {}
    with open(path) as f:
        for line in f:
            m = re.match(r'#define\s+LEON3_TAG_(\w+)\s+(0x[0-9a-fA-F]+|\d+|"[^"]*")u?(\s|$)', line)
            if m:
                v = m.group(2)
                out[m.group(1)] = v.strip('"') if v.startswith('"') else int(v, 0)
    return out


H = header()
KIND_NAMES = {H[k]: k.lower().replace("_", "-")
              for k in ("FUNC_ENTRY", "FUNC_EXIT", "LOOP_ENTRY", "LOOP_LATCH", "LOOP_EXIT")}


def is_tag(word):
    """Whether the instruction WORD is a tag: sethi of a non-zero
    immediate into %g0 whose kind is one of the header's."""
    imm = word & H["IMM_MASK"]
    return (word & ~H["IMM_MASK"] & 0xffffffff) == H["SETHI_G0"] and \
        (imm >> H["KIND_SHIFT"]) in KIND_NAMES


class Tag(NamedTuple):
    addr: int
    insn: int
    kind: str
    id: int
    line: int
    depth: int
    func: str
    file: str


def decode(word):
    """(kind name, id) of the tag instruction WORD"""
    imm = word & H["IMM_MASK"]
    kind = imm >> H["KIND_SHIFT"]
    return KIND_NAMES.get(kind, f"kind-{kind}"), imm & ((1 << H["KIND_SHIFT"]) - 1)


def records(path):
    """The Tags of the ELF file PATH's .leon3_tags section, in its order
    ([] if it has none); NotElf if the section is not whole."""
    f = elf.Elf(path)
    data, strs = f.section(H["SECTION"]), f.section(H["STR_SECTION"]) or b""
    if not data:
        return []
    size = H["RECORD_SIZE"]
    if len(data) % size:
        raise elf.NotElf(f"{path}: {H['SECTION']} is {len(data)} bytes, not whole records of {size}")

    def string(off):
        end = strs.find(b"\0", off)
        if off >= len(strs) or end < 0:
            raise elf.NotElf(f"{path}: a tag record's name at {off:#x} is outside {H['STR_SECTION']}")
        return strs[off:end].decode(errors="replace")

    out = []
    for off in range(0, len(data), size):
        addr, insn, line, depth, _, func, file = struct.unpack_from(f.order + "IIIHHII", data, off)
        kind, ident = decode(insn)
        out.append(Tag(addr, insn, kind, ident, line, depth, string(func), string(file)))
    return out
