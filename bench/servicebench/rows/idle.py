"""Idle cost: the context switches of an idle nudged (todos due in 10 days) over 60 s, beside
remind's."""

import os
import shutil
import subprocess
import time

from ..common import local, say, warn


def run(h):
    say("idle: nudged with 5 todos due in 10 days, context switches over 60 s")
    folder, env = h.folder("idle")
    far = int(time.time()) + 10 * 86400
    for i in range(5):
        h.nudge(env, "add", f"Far away {i + 1}", "--due", local(far + 60 * i))
    daemon = h.nudged(folder, env)
    peer = start_remind(h, folder)
    try:
        time.sleep(5)
        before = context_switches(daemon.pid)
        peer_before = context_switches(peer.pid) if peer else None
        time.sleep(60)
        after = context_switches(daemon.pid)
        peer_after = context_switches(peer.pid) if peer else None
    finally:
        daemon.stop()
        if peer:
            h.procs.stop(peer)
    wakeups = switches_between(before, after)
    h.detail("idle_voluntary_60s", wakeups)
    h.detail("idle_involuntary_60s", switches_between(before, after, 1))
    h.detail("idle_threads_before_after", f"{len(before)} {len(after)}")
    if len(after) < len(before):
        warn(f"idle: {len(before) - len(after)} thread(s) of nudged ended during the minute; "
             "their switches in that minute are not counted")
    if peer:
        peer_wakeups = switches_between(peer_before, peer_after)
        h.detail("remind_voluntary_60s", peer_wakeups)
        peer_text = f"remind -z: {peer_wakeups}"
    else:
        peer_text = "remind -z: wakes every minute (not installed here)"
    h.row("nudged idle wakeups in 60 s (count)", "5", str(wakeups), peer_text, "0",
          "yes" if wakeups == 0 else "no")


def start_remind(h, folder):
    """remind in daemon mode with one reminder 10 days ahead, or None without remind."""
    if not shutil.which("remind"):
        return None
    path = os.path.join(folder, "reminders.rem")
    day = time.localtime(time.time() + 10 * 86400)
    with open(path, "w") as f:
        f.write(f"REM {time.strftime('%d %b %Y', day)} AT 09:00 MSG Far away\n")
    return h.procs.start(["remind", "-z", path], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         stdin=subprocess.DEVNULL, env={**os.environ, "HOME": folder})


def context_switches(pid):
    """{thread id: (voluntary, involuntary)} context switches of every thread of pid."""
    counts = {}
    task = f"/proc/{pid}/task"
    for tid in os.listdir(task):
        voluntary = involuntary = 0
        try:
            with open(f"{task}/{tid}/status") as f:
                for line in f:
                    if line.startswith("voluntary_ctxt_switches:"):
                        voluntary = int(line.split()[1])
                    elif line.startswith("nonvoluntary_ctxt_switches:"):
                        involuntary = int(line.split()[1])
        except FileNotFoundError:  # a thread that just ended
            continue
        counts[tid] = (voluntary, involuntary)
    return counts


def switches_between(before, after, index=0):
    """Context switches between two samples: threads present in both by their difference, threads
    started meanwhile by their whole count (a thread that ended meanwhile is not counted)."""
    return sum(count[index] - before.get(tid, (0, 0))[index] for tid, count in after.items())
