# SPDX-License-Identifier: GPL-2.0
"""leon3lib: what the project's Python tools share.

The commands under tools/ (leon3-run, leon3-hunt, mibench, leon3-sweep,
pet) are thin: each parses its options and writes its own files, and
does the rest through this package.

  messages    a tool's progress lines and its one-line errors
  jobs        the job protocol: a failed job costs that job alone, with a
              one-line reason in its .failed file; GNU parallel
  guest       a command in a guest through tools/leon3-run: its console
              log, whether it finished, the guest kernel's reports
  perfstat    perf stat -x output, line by line
  elf         ELF headers and segments (read here), functions (nm)
  stats       mean, CV, Student's t 95 % intervals, outliers
  gnuplot     the plots: a failed one is said and costs nothing else
  machines    the named LEON3 machines and the check of the guest's caches
  mibench     the MiBench programs and a build directory of them

A tool finds the package by a path relative to its own file, e.g.

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    from leon3lib import jobs, guest

(nothing is installed).  Its unit tests are tests/host/leon3lib/, run by
tests/host/leon3lib.t (make check).
"""

import os

# The project's top directory: this file is TOP/tools/leon3lib/__init__.py
TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.path.join(TOP, "build")
