"""Memory: VmRSS of an idle nudged, and VmRSS and RssAnon after many notifications and reloads."""

import os
import signal
import subprocess
import sys
import time

from ..common import BENCH, Failed, fmt, local, say

# The digest stays on, as by default: planning it is part of what each reload costs.
MEMORY_CONFIG = "[reminders]\nbefore = none\nnag_every = off\n[notifications]\ngroup_above = 50\n"
FIRINGS, PER_SECOND, IN_FLIGHT, RELOADS = 1000, 20, 30, 10
# The peer column: VmRSS / RssAnon (MiB) of the build before the fix of the digest planned
# until the year 4001, after its first notification (bench/README.md).
BEFORE_FIX = {"empty store": "before: 62.3 / 34.8 after 1 notification",
              "100,000 todos": "before: 64.1 / 36.6 after 1 notification"}


def run(h):
    empty = memory_of(h, "empty store", "memory-empty", 0)
    full = memory_of(h, "100,000 todos", "memory-100k", 100000)
    h.row("nudged RSS, empty store (MiB)", "0", fmt(empty["idle"][0]), "-", "< 32 MiB",
          "yes" if empty["idle"][0] < 32 else "no")
    h.row("nudged RSS, 100,000 todos (MiB)", "100,000", fmt(full["idle"][0]), "-", "within 2 MiB of empty",
          "yes" if full["idle"][0] - empty["idle"][0] <= 2 and full["idle"][0] < 32 else "no")
    for name, todos, sample in (("empty store", "0 + 1,000", empty), ("100,000 todos", "100,000 + 1,000", full)):
        rss, anon = sample["after"]
        grew = sample["fired_all"][1] - sample["fired_100"][1]
        met = rss < 32 and anon < 8 and grew < 1
        target = "< 32 MiB / < 8 MiB; anonymous grows < 1 MiB from the 100th to the 1,000th notification"
        if sample is full:
            met = met and rss - empty["after"][0] <= 2
            target += "; within 2 MiB of empty"
        h.row(f"nudged RSS / anonymous after {FIRINGS:,} notifications and {RELOADS} reloads, {name} (MiB)",
              todos, f"{fmt(rss)} / {fmt(anon)}", BEFORE_FIX[name], target, "yes" if met else "no")


def memory_of(h, name, folder_name, count):
    """VmRSS and RssAnon (MiB) of one nudged: idle 3 s after start; after FIRINGS
    notifications (also after the 100th); and 3 s after RELOADS reloads that follow them."""
    say(f"memory: nudged with {name}: idle, then {FIRINGS:,} notifications and {RELOADS} reloads")
    folder, env = h.folder(folder_name, MEMORY_CONFIG)
    key = "100k" if count else "empty"
    if count:
        subprocess.run([sys.executable, os.path.join(BENCH, "gen.py"), "--count", str(count), "--seed", "42",
                        "--db", env["NUDGE_DB"]], check=True, env=env)
        started = time.monotonic()
        h.plan(env)  # plans the reminders of the new todos, as bench/run's setup does
        h.detail(f"plan_{key}_s", fmt(time.monotonic() - started, 2))
    started = time.monotonic()
    daemon = h.nudged(folder, env)
    h.detail(f"start_{key}_s", fmt(time.monotonic() - started, 3))
    sample = {}

    def mib():
        return daemon.status("VmRSS") / 1024, daemon.status("RssAnon") / 1024
    try:
        time.sleep(3)
        sample["idle"] = mib()
        # Todos added one by one with `nudge add` while nudged runs, each due at the whole
        # second after next (one due before its creation never fires, and on a loaded machine
        # an add crossed the next second), so nudged reacts to each commit, fires each alone
        # and shows it. Paced, and at most IN_FLIGHT not yet shown.
        started = time.monotonic()

        def ours(event):
            return event["message"].startswith("delivered: Memory ")

        def shown():
            return len(daemon.matching("delivered", ours))
        next_add = time.monotonic()
        for n in range(1, FIRINGS + 1):
            deadline = time.monotonic() + 60
            while n - 1 - shown() >= IN_FLIGHT:
                if time.monotonic() > deadline or daemon.process.poll() is not None:
                    raise Failed(f"{shown()} of {n - 1} notifications shown after 60 s (log: {daemon.log.name})")
                time.sleep(0.01)
            time.sleep(max(0.0, next_add - time.monotonic()))
            next_add = time.monotonic() + 1 / PER_SECOND
            h.nudge(env, "add", f"Memory {n}", "--due", local(int(time.time()) + 2))
            if n == 100:
                daemon.wait_for("delivered", 100, timeout=30, where=ours)
                sample["fired_100"] = mib()
        daemon.wait_for("delivered", FIRINGS, timeout=30, where=ours)
        sample["fired_all"] = mib()
        h.detail(f"notifications_{key}_s", fmt(time.monotonic() - started, 1))
        started = time.monotonic()
        for i in range(RELOADS):
            done = len(daemon.matching("reloaded"))
            if i % 2 == 0:
                os.kill(daemon.pid, signal.SIGHUP)
            else:
                # Other rules each time: nudged plans every todo again.
                with open(env["NUDGE_CONFIG"], "w") as f:
                    f.write(MEMORY_CONFIG + f"[digest]\ntime = 08:{i:02}\n")
            daemon.wait_for("reloaded", done + 1, timeout=120)
        h.detail(f"reloads_{key}_s", fmt(time.monotonic() - started, 2))
        time.sleep(3)
        sample["after"] = mib()
        h.detail(f"hwm_{key}_mib", fmt(daemon.status("VmHWM") / 1024))
    finally:
        daemon.stop()
        for point, (rss, anon) in sample.items():
            h.detail(f"rss_anon_{key}_{point}_mib", f"{fmt(rss)} {fmt(anon)}")
    return sample
