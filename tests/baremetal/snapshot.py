#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Take a snapshot of a running QEMU and go back to it, as a user would.

snapshot.py QMP_SOCKET GUEST_OUTPUT SAVE_MARKER LOAD_MARKER IMAGE TIMEOUT

QEMU starts stopped (-S): this creates a qcow2 image IMAGE inside QEMU
(blockdev-create, no qemu-img needed) and only then lets the guest run,
so that the image's creation, however slow on a busy host, does not
delay the snapshot past the guest's SAVE_MARKER.  Then, through the
monitor (HMP over QMP): "savevm s1" when the guest has printed
SAVE_MARKER, "loadvm s1" when it has printed LOAD_MARKER, once.  The
guest then runs again from the snapshot.  Exit status 0 when both
commands succeeded and the snapshot was taken before LOAD_MARKER.
"""

import json
import socket
import sys
import time


class QMP:
    def __init__(self, path):
        # QEMU starts beside this script: retry, on a new socket each time
        # (one whose connect() failed cannot be used again)
        for _ in range(200):
            self.sock = socket.socket(socket.AF_UNIX)
            try:
                self.sock.connect(path)
                break
            except OSError as e:
                self.sock.close()
                err = e
                time.sleep(0.05)
        else:
            sys.exit("snapshot.py: no QMP at %s after 10 s: %s" % (path, err))
        self.f = self.sock.makefile("r")
        json.loads(self.f.readline())                   # greeting
        self.cmd("qmp_capabilities")

    def cmd(self, name, **args):
        msg = {"execute": name}
        if args:
            msg["arguments"] = args
        self.sock.sendall(json.dumps(msg).encode() + b"\n")
        while True:
            reply = json.loads(self.f.readline())
            if "error" in reply:
                sys.exit("snapshot.py: %s: %s" % (name, reply["error"]))
            if "return" in reply:
                return reply["return"]

    def job(self, job_id, options):
        self.cmd("blockdev-create", **{"job-id": job_id, "options": options})
        while True:
            jobs = {j["id"]: j for j in self.cmd("query-jobs")}
            if jobs[job_id]["status"] == "concluded":
                if "error" in jobs[job_id]:
                    sys.exit("snapshot.py: %s: %s" % (job_id, jobs[job_id]["error"]))
                self.cmd("job-dismiss", id=job_id)
                return
            time.sleep(0.01)

    def hmp(self, line):
        out = self.cmd("human-monitor-command", **{"command-line": line})
        if out.strip():
            sys.exit("snapshot.py: %s: %s" % (line, out.strip()))


def wait_for(output, marker, count, deadline):
    while open(output, errors="replace").read().count(marker) < count:
        if time.time() > deadline:
            sys.exit("snapshot.py: the guest never printed %s" % marker)
        time.sleep(0.01)


def main():
    path, output, save, load, image, timeout = sys.argv[1:7]
    deadline = time.time() + float(timeout)
    qmp = QMP(path)
    qmp.job("create-file", {"driver": "file", "filename": image, "size": 0})
    qmp.cmd("blockdev-add", driver="file", filename=image, **{"node-name": "proto"})
    qmp.job("create-qcow2", {"driver": "qcow2", "file": "proto", "size": 1 << 26})
    qmp.cmd("blockdev-add", driver="qcow2", file="proto", **{"node-name": "snap"})
    qmp.cmd("cont")
    wait_for(output, save, 1, deadline)
    qmp.hmp("savevm s1")
    if load in open(output, errors="replace").read():
        sys.exit("snapshot.py: the snapshot came after the guest printed %s: "
                 "the host took longer than the guest's run between the markers" % load)
    wait_for(output, load, 1, deadline)
    qmp.hmp("loadvm s1")
    return 0


if __name__ == "__main__":
    sys.exit(main())
