"""Burst: 1,000 todos due at one instant, until all fired and the grouped one delivered."""

import re
import time

from ..common import Failed, fmt, say
from ..harness import insert_todos


def run(h):
    say("burst: 1,000 todos due at the same instant (grouped, default group_above)")
    folder, env = h.folder("burst")
    due = int(time.time()) + 15
    ids = insert_todos(env["NUDGE_DB"], [due] * 1000, "Burst")
    started = time.monotonic()
    h.plan(env)  # plans them, as after gen.py
    h.detail("burst_plan_s", fmt(time.monotonic() - started, 2))
    h.session.pin_clock()
    daemon = h.nudged(folder, env)
    try:
        if time.time() > due - 1:
            raise Failed("inserting and planning the 1,000 todos took too long; try again")
        wanted = {str(i) for i in ids}
        fired = daemon.wait_for("fired", 1000, timeout=due + 30 - time.time(),
                                where=lambda e: e["todo_id"] in wanted)
        delivered, = daemon.wait_for("delivered", 1, timeout=due + 40 - time.time(),
                                     where=lambda e: e["todo_id"] is None and "1000" in (e["rule"] or ""))
        shown = h.session.wait_shown(lambda s: re.match(r"1,?000 todos", s) is not None, timeout=10)
    finally:
        daemon.stop()
    h.check_clock("burst")
    last_fired = (max(e["t"] for e in fired) - due) * 1000
    first_fired = (min(e["t"] for e in fired) - due) * 1000
    delivered_ms = (delivered["t"] - due) * 1000
    shown_ms = (shown[0][0] - due) * 1000
    h.detail("burst_first_last_fired_ms", f"{fmt(first_fired)} {fmt(last_fired)}")
    h.detail("burst_delivered_ms", fmt(delivered_ms))
    h.detail("burst_delivered_latency_field_ms", delivered["latency_ms"])
    h.detail("burst_dunst_ms", fmt(shown_ms))
    h.detail("burst_dunst_summary", shown[0][1])
    value = max(last_fired, delivered_ms)
    h.row("1,000 due at once: all fired, 1 grouped notification delivered (ms)", "1,000", fmt(value),
          "-", "< 2000 ms", "yes" if value < 2000 else "no")
