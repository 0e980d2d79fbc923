# SPDX-License-Identifier: GPL-2.0
"""leon3lib.hostprofile on perf report text written by hand, in the form
perf report --stdio -q --sort dso,sym -F period,dso,sym prints."""

import unittest

import libpath  # noqa: F401
from leon3lib import hostprofile as hp

BASE = """\
      24000000  [JIT] tid 30128          [.] 0x00007f9ce4353e92
      20000000  [JIT] tid 30128          [.] 0x00007f9ce4353abd
     501000000  qemu-system-sparc        [.] helper_lookup_tb_ptr
      95000000  qemu-system-sparc        [.] liveness_pass_1
       3000000  [kernel.kallsyms]        [k] clear_page_erms
       2000000  [kernel.kallsyms]        [k] pvm_irq_enable
       5000000  libc.so.6                [.] __memmove_avx512_unaligned_erms

"""

OTHER = """\
      50000000  [JIT] tid 40001          [.] 0x00007f9ce4353e92
    1618000000  qemu-system-sparc        [.] helper_leon3_cache_ifetch
     546000000  qemu-system-sparc        [.] helper_lookup_tb_ptr
     260000000  qemu-system-sparc        [.] liveness_pass_1
       4000000  [kernel.kallsyms]        [k] clear_page_erms
       5000000  libc.so.6                [.] __memmove_avx512_unaligned_erms
"""


class HostProfile(unittest.TestCase):
    def test_parse(self):
        """translated code and the host kernel are one row each; other
        libraries' functions are named with their library"""
        p = hp.parse_report(BASE)
        self.assertEqual(p, {hp.TRANSLATED: 44000000, "helper_lookup_tb_ptr": 501000000,
                             "liveness_pass_1": 95000000, hp.HOST_KERNEL: 5000000,
                             "libc.so.6: __memmove_avx512_unaligned_erms": 5000000})

    def test_parse_other_qemu(self):
        """a QEMU of another file name: its functions by their names, and
        qemu-system-sparc's, another file here, with the file's"""
        p = hp.parse_report("   7000  qemu-spec   [.] helper_leon3_cache_ifetch\n"
                            "   2000  qemu-system-sparc   [.] main\n", "qemu-spec")
        self.assertEqual(p, {"helper_leon3_cache_ifetch": 7000, "qemu-system-sparc: main": 2000})

    def test_parse_ignores_other_lines(self):
        """headers, blank lines and perf's warnings are no rows"""
        self.assertEqual(hp.parse_report("# Samples: 13K\n\nWarning: lost 3 chunks\n"), {})

    def test_difference(self):
        """largest difference first, a function the base lacks counts 0
        there, the rest summed, and the totals' difference last"""
        rows = hp.difference(hp.parse_report(BASE), hp.parse_report(OTHER), 2)
        self.assertEqual(rows[0], ("helper_leon3_cache_ifetch", 0, 1618000000, 1618000000))
        self.assertEqual(rows[1], ("liveness_pass_1", 95000000, 260000000, 165000000))
        # the rest: helper_lookup_tb_ptr +45 ms, translated code +6, the
        # host kernel -1, libc 0
        self.assertEqual(rows[2], ("(the rest)", 555000000, 605000000, 50000000))
        self.assertEqual(rows[3], ("(all)", 650000000, 2483000000, 1833000000))
        self.assertEqual(sum(r[3] for r in rows[:-1]), rows[-1][3])

    def test_difference_no_rest(self):
        """TOP as large as the profiles: no row for the rest"""
        rows = hp.difference({"a": 1}, {"a": 3, "b": 2}, 5)
        self.assertEqual(rows, [("a", 1, 3, 2), ("b", 0, 2, 2), ("(all)", 1, 5, 4)])


if __name__ == "__main__":
    unittest.main()
