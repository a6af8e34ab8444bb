"""Sync: one changed file in the [sync] vdir, to a running nudged's schedule having it."""

import os
import statistics
import time
import uuid

from ..common import fmt, say


def run(h):
    say("sync: one changed file in the vdir, to nudged's schedule (10 times)")
    folder, env = h.folder("sync")
    vdir = os.path.join(folder, "calendars", "todos")
    os.makedirs(vdir)
    with open(env["NUDGE_CONFIG"], "a") as f:
        f.write(f"[sync]\nvdir = {vdir}\n")
    daemon = h.nudged(folder, env)
    times = []
    try:
        for i in range(10):
            title = f"Synced {i + 1}"
            # Each due before the last, so that each becomes the next reminder.
            due = time.gmtime(int(time.time()) + 3600 - 60 * i)
            uid = str(uuid.uuid4())
            text = "\r\n".join([
                "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Nudge//bench//EN", "BEGIN:VTODO",
                f"UID:{uid}", time.strftime("DTSTAMP:%Y%m%dT%H%M%SZ", time.gmtime()),
                time.strftime("LAST-MODIFIED:%Y%m%dT%H%M%SZ", time.gmtime()),
                f"SUMMARY:{title}", time.strftime("DUE:%Y%m%dT%H%M%SZ", due),
                "STATUS:NEEDS-ACTION", "END:VTODO", "END:VCALENDAR", ""])
            time.sleep(0.5)
            temporary = os.path.join(vdir, f".{uid}.tmp")
            t0 = time.time()
            with open(temporary, "w") as f:
                f.write(text)
            os.rename(temporary, os.path.join(vdir, f"{uid}.ics"))
            planned, = daemon.wait_for("planned", timeout=5, where=lambda e, t=title: t in e["message"])
            times.append((planned["t"] - t0) * 1000)
    finally:
        daemon.stop()
    h.detail("sync_pickup_ms", " ".join(fmt(x) for x in times))
    median = statistics.median(times)
    h.row("one changed file picked up by a running nudged (to the schedule), median of 10 (ms)", "1-10",
          fmt(median), "-", "< 1000 ms", "yes" if median < 1000 else "no")
