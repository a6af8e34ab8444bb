"""What every part needs: a folder with a config and a database, nudge to change it, a nudged
started on it, and the report."""

import os
import sqlite3
import subprocess
import time
import uuid

from gen import local_zone_name  # the zone nudge stores for timed dues

from .common import Failed, fmt, warn
from .nudged import Nudged, no_journal_folder

AT_DUE_ONLY = "[reminders]\nbefore = none\nnag_every = off\n[digest]\nenabled = no\n"


class Harness:
    def __init__(self, bin_dir, tmp, procs, session, report):
        self.bin = bin_dir
        self.tmp = tmp
        self.procs = procs
        self.session = session
        self.report = report
        self.no_journal = no_journal_folder(tmp)

    def row(self, label, todos, value, peer, target, met):
        self.report.row(label, todos, value, peer, target, met)

    def detail(self, key, value):
        self.report.detail(key, value)

    def folder(self, name, config=AT_DUE_ONLY):
        """A folder with a config file and a database with the schema; returns (folder, env)."""
        folder = os.path.join(self.tmp, name)
        os.makedirs(folder)
        env = dict(self.session.env)
        env["NUDGE_DB"] = os.path.join(folder, "nudge.db")
        env["NUDGE_CONFIG"] = os.path.join(folder, "nudge.conf")
        with open(env["NUDGE_CONFIG"], "w") as f:
            f.write(config)
        self.plan(env)
        return folder, env

    def plan(self, env):
        """A change, which creates the database and plans every todo the stored schedule lacks
        (after gen.py or insert_todos): commands that only show never write the database."""
        self.nudge(env, "category", "add", "bench-setup")
        self.nudge(env, "category", "delete", "bench-setup")

    def nudge(self, env, *args):
        result = subprocess.run([os.path.join(self.bin, "nudge"), *args], env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if result.returncode != 0:
            raise Failed(f"nudge {' '.join(args)}: {result.stderr.strip()}")

    def nudged(self, folder, env, name="nudged"):
        daemon = Nudged(self.procs, self.bin, folder, env, name, self.no_journal)
        daemon.wait_for("planned", timeout=20)
        return daemon

    def check_clock(self, key):
        """The wall clock's step during a part (NTP, say): latencies measured across it are off by as much."""
        step = self.session.clock_step_ms()
        self.detail(f"{key}_wall_clock_step_ms", fmt(step))
        if abs(step) > 1:
            warn(f"{key}: the wall clock moved {fmt(step)} ms during this part; latencies measured across the "
                 "step are off by as much")


def insert_todos(path, dues, title):
    """Inserts a todo due at each of `dues` ("<title> 1", "<title> 2", ...) in one transaction,
    as bench/gen.py does; their ids."""
    zone = local_zone_name()
    now = int(time.time())
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("BEGIN")
        first = db.execute("SELECT coalesce(max(id), 0) + 1 FROM todos").fetchone()[0]
        ids = list(range(first, first + len(dues)))
        db.executemany(
            "INSERT INTO todos (id, uuid, title, due_at, due_zone, priority, created_at, updated_at, reminded_through)"
            " VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?)",
            [(i, str(uuid.uuid4()), f"{title} {n + 1}", due, zone, now, now, now)
             for n, (i, due) in enumerate(zip(ids, dues))])
        db.execute("DELETE FROM settings WHERE key = 'schedule_fingerprint'")
        db.execute("COMMIT")
    finally:
        db.close()
    return ids

