# SPDX-License-Identifier: GPL-2.0
"""The LEON3 trace unit's records (Documentation/pmu-registers.md, "Trace
unit"): their types, read from that document's record table (the one
place they are written, which tests/host/register-map.t holds the
QEMU model and the bare-metal tests to), and a decoder that expands the
compressed records back into what the program ran."""

import os
import re
import struct
from typing import NamedTuple, Optional

DOC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                   "Documentation", "pmu-registers.md")
RECORD_SIZE = 16


def record_types(path=DOC):
    """{type number: NAME} of the document's record table"""
    with open(path) as f:
        return {int(t): n for t, n in re.findall(r"^\| (\d+) \| ([A-Z]+) \| ", f.read(), re.M)}


TYPES = record_types()
NUMBERS = {n: t for t, n in TYPES.items()}


class Record(NamedTuple):
    type: str           # TAG, REPEAT, START, ... ("type-N" if unknown)
    cpu: int
    a: int
    b: int
    c: int
    time_lo: int


def parse(words):
    """A Record of the four words of a record"""
    w0, b, c, t = words
    n = w0 >> 28
    return Record(TYPES.get(n, f"type-{n}"), (w0 >> 24) & 0xf, w0 & 0x3fffff, b, c, t)


def from_bytes(data):
    """The Records of raw trace data (big-endian, as the unit writes it)"""
    return [parse(struct.unpack_from(">IIII", data, off))
            for off in range(0, len(data) - len(data) % RECORD_SIZE, RECORD_SIZE)]


def from_dump(lines):
    """The Records of `rec W0 W1 W2 W3` lines (tests/pmu/trace-aux.c)"""
    out = []
    for line in lines:
        f = line.split()
        if len(f) == 5 and f[0] == "rec":
            out.append(parse([int(x, 16) for x in f[1:]]))
    return out


# A record in `perf report -D` (perf's leon3-trace decoder): offset, words
PERF_DUMP_LINE = re.compile(r"^\.  [0-9a-f]{8}:  ([0-9a-f]{8}) ([0-9a-f]{8}) ([0-9a-f]{8}) "
                            r"([0-9a-f]{8})  cpu ")


def from_perf_dump(lines):
    """The Records of `perf report -D` output, in its order"""
    return [parse([int(x, 16) for x in m.groups()])
            for m in (PERF_DUMP_LINE.match(line) for line in lines) if m]


PERF_MAGIC2 = 0x32454c4946524550     # "PERFILE2", read in the file's byte order
PERF_RECORD_AUXTRACE = 71


class NotPerfData(Exception):
    pass


def from_perf_data(path):
    """The Records of the AUX data of a perf.data (perf record -e
    leon3_trace//), in the file's order, read directly: the file
    header's data section, and in it each PERF_RECORD_AUXTRACE event
    with the trace data after it (tools/perf/util/header.h, event.h).
    NotPerfData if it is not one, or is cut short."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 104:
        raise NotPerfData(f"{path}: too short for a perf.data header")
    for order in "<>":
        if struct.unpack_from(order + "Q", data)[0] == PERF_MAGIC2:
            break
    else:
        raise NotPerfData(f"{path}: not a perf.data (no PERFILE2 magic)")
    # magic, size, attr_size, attrs {offset, size}, data {offset, size}
    off, size = struct.unpack_from(order + "QQ", data, 40)
    end = off + size
    if end > len(data):
        raise NotPerfData(f"{path}: its data section ends past the file")
    out = []
    while off + 8 <= end:
        etype, _, esize = struct.unpack_from(order + "IHH", data, off)
        if esize < 8:
            raise NotPerfData(f"{path}: an event of {esize} bytes at {off}")
        if etype == PERF_RECORD_AUXTRACE:
            nbytes = struct.unpack_from(order + "Q", data, off + 8)[0]
            start = off + esize
            if start + nbytes > len(data):
                raise NotPerfData(f"{path}: trace data cut short at {start}")
            out += from_bytes(data[start:start + nbytes])
            off = start + nbytes
        else:
            off += esize
    return out


class Event(NamedTuple):
    """One thing the unit saw: a tag that ran (kind TAG, imm22 a, pc) or an
    event record (its type, with its fields a and b).  time: the unit's
    clock, None for the tags a REPEAT record stands for (and before the
    first record with the clock's high word); a run's time is its first
    tag's.  n: the times the tag ran in a row (1 for event records)."""
    kind: str
    cpu: int
    a: int
    b: int
    pc: int
    time: Optional[int]
    n: int = 1


class Decoded(NamedTuple):
    events: list        # Event: a run of a tag once
    records: int        # records read
    tags: int           # tags they stand for
    errors: list        # what could not be decoded, one line each


def runs(records):
    """The Events the Records stand for, in order: each TAG record's run
    as one Event with its count n, each REPEAT's TAG records again; event
    records as they are (type 0, a zeroed buffer's, ends nothing: it is
    skipped, as are TIME records and the driver's SYNC records).  A trace's size in Events is then its records' (and its
    REPEATs'), not its tags': what leon3-trace reads."""
    events, errors = [], []
    hi = None           # the clock's high word, once a record gave it
    tag_recs = []       # the TAG records since the last other record
    ntags = nrecs = 0
    for r in records:
        if r.type == "type-0":
            continue
        nrecs += 1
        if r.type in ("START", "LOST", "TIME"):
            hi = r.c
        time = None if hi is None else hi << 32 | r.time_lo
        if r.type == "TAG":
            tag_recs.append(r)
            if r.b:
                events.append(Event("TAG", r.cpu, r.a, 0, r.c, time, r.b))
            ntags += r.b
        elif r.type == "REPEAT":
            p, n = r.a, r.b
            if p < 1 or p > len(tag_recs):
                errors.append(f"REPEAT of {p} records after {len(tag_recs)} TAG records")
                continue
            again = [Event("TAG", t.cpu, t.a, 0, t.c, None, t.b) for t in tag_recs[-p:] if t.b]
            events += again * n
            ntags += n * sum(t.b for t in tag_recs[-p:])
        elif r.type in ("TIME", "SYNC"):
            continue
        else:
            tag_recs = []
            events.append(Event(r.type, r.cpu, r.a, r.b, 0, time))
    return Decoded(events, nrecs, ntags, errors)


def tag_counts(events):
    """{pc: times the tag there ran}"""
    counts = {}
    for e in events:
        if e.kind == "TAG":
            counts[e.pc] = counts.get(e.pc, 0) + e.n
    return counts
