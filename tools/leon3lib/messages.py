# SPDX-License-Identifier: GPL-2.0
"""A tool's voice: progress on stdout, problems on stderr, each line
prefixed with the tool's name, so that a line in a long log says who
wrote it."""

import sys


class Messages:
    def __init__(self, tool, die_status=1):
        self.tool = tool
        self.die_status = die_status

    def say(self, msg):
        """A progress line, on stdout, at once (GNU parallel and logs
        interleave the jobs' lines)."""
        print(f"{self.tool}: {msg}", flush=True)

    def warn(self, msg):
        print(f"{self.tool}: {msg}", file=sys.stderr, flush=True)

    def die(self, msg, status=None):
        """The one-line error that ends the tool: bad usage (status 2) or
        nothing left to do."""
        self.warn(msg)
        sys.exit(self.die_status if status is None else status)
