"""Fire latency while bursts of on_fire hooks run."""

import statistics
import time

from ..common import Failed, fmt, local, percentile, say
from ..harness import AT_DUE_ONLY


def run(h):
    """The fire latency of reminders due one per second while bursts of 100 todos due at
    one instant each run an on_fire hook (100 hooks at once, up to max_running = 64 of
    them running together, each reading its stdin and sleeping a second)."""
    count, bursts, burst_size, every = 95, 5, 100, 20
    say(f"hooks: {count} reminders one per second, and {bursts} bursts of {burst_size} on_fire hooks at once")
    config = (AT_DUE_ONLY + "[notifications]\ngroup_above = 10\n[hooks]\n"
              "on_fire = /bin/sh -c 'cat > /dev/null; sleep 1'\nmax_running = 64\n")
    folder, env = h.folder("hooks", config)
    base = int(time.time()) + 30
    dues = {}
    measured = [base + s for s in range(1, every * bursts) if s % every != 0][:count]
    for i, due in enumerate(measured):
        dues[f"Fire {i + 1:03}"] = due
    todos = [(title, due) for title, due in dues.items()]
    todos += [(f"Burst {b}-{i:03}", base + b * every) for b in range(bursts) for i in range(burst_size)]
    for title, due in todos:
        h.nudge(env, "add", title, "--due", local(due))
    if time.time() > base - 1:
        raise Failed(f"adding the {len(todos)} todos took too long (the machine is busy); try again")
    daemon = h.nudged(folder, env)
    try:
        ours = lambda e: e.get("rule") == "due" and e.get("message", "").startswith("delivered: Fire ")
        delivered = daemon.wait_for("delivered", count, timeout=measured[-1] - time.time() + 20, where=ours)
        hooks = daemon.wait_for("hook", count + bursts * burst_size, timeout=30)
    finally:
        daemon.stop()
    latencies = [float(e["latency_ms"]) for e in delivered if ours(e)]
    failed = [e for e in hooks if e.get("message", "").find("exited with status 0") < 0]
    if failed:
        raise Failed(f"{len(failed)} hooks did not exit with status 0, e.g. {failed[0].get('message')}")
    p50, p99 = statistics.median(latencies), percentile(latencies, 99)
    h.detail("hooks_latency_ms", " ".join(fmt(x) for x in latencies))
    h.detail("hooks_p50_p99_max", f"{fmt(p50)} {fmt(p99)} {fmt(max(latencies))}")
    h.row(f"fire latency p99 with {burst_size} on_fire hooks at once every {every} s (ms)", str(count),
          fmt(p99), "-", "< 20 ms", "yes" if p99 < 20 else "no")
