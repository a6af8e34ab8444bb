import NudgeHelp

/// What `nudged --help` prints and nudged(8) says, in one place.
public enum DaemonManual {
    static let summary = "the Nudge reminder service"
    static let arguments = PathOption.synopsis

    static let description = """
        nudged runs in the foreground (systemd starts it: systemctl --user enable --now nudge),
        shows each reminder when it is due as a desktop notification with Done and Snooze
        buttons, and logs to the journal (journalctl --user -t nudged).

        It plans from the todos in the database and the rules of the config file, sleeps until
        the next reminder, and wakes early when the database changes (a commit by nudge), when
        the config file or the time zone (/etc/localtime) changes, and when the clock is set
        or the machine resumes from suspend. A notification waits in the database until the
        notification server has shown it, so none is lost when the server is missing or the
        service stops. With `[sync] vdir` in the config file it also keeps the todos and that
        folder in step, and runs `[sync] command`.
        """

    static let options = [
        HelpEntry("--" + PathOption.db.rawValue, argument: PathOption.placeholder, "The database; by default $NUDGE_DB, else $XDG_DATA_HOME/nudge/nudge.db (~/.local/share/nudge/nudge.db)."),
        HelpEntry("--" + PathOption.config.rawValue, argument: PathOption.placeholder, "The config file; by default $NUDGE_CONFIG, else $XDG_CONFIG_HOME/nudge/nudge.conf (~/.config/nudge/nudge.conf). A file named by --config or $NUDGE_CONFIG must exist."),
        HelpEntry("--help", "Show this help and exit."),
    ]

    /// What `nudged --help` prints.
    static var help: String {
        """
        nudged: \(summary)

        Usage: nudged \(arguments)

        \(HelpText.plainText(description))

        Options:
        \(options.plainText())

        nudged(8) tells more: signals, readiness, catch-up and the journal fields.

        """
    }

    static let signals = [
        HelpEntry("SIGHUP", "Read the config file again (systemctl --user reload nudge). A broken file is logged and the rules in use stay."),
        HelpEntry("SIGTERM, SIGINT", "Stop: wait up to a second for the notifications being shown to be answered, then exit with status 0. Those unanswered are shown after the next start."),
    ]

    static let readiness = [
        HelpEntry("READY=1", "Sent once the service is listening: signals, the session bus, the database, the files it watches."),
        HelpEntry("STATUS=", "The next reminder (Next: Buy milk (due) at tomorrow 09:00), or why the service failed; systemctl --user status nudge shows it."),
        HelpEntry("RELOADING=1", "Sent while the config file is read again, followed by READY=1."),
        HelpEntry("STOPPING=1", "Sent on SIGTERM and SIGINT."),
        HelpEntry("WATCHDOG=1", "Sent at half the unit's WatchdogSec= (the unit sets 30 s), so a hung service is restarted."),
        HelpEntry("ERRNO=", "With STATUS= when the service cannot go on because of a system error: its number (2 for a missing bus socket, 107 when it lost the session bus); none for a broken config file or database."),
    ]

    static let catchUp = """
        Reminders that came due while the service was not running (the machine was off, or the
        session had ended) are found when it starts and handled by `[catchup] policy` in the
        config file: all shows each of them, digest (the default) shows one notification naming
        them all, and skip-older-than shows only those missed for at most `[catchup] max_age`
        and records the older ones as missed without showing them. Each is logged as a missed
        event. Under digest, a daily digest that was missed is shown on its own, late; under
        the other policies it counts as any other reminder.

        While the machine sleeps the service is not woken; when it resumes, the clock jump
        wakes it, and what came due during the sleep is shown at once, grouped into one
        notification when more than `[notifications] group_above` come due together.
        """

    static let journal = """
        Every event is a structured journal entry with SYSLOG_IDENTIFIER=nudged; MESSAGE says
        what happened in a sentence, PRIORITY is 6 (info), 7 for a sync pass that changed
        nothing, 4 or 3 for failures. Without a journal the entries go to stderr as one line
        each. `nudge history ID` reads a todo's entries back. The fields:
        """

    static let environment = [
        HelpEntry("NUDGE_DB", "The database, when --db is not given."),
        HelpEntry("NUDGE_CONFIG", "The config file, when --config is not given; it must exist."),
        HelpEntry("XDG_DATA_HOME, XDG_CONFIG_HOME, HOME", "Where the database and the config file are by default."),
        HelpEntry("XDG_CACHE_HOME", "Where the quote of the day of the digest is cached ($XDG_CACHE_HOME/nudge/quote)."),
        HelpEntry("DBUS_SESSION_BUS_ADDRESS, XDG_RUNTIME_DIR", "The session bus, where the notification server is."),
        HelpEntry("NOTIFY_SOCKET, WATCHDOG_USEC", "Set by systemd for the readiness messages and the watchdog."),
    ]

    static let exitStatus = [
        HelpEntry("0", "Stopped by SIGTERM or SIGINT, or --help."),
        HelpEntry("1", "Could not start (no session bus, a broken config file, a database it cannot use), or lost the session bus or its database while running; the reason is one line on stderr and in STATUS=. The unit restarts it (Restart=on-failure)."),
        HelpEntry("2", "Wrong arguments."),
    ]

    static let examples = """
        Start it now and with every graphical session, then see what it plans next:

          systemctl --user enable --now nudge
          systemctl --user status nudge

        Read the config file again after editing it (it also notices by itself):

          systemctl --user reload nudge

        What it did, in all, for todo 12, and every reminder missed while it was not running:

          journalctl --user -t nudged
          journalctl --user -t nudged NUDGE_TODO_ID=12
          journalctl --user MESSAGE_ID=\(ServiceEvent.Kind.missed.messageID)

        Run it in a terminal on another database:

          nudged --db /tmp/test.db
        """

    public static func manualPage(version: String) -> ManualPage {
        let events = ServiceEvent.Kind.allCases.map { kind in
            HelpEntry(kind.rawValue, argument: "MESSAGE_ID=" + kind.messageID, kind.meaning)
        }
        return ManualPage(name: "nudged", section: 8, source: "Nudge " + version, manual: "System Manager's Manual", summary: summary, sections: [
            .init("SYNOPSIS", [.usage(command: "nudged", arguments: arguments)]),
            .init("DESCRIPTION", [.text(description)]),
            .init("OPTIONS", [.entries(options)]),
            .init("SIGNALS", [.entries(signals)]),
            .init("READINESS", [.text("nudged tells systemd how it is doing with sd_notify(3) (Type=notify in the unit):"), .entries(readiness)]),
            .init("CATCH-UP", [.text(catchUp)]),
            .init("JOURNAL", [.text(journal), .entries(JournalField.allCases.map { HelpEntry($0.rawValue, $0.meaning) }),
                              .text("The events, as NUDGE_EVENT names them:"), .entries(events)]),
            .init("ENVIRONMENT", [.entries(environment)]),
            .init("EXIT STATUS", [.entries(exitStatus)]),
            .init("FILES", [.entries([
                HelpEntry("~/.local/share/nudge/nudge.db", "The database, shared with nudge(1)."),
                HelpEntry("~/.config/nudge/nudge.conf", "The config file, described in nudge.conf(5)."),
                HelpEntry("nudge.service", "The systemd user unit that runs nudged, in lib/systemd/user under the installation prefix."),
            ])]),
            .init("EXAMPLES", [.text(examples)]),
            .init("SEE ALSO", [.text("nudge(1), nudge.conf(5), systemctl(1), journalctl(1), sd_notify(3), systemd.service(5)")]),
        ])
    }
}
