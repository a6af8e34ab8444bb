#!/usr/bin/python3
"""The filter language of `nudge help filter`, evaluated apart from Nudge, for FilterOracleTests.

Reads one JSON object on stdin: {"now": "2026-11-29T10:53:00", "zone": "Europe/Berlin",
"repeating": [ids], "todos": [what `nudge list --all --json` prints], "filters": [[words]]}
and prints a JSON array: for each filter, the sorted ids of the todos it matches.
Only the WHEN forms today, tomorrow, YYYY-MM-DD and "YYYY-MM-DD HH:MM" are known here.
"""
import datetime
import json
import sys
from zoneinfo import ZoneInfo


def main():
    given = json.load(sys.stdin)
    zone = ZoneInfo(given["zone"])
    now = datetime.datetime.fromisoformat(given["now"]).replace(tzinfo=zone)
    todos = given["todos"]
    repeating = set(given["repeating"])
    by_uuid = {t["uuid"]: t for t in todos}
    by_id = {t["id"]: t for t in todos}
    world = World(zone, now, repeating, by_uuid, by_id)
    answers = []
    for words in given["filters"]:
        status, matches = parse(words, world)
        chosen = []
        for todo in todos:
            if status == "pending" and todo["completed"]:
                continue
            if status == "completed" and not todo["completed"]:
                continue
            if matches(todo):
                chosen.append(todo["id"])
        answers.append(sorted(chosen))
    json.dump(answers, sys.stdout)


class World:
    def __init__(self, zone, now, repeating, by_uuid, by_id):
        self.zone, self.now, self.repeating, self.by_uuid, self.by_id = zone, now, repeating, by_uuid, by_id
        self.today = now.date()

    def start(self, day):
        return datetime.datetime.combine(day, datetime.time(0, 0), tzinfo=self.zone)

    def when(self, text):
        """A day (datetime.date) or a moment (aware datetime)."""
        low = text.lower()
        if low == "today":
            return self.today
        if low == "tomorrow":
            return self.today + datetime.timedelta(days=1)
        if " " in text:
            return datetime.datetime.fromisoformat(text.replace(" ", "T")).replace(tzinfo=self.zone)
        return datetime.date.fromisoformat(text)


def due_of(todo):
    """("day", date) or ("at", aware datetime) or None."""
    if todo["due"] is None:
        return None
    if todo["allDay"]:
        return ("day", datetime.date.fromisoformat(todo["due"]))
    return ("at", datetime.datetime.fromisoformat(todo["due"]))


def tokens(words):
    out = []
    for word in words:
        word = word.strip()
        if not word:
            continue
        if any(c.isspace() for c in word):
            out.append(("word", word))
            continue
        opens = len(word) - len(word.lstrip("("))
        word = word[opens:]
        closes = len(word) - len(word.rstrip(")"))
        word = word[:len(word) - closes]
        out += [("open", None)] * opens
        if word.lower() == "or":
            out.append(("or", None))
        elif word.lower() == "and":
            out.append(("and", None))
        elif word:
            out.append(("word", word))
        out += [("close", None)] * closes
    return out


def parse(words, world):
    toks = tokens(words)
    position = 0
    status = ["pending"]

    def any_of():
        nonlocal position
        branches = [all_of()]
        while position < len(toks) and toks[position][0] == "or":
            position += 1
            branches.append(all_of())
        return lambda t: any(b(t) for b in branches)

    def all_of():
        nonlocal position
        items, ids = [], []
        while position < len(toks) and toks[position][0] not in ("or", "close"):
            kind, word = toks[position]
            position += 1
            if kind == "and":
                continue
            if kind == "open":
                items.append(any_of())
                assert toks[position][0] == "close"
                position += 1
                continue
            ranges = id_ranges(word)
            if ranges is not None:
                ids.append(ranges)
                continue
            if word.lower().startswith("status:"):
                status[0] = word.split(":", 1)[1].lower()
                continue
            items.append(term(word, world))
        if ids:
            items.append(lambda t: any(lo <= t["id"] <= hi for lo, hi in ids))
        return lambda t: all(i(t) for i in items)

    matches = any_of() if toks else (lambda t: True)
    assert position == len(toks)
    return status[0], matches


def id_ranges(word):
    parts = word.split("-", 1)
    if all(p.isdigit() and p.isascii() for p in parts):
        return (int(parts[0]), int(parts[-1]))
    return None


def term(word, world):
    if len(word) > 1 and word[0] in "+-":
        tag = word[1:].lower()
        has = lambda t: tag in [x.lower() for x in t["tags"]]
        return has if word[0] == "+" else (lambda t: not has(t))
    low = word.lower()
    if low == "overdue":
        def overdue(t):
            due = due_of(t)
            if t["completed"] or due is None:
                return False
            return due[1] < world.today if due[0] == "day" else due[1] < world.now
        return overdue
    if low == "blocked":
        return lambda t: any(not world.by_uuid[u]["completed"] for u in t["after"] if u in world.by_uuid)
    if low == "repeating":
        return lambda t: t["id"] in world.repeating
    if ":" in word and word.split(":", 1)[0].replace(".", "").isalpha():
        name, value = word.split(":", 1)
        name = name.lower()
        if name == "category":
            return lambda t: t["category"] is not None and t["category"].lower() == value.lower()
        if name == "priority":
            return lambda t: t["priority"] == value.lower()
        if name == "parent":
            parent = world.by_id.get(int(value))
            return lambda t: parent is not None and t["parent"] == parent["uuid"]
        if name == "due" and value.lower() == "none":
            return lambda t: t["due"] is None
        when = world.when(value)
        if name == "due":
            day = when if isinstance(when, datetime.date) and not isinstance(when, datetime.datetime) else when.date()
            return lambda t: on_day(due_of(t), day, world)
        if name == "due.before":
            return lambda t: before(due_of(t), when, world)
        if name == "due.after":
            return lambda t: after(due_of(t), when, world)
        raise ValueError(word)
    return lambda t: low in t["title"].lower() or low in (t["notes"] or "").lower()


def is_day(when):
    return not isinstance(when, datetime.datetime)


def on_day(due, day, world):
    if due is None:
        return False
    kind, value = due
    if kind == "day":
        return value == day
    return world.start(day) <= value < world.start(day + datetime.timedelta(days=1))


def before(due, when, world):
    """Due before a day starts, or before a moment (an all-day due: its day starts before it)."""
    if due is None:
        return False
    kind, value = due
    if is_day(when):
        return value < when if kind == "day" else value < world.start(when)
    return world.start(value) < when if kind == "day" else value < when


def after(due, when, world):
    """Due after a day ends, or after a moment (an all-day due: a later day than the moment's)."""
    if due is None:
        return False
    kind, value = due
    if is_day(when):
        return value > when if kind == "day" else value >= world.start(when + datetime.timedelta(days=1))
    return value > when.date() if kind == "day" else value > when


main()
