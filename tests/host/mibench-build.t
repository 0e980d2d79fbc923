#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# tests/run: one-core
"""make mibench, its host half (tools/mibench/mibench build, reference),
on the project's stand-in for MiBench (tests/mibench/standin): what is
built and what is skipped, with the reason; that MIBENCH_DIR is never
written; that a GitHub-style copy (nested, other case) is found; and
that the reference outputs, run under user-mode QEMU, are what the
programs must print, computed here independently; soft float, and
programs linked dynamically."""

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lib import TOP, mibench_build_rows, ok, not_ok, check  # noqa: E402
sys.path.insert(0, os.path.join(TOP, "tools"))
from leon3lib import elf  # noqa: E402

MIBENCH = os.path.join(TOP, "tools/mibench/mibench")
STANDIN = os.path.join(TOP, "tests/mibench/standin")


def run(*args, env=None):
    r = subprocess.run([MIBENCH, *args], capture_output=True, text=True,
                       env=dict(os.environ, **(env or {})))
    return r.returncode, r.stdout + r.stderr


def tree_state(top):
    """Every file below @top with its content hash: to show nothing changed."""
    out = {}
    for path, _, files in os.walk(top):
        for f in files:
            full = os.path.join(path, f)
            out[os.path.relpath(full, top)] = hashlib.sha256(open(full, "rb").read()).hexdigest()
    return out


def outputs(out, name):
    """{file: sha256} and the exit lines of a program's reference run."""
    files, exits = {}, []
    for line in open(os.path.join(out, "ref-small", f"{name}.outputs")):
        if line.startswith("exit "):
            exits.append(line.split()[2])
        else:
            digest, rel = line.split()
            files[rel] = digest
    return files, exits


def ref_file(out, directory, rel):
    return open(os.path.join(out, "ref-small", directory, rel), "rb").read()


def no_fpu(out):
    """tools/check-sparc-v8 --no-fpu on OUT's basicmath_small: exit
    status and the end of what it printed."""
    r = subprocess.run([os.path.join(TOP, "tools/check-sparc-v8"), "--no-fpu",
                        os.path.join(out, "tree/automotive/basicmath/basicmath_small")],
                       capture_output=True, text=True)
    return r.returncode, r.stdout[-300:]


