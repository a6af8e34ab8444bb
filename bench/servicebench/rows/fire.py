"""Fire latency: from a reminder's due instant to the notification server's answer."""

import os
import statistics
import subprocess
import time

from ..common import BENCH, Failed, fmt, local, percentile, say
from ..harness import AT_DUE_ONLY, insert_todos

# The peer column: p50 / p99 of the build before a batch's Notify calls were pipelined, each
# waiting for the answer to the one before (bench/README.md).
BEFORE_PIPELINING = {4: "before: 17.8 / 55.1", 20: "before: 7.9 / 20.5"}


def run(h):
    # One reminder per whole second (due times are whole seconds): the service's own
    # latency. Then 4 per second, each shown alone, and 20 per second, above group_above
    # (10), each second's as one grouped notification: what several due at once add.
    rates = os.environ.get("BENCH_FIRE_RATES", "1,4,20")
    # Each rate runs 100 s: with 4 a second over 25 s, one slow second of the machine's was 4%
    # of the answers, and so the p99 by itself.
    for per_second, count in ((1, 100), (4, 400), (20, 2000)):
        if str(per_second) in rates.split(","):
            fire_at(h, per_second, count)


def fire_at(h, per_second, count):
    group_above = 10
    grouped = per_second > group_above
    say(f"fire latency: {count} reminders, {per_second} due at each whole second"
        + (" (one grouped notification each second)" if grouped else ""))
    folder, env = h.folder(f"fire-{per_second}", AT_DUE_ONLY + f"[notifications]\ngroup_above = {group_above}\n")
    seconds = (count + per_second - 1) // per_second
    if grouped:
        # Too many for `nudge add` one by one: inserted and planned as the burst part does.
        base = int(time.time()) + 15
        insert_todos(env["NUDGE_DB"], [base + i // per_second for i in range(count)], "Fire")
        h.plan(env)
        summary = f"{per_second} todos due"
        dues = {}
    else:
        base = int(time.time()) + 10 + count // 40  # `nudge add` one by one: up to 25 ms each
        dues = {}
        for i in range(count):
            # The rate in the title: dunst's history keeps the runs before.
            title = f"Fire {per_second}/s {i + 1:03}"
            dues[title] = base + i // per_second
            h.nudge(env, "add", title, "--due", local(dues[title]))
    if time.time() > base - 1:
        raise Failed(f"adding the {count} todos took too long (the machine is busy); try again")
    key = f"fire_{per_second}_per_second"
    h.session.pin_clock()
    daemon = h.nudged(folder, env)
    try:
        last = base + seconds - 1
        notifications = seconds if grouped else count
        delivered = daemon.wait_for("delivered", notifications, timeout=last - time.time() + 20)
        if grouped:
            shown = h.session.wait_shown(lambda s: s.startswith(summary), seconds, timeout=10)
        else:
            shown = h.session.wait_shown(lambda s: s.startswith(f"Fire {per_second}/s "), count, timeout=10)
    finally:
        daemon.stop()
    h.check_clock(key)
    latencies = [float(e["latency_ms"]) for e in delivered]
    if grouped:
        # Shown in the order they were due, one each second.
        screen = [(stamp - (base + k)) * 1000 for k, (stamp, _) in enumerate(sorted(shown))]
    else:
        screen = [(stamp - dues[summary]) * 1000 for stamp, summary in shown if summary in dues]
    p50, p99 = statistics.median(latencies), percentile(latencies, 99)
    floor = None if grouped or per_second == 1 else server_floor(h, per_second, count, key)
    h.detail(f"{key}_latency_ms", " ".join(fmt(x) for x in latencies))
    h.detail(f"{key}_p50_p99_max", f"{fmt(p50)} {fmt(p99)} {fmt(max(latencies))}")
    h.detail(f"{key}_due_to_dunst_p50_p99_max",
             f"{fmt(statistics.median(screen))} {fmt(percentile(screen, 99))} {fmt(max(screen))}")
    if per_second == 1:
        h.row("fire latency p50, due → Notify answered (ms)", str(count), fmt(p50), "-", "-", "-")
        h.row("fire latency p99, due → Notify answered (ms)", str(count), fmt(p99), "-", "< 20 ms",
              "yes" if p99 < 20 else "no")
    else:
        peer = BEFORE_PIPELINING[per_second]
        if floor:
            peer += f"; dunst's floor: {fmt(floor[0])} / {fmt(floor[1])}"
        h.row(f"fire latency p50 / p99, {per_second} due in the same second (ms)", f"{count:,}",
              f"{fmt(p50)} / {fmt(p99)}", peer, "p99 < 20 ms", "yes" if p99 < 20 else "no")


def server_floor(h, per_second, count, key):
    """p50 and p99 of the same load sent by a minimal sd-bus client (notify_floor.c) to
    the same dunst: what the server's answers take, with none of nudged's work. dunst
    answers one Notify, then draws every notification on screen before it reads the next."""
    client = os.path.join(h.tmp, "notify_floor")
    if not os.path.exists(client):
        subprocess.run(["cc", "-O2", "-o", client, os.path.join(BENCH, "notify_floor.c"), "-lsystemd"], check=True)
    say(f"fire latency floor: the same {count} Notify calls, {per_second} at each whole second, from a minimal client")
    h.session.pin_clock()
    result = subprocess.run([client, str(count), str(per_second), "Floor"], env=h.session.env,
                            capture_output=True, text=True, timeout=count / per_second + 30)
    h.check_clock(f"{key}_floor")
    if result.returncode != 0:
        raise Failed(f"notify_floor: {result.stderr.strip()}")
    latencies = [float(line) for line in result.stdout.split()]
    floor = statistics.median(latencies), percentile(latencies, 99)
    h.detail(f"{key}_floor_latency_ms", " ".join(fmt(x) for x in latencies))
    h.detail(f"{key}_floor_p50_p99_max", f"{fmt(floor[0])} {fmt(floor[1])} {fmt(max(latencies))}")
    time.sleep(3)  # until dunst's timeout has taken the last ones off the screen
    return floor
