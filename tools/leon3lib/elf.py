# SPDX-License-Identifier: GPL-2.0
"""ELF files: the header and the program headers read here (32 or 64
bit, either byte order), for the machine, the text segment, the
interpreter and the libraries a program needs; its functions from nm.

Reading the headers here, not through readelf, needs no binutils for
the machine: the host's tools and tests can read a SPARC binary."""

import os
import struct
import subprocess
from typing import NamedTuple

EM_SPARC, EM_SPARC32PLUS = 2, 18
PT_LOAD, PT_DYNAMIC, PT_INTERP = 1, 2, 3
PF_X = 1
SHT_NOBITS = 8
DT_NULL, DT_NEEDED, DT_STRTAB = 0, 1, 5
NM = "sparc64-linux-gnu-nm"


class NotElf(ValueError):
    """A file that is not an ELF file these helpers can read, and why."""


class Segment(NamedTuple):
    type: int
    offset: int
    vaddr: int
    filesz: int
    memsz: int
    flags: int


class Elf:
    """An ELF file's header and program headers."""

    def __init__(self, path):
        self.path = path
        try:
            with open(path, "rb") as f:
                self.data = f.read()
        except OSError as e:
            raise NotElf(f"{path}: {e.strerror}") from None
        d = self.data
        if d[:4] != b"\x7fELF":
            raise NotElf(f"{path}: not an ELF file")
        if len(d) < 52 or d[4] not in (1, 2) or d[5] not in (1, 2):
            raise NotElf(f"{path}: an ELF header this reader does not know")
        self.bits = 32 if d[4] == 1 else 64
        self.order = "<" if d[5] == 1 else ">"
        self.machine = self._unpack("H", 18)[0]
        self._sections = None
        if self.bits == 32:
            phoff, = self._unpack("I", 28)
            phentsize, phnum = self._unpack("HH", 42)
            fmt = "IIIIIIII"        # type offset vaddr paddr filesz memsz flags align
        else:
            phoff, = self._unpack("Q", 32)
            phentsize, phnum = self._unpack("HH", 54)
            fmt = "IIQQQQQQ"        # type flags offset vaddr paddr filesz memsz align
        self.segments = []
        for i in range(phnum):
            v = self._unpack(fmt, phoff + i * phentsize)
            if self.bits == 32:
                self.segments.append(Segment(v[0], v[1], v[2], v[4], v[5], v[6]))
            else:
                self.segments.append(Segment(v[0], v[2], v[3], v[5], v[6], v[1]))

    def _unpack(self, fmt, offset):
        fmt = self.order + fmt
        if offset + struct.calcsize(fmt) > len(self.data):
            raise NotElf(f"{self.path}: truncated (its headers run past its end)")
        return struct.unpack_from(fmt, self.data, offset)

    def text_segment(self):
        """The first executable PT_LOAD segment (NotElf if none)."""
        for s in self.segments:
            if s.type == PT_LOAD and s.flags & PF_X:
                return s
        raise NotElf(f"{self.path}: no executable segment")

    def interpreter(self):
        """The program interpreter's path (PT_INTERP), or None."""
        for s in self.segments:
            if s.type == PT_INTERP:
                return self.data[s.offset:s.offset + s.filesz].split(b"\0")[0].decode()
        return None

    def needed(self):
        """The shared libraries it names (DT_NEEDED), in order; [] if static."""
        dyn = next((s for s in self.segments if s.type == PT_DYNAMIC), None)
        if dyn is None:
            return []
        fmt = "iI" if self.bits == 32 else "qQ"
        size = struct.calcsize(fmt)
        tags = []
        for off in range(dyn.offset, dyn.offset + dyn.filesz - size + 1, size):
            tag, val = self._unpack(fmt, off)
            if tag == DT_NULL:
                break
            tags.append((tag, val))
        strtab = next((v for t, v in tags if t == DT_STRTAB), None)
        if strtab is None:
            return []
        base = self.file_offset(strtab)
        return [self.data[base + v:self.data.index(b"\0", base + v)].decode()
                for t, v in tags if t == DT_NEEDED]

    def sections(self):
        """{name: (offset, size)} of its sections that have contents in the
        file (not SHT_NOBITS), read from the section headers once."""
        if self._sections is None:
            self._sections = self._read_sections()
        return self._sections

    def _read_sections(self):
        if self.bits == 32:
            shoff, = self._unpack("I", 32)
            shentsize, shnum, shstrndx = self._unpack("HHH", 46)
            fmt = "IIIIIIIIII"      # name type flags addr offset size link info align entsize
        else:
            shoff, = self._unpack("Q", 40)
            shentsize, shnum, shstrndx = self._unpack("HHH", 58)
            fmt = "IIQQQQIIQQ"
        if not shoff or shstrndx >= shnum:
            return {}
        heads = [self._unpack(fmt, shoff + i * shentsize) for i in range(shnum)]
        names = heads[shstrndx][4]
        out = {}
        for h in heads:
            if h[1] != SHT_NOBITS:
                end = self.data.find(b"\0", names + h[0])
                out[self.data[names + h[0]:end].decode(errors="replace")] = (h[4], h[5])
        return out

    def section(self, name):
        """The contents of section NAME (None if it has none)."""
        s = self.sections().get(name)
        if s is None:
            return None
        if s[0] + s[1] > len(self.data):
            raise NotElf(f"{self.path}: section {name} runs past the file's end")
        return self.data[s[0]:s[0] + s[1]]

    def file_offset(self, vaddr):
        """Where the address VADDR of a loaded segment is in the file."""
        for s in self.segments:
            if s.type == PT_LOAD and s.vaddr <= vaddr < s.vaddr + s.filesz:
                return s.offset + vaddr - s.vaddr
        raise NotElf(f"{self.path}: address {vaddr:#x} is in no loaded segment")


