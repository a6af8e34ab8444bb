"""Small helpers every part uses: messages, the load, times and figures."""

import math
import os
import sys
import time

# bench/, where gen.py and notify_floor.c are.
BENCH = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Failed(Exception):
    """A part that could not measure: its row says so, and the other parts still run."""


def say(text):
    print(f"\033[1m==> {text}\033[0m", file=sys.stderr, flush=True)


def warn(text):
    print(f"bench/service: {text}", file=sys.stderr, flush=True)


def load():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def local(stamp):
    """A whole-second instant as `nudge --due` reads it (local time, with seconds)."""
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(stamp))


def percentile(values, p):
    """Nearest rank: the smallest value with at least p% of the values at or below it."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def fmt(x, digits=1):
    return f"{x:.{digits}f}"
