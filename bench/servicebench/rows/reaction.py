"""Reaction: `nudge add` of a todo due now, to dunst receiving it."""

import statistics
import time

from ..common import fmt, local, say


def run(h):
    say("reaction: nudge add of a todo due now, while nudged runs (10 times)")
    folder, env = h.folder("reaction")
    h.session.pin_clock()
    daemon = h.nudged(folder, env)
    times = []
    try:
        for i in range(10):
            title = f"React {i + 1}"
            time.sleep(0.5)
            t0 = time.time()
            h.nudge(env, "add", title, "--due", local(int(t0)))
            (stamp, _), = h.session.wait_shown(lambda s, t=title: s == t, timeout=5)
            times.append((stamp - t0) * 1000)
    finally:
        daemon.stop()
    h.check_clock("reaction")
    h.detail("reaction_ms", " ".join(fmt(x) for x in times))
    median = statistics.median(times)
    h.row("nudge add due now → received by dunst, median of 10 (ms)", "1-10", fmt(median),
          "remind -z: up to 60 s (rereads each minute)", "< 200 ms", "yes" if median < 200 else "no")
