#!/usr/bin/env python3
"""Generate the same deterministic set of todos for nudge (SQLite) and Taskwarrior (JSON).

    gen.py --count N --seed S --db PATH [--tasks PATH] [--picks PATH] [--now UNIX]

--db     an existing nudge database with the schema already created (by a change, such as
         `nudge --db PATH category add x` then `category delete x`: showing commands never write);
         the todos are inserted with Python's sqlite3 module in one transaction.
         If the schema has reminders, the stored schedule is marked stale, so run a nudge
         command that changes something afterwards to plan the reminders of the new todos.
--tasks  also write a JSON array for `task import` with the same todos (same UUIDs).
--picks  write "id uuid" lines of pending todos that are not parents, in a random (seeded)
         order, for the `done` and `show` benchmarks.

The content depends only on --count and --seed; dates are relative to --now (default: the
current time), so that "overdue", "today" and "upcoming" always have the same proportions.
"""

import argparse
import datetime as dt
import json
import os
import random
import sqlite3
import sys
import uuid
from zoneinfo import ZoneInfo

VERBS = ["Buy", "Call", "Email", "Fix", "Write", "Review", "Book", "Pay", "Clean", "Plan",
         "Schedule", "Return", "Order", "Pick up", "Send", "Check", "Update", "Prepare",
         "Renew", "Cancel", "Water", "Print", "Sort", "Read", "Ask about"]
# "milk" is one object in 30, so about 3% of titles contain it (the search benchmark).
OBJECTS = ["milk", "bread", "the dentist", "mum", "the bank", "tax return", "car insurance",
           "passport", "the plants", "invoice", "slides", "quarterly report", "train tickets",
           "birthday present", "library books", "the garage", "bike lights", "gym membership",
           "the landlord", "coffee beans", "printer ink", "the plumber", "photos", "budget",
           "newsletter", "flight", "hotel", "vet appointment", "school form", "recipes"]
EXTRAS = ["", "", "", "", "for Ana", "before Friday", "again", "for the team", "online",
          "at the market", "with Sam", "(urgent)"]
NOTE_WORDS = ["remember", "the", "receipt", "ask", "Ana", "about", "price", "second", "floor",
              "bring", "list", "from", "last", "week", "call", "back", "after", "lunch",
              "check", "email", "link", "in", "shared", "folder", "number", "is", "on", "fridge"]
# 30% of todos get 3 of these, drawn from a generator of their own, so that every other field
# is what it was before tags: "money" is on about 7.5% of todos (the `list +money` row).
TAGS = ["money", "phone", "home", "work", "urgent", "errand", "waiting", "family", "health", "car",
        "garden", "reading"]
TAGGED_SHARE = 0.3
# 5% of pending todos (5,000 of 100,000) come after one todo of a lower id still pending, from
# a generator of their own: held by the planner (`--after`), and no cycle among them.
BLOCKED_SHARE = 0.05
CATEGORIES = [("work", "briefcase"), ("home", "user-home"), ("errands", "task-due"),
              ("health", "task-due"), ("money", "task-due")]
DAY = 86400
# One todo in 10 is a parent with 5 subtasks (10,000 parents and 50,000 subtasks of 100,000),
# drawn from a generator of their own: one level, as `nudge add --parent` makes them.
PARENT_SHARE = 0.1
SUBTASKS_EACH = 5


def local_zone_name():
    """The IANA name of the local zone, as nudge stores it for timed dues; UTC if unknown."""
    name = os.environ.get("TZ", "").lstrip(":")
    if not name:
        try:
            with open("/etc/timezone") as f:
                name = f.read().strip()
        except OSError:
            link = os.path.realpath("/etc/localtime")
            name = link.split("zoneinfo/", 1)[1] if "zoneinfo/" in link else ""
    try:
        ZoneInfo(name)
        return name
    except Exception:
        return "UTC"


def tw_stamp(unix):
    return dt.datetime.fromtimestamp(unix, dt.timezone.utc).strftime("%Y%m%dT%H%M%SZ")


