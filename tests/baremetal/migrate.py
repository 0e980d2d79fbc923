#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Migrate a running QEMU to a file when its guest asks for it.

migrate.py QMP_SOCKET GUEST_OUTPUT MARKER STATE_FILE TIMEOUT

Waits until GUEST_OUTPUT contains MARKER, then, through QMP, migrates the
running guest into STATE_FILE (the guest keeps running until the last
pass) and quits that QEMU.  baremetal.t then starts a second QEMU with
-incoming from the file, which continues the guest.  Exit status 0 when
the migration completed, 1 otherwise (with the reason on stderr).
"""

import json
import socket
import sys
import time


def qmp(sock, f, cmd, **args):
    msg = {"execute": cmd}
    if args:
        msg["arguments"] = args
    sock.sendall(json.dumps(msg).encode() + b"\n")
    while True:
        reply = json.loads(f.readline())
        if "return" in reply or "error" in reply:
            return reply


def main():
    path, output, marker, state, timeout = sys.argv[1:6]
    deadline = time.time() + float(timeout)

    while marker not in open(output, errors="replace").read():
        if time.time() > deadline:
            sys.exit("migrate.py: the guest never printed %s" % marker)
        time.sleep(0.01)

    sock = socket.socket(socket.AF_UNIX)
    sock.connect(path)
    f = sock.makefile("r")
    json.loads(f.readline())                     # greeting
    qmp(sock, f, "qmp_capabilities")
    reply = qmp(sock, f, "migrate", uri="exec:cat > " + state)
    if "error" in reply:
        sys.exit("migrate.py: migrate: %s" % reply["error"])
    while True:
        status = qmp(sock, f, "query-migrate")["return"].get("status")
        if status == "completed":
            break
        if status in ("failed", "cancelled") or time.time() > deadline:
            sys.exit("migrate.py: migration %s" % status)
        time.sleep(0.01)
    qmp(sock, f, "quit")
    return 0


if __name__ == "__main__":
    sys.exit(main())