def main():
    T = tempfile.mkdtemp()
    try:
        # Without MIBENCH_DIR: where to get MiBench, and stop.
        env = {k: v for k, v in os.environ.items() if k != "MIBENCH_DIR"}
        r = subprocess.run([MIBENCH, "build", "--out", f"{T}/none"], capture_output=True,
                           text=True, env=env)
        check("no MIBENCH_DIR: exit 2, saying where to get MiBench",
              r.returncode == 2 and "github.com/embecosm/mibench" in r.stderr,
              f"exit {r.returncode}: {r.stderr.strip()[:120]}")
        code, text = run("build", "--tree", f"{T}/nosuch", "--out", f"{T}/none")
        check("a MIBENCH_DIR that does not exist: exit 2, named",
              code == 2 and f"{T}/nosuch" in text, f"exit {code}: {text.strip()[:120]}")

        os.makedirs(f"{T}/notmibench/src")
        code, text = run("build", "--tree", f"{T}/notmibench", "--out", f"{T}/none")
        check("a MIBENCH_DIR with no MiBench program: exit 1, said so",
              code == 1 and "nothing built: is" in text and text.count("not in MIBENCH_DIR") == 13,
              f"exit {code}: {text.strip()[-160:]}")

        # The stand-in tree.
        before = tree_state(STANDIN)
        out = f"{T}/out"
        code, text = run("build", "--tree", STANDIN, "--out", out)
        check("build: exit 0 with programs skipped", code == 0, text[-300:])
        check("build: the stand-in tree is not written", tree_state(STANDIN) == before)
        rows = mibench_build_rows(out)
        for name in ("basicmath", "bitcount", "qsort", "CRC32", "stringsearch"):
            check(f"build: {name} is built", rows.get(name, ("",))[0] == "built",
                  str(rows.get(name)))
        status, why = rows.get("sha", ("", ""))
        check("build: sha, which does not compile, is skipped with the compiler's error",
              status == "skipped" and "make failed" in why and "does not build, on purpose" in why,
              why)
        status, why = rows.get("susan", ("", ""))
        check("build: susan, absent, is skipped as not in MIBENCH_DIR",
              status == "skipped" and "not in MIBENCH_DIR" in why, why)
        status, why = rows.get("adpcm", ("", ""))
        check("build: adpcm, only its data there, is skipped as no program directory",
              status == "skipped" and "no runme_small.sh" in why, why)
        check("build: every one of tools/mibench/programs has a row", len(rows) == 13,
              f"{len(rows)} rows")
        check("build: a progress line per program", text.count("mibench: build ") == 13)
        head = open(os.path.join(out, "tree/automotive/qsort/qsort_small"), "rb").read(20)
        check("build: qsort_small is a 32-bit big-endian SPARC executable",
              head[:4] == b"\x7fELF" and head[4] == 1 and head[5] == 2 and head[18:20] == b"\x00\x02")

        # Reference runs under qemu-sparc.
        code, text = run("reference", "--out", out)
        check("reference: exit 0", code == 0, text[-300:])
        files, exits = outputs(out, "bitcount")
        want = sum(bin(i).count("1") for i in range(7500))
        got = ref_file(out, "automotive/bitcount", "output_small.txt").decode()
        check(f"reference: bitcount 7500 counts {want} bits, as computed here",
              got == f"{want} bits in 0..7499\n", got.strip())
        check("reference: bitcount's outputs list its output and exit 0",
              exits == ["0"] and files.get("output_small.txt") ==
              hashlib.sha256(got.encode()).hexdigest(), f"{exits} {files}")
        numbers = [int(x) for x in open(os.path.join(STANDIN, "automotive/qsort/input_small.dat"))]
        got = ref_file(out, "automotive/qsort", "output_small.txt").decode()
        check("reference: qsort's output is its input sorted",
              got == "".join(f"{x}\n" for x in sorted(numbers)))
        data = open(os.path.join(STANDIN, "telecomm/adpcm/data/large.pcm"), "rb").read()
        got = ref_file(out, "telecomm/CRC32", "output_small.txt").decode()
        check("reference: CRC32 reads adpcm's data and prints zlib's CRC-32 of it",
              got.split()[1:] == [f"{zlib.crc32(data):08X}", str(len(data))], got.strip())
        files, _ = outputs(out, "stringsearch")
        check("reference: stringsearch's output is recorded",
              "output_small.txt" in files, str(files))
        # basicmath: the same source built for the host prints the same
        # (+ - * / and sqrt exactly rounded; the rest printed to 6 digits).
        src = os.path.join(STANDIN, "automotive/basicmath/basicmath.c")
        subprocess.run(["gcc", "-O2", src, "-o", f"{T}/basicmath-host", "-lm"], check=True)
        want = subprocess.run([f"{T}/basicmath-host", "400"], capture_output=True,
                              check=True).stdout
        hard = ref_file(out, "automotive/basicmath", "output_small.txt")
        check("reference: basicmath prints what the host's build of it prints",
              hard == want, hard.decode()[:200])

        # MIBENCH_FP=soft: the soft-float multilib, no FPU instruction in
        # any binary, the same outputs.
        soft = f"{T}/soft"
        code, text = run("build", "--tree", STANDIN, "--out", soft, "--fp", "soft")
        rows = mibench_build_rows(soft)
        check("build --fp soft: exit 0, basicmath and qsort built",
              code == 0 and rows["basicmath"][0] == "built" and rows["qsort"][0] == "built",
              text[-300:])
        check("build --fp soft: says it builds with soft float", "building with soft float" in text)
        code, text = no_fpu(soft)
        check("build --fp soft: basicmath_small has no FPU instruction", code == 0, text)
        code, text = no_fpu(out)
        check("build (hard): basicmath_small has FPU instructions", code == 1, text)
        code, text = run("reference", "--out", soft)
        got = ref_file(soft, "automotive/basicmath", "output_small.txt")
        check("reference --fp soft: basicmath prints what the host's build prints",
              code == 0 and got == want, got.decode()[:200])

        # MIBENCH_LINK=dynamic: the -static of the stand-in's Makefiles is
        # dropped, and the reference loads the sysroot's libraries.  A
        # Makefile that links statically some other way (gcc --static,
        # which the wrapper leaves) is caught and its program skipped.
        part, dyn = f"{T}/dyn-tree", f"{T}/dyn"
        for d in ("automotive/basicmath", "automotive/qsort"):
            shutil.copytree(os.path.join(STANDIN, d), os.path.join(part, d))
        mk = os.path.join(part, "automotive/qsort/Makefile")
        make = open(mk).read()
        with open(mk, "w") as f:
            f.write(make.replace("gcc -static", "gcc --static"))
        code, text = run("build", "--tree", part, "--out", dyn, "--link", "dynamic")
        rows = mibench_build_rows(dyn)
        binary = f"{dyn}/tree/automotive/basicmath/basicmath_small"
        interp = elf.Elf(binary).interpreter() if os.path.exists(binary) else None
        check("build --link dynamic: basicmath built, its Makefile's -static dropped",
              code == 0 and rows["basicmath"][0] == "built" and interp == "/lib/ld-linux.so.2",
              f"{rows.get('basicmath')} {interp} {text[-300:]}")
        check("build --link dynamic: qsort, linked with gcc --static, is skipped, saying so",
              rows["qsort"][0] == "skipped" and
              rows["qsort"][1].startswith("qsort_small: linked statically, not dynamically"),
              str(rows.get("qsort")))
        code, text = run("reference", "--out", dyn)
        got = ref_file(dyn, "automotive/basicmath", "output_small.txt") if code == 0 else b""
        check("reference --link dynamic: basicmath prints what the host's build prints",
              got == want, f"exit {code}: {text[-300:]}")

        # A GitHub-style copy: nested one level, another case for a directory.
        gh = f"{T}/gh/mibench-master"
        shutil.copytree(STANDIN, gh)
        os.rename(f"{gh}/telecomm/CRC32", f"{gh}/telecomm/crc32")
        code, text = run("build", "--tree", f"{T}/gh", "--out", f"{T}/ghout")
        rows = mibench_build_rows(f"{T}/ghout")
        check("build: a nested copy with telecomm/crc32 is found and built",
              code == 0 and rows["CRC32"][0] == "built" and rows["qsort"][0] == "built",
              str(rows.get("CRC32")))
    finally:
        shutil.rmtree(T, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
