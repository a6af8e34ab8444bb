"""nudged and what it tells: started under the session's environment, its events read from
stderr (stamped as they are read) or from the journal (stamped by journald)."""

import json
import os
import re
import shutil
import socket
import subprocess
import threading
import time

from .common import Failed, warn


class Processes:
    """Everything started here, stopped in reverse order (SIGTERM, then SIGKILL after 3 s)."""

    def __init__(self):
        self.started = []

    def start(self, args, **kwargs):
        process = subprocess.Popen(args, **kwargs)
        self.started.append(process)
        return process

    def stop(self, process, timeout=3):
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if process in self.started:
            self.started.remove(process)

    def stop_all(self):
        for process in reversed(list(self.started)):
            try:
                self.stop(process)
            except Exception as error:  # keep stopping the others
                warn(f"could not stop pid {process.pid}: {error}")



FIELDS = re.compile(r'(\w+)=("(?:[^"\\]|\\.)*"|\S+)')


def parse_line(line):
    """`nudged[12]: fired: Buy milk (due) [event=fired todo_id=3 rule=due]` -> fields, or None."""
    start = line.rfind(" [event=")
    if start < 0 or not line.endswith("]"):
        return None
    fields = {}
    for key, value in FIELDS.findall(line[start + 2:-1]):
        if value.startswith('"'):
            value = value[1:-1].replace('\\"', '"')
        fields[key] = value
    fields["message"] = line[line.find(": ") + 2:start] if ": " in line[:start] else ""
    return fields


class Nudged:
    """One nudged with its events: stderr lines stamped as they are read, or journal entries
    stamped by journald when the journal takes them."""

    def __init__(self, procs, bin_dir, folder, env, name, no_journal=None):
        self.procs = procs
        self.events = []  # dicts: t, event, todo_id, rule, latency_ms, message
        self.cond = threading.Condition()
        self.log = open(os.path.join(folder, f"{name}.log"), "w")
        args = [os.path.join(bin_dir, "nudged")]
        if no_journal:
            # A private mount namespace where /run/systemd/journal/socket refuses connections:
            # nudged logs every event to stderr, whether or not a journald runs on the machine.
            args = ["unshare", "--mount", "--propagation", "private", "sh", "-c",
                    'mount --bind "$0" /run/systemd/journal && exec "$@"', no_journal] + args
        self.process = procs.start(args, env=env,
                                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.PIPE, text=True, bufsize=1)
        self.pid = self.process.pid
        threading.Thread(target=self._read_stderr, daemon=True).start()
        self.journal = None
        if not no_journal and shutil.which("journalctl"):
            self.journal = procs.start(["journalctl", "-o", "json", "-f", "-n", "all", f"_PID={self.pid}"],
                                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
            threading.Thread(target=self._read_journal, daemon=True).start()

    def _write_log(self, text):
        try:
            self.log.write(text)
            self.log.flush()
        except ValueError:  # closed by stop()
            pass

    def _add(self, event):
        with self.cond:
            self.events.append(event)
            self.cond.notify_all()

    def _read_stderr(self):
        for line in self.process.stderr:
            t = time.time()
            self._write_log(f"{t:.6f} {line}")
            fields = parse_line(line.rstrip("\n"))
            if fields and "event" in fields:
                self._add({"t": t, "event": fields["event"], "todo_id": fields.get("todo_id"),
                           "rule": fields.get("rule"), "latency_ms": fields.get("latency_ms"),
                           "message": fields["message"]})

    def _read_journal(self):
        for line in self.journal.stdout:
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            if "NUDGE_EVENT" not in entry:
                continue
            t = int(entry["__REALTIME_TIMESTAMP"]) / 1e6
            self._write_log(f"{t:.6f} journal {entry.get('MESSAGE')}\n")
            self._add({"t": t, "event": entry["NUDGE_EVENT"], "todo_id": entry.get("NUDGE_TODO_ID"),
                       "rule": entry.get("NUDGE_RULE"), "latency_ms": entry.get("NUDGE_LATENCY_MS"),
                       "message": entry.get("MESSAGE", "")})

    def matching(self, kind, where=lambda e: True):
        with self.cond:
            return [e for e in self.events if e["event"] == kind and where(e)]

    def wait_for(self, kind, count=1, timeout=10.0, where=lambda e: True):
        """The first `count` events of `kind` (matching `where`); raises Failed after timeout."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                found = [e for e in self.events if e["event"] == kind and where(e)]
                if len(found) >= count:
                    return found[:count]
                if self.process.poll() is not None:
                    raise Failed(f"nudged exited with status {self.process.returncode} (log: {self.log.name})")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise Failed(f"{len(found)} of {count} '{kind}' events after {timeout:.0f} s (log: {self.log.name})")
                self.cond.wait(min(left, 0.5))

    def status(self, key):
        """A /proc/PID/status value in kB (VmRSS, VmHWM)."""
        with open(f"/proc/{self.pid}/status") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
        raise Failed(f"no {key} in /proc/{self.pid}/status")

    def stop(self):
        self.procs.stop(self.process)
        if self.journal:
            self.procs.stop(self.journal)
        self.log.close()


def no_journal_folder(tmp):
    """A folder with a journal socket nobody listens on, to mount over /run/systemd/journal in
    nudged's own mount namespace (root and unshare needed), or None.

    Without it nudged's events go to whichever journald runs at that moment: other test suites
    on a shared machine start and stop one. A missing socket is no way out: sd_journal_sendv
    reports success when the socket does not exist, and the events would be lost."""
    if os.geteuid() != 0 or not shutil.which("unshare") or not os.path.isdir("/run/systemd/journal"):
        warn("not root (or no unshare): reading nudged's events from stderr and the journal; a journald "
             "started or stopped meanwhile can lose some")
        return None
    folder = os.path.join(tmp, "no-journal")
    os.makedirs(folder)
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    s.bind(os.path.join(folder, "socket"))
    s.close()  # the socket file stays; sending to it fails with ECONNREFUSED
    return folder

