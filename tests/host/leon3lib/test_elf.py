# SPDX-License-Identifier: GPL-2.0
"""leon3lib.elf on an ELF file made here byte by byte (32-bit big-endian
SPARC, as the guest's), on the host's own binaries against readelf, and
on what is not ELF."""

import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import unittest

import libpath  # noqa: F401
from leon3lib import elf

VADDR = 0x10000
INTERP = b"/lib/ld-linux.so.2\0"
STRTAB = b"\0libc.so.6\0libm.so.6\0"


def sparc_program(exec_flags=5, phnum=None, machine=2, interp=INTERP, strtab=STRTAB,
                  needed=(1, 11)):
    """A dynamic SPARC executable's headers and data, laid out as

      0x00  ELF header (52 bytes)
      0x34  3 program headers (32 bytes each): PT_INTERP, PT_LOAD, PT_DYNAMIC
      0x94  the interpreter's path (INTERP, 19 bytes)
      0xa7  the string table (STRTAB, 21 bytes): "", libc.so.6, libm.so.6
      0xbc  the dynamic section: NEEDED 1, NEEDED 11, STRTAB, NULL (32 bytes)

    (the offsets after 0x94 as the lengths of INTERP and STRTAB say; the
    dynamic section has a NEEDED for each offset into the string table
    of NEEDED).  The PT_LOAD segment maps the whole file at VADDR with
    EXEC_FLAGS (5: read and execute)."""
    interp_at = 0x94
    strtab_at = interp_at + len(interp)
    dyn_at = strtab_at + len(strtab)
    dynsize = 8 * (len(needed) + 2)
    size = dyn_at + dynsize
    dyn = b"".join(struct.pack(">2i", 1, n) for n in needed)
    dyn += struct.pack(">4i", 5, VADDR + strtab_at, 0, 0)
    phdrs = struct.pack(">8I", 3, interp_at, VADDR + interp_at, 0, len(interp), len(interp), 4, 1)
    phdrs += struct.pack(">8I", 1, 0, VADDR, 0, size, size, exec_flags, 0x10000)
    phdrs += struct.pack(">8I", 2, dyn_at, VADDR + dyn_at, 0, dynsize, dynsize, 6, 4)
    ident = b"\x7fELF" + bytes([1, 2, 1]) + bytes(9)
    header = ident + struct.pack(">HHIIIIIHHHHHH", 2, machine, 1, VADDR + 0x100, 0x34, 0, 0, 52, 32,
                                 3 if phnum is None else phnum, 40, 0, 0)
    data = header + phdrs + interp + strtab + dyn
    assert len(header) == 0x34 and len(data) == size
    return data


def static_sparc():
    """A static SPARC ELF file: the ELF header and one PT_LOAD."""
    ident = b"\x7fELF" + bytes([1, 2, 1]) + bytes(9)
    header = ident + struct.pack(">HHIIIIIHHHHHH", 2, 2, 1, VADDR, 0x34, 0, 0, 52, 32, 1, 40, 0, 0)
    return header + struct.pack(">8I", 1, 0, VADDR, 0, 0x54, 0x54, 5, 0x10000)


