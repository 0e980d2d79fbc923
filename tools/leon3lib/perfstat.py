# SPDX-License-Identifier: GPL-2.0
"""perf stat's machine-readable output (perf stat -x SEP): one line a
count, its fields

    value, unit, event, run time (ns), percentage of the time counted,
    and a metric's value and unit

The value is a number, or "<not counted>" (the event was never on the
PMU: another group held the counters, or the task never ran) or
"<not supported>" (the PMU refused it).  A percentage under 100 says
the event was multiplexed: perf scaled a count taken part of the time.
"""

from typing import NamedTuple, Optional, Union

NOT_COUNTED = "<not counted>"
NOT_SUPPORTED = "<not supported>"


class Count(NamedTuple):
    value: Optional[Union[int, float]]  # None when not counted or not supported
    text: str                   # the value as perf printed it
    unit: str
    event: str                  # as perf names it, modifiers included
    runtime: Optional[int]      # ns the event was counted
    percent: Optional[float]    # of the time it was enabled

    @property
    def counted(self):
        return self.value is not None

    @property
    def multiplexed(self):
        return self.percent is not None and self.percent < 100.0


def number(text):
    """An int, a float, or None for an empty field."""
    text = text.strip()
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        return float(text)


def parse_line(line, sep=","):
    """The Count of one line of perf stat -x SEP, or None for a line that
    is not a count (a comment, a blank line, another program's output)."""
    f = line.rstrip("\n").split(sep)
    if len(f) < 3 or not f[2]:
        return None
    text = f[0].strip()
    if text.startswith("<"):
        if text not in (NOT_COUNTED, NOT_SUPPORTED):
            return None
        value = None
    else:
        try:
            value = number(text)
        except ValueError:
            return None
        if value is None:
            return None
    try:
        runtime = number(f[3]) if len(f) > 3 else None
        percent = float(f[4]) if len(f) > 4 and f[4].strip() else None
    except ValueError:
        return None
    return Count(value, text, f[1], f[2], runtime, percent)


def parse(text, sep=","):
    """The Counts of perf stat -x SEP output, in order."""
    return [c for c in (parse_line(x, sep) for x in text.splitlines()) if c]


def user_only(event):
    """perf's spelling of EVENT counted in user mode only."""
    return event + "u" if event.endswith("/") else event + ":u"


def base_event(name):
    """The event of a count's NAME, its modifiers (user_only()'s) undone."""
    return name[:-1] if name.endswith("/u") else name.split(":")[0]