def generate(count, seed, now, zone_name):
    rng = random.Random(seed)
    tag_rng = random.Random(seed + 7)
    zone = ZoneInfo(zone_name)
    today = dt.datetime.fromtimestamp(now, zone).date()
    todos = []
    for i in range(count):
        title = f"{rng.choice(VERBS)} {rng.choice(OBJECTS)} {rng.randint(1, 999)}"
        extra = rng.choice(EXTRAS)
        if extra:
            title += " " + extra
        notes = None
        if rng.random() < 0.2:
            notes = " ".join(rng.choice(NOTE_WORDS) for _ in range(rng.randint(4, 14))).capitalize() + "."
        r = rng.random()
        priority = 0 if r < 0.2 else (2 if r > 0.8 else 1)
        category = rng.randrange(len(CATEGORIES)) + 1 if rng.random() < 0.5 else None
        created = now - rng.randint(0, 120 * DAY)
        due_at = due_day = due_zone = None
        due_instant = None  # the same due as a Taskwarrior instant
        if rng.random() < 0.6:
            day = today + dt.timedelta(days=rng.randint(-30, 60))
            if rng.random() < 0.5:
                due_day = day.isoformat()
                due_instant = int(dt.datetime.combine(day, dt.time(0, 0), zone).timestamp())
            else:
                local = dt.datetime.combine(day, dt.time(rng.randint(7, 20), rng.choice([0, 15, 30, 45])), zone)
                due_at = int(local.timestamp())
                due_zone = zone_name
                due_instant = due_at
        completed = None
        if rng.random() < 0.1:
            completed = rng.randint(created, now)
        tags = tag_rng.sample(TAGS, 3) if tag_rng.random() < TAGGED_SHARE else []
        todos.append({
            "id": i + 1,
            "uuid": str(uuid.UUID(int=rng.getrandbits(128), version=4)),
            "title": title, "notes": notes, "due_at": due_at, "due_day": due_day,
            "due_zone": due_zone, "due_instant": due_instant, "priority": priority,
            "category_id": category, "completed_at": completed, "created_at": created,
            "updated_at": completed or created, "tags": tags,
        })
    after_rng = random.Random(seed + 11)
    pending = [t["id"] for t in todos if t["completed_at"] is None]
    for position, todo_id in enumerate(pending):
        if position > 0 and after_rng.random() < BLOCKED_SHARE:
            todos[todo_id - 1]["after"] = [pending[after_rng.randrange(position)]]
    return todos


def add_subtasks(todos, seed):
    """Makes PARENT_SHARE of the todos parents of SUBTASKS_EACH others each."""
    rng = random.Random(seed + 13)
    order = [t["id"] for t in todos]
    rng.shuffle(order)
    parents = int(len(todos) * PARENT_SHARE)
    for number, parent in enumerate(order[:parents]):
        start = parents + number * SUBTASKS_EACH
        for subtask in order[start:start + SUBTASKS_EACH]:
            todos[subtask - 1]["parent"] = todos[parent - 1]["uuid"]


