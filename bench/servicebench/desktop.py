"""The session nudged runs in: a private dbus-daemon, Xvfb on a free display and dunst, whose
history (unlimited) tells which notifications it showed and when it received each."""

import json
import os
import random
import select
import shutil
import subprocess
import sys
import time

from .common import Failed


class Session:
    """Started once for all parts; `env` is the environment every nudge and nudged runs in."""

    def __init__(self, procs, tmp):
        self.procs = procs
        self.tmp = tmp
        self.env = None
        self.to_wall = None

    def start(self):
        missing = [tool for tool in ("dbus-daemon", "Xvfb", "dunst", "gdbus") if not shutil.which(tool)]
        if missing:
            sys.exit(f"bench/service: {', '.join(missing)} not found; the service benchmarks need a private "
                     "session bus, an X server and a notification server: apt-get install dbus xvfb dunst libglib2.0-bin")
        env = dict(os.environ)
        for key in ("NUDGE_DB", "NUDGE_CONFIG", "WATCHDOG_USEC", "WATCHDOG_PID", "NOTIFY_SOCKET",
                    "DBUS_SESSION_BUS_ADDRESS", "DISPLAY", "WAYLAND_DISPLAY"):
            env.pop(key, None)
        env["XDG_CONFIG_HOME"] = os.path.join(self.tmp, "xdg-config")
        env["XDG_DATA_HOME"] = os.path.join(self.tmp, "xdg-data")
        os.makedirs(env["XDG_CONFIG_HOME"])

        # X: a free display number, high and random so that test suites starting X servers at
        # the same time (with -displayfd, from :0 up) do not race for it; tried up to 5 times.
        for attempt in range(5):
            number = str(random.randrange(200, 900))
            if os.path.exists(f"/tmp/.X{number}-lock") or os.path.exists(f"/tmp/.X11-unix/X{number}"):
                continue
            xvfb = self.procs.start(["Xvfb", ":" + number, "-screen", "0", "1024x768x24", "-nolisten", "tcp"],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            for _ in range(100):
                if os.path.exists(f"/tmp/.X11-unix/X{number}") or xvfb.poll() is not None:
                    break
                time.sleep(0.05)
            time.sleep(0.1)
            if xvfb.poll() is None and os.path.exists(f"/tmp/.X11-unix/X{number}"):
                break
            self.procs.stop(xvfb)
        else:
            sys.exit("bench/service: Xvfb did not start (5 attempts)")
        env["DISPLAY"] = ":" + number

        # A session bus that activates nothing: a dunst started by activation would lack our config.
        with open("/usr/share/dbus-1/session.conf") as f:
            conf = f.read().replace("<standard_session_servicedirs />", "").replace("<standard_session_servicedirs/>", "")
        bus_conf = os.path.join(self.tmp, "bus.conf")
        with open(bus_conf, "w") as f:
            f.write(conf)
        bus = self.procs.start(["dbus-daemon", "--config-file", bus_conf, "--nofork", "--print-address=1",
                                f"--address=unix:path={self.tmp}/bus"],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        ready, _, _ = select.select([bus.stdout], [], [], 15)
        address = bus.stdout.readline().strip() if ready else ""
        if not address:
            sys.exit("bench/service: dbus-daemon did not start")
        env["DBUS_SESSION_BUS_ADDRESS"] = address

        # dunst: show everything at once, keep every one in its history (read by shown()). No
        # rule script records them: dunst forks for each and waits for the fork before it reads
        # the next Notify. The timeout puts each second's expiries (a redraw each) half-way
        # between the whole seconds at which the fire parts' reminders are due.
        folder = os.path.join(self.tmp, "dunst")
        os.makedirs(os.path.join(env["XDG_CONFIG_HOME"], "dunst"))
        os.makedirs(folder)
        with open(os.path.join(env["XDG_CONFIG_HOME"], "dunst", "dunstrc"), "w") as f:
            f.write("""[global]
notification_limit = 0
idle_threshold = 0
show_age_threshold = -1
history_length = 0
[shown]
summary = "*"
timeout = 1500ms
# The memory part's 1,000: dunst slows down with dozens on screen, past nudged's 1 s call timeout.
[memory]
summary = "Memory *"
timeout = 100ms
""")
        self.procs.start(["dunst"], env=env, stdout=subprocess.DEVNULL,
                         stderr=open(os.path.join(folder, "dunst.log"), "w"))
        self.env = env
        for _ in range(200):
            if self.server_owner():
                break
            time.sleep(0.05)
        else:
            sys.exit(f"bench/service: dunst did not take org.freedesktop.Notifications (see {folder}/dunst.log)")
        # dunst's first drawing loads its fonts: done now, so that the first part measured does
        # not pay for it.
        self.warm_up()

    def warm_up(self):
        subprocess.run(["gdbus", "call", "--session", "--dest", "org.freedesktop.Notifications",
                        "--object-path", "/org/freedesktop/Notifications", "--method",
                        "org.freedesktop.Notifications.Notify", "Nudge", "0", "appointment-soon",
                        "Memory warm-up", "Due today 10:00", "[]", "{}", "100"],
                       env=self.env, capture_output=True, check=True)
        self.wait_shown(lambda s: s == "Memory warm-up")

    def server_owner(self):
        result = subprocess.run(["gdbus", "call", "--session", "--dest", "org.freedesktop.DBus",
                                 "--object-path", "/org/freedesktop/DBus", "--method",
                                 "org.freedesktop.DBus.NameHasOwner", "org.freedesktop.Notifications"],
                                env=self.env, capture_output=True, text=True)
        return "true" in result.stdout

    def shown(self):
        """(wall-clock time dunst received it, summary) of every notification it has taken off the
        screen so far (its history; a notification joins it when its timeout ends)."""
        result = subprocess.run(["busctl", "--user", "--json=short", "call", "org.freedesktop.Notifications",
                                 "/org/freedesktop/Notifications", "org.dunstproject.cmd0",
                                 "NotificationListHistory"], env=self.env, capture_output=True, text=True)
        if result.returncode != 0:
            raise Failed(f"dunst's history: {result.stderr.strip()}")
        to_wall = self.to_wall if self.to_wall is not None else self.boot_to_wall()
        return [(entry["timestamp"]["data"] / 1e6 + to_wall, entry["summary"]["data"])
                for entry in json.loads(result.stdout)["data"][0]]

    @staticmethod
    def boot_to_wall():
        # dunst stamps each notification with its time_monotonic_now(), CLOCK_BOOTTIME on Linux.
        return time.time() - time.clock_gettime(time.CLOCK_BOOTTIME)

    def pin_clock(self):
        """Converts dunst's stamps to wall-clock time as the wall clock is now, whatever steps
        it takes before the history is read (NTP can set it back between a part's notifications
        and the reading)."""
        self.to_wall = self.boot_to_wall()

    def clock_step_ms(self):
        """How far the wall clock moved against CLOCK_BOOTTIME since pin_clock()."""
        return (self.boot_to_wall() - self.to_wall) * 1000

    def wait_shown(self, predicate, count=1, timeout=10.0):
        deadline = time.monotonic() + timeout
        while True:
            found = [r for r in self.shown() if predicate(r[1])]
            if len(found) >= count:
                return found
            if time.monotonic() > deadline:
                raise Failed(f"dunst's history holds {len(found)} of {count} notifications after {timeout:.0f} s")
            time.sleep(0.1)