class Elf(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def write(self, name, data):
        path = os.path.join(self.tmp, name)
        with open(path, "wb") as f:
            f.write(data)
        return path

    def test_sparc_program(self):
        """the made SPARC program: 32-bit big-endian, its text, interpreter, libraries"""
        e = elf.Elf(self.write("prog", sparc_program()))
        self.assertEqual((e.bits, e.order, e.machine), (32, ">", elf.EM_SPARC))
        t = e.text_segment()
        self.assertEqual((t.offset, t.vaddr, t.filesz), (0, VADDR, 0xbc + 32))
        self.assertEqual(e.interpreter(), "/lib/ld-linux.so.2")
        self.assertEqual(e.needed(), ["libc.so.6", "libm.so.6"])
        self.assertEqual(elf.why_not_sparc32(e.path), "")
        self.assertTrue(elf.is_elf(e.path))

    def test_no_text(self):
        """a program with no executable segment: NotElf, saying so"""
        path = self.write("data", sparc_program(exec_flags=4))
        with self.assertRaisesRegex(elf.NotElf, "no executable segment"):
            elf.Elf(path).text_segment()

    def test_truncated(self):
        """program headers past the end of the file: NotElf"""
        path = self.write("short", sparc_program()[:0x60])
        with self.assertRaisesRegex(elf.NotElf, "truncated"):
            elf.Elf(path)
        self.assertEqual(elf.why_not_sparc32(self.write("tiny", b"\x7fELF\x01")),
                         "a truncated ELF file")

    def test_not_elf(self):
        """a text file, a missing file, another machine's ELF"""
        text = self.write("text", b"#!/bin/sh\necho hello\n")
        self.assertEqual(elf.why_not_sparc32(text), "not an ELF file")
        self.assertFalse(elf.is_elf(text))
        with self.assertRaisesRegex(elf.NotElf, "not an ELF file"):
            elf.Elf(text)
        missing = os.path.join(self.tmp, "nosuch")
        self.assertEqual(elf.why_not_sparc32(missing), "missing")
        self.assertRaises(elf.NotElf, elf.Elf, missing)
        self.assertEqual(elf.why_not_sparc32(os.path.realpath(sys.executable)),
                         "an ELF file for another machine")
        mips = self.write("mips", sparc_program(machine=8))     # EM_MIPS, 32-bit big-endian
        self.assertEqual(elf.why_not_sparc32(mips), "an ELF file for another machine")
        self.assertEqual(elf.why_not_sparc32(self.write("v8plus", sparc_program(machine=18))), "")

    def sysroot(self, files):
        """A sysroot under the scratch directory holding FILES ({path: data})."""
        root = os.path.join(self.tmp, "sysroot")
        for path, data in files.items():
            os.makedirs(os.path.dirname(root + path), exist_ok=True)
            with open(root + path, "wb") as f:
                f.write(data)
        return root

    def test_libraries(self):
        """a program's interpreter and libraries, theirs too, from /lib and /usr/lib"""
        root = self.sysroot({"/lib/ld-linux.so.2": static_sparc(),
                             "/lib/libc.so.6": static_sparc(),
                             "/usr/lib/libm.so.6": sparc_program(strtab=b"\0libdep.so\0",
                                                                 needed=(1,)),
                             "/usr/lib/libdep.so": static_sparc(),
                             "/lib/soft/libc.so.6": static_sparc()})
        prog = self.write("prog", sparc_program())
        self.assertEqual(elf.libraries(prog, root),
                         {p: root + h for p, h in (("/lib/ld-linux.so.2", "/lib/ld-linux.so.2"),
                                                   ("/lib/libc.so.6", "/lib/libc.so.6"),
                                                   ("/lib/libm.so.6", "/usr/lib/libm.so.6"),
                                                   ("/lib/libdep.so", "/usr/lib/libdep.so"))})
        self.assertEqual(elf.libraries(self.write("static", static_sparc()), root), {})
        given = self.write("mylibc", static_sparc())
        self.assertEqual(elf.libraries(prog, root, {"/lib/libc.so.6": given})["/lib/libc.so.6"],
                         given)

    def test_libraries_soft_float(self):
        """a soft-float program's libraries come from its loader's /lib/soft, not /lib"""
        soft = ("/lib/soft/ld-linux.so.2", "/lib/soft/libc.so.6", "/usr/lib/soft/libm.so.6")
        root = self.sysroot({p: static_sparc() for p in
                             soft + ("/lib/ld-linux.so.2", "/lib/libc.so.6", "/lib/libm.so.6")})
        prog = self.write("prog", sparc_program(interp=b"/lib/soft/ld-linux.so.2\0"))
        self.assertEqual(elf.libraries(prog, root),
                         {"/lib/soft/ld-linux.so.2": root + soft[0],
                          "/lib/soft/libc.so.6": root + soft[1],
                          "/lib/soft/libm.so.6": root + soft[2]})

    def test_libraries_missing(self):
        """a library in no directory of the sysroot: MissingLibrary, naming it"""
        root = self.sysroot({"/lib/ld-linux.so.2": static_sparc(),
                             "/lib/libc.so.6": static_sparc()})
        with self.assertRaises(elf.MissingLibrary) as e:
            elf.libraries(self.write("prog", sparc_program()), root)
        self.assertEqual(e.exception.path, "/lib/libm.so.6")
        self.assertIn("needs /lib/libm.so.6", str(e.exception))

    def test_host_binary_as_readelf(self):
        """the host's python: text segment, interpreter, libraries as readelf -ldW says"""
        binary = os.path.realpath(sys.executable)
        if not shutil.which("readelf"):
            self.skipTest("no readelf on the host (binutils)")
        out = subprocess.run(["readelf", "-ldW", binary], capture_output=True, text=True,
                             check=True).stdout
        load = next(f for f in (x.split() for x in out.splitlines())
                    if f and f[0] == "LOAD" and "E" in f[6:-1])
        e = elf.Elf(binary)
        t = e.text_segment()
        self.assertEqual((t.offset, t.vaddr, t.filesz),
                         (int(load[1], 16), int(load[2], 16), int(load[4], 16)))
        self.assertEqual(e.interpreter(),
                         (re.findall(r"program interpreter: (/[^\]]+)\]", out) or [None])[0])
        self.assertEqual(e.needed(),
                         re.findall(r"\(NEEDED\)\s+Shared library: \[([^]]+)\]", out))

    def test_functions(self):
        """nm's functions of an object: global and static, not a variable"""
        if not shutil.which("gcc") or not shutil.which("nm"):
            self.skipTest("no gcc or nm on the host")
        src = self.write("f.c", b"int v = 3;\nstatic int g(int x) { return x * v; }\n"
                         b"int f(int x) { return g(x) + 1; }\n")
        obj = os.path.join(self.tmp, "f.o")
        subprocess.run(["gcc", "-O0", "-c", src, "-o", obj], check=True)
        funcs = elf.functions(obj, nm="nm")
        self.assertEqual(sorted(funcs), ["f", "g"])
        self.assertTrue(all(size > 0 for _, size in funcs.values()))


if __name__ == "__main__":
    unittest.main()
