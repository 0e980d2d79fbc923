# SPDX-License-Identifier: GPL-2.0
"""What tools/build/qemu-series and tools/build/kernel-series share.

A patch series is the export of a git branch (made by qemu-git or
kernel-git): `git format-patch` with fixed identities, so that the same
branch writes the same files on every machine; and the measure of how
much a series reworks itself.
"""

import os
import re
import subprocess
import sys

PROG = os.path.basename(sys.argv[0])
PATCH_NAME = re.compile(r"^\d{4}-.*\.patch$")
HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


def die(text):
    sys.stderr.write("%s: error: %s\n" % (PROG, text))
    sys.exit(2)


def git(gitdir, *args, check=True, env=None):
    r = subprocess.run(["git", "-C", gitdir] + list(args), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True, env=env)
    if check and r.returncode != 0:
        die("git %s: %s" % (" ".join(args), r.stderr.strip()))
    return r.stdout


def git_ok(gitdir, *args, env=None):
    """Whether the git command succeeds (its output is dropped)"""
    return subprocess.run(["git", "-C", gitdir] + list(args), stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL, env=env).returncode == 0


def has_ref(gitdir, ref):
    return git(gitdir, "rev-parse", "-q", "--verify", ref, check=False) != ""


def check_tree(gitdir, refs, maker):
    """gitdir is a git tree with refs, or die saying that maker makes it"""
    if not os.path.isdir(os.path.join(gitdir, ".git")):
        die("%s is not a git tree: make it with `%s`" % (gitdir, maker))
    for ref in refs:
        if not has_ref(gitdir, ref):
            die("%s has no %s (made by `%s`)" % (gitdir, ref, maker))


def warn_dirty(gitdir):
    if git(gitdir, "status", "--porcelain", "--untracked-files=no"):
        sys.stderr.write("%s: warning: %s has uncommitted changes; they are not exported\n"
                         % (PROG, gitdir))


def format_patch(gitdir, tip, out, args):
    """git format-patch args into the directory out; the names of the files
    it wrote, in order.

    Fixed dates and identities where git would use the clock and the
    user's: those of the tip's author date and of the project."""
    env = dict(os.environ, GIT_COMMITTER_NAME="LEON3 PMU developers",
               GIT_COMMITTER_EMAIL="leon3-pmu@example.org",
               GIT_COMMITTER_DATE=git(gitdir, "log", "-1", "--format=%aD", tip).strip())
    r = subprocess.run(["git", "-C", gitdir, "format-patch", "--zero-commit",
                        "--no-signature", "--abbrev=12", "--no-base", "-o", os.path.abspath(out)] + args,
                       env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    if r.returncode != 0:
        die("git format-patch: %s" % r.stderr.strip())
    return [os.path.basename(f) for f in r.stdout.split("\n") if f]


def replace_patches(out, tmp, made):
    """The numbered patches of out become those made in tmp"""
    for name in made:
        os.rename(os.path.join(tmp, name), os.path.join(out, name))
    for name in os.listdir(out):
        if PATCH_NAME.match(name) and name not in made:
            os.unlink(os.path.join(out, name))


def rework(gitdir, base, branch):
    """(lines added, lines reworked, {(by, of): n}, subjects) of base..branch"""
    commits = git(gitdir, "rev-list", "--reverse", "%s..%s" % (base, branch)).split()
    index = {c: i + 1 for i, c in enumerate(commits)}
    subjects = {}
    added = 0
    pairs = {}
    for c in commits:
        subjects[index[c]] = git(gitdir, "log", "-1", "--format=%s", c).strip()
        diff = git(gitdir, "diff", "-U0", "--no-renames", "--no-color", c + "^", c)
        old = None
        dels = []
        for line in diff.split("\n"):
            if line.startswith("--- "):
                old = None if line == "--- /dev/null" else line[6:]
            m = HUNK.match(line)
            if m:
                start, count = int(m.group(1)), int(m.group(2) or "1")
                added += int(m.group(4) or "1")
                if count and old:
                    dels.append((old, start, start + count - 1))
        for path, a, b in dels:
            blame = git(gitdir, "blame", "--porcelain", "-L", "%d,%d" % (a, b), c + "^", "--", path)
            for line in blame.split("\n"):
                m = re.match(r"^([0-9a-f]{40}) \d+ \d+", line)
                if m and m.group(1) in index:
                    key = (index[c], index[m.group(1)])
                    pairs[key] = pairs.get(key, 0) + 1
    return added, sum(pairs.values()), pairs, subjects


def report_rework(gitdir, series, limit, quiet):
    """Print how much each (name, base, branch) of series reworks itself;
    1 if one does above limit percent, else 0"""
    rc = 0
    for name, base, branch in series:
        added, reworked, pairs, subjects = rework(gitdir, base, branch)
        pct = 100.0 * reworked / added if added else 0.0
        for (by, of), n in sorted(pairs.items()) if not quiet else ():
            print("  patch %2d reworks %4d lines of patch %2d (%s)" % (by, n, of, subjects[of]))
        print("%s: %d of the %d lines %s adds are reworked by a later patch "
              "of it (%.1f %%; at most %.1f %%)" % (PROG, reworked, added, name, pct, limit))
        if pct > limit:
            rc = 1
    if rc:
        print("%s: fold each rework into the patch it reworks: "
              "git commit --fixup, git rebase -i --autosquash (Documentation/building.md)" % PROG)
    return rc
