#!/usr/bin/env python3
"""Turn the hyperfine exports and RSS samples written by bench/run into a Markdown table.

    report.py OUT_DIR SMALL LARGE

OUT_DIR/json/<op>-<size>.json   hyperfine --export-json; results[0] is nudge, results[1] task
OUT_DIR/rss-<size>.txt          "nudge KiB" and "task KiB" lines (peak RSS of a list), and
                                "nudge-json KiB" and "task-json KiB" (of list --all --json
                                and task export)
OUT_DIR/meta.txt                "key<TAB>value" lines for the notes under the table
OUT_DIR/extra-rows.tsv          rows measured otherwise (the schedule, the service):
                                label, todos, nudge, peer, target, met ("yes", "no" or "-")
"""

import json
import os
import sys

out, small, large = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])


def medians(op, size):
    """(nudge ms, task ms or None, runs) from one hyperfine export, or None if not run."""
    path = os.path.join(out, "json", f"{op}-{size}.json")
    if not os.path.exists(path):
        return None
    results = json.load(open(path))["results"]
    ms = [r["median"] * 1000 for r in results]
    return ms[0], (ms[1] if len(ms) > 1 else None), len(results[0]["times"])


def rss(size, tool="nudge"):
    """(nudge MiB, task MiB or None) of the list run named `tool` in rss-<size>.txt."""
    path = os.path.join(out, f"rss-{size}.txt")
    if not os.path.exists(path):
        return None
    values = dict(line.split() for line in open(path) if line.strip())
    mib = {k: int(v) / 1024 for k, v in values.items()}
    if tool not in mib:
        return None
    return mib[tool], mib.get({"nudge": "task", "nudge-json": "task-json"}[tool])


meta = {}
if os.path.exists(os.path.join(out, "meta.txt")):
    for line in open(os.path.join(out, "meta.txt")):
        key, _, value = line.rstrip("\n").partition("\t")
        meta[key] = value

# (label, op, size, kind, bound): kind "ratio" means nudge/task <= bound, "abs" nudge < bound ms,
# "mib" nudge < bound MiB (op "rss" is the peak RSS of `list`, "rss-json" of `list --all --json`).
ROWS = [
    ("add", "add", small, "ratio", 0.2),
    ("list (all pending)", "list", small, "ratio", 0.33),
    ("list --search milk", "search", small, None, None),
    ("list +money (task +money list)", "list-tag", small, None, None),
    ("list +money priority:high overdue (task +money priority:H +OVERDUE list)", "list-filter", small, None, None),
    ("show", "show", small, None, None),
    ("done", "done", small, None, None),
    ("list peak RSS (MiB)", "rss", small, None, None),
    ("export --all (Nudge JSON; task export)", "export-json", small, "abs", 2000),
    ("export --all --format taskwarrior (task export)", "export-tw", small, "abs", 2000),
    ("import Nudge JSON into an empty database (task import)", "import-json", small, "abs", 2000),
    ("import Taskwarrior JSON into an empty database (task import)", "import-tw", small, "abs", 2000),
    ("add", "add", large, "abs", 12),
    ("add with two tags", "add-tags", large, "abs", 12),
    ("add --parent (a subtask; Taskwarrior has none)", "add-parent", large, "abs", 12),
    ("add --after (task add depends:)", "add-after", large, "abs", 12),
    ("list +money (7.5% of todos)", "list-tag", large, "abs", 100),
    ("list --search milk", "search", large, "abs", 100),
    ("list +money priority:high overdue (a filter of three terms)", "list-filter", large, "abs", 100),
    ("show", "show", large, "abs", 12),
    ("done", "done", large, "abs", 12),
    ("list (all pending)", "list", large, "abs", 150),
    ("list (all pending), shell in another zone than the plan's", "list-otherzone", large, "abs", 150),
    ("show, shell in another zone than the plan's", "show-otherzone", large, "abs", 12),
    ("list peak RSS (MiB)", "rss", large, "mib", 40),
    ("list --all --json (task export)", "list-json", large, "abs", 1000),
    ("list --all --json (task export) peak RSS (MiB)", "rss-json", large, "mib", 40),
]

task_skipped = "not run¹"
# Rows without a Taskwarrior command.
NUDGE_ONLY = {"list-otherzone", "show-otherzone", "add-parent"}
lines = ["| operation | todos | nudge (ms) | task (ms) | ratio nudge/task | target | met? |",
         "|---|---:|---:|---:|---:|---|---|"]
