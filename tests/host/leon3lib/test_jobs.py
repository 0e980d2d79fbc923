# SPDX-License-Identifier: GPL-2.0
"""leon3lib.jobs: a job that raises, one that times out and one whose
input is missing each cost that job alone, with a one-line reason; the
result files; GNU parallel runs every job whatever the others do."""

import io
import os
import shlex
import shutil
import tempfile
import time
import unittest
from contextlib import redirect_stdout

import libpath  # noqa: F401
from leon3lib import jobs


class Jobs(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def run_three(self, bad):
        """jobs a, b, c, b being BAD: {item: (value, why)}"""
        return {i: (v, why) for i, v, why in
                jobs.each("abc", lambda x: bad() if x == "b" else x.upper())}

    def assert_alone(self, got, pattern):
        self.assertEqual(got["a"], ("A", ""))
        self.assertEqual(got["c"], ("C", ""))
        value, why = got["b"]
        self.assertIsNone(value)
        self.assertNotIn("\n", why)
        self.assertRegex(why, pattern)

    def test_raises(self):
        """a job that raises: that job fails, with the exception on one line"""
        def bad():
            raise ValueError("line one\nline two")
        self.assert_alone(self.run_three(bad), r"^ValueError: line one line two$")

    def test_times_out(self):
        """a job that times out: that job fails, saying after how long"""
        start = time.monotonic()
        got = self.run_three(lambda: jobs.command(["sleep", "30"], timeout=0.3))
        self.assertLess(time.monotonic() - start, 10)
        self.assert_alone(got, r"^sleep did not finish in 0.3 s$")

    def test_missing_input(self):
        """a job whose input is missing: that job fails, naming it"""
        src = os.path.join(self.tmp, "tree", "telecomm", "adpcm", "data")
        got = self.run_three(lambda: jobs.copy_tree(src, os.path.join(self.tmp, "copy"),
                                                     "its input telecomm/adpcm/data"))
        self.assert_alone(got, rf"^its input telecomm/adpcm/data is missing \({src}\)$")

    def test_os_error(self):
        """an OSError: the file and the system's words, not a traceback"""
        got = self.run_three(lambda: open(os.path.join(self.tmp, "nosuch")))
        self.assert_alone(got, r"/nosuch: No such file or directory$")

    def test_cannot_start(self):
        """a command that is not there: the job fails, saying it could not start"""
        value, why = jobs.attempt(jobs.command, [os.path.join(self.tmp, "nosuch")], timeout=5)
        self.assertEqual((value, why), (None, "nosuch could not start: No such file or directory"))

    def test_exit_goes_through(self):
        """an exit (bad usage) or ^C is not a job's failure: it goes through"""
        self.assertRaises(SystemExit, jobs.attempt, lambda: exit(2))
        def interrupt():
            raise KeyboardInterrupt
        self.assertRaises(KeyboardInterrupt, jobs.attempt, interrupt)

    def test_copy_tree(self):
        """copy_tree replaces the copy, links kept as links"""
        src = os.path.join(self.tmp, "src")
        os.makedirs(src)
        with open(os.path.join(src, "f"), "w") as f:
            f.write("new")
        os.symlink("f", os.path.join(src, "l"))
        dst = os.path.join(self.tmp, "dst")
        os.makedirs(dst)
        with open(os.path.join(dst, "old"), "w") as f:
            f.write("old")
        jobs.copy_tree(src, dst)
        self.assertEqual(sorted(os.listdir(dst)), ["f", "l"])
        self.assertEqual(os.readlink(os.path.join(dst, "l")), "f")

    def test_guarded(self):
        """a job command that raises: STEM.failed with one line, a FAILED line, status 1"""
        stem = os.path.join(self.tmp, "job.1")

        def bad():
            raise RuntimeError("the reference\nis gone")
        out = io.StringIO()
        with redirect_stdout(out):
            rc = jobs.guarded(stem, "qsort on 1 CPU(s)", bad, print)
        self.assertEqual(rc, 1)
        self.assertEqual(out.getvalue(), "qsort on 1 CPU(s): FAILED: RuntimeError: the "
                         "reference is gone\n")
        self.assertEqual(open(stem + ".failed").read(), "RuntimeError: the reference is gone\n")
        self.assertEqual(jobs.outcome(stem), ("failed", "RuntimeError: the reference is gone"))
        self.assertEqual(jobs.guarded(stem + "x", "ok", lambda: 0, print), 0)
        self.assertFalse(os.path.exists(stem + "x.failed"))

    def test_outcome(self):
        """a result, a failure, nothing; clear() removes what a job left"""
        stem = os.path.join(self.tmp, "7")
        self.assertEqual(jobs.outcome(stem), ("missing", "no result"))
        jobs.write_whole(stem + ".csv", "a,b\r\n1,2\r\n")
        self.assertEqual(jobs.outcome(stem), ("ok", stem + ".csv"))
        self.assertEqual(open(stem + ".csv", newline="").read(), "a,b\r\n1,2\r\n")
        self.assertFalse(os.path.exists(stem + ".csv.tmp"))
        jobs.write_failed(stem, "the guest did not finish\nin 60 s")
        self.assertEqual(jobs.outcome(stem), ("failed", "the guest did not finish in 60 s"))
        jobs.clear(stem)
        self.assertEqual(jobs.outcome(stem), ("missing", "no result"))

    def test_one_line(self):
        """one_line folds white space and cuts long reasons"""
        self.assertEqual(jobs.one_line("a\n\tb  c "), "a b c")
        self.assertEqual(len(jobs.one_line("x" * 1000)), 300)

    def test_parallel(self):
        """GNU parallel: a failing job does not stop the others; the status says one failed"""
        if not shutil.which("parallel"):
            self.skipTest("GNU parallel is not installed (make deps installs it)")
        log = os.path.join(self.tmp, "joblog")
        # parallel hands the command to a shell: the script quoted.  The
        # job that fails ends first; the others are still to run or running.
        script = 'echo "$0"; [ "$0" = 0 ] || exit "$0"; sleep 0.5'
        r = jobs.parallel(["sh", "-c", shlex.quote(script)], jobs=2, joblog=log,
                          args=[3, 0, 0, 0], capture_output=True, text=True)
        self.assertNotEqual(r.returncode, 0)
        self.assertEqual(sorted(r.stdout.split()), ["0", "0", "0", "3"])
        exits = sorted(line.split("\t")[6] for line in open(log).read().splitlines()[1:])
        self.assertEqual(exits, ["0", "0", "0", "3"])


if __name__ == "__main__":
    unittest.main()