def is_elf(path):
    try:
        with open(path, "rb") as f:
            return f.read(4) == b"\x7fELF"
    except OSError:
        return False


class MissingLibrary(LookupError):
    """A shared object a program needs that is nowhere to be found."""

    def __init__(self, binary, path):
        super().__init__(f"{binary} needs {path}, which is not in the toolchain's sysroot")
        self.path = path


def libraries(binary, sysroot, given=None):
    """{guest path: host path} of the shared objects BINARY loads: its
    interpreter and DT_NEEDED, theirs too, each looked up in the
    interpreter's directory and its usr/ twin (/lib and /usr/lib, or
    /lib/soft and /usr/lib/soft for the toolchain's soft-float
    multilib, whose programs name /lib/soft/ld-linux.so.2); from GIVEN
    ({guest path: host path}) first, else under SYSROOT, which holds
    them at their guest paths.  {} for a static program.  NotElf for a
    file that is not ELF, MissingLibrary for a library in neither."""
    given = given or {}
    todo = [Elf(binary)]
    interp = todo[0].interpreter()
    if interp is None:
        return {}
    libdir = interp.rsplit("/", 1)[0] or "/"
    dirs = (libdir, "/usr" + libdir)
    libs = {}
    while todo:
        e = todo.pop()
        want = [e.interpreter()] + [f"{libdir}/{n}" for n in e.needed()]
        for path in want:
            if path is None or path in libs:
                continue
            name = path.rsplit("/", 1)[-1]
            host = given.get(path) or next(
                (h for h in (sysroot + d + "/" + name for d in dirs) if os.path.isfile(h)),
                None)
            if not host:
                raise MissingLibrary(binary, path)
            libs[path] = os.path.realpath(host)
            todo.append(Elf(libs[path]))
    return libs


def why_not_sparc32(path):
    """'' if PATH is a 32-bit big-endian SPARC ELF file, else why not."""
    try:
        with open(path, "rb") as f:
            head = f.read(20)
    except OSError:
        return "missing"
    if head[:4] != b"\x7fELF":
        return "not an ELF file"
    if len(head) < 20:
        return "a truncated ELF file"
    machine = struct.unpack(">H", head[18:20])[0]
    if head[4] != 1 or head[5] != 2 or machine not in (EM_SPARC, EM_SPARC32PLUS):
        return "an ELF file for another machine"
    return ""


def functions(path, nm=NM):
    """{name: (address, size)} of the functions of PATH: nm's text
    symbols (T, t, W, w) with a size, the first of each name."""
    out = subprocess.run([nm, "-S", path], capture_output=True, text=True, check=True).stdout
    funcs = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) == 4 and f[2] in "TtWw":
            funcs.setdefault(f[3], (int(f[0], 16), int(f[1], 16)))
    return funcs