def write_db(path, todos, now):
    db = sqlite3.connect(path, isolation_level=None)
    try:
        (existing,) = db.execute("SELECT count(*) FROM todos").fetchone()
        if existing:
            sys.exit(f"gen.py: {path} already has {existing} todos; expected a fresh database")
        db.execute("BEGIN")
        db.executemany("INSERT INTO categories (id, name, icon, created_at) VALUES (?, ?, ?, ?)",
                       [(i + 1, name, icon, now - 200 * DAY) for i, (name, icon) in enumerate(CATEGORIES)])
        db.executemany(
            "INSERT INTO todos (id, uuid, title, notes, due_at, due_day, due_zone, priority, category_id,"
            " completed_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(t["id"], t["uuid"], t["title"], t["notes"], t["due_at"], t["due_day"], t["due_zone"],
              t["priority"], t["category_id"], t["completed_at"], t["created_at"], t["updated_at"])
             for t in todos])
        columns = {row[1] for row in db.execute("PRAGMA table_info(todos)")}
        if "title_key" in columns:
            # As the store writes it (TodoStore.titleKey); the generated titles are ASCII.
            db.execute("UPDATE todos SET title_key = lower(title)")
        if "parent_uuid" in columns:
            db.executemany("UPDATE todos SET parent_uuid = ? WHERE id = ?",
                           [(t["parent"], t["id"]) for t in todos if t.get("parent")])
        if "reminded_through" in columns:
            # As a running reminder service leaves it: everything up to now has been handled.
            db.execute("UPDATE todos SET reminded_through = ? WHERE completed_at IS NULL", (now,))
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_schema WHERE type = 'table'")}
        if "todo_tags" in tables:
            db.executemany("INSERT INTO todo_tags (todo_id, position, tag, folded) VALUES (?, ?, ?, ?)",
                           [(t["id"], position, tag, tag) for t in todos for position, tag in enumerate(t["tags"])])
        if "todo_after" in tables:
            db.executemany("INSERT INTO todo_after (todo_id, blocker_id) VALUES (?, ?)",
                           [(t["id"], blocker) for t in todos for blocker in t.get("after", [])])
        if "settings" in tables:
            # Forget the schedule's fingerprint, so that the next nudge command plans the
            # reminders of every todo (bench/run runs one before timing anything).
            db.execute("DELETE FROM settings WHERE key = 'schedule_fingerprint'")
        db.execute("COMMIT")
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        db.close()


def write_tasks(path, todos):
    tasks = []
    for t in todos:
        task = {
            "uuid": t["uuid"],
            "description": t["title"],
            "status": "completed" if t["completed_at"] else "pending",
            "entry": tw_stamp(t["created_at"]),
            "modified": tw_stamp(t["updated_at"]),
            "priority": "LMH"[t["priority"]],
        }
        if t["due_instant"] is not None:
            task["due"] = tw_stamp(t["due_instant"])
        if t["completed_at"]:
            task["end"] = tw_stamp(t["completed_at"])
        if t["category_id"]:
            task["project"] = CATEGORIES[t["category_id"] - 1][0]
        if t["tags"]:
            task["tags"] = t["tags"]
        if t.get("parent"):  # as `nudge export --format taskwarrior` writes a subtask's parent
            task["nudgeparent"] = t["parent"]
        if t.get("after"):
            task["depends"] = [todos[blocker - 1]["uuid"] for blocker in t["after"]]
        if t["notes"]:  # nudge's notes are searched too; Taskwarrior searches annotations
            task["annotations"] = [{"entry": tw_stamp(t["created_at"]), "description": t["notes"]}]
        tasks.append(task)
    with open(path, "w") as f:
        json.dump(tasks, f, separators=(",", ":"))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--db", required=True)
    parser.add_argument("--tasks")
    parser.add_argument("--picks")
    parser.add_argument("--now", type=int, default=None)
    args = parser.parse_args()
    now = args.now if args.now is not None else int(dt.datetime.now(dt.timezone.utc).timestamp())
    todos = generate(args.count, args.seed, now, local_zone_name())
    add_subtasks(todos, args.seed)
    write_db(args.db, todos, now)
    if args.tasks:
        write_tasks(args.tasks, todos)
    if args.picks:
        # Not parents: `done` of a parent with open subtasks asks what to do with them.
        parents = {t["parent"] for t in todos if t.get("parent")}
        pending = [t for t in todos if not t["completed_at"] and t["uuid"] not in parents]
        random.Random(args.seed + 1).shuffle(pending)
        with open(args.picks, "w") as f:
            f.writelines(f"{t['id']} {t['uuid']}\n" for t in pending[:200])
    done = sum(1 for t in todos if t["completed_at"])
    milk = sum(1 for t in todos if "milk" in t["title"].lower() or "milk" in (t["notes"] or "").lower())
    due = sum(1 for t in todos if t["due_instant"] is not None)
    money = sum(1 for t in todos if "money" in t["tags"])
    subtasks = sum(1 for t in todos if t.get("parent"))
    print(f"gen.py: {len(todos)} todos ({done} done, {due} with a due date, {milk} matching 'milk', {money} tagged money,"
          f" {subtasks} subtasks of {int(len(todos) * PARENT_SHARE)} parents)",
          file=sys.stderr)


if __name__ == "__main__":
    main()
