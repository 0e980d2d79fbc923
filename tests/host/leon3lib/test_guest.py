# SPDX-License-Identifier: GPL-2.0
"""leon3lib.guest, with a stand-in for tools/leon3-run (a shell script
that prints its options and runs the job's script on the host, then
exits as told): the options it is given, the script, the log, the DONE
marker, and the one-line reason of a guest that timed out or stopped."""

import os
import shutil
import stat
import tempfile
import unittest

import libpath  # noqa: F401
from leon3lib import guest

# Prints its arguments, then runs the --add'ed /root/job.sh if there is
# one, then exits with $STANDIN_EXIT; says why on stderr as leon3-run does
STANDIN = r"""#!/bin/sh
echo "ARGS $*"
script=
for a in "$@"; do
	case $a in *:/root/job.sh) script=${a%:/root/job.sh} ;; esac
done
[ -z "$script" ] || sh "$script"
case ${STANDIN_EXIT:-0} in
124) echo "leon3-run: timed out after 60 s; last console lines:" >&2 ;;
125) echo "leon3-run: QEMU exited with status 1 before the command finished" >&2 ;;
esac
exit ${STANDIN_EXIT:-0}
"""


class Guest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.saved = guest.LEON3_RUN
        guest.LEON3_RUN = os.path.join(self.tmp, "leon3-run")
        with open(guest.LEON3_RUN, "w") as f:
            f.write(STANDIN)
        os.chmod(guest.LEON3_RUN, stat.S_IRWXU)
        self.log = os.path.join(self.tmp, "job.log")

    def tearDown(self):
        guest.LEON3_RUN = self.saved
        os.environ.pop("STANDIN_EXIT", None)
        shutil.rmtree(self.tmp)

    def test_options(self):
        """every option leon3-run takes, QEMU's words each as --qemu-opt"""
        self.assertEqual(
            guest.options(cpus=2, mem="512M", timeout=60, leon3_clock=True, qemu="/q",
                          qemu_opts=["-global", "LEON3-sparc-cpu.dcache-ways=4"],
                          rng_seed="5eed", adds=["a:/root/a", "b"]),
            ["--qemu", "/q", "--cpus", "2", "--mem", "512M", "--timeout", "60", "--leon3-clock",
             "--qemu-opt=-global", "--qemu-opt=LEON3-sparc-cpu.dcache-ways=4",
             "--rng-seed", "5eed", "--add", "a:/root/a", "--add", "b"])
        self.assertEqual(guest.options(), [])

    def test_script_done(self):
        """a script that reaches its marker: done, its output kept, and the log"""
        r = guest.run(script="echo hello\necho JOB-DONE\n", cpus=1, log=self.log, done="JOB-DONE",
                      adds=["x:/root/x"])
        self.assertTrue(r.done)
        self.assertEqual(r.returncode, 0)
        self.assertIn("--cpus 1 ", r.stdout)
        self.assertRegex(r.stdout, r"--add \S+/job.sh:/root/job.sh -- sh /root/job.sh\n")
        self.assertTrue(r.stdout.endswith("hello\nJOB-DONE\n"))
        self.assertEqual(r.stderr, "")
        os.environ["STANDIN_EXIT"] = "125"
        r = guest.run(script="echo JOB-DONE\n", log=self.log, done="JOB-DONE")
        self.assertEqual((r.done, r.returncode), (True, 125))
        self.assertIn("leon3-run: QEMU exited", r.stderr)
        self.assertEqual(open(self.log).read(), r.stdout + r.stderr)

    def test_timed_out(self):
        """a guest that timed out: not done, and why in one line with its log"""
        os.environ["STANDIN_EXIT"] = "124"
        r = guest.run(script="echo started\n", log=self.log, done="JOB-DONE")
        self.assertFalse(r.done)
        self.assertTrue(r.timed_out)
        self.assertEqual(r.why_unfinished(60), f"the guest did not finish in 60 s (log: {self.log})")

    def test_stopped_early(self):
        """a guest that stopped: leon3-run's last line, its status and the log"""
        os.environ["STANDIN_EXIT"] = "125"
        r = guest.run(["true"], log=self.log, done="JOB-DONE")
        self.assertFalse(r.done)
        self.assertEqual(r.why_unfinished(60),
                         "the guest stopped early: leon3-run: QEMU exited with status 1 before "
                         f"the command finished (exit 125; log: {self.log})")

    def test_wrap(self):
        """WRAP: leon3-run run under another command (taskset, env)"""
        r = guest.run(["true"], wrap=["env", "STANDIN_EXIT=3"])
        self.assertEqual(r.returncode, 3)

    def test_no_marker(self):
        """a script that ended without its marker is not done, whatever its status"""
        r = guest.run(script="echo half\n", done="JOB-DONE")
        self.assertEqual((r.returncode, r.done), (0, False))

    def test_to_log(self):
        """capture=False: the output goes to the log as it comes, and is read back"""
        r = guest.run(script="echo to-the-log\necho oops >&2\n", log=self.log, capture=False,
                      done="to-the-log")
        self.assertTrue(r.done)
        self.assertEqual(r.stdout, open(self.log).read())
        self.assertIn("oops\n", r.stdout)

    def test_job_script(self):
        """a job's script: its lines, the kernel's reports, then its marker"""
        self.assertEqual(guest.job_script(["cd /root", "./prog"], "JOB-DONE"),
                         "cd /root\n./prog\nleon3-kernel-reports\necho JOB-DONE\n")

    def test_kernel_reports(self):
        """the guest kernel's reports: each KERNEL line, and the job's reason"""
        out = "x\nKERNEL [ 1.0] WARNING: at foo\nKERNEL  [ 2.0] BUG: bar \nnot KERNEL y\n"
        self.assertEqual(guest.kernel_reports(out), ["[ 1.0] WARNING: at foo", "[ 2.0] BUG: bar"])
        self.assertEqual(guest.kernel_report_failure(out, "j.log"),
                         "the kernel reported 2 problem(s), the first: [ 1.0] WARNING: at foo "
                         "(log: j.log)")
        self.assertEqual(guest.kernel_report_failure("x\n", "j.log"), "")


if __name__ == "__main__":
    unittest.main()
