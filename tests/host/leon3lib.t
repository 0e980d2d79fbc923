#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# tests/run: one-core
"""The unit tests of tools/leon3lib, the tools' library: every test of
tests/host/leon3lib/test_*.py (plain unittest), one TAP line each, the
reason of a failure under it as comments."""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))


class Tap(unittest.TestResult):
    def line(self, test, ok, why=""):
        name = test.id().split(".", 1)[-1] if hasattr(test, "id") else str(test)
        doc = test.shortDescription() if hasattr(test, "shortDescription") else None
        print(f"{'ok' if ok else 'not ok'} - {name}" + (f": {doc}" if doc else ""))
        for x in why.rstrip().splitlines():
            print(f"#   {x}")

    def addSuccess(self, test):
        super().addSuccess(test)
        self.line(test, True)

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self.line(test, False, self._exc_info_to_string(err, test))

    def addError(self, test, err):
        super().addError(test, err)
        self.line(test, False, self._exc_info_to_string(err, test))

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        print(f"ok - {test.id().split('.', 1)[-1]} # SKIP {reason}")

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self.line(test, False, "succeeded, expected to fail")


def main():
    suite = unittest.defaultTestLoader.discover(os.path.join(HERE, "leon3lib"),
                                                top_level_dir=os.path.join(HERE, "leon3lib"))
    result = Tap()
    suite.run(result)
    if not result.testsRun:
        print("not ok - tests/host/leon3lib has unit tests")
    return 0


if __name__ == "__main__":
    sys.exit(main())