misses = []
for label, op, size, kind, bound in ROWS:
    if op.startswith("rss"):
        sample = rss(size, "nudge-json" if op == "rss-json" else "nudge")
        if sample is None:
            lines.append(f"| {label} | {size:,} | not measured² | - | - | - | - |")
            continue
        nudge, task = sample
        nudge_text = f"{nudge:.1f}"
    else:
        sample = medians(op, size)
        if sample is None:
            lines.append(f"| {label} | {size:,} | not run | - | - | - | - |")
            continue
        nudge, task, _ = sample
        nudge_text = f"{nudge:.1f}"
    if task is None:
        task_text = task_skipped if size == large and op not in NUDGE_ONLY else "-"
    else:
        task_text = f"{task:.1f}"
    ratio = nudge / task if task else None
    ratio_text = f"{ratio:.2f}×" if ratio is not None else "-"
    if kind == "ratio":
        target = f"≤ {bound}× task"
        met = ratio is not None and ratio <= bound
        if not met and ratio is not None:
            misses.append(f"{label} @ {size:,}: nudge/task = {ratio:.2f}×, target ≤ {bound}× "
                          f"(nudge {nudge:.1f} ms would need to be ≤ {bound * task:.1f} ms)")
    elif kind == "mib":
        target = f"< {bound} MiB"
        met = nudge < bound
        if not met:
            misses.append(f"{label} @ {size:,}: {nudge:.1f} MiB, target < {bound} MiB")
    elif kind == "abs":
        target = f"< {bound} ms"
        met = nudge < bound
        if not met:
            misses.append(f"{label} @ {size:,}: {nudge:.1f} ms, target < {bound} ms "
                          f"({nudge / bound:.1f}× the budget)")
    else:
        target, met = "-", None
    met_text = "-" if met is None else ("yes" if met else "**no**")
    lines.append(f"| {label} | {size:,} | {nudge_text} | {task_text} | {ratio_text} | {target} | {met_text} |")

extra = os.path.join(out, "extra-rows.tsv")
if os.path.exists(extra):
    for line in open(extra):
        if not line.strip():
            continue
        label, todos, nudge_text, peer, target, met = line.rstrip("\n").split("\t")
        met_text = {"yes": "yes", "no": "**no**"}.get(met, "-")
        if met == "no":
            misses.append(f"{label} @ {todos}: {nudge_text}, target {target}")
        lines.append(f"| {label} | {todos} | {nudge_text} | {peer} | - | {target} | {met_text} |")

runs = meta.get("runs", "?")
warmup = meta.get("warmup", "?")
notes = [
    "",
    f"Median wall time of {runs} runs after {warmup} warm-up runs (hyperfine {meta.get('hyperfine', '?')}), "
    "output discarded. Timed commands: `nudge --db DB add \"Bench todo\" --due tomorrow` / "
    "`task add \"Bench todo\" due:tomorrow`; `nudge list` / `task list`; `nudge list --search milk` / "
    "`task /milk/ list`; `nudge show ID` / `task UUID info`; `nudge done ID` / `task UUID done` "
    "(a different pending todo every run); `nudge export --all [--format taskwarrior]` / `task export`; "
    "`nudge import FILE` into a database removed before every run (FILE: nudge's own export, or "
    "the generated Taskwarrior JSON) / `task import` of that Taskwarrior JSON into an emptied data folder. "
    "Peak RSS: maximum resident set of `list` (and of `list --all --json` / `task export`) over "
    f"{meta.get('rss_runs', '?')} runs (`/usr/bin/time -f %M`). Every command runs with "
    f"`TZ={meta.get('zone', '?')}`, the zone the schedule was planned in, except the rows \"shell in another "
    f"zone than the plan's\", run with `TZ={meta.get('other_zone', '?')}`.",
    "",
    f"Data: `bench/gen.py --seed {meta.get('seed', '?')}`: realistic titles (about 3% contain \"milk\"), "
    "about 60% with a due date within -30..+60 days (half all-day, half timed), 20% with notes "
    "(Taskwarrior: an annotation), half in one of 5 categories (Taskwarrior: a project), about 10% "
    "already done. Taskwarrior runs with `hooks=off`, `gc=off`, `confirmation=off`, `verbose=nothing`.",
]
if medians("add", large) and medians("add", large)[1] is None:
    notes += ["",
              f"¹ Taskwarrior was not run at {large:,} todos (`BENCH_TASK_100K=0`): there each of its "
              "commands takes 1-7 s (importing the data takes about 10 s). `bench/run` alone includes it, "
              "with 5 runs after 1 warm-up at that size."]
elif meta.get("large_runs"):
    notes += ["", f"At {large:,} todos: median of {meta['large_runs']} runs after {meta.get('large_warmup', '?')} "
              "warm-up run(s), since Taskwarrior takes seconds per command there."]
if rss(small) is None or rss(large) is None:
    notes += ["", "² `/usr/bin/time` (Debian package `time`) was not available."]
calib = meta.get("task_next")
notes += ["",
          f"Machine: {meta.get('cpu', '?')}, {meta.get('cores', '?')} cores; "
          f"load average {meta.get('load_before', '?')} before, {meta.get('load_after', '?')} after. "
          f"Taskwarrior {meta.get('task_version', '?')}; nudge {meta.get('nudge_rev', '?')} "
          f"(release build); {meta.get('date', '?')}."
          + (f" Calibration: `task next` at {small:,} todos took {calib} ms "
             f"(85 ms on a quiet reference machine of this class)." if calib else "")]
if meta.get("service_load_before"):
    notes += ["", "Service rows (`bench/service`: nudged with a private bus, Xvfb and dunst 1.9; raw numbers in "
              f"`service.txt`): load average {meta['service_load_before']} before, "
              f"{meta.get('service_load_after', '?')} after."]
try:
    busy = float(meta.get("load_before", "0").split()[0]) > 0.5 or float(meta.get("load_after", "0").split()[0]) > 0.5
except ValueError:
    busy = False
if busy:
    notes += ["", "⚠ The machine was not idle while measuring (see the load averages); wall times, "
              "and so the ratios, are noisier than usual. Re-run on a quiet machine for the README."]
if misses:
    notes += ["", "Targets missed:", ""] + [f"- {m}" for m in misses]

print("\n".join(lines + notes))
