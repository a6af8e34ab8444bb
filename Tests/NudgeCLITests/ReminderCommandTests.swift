import Foundation
import Testing
@testable import NudgeTestSupport

/// The reminder commands end to end, at Sunday 2026-11-29 10:53 in Berlin.
struct ReminderCommandTests {
    let nudge = Nudge()

    func writeConfig(_ text: String) throws -> String {
        let path = nudge.folder.file("nudge.conf")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func upcomingListsWhatFiresInOrder() throws {
        try nudge("add", "Buy milk", "--due", "today 18:00", "--remind", "3h")
        try nudge("add", "Rent", "--due", "tomorrow", "--priority", "high")
        try nudge("add", "Someday")
        let reminders = try nudge("upcoming", "--within", "1d", "--json").array()
        #expect(reminders.map { "\($0["at"]!) \($0["todo"]!) \($0["rule"]!)" } == [
            "2026-11-29T15:00:00+01:00 1 remind 3h",
            "2026-11-29T17:50:00+01:00 1 before 10m",
            "2026-11-29T18:00:00+01:00 1 due",
            "2026-11-29T19:00:00+01:00 1 nag 1",
            // The schedule holds only the next nag; the later ones fire too, so they are listed.
            "2026-11-29T20:00:00+01:00 1 nag 2",
            "2026-11-29T21:00:00+01:00 1 nag 3",
            "2026-11-30T08:00:00+01:00 <null> digest",
            "2026-11-30T08:50:00+01:00 2 before 10m",
            "2026-11-30T09:00:00+01:00 2 all-day",
        ])
        try #require(!reminders.isEmpty)
        #expect(Set(reminders[0].keys) == ["at", "todo", "title", "rule", "nominal"])
        #expect(reminders[0]["title"] as? String == "Buy milk")
        let table = try nudge("upcoming", "--within", "5h").stdout
        #expect(table == """
            WHEN              LEFT     TODO  TITLE     RULE
            Sun Nov 29 15:00  4h 7min     1  Buy milk  remind 3h

            1 reminder in the next 5 hours.

            """)
    }

    @Test func theConfigFileShapesTheRules() throws {
        let config = try writeConfig("""
            [reminders]
            before = 1h
            nag_every = off
            [category.work]
            before = 1d, 30m
            [digest]
            enabled = no
            [quiet]
            hours = 22:00-07:00
            allow_high = yes
            """)
        try nudge("category", "add", "work")
        try nudge("--config", config, "add", "Report", "--due", "tomorrow 10:00", "--category", "work")
        try nudge("--config", config, "add", "Late call", "--due", "today 23:00")
        try nudge("--config", config, "add", "Urgent late call", "--due", "today 23:00", "--priority", "high")
        let rules = try nudge("--config", config, "upcoming", "--json").array().map { "\($0["todo"]!) \($0["rule"]!) \($0["at"]!)" }
        #expect(rules == [
            "3 before 1h 2026-11-29T22:00:00+01:00",
            "3 due 2026-11-29T23:00:00+01:00",
            "2 before 1h 2026-11-30T07:00:00+01:00",
            "1 before 30m 2026-11-30T09:30:00+01:00",
            "1 due 2026-11-30T10:00:00+01:00",
        ])
        let explained = try nudge("--config", config, "explain", "2").stdout
        #expect(explained.contains("before = 1h in [reminders]; held from 22:00 by quiet hours 22:00-07:00"))
        #expect(try nudge("--config", config, "explain", "1").stdout.contains("before = 1d, 30m in [category.work]"))
    }

    @Test func tagSectionsShapeTheRulesAndExplainNamesThem() throws {
        let config = try writeConfig("""
            [reminders]
            before = 1h
            nag_every = off
            [category.work]
            before = 1d, 30m
            [tag.Money]
            before = 2h
            sound = bell
            [tag.phone]
            before = 5m
            timeout = 30s
            [digest]
            enabled = no
            """)
        #expect(try nudge("--config", config, "config", "check").stdout == "\(config) is valid (3 priority, category or tag sections).\n")
        try nudge("category", "add", "work")
        try nudge("--config", config, "add", "Pay the bill", "--due", "tomorrow 10:00", "--category", "work", "+money")
        try nudge("--config", config, "add", "Call the bank", "--due", "tomorrow 11:00", "+phone", "+MONEY")
        try nudge("--config", config, "add", "Report", "--due", "tomorrow 12:00", "--category", "work")
        let rules = try nudge("--config", config, "upcoming", "--json").array().map { "\($0["todo"]!) \($0["rule"]!) \($0["at"]!)" }
        #expect(rules == [
            "3 before 1d 2026-11-29T12:00:00+01:00",
            "1 before 2h 2026-11-30T08:00:00+01:00",
            "2 before 2h 2026-11-30T09:00:00+01:00",
            "1 due 2026-11-30T10:00:00+01:00",
            "2 due 2026-11-30T11:00:00+01:00",
            "3 before 30m 2026-11-30T11:30:00+01:00",
            "3 due 2026-11-30T12:00:00+01:00",
        ])
        let first = try nudge("--config", config, "explain", "1").stdout
        #expect(first.contains("  Rules     [reminders] + [category.work] + [tag.money]\n"))
        #expect(first.contains("before = 2h in [tag.money]"))
        #expect(first.contains("  Sound     bell (set in [tag.money]); nags are silent\n"))
        // Two tags setting one key: the section nearer the top of the file wins, whatever the todo's order.
        let second = try nudge("--config", config, "explain", "2").stdout
        #expect(second.contains("  Rules     [reminders] + [tag.phone] + [tag.money]\n"))
        #expect(second.contains("before = 2h in [tag.money]"))
        #expect(second.contains("  Timeout   30s on screen (set in [tag.phone])\n"))
        let json = try nudge("--config", config, "explain", "2", "--json").object()
        #expect(json["rules"] as? [String] == ["[reminders]", "[tag.phone]", "[tag.money]"])
        // A tag added later plans the todo again by its section.
        try nudge("--config", config, "edit", "3", "+Phone")
        #expect(try nudge("--config", config, "explain", "3").stdout.contains("before = 5m in [tag.phone]"))
        let report = try nudge("--config", config, "upcoming", "--json").array().filter { $0["todo"] as? Int == 3 }
        #expect(report.map { "\($0["rule"]!) \($0["at"]!)" } == ["before 5m 2026-11-30T11:55:00+01:00", "due 2026-11-30T12:00:00+01:00"])
    }

    @Test func configCheckRefusesABadTagSectionInOneLine() throws {
        for (text, line, message) in [
            ("[tag.two words]\nbefore = 1d\n", 1, "[tag.two words]: 'two words' is not a tag: it holds a space; a tag is one word of letters, digits, - and _"),
            ("[tag.money]\nbefor = 1d\n", 2, "unknown key 'befor' in [tag.money] (did you mean before?); known keys: at_due, before, all_day_time, all_day_day_before, nag_every, nag_limit, sound, timeout, resident, escalate_after, repeat_sound"),
            ("[tag.money]\nbefore = soon\n", 2, "before: 'soon' is not a duration"),
        ] {
            let config = try writeConfig(text)
            let run = try nudge("--config", config, "config", "check")
            #expect(run.status == 1, "\(text)")
            #expect(run.stderr.hasPrefix("nudge: \(config):\(line): \(message)"), "\(run.stderr)")
            #expect(run.stderr.filter { $0 == "\n" }.count == 1)
            #expect(run.stdout.isEmpty)
        }
    }

    @Test func explainShowsEveryReminderWithItsRuleAndStatus() throws {
        try nudge("add", "Pay rent", "--due", "today 11:00", "--remind", "2h")
        let run = try nudge("explain", "1")
        #expect(run.status == 0)
        #expect(run.stdout == """
            Todo 1: Pay rent
              Due       Today 11:00 (Sunday, November 29, 2026 at 11:00)
              Rules     [reminders]
              Sound     none (the default for medium priority)
              Timeout   server: the notification server decides (the default for medium priority)
              Resident  no
              Escalate  no

            WHEN              RULE        STATUS      WHY
            Sun Nov 29 09:00  remind 2h   passed      its own reminder (nudge remind)
            Sun Nov 29 10:50  before 10m  passed      before = 10m in [reminders]
            Sun Nov 29 11:00  due         in 7min     at_due = yes in [reminders]
            Sun Nov 29 12:00  nag 1       in 1h 7min  overdue: nag_every = 1h, nag_limit = 3 in [reminders]
            Sun Nov 29 13:00  nag 2       in 2h 7min  overdue: nag_every = 1h, nag_limit = 3 in [reminders]
            Sun Nov 29 14:00  nag 3       in 3h 7min  overdue: nag_every = 1h, nag_limit = 3 in [reminders]

            """)
    }

    @Test func explainShowsTheEffectiveSoundTimeoutAndEscalation() throws {
        let config = try writeConfig("""
            [reminders]
            escalate_after = 2
            [priority.low]
            sound = bell
            repeat_sound = yes
            [priority.medium]
            nag_limit = 1
            [category.meds]
            sound = /usr/share/sounds/pill.oga
            timeout = 45s
            resident = yes
            escalate_after = none
            """)
        try nudge("category", "add", "meds")
        try nudge("--config", config, "add", "Pay rent", "--due", "today 18:00", "--priority", "high")
        try nudge("--config", config, "add", "Water plants", "--due", "today 18:00", "--priority", "low")
        try nudge("--config", config, "add", "Pills", "--due", "today 18:00", "--category", "meds")
        func alerts(_ id: String) throws -> [String] {
            try nudge("--config", config, "explain", id).stdout.split(separator: "\n").map(String.init)
                .filter { ["  Sound", "  Timeout", "  Resident", "  Escalate"].contains(where: $0.hasPrefix) }
        }
        #expect(try alerts("1") == [
            "  Sound     message-new-instant (the default for high priority); nags are silent",
            "  Timeout   never: it stays until answered (the default for high priority)",
            "  Resident  no",
            "  Escalate  to critical from nag 2 on (escalate_after = 2 in [reminders])",
        ])
        #expect(try alerts("2") == [
            "  Sound     bell (set in [priority.low]); every nag plays it (repeat_sound = yes in [priority.low])",
            "  Timeout   server: the notification server decides (the default for low priority)",
            "  Resident  no",
            "  Escalate  to critical from nag 2 on (escalate_after = 2 in [reminders])",
        ])
        try nudge("--config", config, "add", "Tidy up", "--due", "today 18:00")
        #expect(try alerts("4").last == "  Escalate  never: nag_limit = 1 stops the nags first (escalate_after = 2 in [reminders])")
        #expect(try alerts("3") == [
            "  Sound     /usr/share/sounds/pill.oga (set in [category.meds]); nags are silent",
            "  Timeout   45s on screen (set in [category.meds])",
            "  Resident  yes: it stays after a button is pressed, where the server can (resident = yes in [category.meds])",
            "  Escalate  no",
        ])
        // --json says the same.
        func alertsJSON(_ id: String) throws -> String {
            let explained = try nudge("--config", config, "explain", id, "--json").object()
            let alerts = try #require(explained["alerts"] as? [String: Any])
            return ["sound", "soundKind", "soundFrom", "repeatSound", "timeout", "timeoutFrom", "resident", "escalateAfter", "escalates"]
                .map { "\($0)=\(alerts[$0].map { $0 is NSNull ? "null" : "\($0)" } ?? "missing")" }.joined(separator: " ")
        }
        #expect(try alertsJSON("1") == "sound=message-new-instant soundKind=name soundFrom=null repeatSound=0 timeout=never timeoutFrom=null resident=0 escalateAfter=2 escalates=1")
        #expect(try alertsJSON("2") == "sound=bell soundKind=name soundFrom=[priority.low] repeatSound=1 timeout=server timeoutFrom=null resident=0 escalateAfter=2 escalates=1")
        #expect(try alertsJSON("3") == "sound=/usr/share/sounds/pill.oga soundKind=file soundFrom=[category.meds] repeatSound=0 timeout=45s timeoutFrom=[category.meds] resident=1 escalateAfter=null escalates=0")
        #expect(try alertsJSON("4").hasSuffix("escalateAfter=2 escalates=0"))
    }

    @Test func explainSaysQuietHoursSilenceTheSound() throws {
        let config = try writeConfig("""
            [quiet]
            hours = 22:00-07:00
            """)
        try nudge("--config", config, "add", "Pay rent", "--due", "today 18:00", "--priority", "high")
        try nudge("--config", config, "add", "Water plants", "--due", "today 18:00", "--priority", "low")
        let lines = try [1, 2].map { id in
            try nudge("--config", config, "explain", "\(id)").stdout.split(separator: "\n").first { $0.hasPrefix("  Sound") }
        }
        #expect(lines == [
            "  Sound     message-new-instant (the default for high priority); nags are silent; silent in quiet hours 22:00-07:00",
            // Nothing to silence.
            "  Sound     none (the default for low priority)",
        ])
        let silenced = try [1, 2].map { id in
            let explained = try nudge("--config", config, "explain", "\(id)", "--json").object()
            return try #require(explained["alerts"] as? [String: Any])["silentInQuietHours"].map { "\($0)" }
        }
        #expect(silenced == ["22:00-07:00", "<null>"])
    }

    @Test func configCheckWarnsOfAMissingSoundFileButPasses() throws {
        let config = try writeConfig("[reminders]\nsound = ~/sounds/none-here.oga\n")
        let run = try nudge("--config", config, "config", "check")
        #expect(run.status == 0)
        #expect(run.stdout == "\(config) is valid.\n")
        #expect(run.stderr == "warning: \(config):2: sound: ~/sounds/none-here.oga does not exist; the notification server will play nothing\n")
        let shown = try nudge("--config", config, "config", "show").stdout
        #expect(shown.contains("\nsound = ~/sounds/none-here.oga\ntimeout = default\nresident = no\nescalate_after = none\nrepeat_sound = no\n"))
    }

    /// A count that --limit cut short says so, rather than reading as all there is.
    @Test func upcomingSaysWhenLimitLeftSomeOut() throws {
        try nudge("add", "Buy milk", "--due", "today 18:00")
        #expect(try nudge("upcoming", "--limit", "2").stdout.hasSuffix("""

            The first 2 reminders in the next 7 days; more follow (--limit 2).

            """))
        #expect(try nudge("upcoming", "--within", "1d", "--limit", "6").stdout.hasSuffix("\n6 reminders in the next 1 day.\n"))
        #expect(try nudge("upcoming", "--limit", "2", "--json").array().count == 2)
        #expect(try nudge("upcoming", "--limit", "\(Int.max)").status == 0)
    }

    @Test func snoozeHoldsRemindersButNotTheDueDate() throws {
        try nudge("add", "Call mum", "--due", "today 11:00")
        let run = try nudge("snooze", "1", "2h")
        #expect(run.stdout == "Snoozed 1: Call mum\n  reminders held until Today 12:53\n")
        #expect(try nudge("show", "1", "--json").object()["due"] as? String == "2026-11-29T11:00:00+01:00")
        let rules = try nudge("upcoming", "--within", "3h", "--json").array().map { "\($0["rule"]!) \($0["at"]!)" }
        #expect(rules == ["snooze 2026-11-29T12:53:00+01:00", "nag 1 2026-11-29T13:53:00+01:00"])
        // The default duration comes from the config file.
        let config = try writeConfig("[snooze]\ndefault = 45m\n")
        #expect(try nudge("--config", config, "snooze", "1").stdout.contains("held until Today 11:38"))
        #expect(try nudge("snooze", "1", "--until", "tomorrow 9am").stdout.contains("held until Tomorrow 09:00"))
    }

    /// WHEN is a duration or, as the notification's snooze choices take it, a moment; a day
    /// alone ends at all_day_time (09:00). Now is Sunday 2026-11-29 10:53 in Berlin.
    @Test(arguments: [
        (["tomorrow", "9am"], "2026-11-30T09:00:00+01:00"),
        (["tomorrow 9am"], "2026-11-30T09:00:00+01:00"),
        (["fri"], "2026-12-04T09:00:00+01:00"),
        (["17:30"], "2026-11-29T17:30:00+01:00"),
        (["in", "3", "days"], "2026-12-02T10:53:00+01:00"),
        (["2", "hours"], "2026-11-29T12:53:00+01:00"),
        (["1h30m"], "2026-11-29T12:23:00+01:00"),
    ] as [([String], String)])
    func snoozeTakesAMomentOrADuration(when: [String], until: String) throws {
        try nudge("add", "Call mum", "--due", "today 11:00")
        let run = try nudge.run(["snooze", "1"] + when + ["--json"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try run.object()["until"] as? String == until)
        #expect(try nudge("show", "1", "--json").object()["snoozedUntil"] as? String == until)
    }

    @Test(arguments: [
        (["today", "9am"], "nudge: November 29, 2026 at 09:00 has already passed; snooze until a later moment\n"),
        (["yesterday"], "nudge: November 28, 2026 at 09:00 has already passed; snooze until a later moment\n"),
        (["tomorow", "9am"], "nudge: can't read 'tomorow 9am' as a date; did you mean 'tomorrow 9am'?\n"),
        (["1h1h"], "nudge: '1h1h' is not a duration: hours are given twice; give each unit once; accepted: "),
        (["fri", "--until", "sat"], "nudge: WHEN and --until cannot be used together; choose one\n"),
    ] as [([String], String)])
    func snoozeRefusesAMomentPastOrUnread(when: [String], line: String) throws {
        try nudge("add", "Call mum", "--due", "today 11:00")
        let run = try nudge.run(["snooze", "1"] + when)
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix(line), "\(run.stderr)")
        #expect(run.stderr.filter { $0 == "\n" }.count == 1)
        #expect(run.stdout == "")
        #expect(try nudge("show", "1", "--json").object()["snoozedUntil"] is NSNull)
    }

    /// A snooze holds the reminders of the due it was made for: moved earlier, the due would
    /// otherwise be held silent until a moment chosen for another.
    @Test(arguments: [["postpone", "1", "2h"], ["edit", "1", "--due", "tomorrow 10:00"], ["skip", "1"]])
    func aNewDueEndsTheSnooze(change: [String]) throws {
        try nudge("add", "Call mum", "--due", "today 11:00", "--repeat", "daily")
        try nudge("snooze", "1", "--until", "tomorrow 9am")
        #expect(try nudge("show", "1", "--json").object()["snoozedUntil"] is String)
        let changed = try nudge.run(change)
        #expect(changed.status == 0, "\(changed.stderr)")
        #expect(try nudge("show", "1", "--json").object()["snoozedUntil"] is NSNull)
        try nudge("snooze", "1", "--until", "tomorrow 9am")
        try nudge("edit", "1", "--title", "Call mum and dad")
        #expect(try nudge("show", "1", "--json").object()["snoozedUntil"] is String, "a change that keeps the due keeps the snooze")
    }

    @Test func remindAddsClearsAndLists() throws {
        try nudge("add", "Dentist", "--due", "fri 10:00", "--no-default-reminders")
        #expect(try nudge("remind", "1").stdout == "Todo 1 has no reminders of its own.\n")
        #expect(try nudge("upcoming", "--json").array().filter { !($0["todo"] is NSNull) }.isEmpty)
        #expect(try nudge("remind", "1", "--add", "1d", "--add", "thu 18:00").stdout == """
            Reminders of 1: Dentist
              1d before the due
              at Thu 18:00

            """)
        #expect(try nudge("upcoming", "--json").array().compactMap { $0["todo"] is NSNull ? nil : $0["rule"] as? String }
                == ["remind 1d", "remind 2026-12-03T17:00Z"])
        // The tables name the moment by their WHEN column, in local time, not by the UTC name.
        let table = try nudge("upcoming").stdout
        #expect(table.contains("remind 1d\n"))
        #expect(table.contains("Thu Dec  3 18:00") && table.contains("remind at\n"))
        #expect(!table.contains("2026-12-03T17:00Z"))
        let explained = try nudge("explain", "1").stdout
        #expect(explained.contains("remind at ") && !explained.contains("2026-12-03T17:00Z"))
        #expect(try nudge("remind", "1", "--clear", "--add", "2h").stdout == "Reminders of 1: Dentist\n  2h before the due\n")
    }

    @Test func repeatingTodosMoveOnWhenDone() throws {
        try nudge("add", "Water plants", "--due", "today 18:00", "--repeat", "daily")
        try nudge("add", "Stretch", "--due", "today", "--repeat", "every 2 days", "--repeat-from", "completion")
        #expect(try nudge("done", "1").stdout == "Completed 1: Water plants; it repeats, next due Tomorrow 18:00\n")
        #expect(try nudge("done", "2").stdout == "Completed 2: Stretch; it repeats, next due Tue\n")
        let list = try nudge("list", "--json").array()
        #expect(list.map { $0["completed"] as? Bool } == [false, false])
        #expect(try nudge("show", "1").stdout.contains("  Repeats   daily (RRULE:FREQ=DAILY)\n"))
        let ended = try nudge("add", "Once more", "--due", "today 18:00", "--repeat", "RRULE:FREQ=DAILY;COUNT=2")
        #expect(ended.status == 0)
        #expect(try nudge("done", "3").stdout.contains("next due Tomorrow 18:00"))
        #expect(try nudge("done", "3").stdout == "Completed 3: Once more (due Tomorrow 18:00)\n")
        #expect(try nudge("edit", "1", "--no-repeat").stdout.contains("repeat   daily (RRULE:FREQ=DAILY) → never"))
    }

    @Test func configCheckRefusesSnoozesThatCannotLieAhead() throws {
        let fixed = try writeConfig("[snooze]\ndefault = 1900-01-01\n")
        let passed = try nudge("--config", fixed, "config", "check")
        #expect(passed.status == 1)
        #expect(passed.stderr == "nudge: \(fixed):2: default: '1900-01-01' has already passed, so a snooze until it would end at once; accepted: a duration (10m, 2h, 1h30m, 3d, 1w) or a time to snooze until (tomorrow 09:00, tonight, fri 9am, 17:30, in 2h)\n")
        // The other commands still read the file: a date passing breaks nothing.
        #expect(try nudge("--config", fixed, "list").status == 0)
        let relative = try writeConfig("[snooze]\nchoices = 10m, yesterday\n")
        let always = try nudge("--config", relative, "config", "check")
        #expect(always.status == 1)
        #expect(always.stderr.hasPrefix("nudge: \(relative):2: choices: 'yesterday' is always in the past when a snooze is chosen; accepted: "))
        #expect(always.stderr.filter { $0 == "\n" }.count == 1)
        let ahead = try writeConfig("[snooze]\ndefault = 2026-11-29 11:00\nchoices = tonight, 2026-12-24\n")
        #expect(try nudge("--config", ahead, "config", "check").status == 0)
    }

    @Test func configCheckAndShow() throws {
        #expect(try nudge("config", "check").stdout.contains("the defaults apply"))
        let good = try writeConfig("[reminders]\nbefore = 1d, 1h\n[priority.high]\nnag_every = 15m\n")
        #expect(try nudge("--config", good, "config", "check").stdout == "\(good) is valid (1 priority, category or tag section).\n")
        let shown = try nudge("config", "show", environment: ["NUDGE_CONFIG": good]).stdout
        #expect(shown.contains("[reminders]\nat_due = yes\nbefore = 1d, 1h\n"))
        #expect(shown.contains("[priority.high]\nnag_every = 15m"))
        let broken = try writeConfig("[reminders]\nat_due = yes\nnag_evry = 1h\n")
        let run = try nudge("--config", broken, "config", "check")
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("nudge: \(broken):3: unknown key 'nag_evry' in [reminders]"))
    }

    @Test(arguments: [
        (["add", "x", "--due", "fri", "--repeat", "fortnightly"], 2, "can't read 'fortnightly' as a repeat rule"),
        (["add", "x", "--due", "fri", "--repeat", "RRULE:FREQ=MINUTELY"], 2, "repeats within an hour"),
        (["add", "x", "--due", "fri", "--repeat", "every 2h"], 2, "an all-day todo can't repeat every 2h"),
        (["add", "x", "--due", "fri 10am", "--repeat", "every weekday at 9"], 2, "--due gives 10:00 but --repeat says at 09:00"),
        (["add", "x", "--repeat", "RRULE:FREQ=DAILY;UNTIL=20000101"], 2, "has no occurrence from now on"),
        (["add", "x", "--due", "fri", "--remind", "whenever"], 2, "can't read 'whenever' as a reminder"),
        (["add", "x", "--remind", "10m"], 2, "needs a due date to count back from"),
        (["add", "x", "--due", "fri", "--repeat-from", "due"], 2, "--repeat-from goes with --repeat"),
        (["snooze", "1", "forever"], 2, "can't read 'forever' as a date"),
        (["snooze", "9"], 1, "there is no todo 9"),
        (["snooze", "2"], 1, "todo 2 is done"),
        (["snooze", "1", "--until", "yesterday 9am"], 2, "has already passed"),
        (["remind", "1", "--add", "soon"], 2, "can't read 'soon' as a reminder"),
        (["remind", "9", "--add", "1h"], 1, "there is no todo 9"),
        (["upcoming", "--within", "forever"], 2, "is not a duration"),
        (["explain", "9"], 1, "there is no todo 9"),
        (["--config", "/tmp", "list"], 1, "the config file is broken: /tmp: cannot read"),
    ] as [([String], Int32, String)])
    func badInputChangesNothing(arguments: [String], status: Int32, message: String) throws {
        try nudge("add", "pending", "--due", "today 18:00")
        try nudge("add", "finished")
        try nudge("done", "2")
        let before = try nudge("list", "--all", "--json").stdout
        let schedule = try nudge("upcoming", "--json").stdout
        let run = try nudge.run(arguments)
        #expect(run.status == status)
        #expect(run.stderr.hasPrefix("nudge: ") && run.stderr.contains(message), "\(run.stderr)")
        #expect(run.stderr.filter { $0 == "\n" }.count == 1)
        #expect(try nudge("list", "--all", "--json").stdout == before)
        #expect(try nudge("upcoming", "--json").stdout == schedule)
    }

    @Test func aBrokenConfigFileChangesNothing() throws {
        try nudge("add", "x", "--due", "today 18:00")
        let broken = try writeConfig("[quite]\nhours = 22:00-07:00\n")
        let run = try nudge("--config", broken, "add", "y")
        #expect(run.status == 1)
        #expect(run.stderr == "nudge: the config file is broken: \(broken):1: unknown section [quite]; known sections: reminders, priority.low|medium|high, category.NAME, tag.NAME, digest, quiet, snooze, catchup, notifications, import, list, sync, hooks, display (check it with 'nudge config check')\n")
        #expect(try nudge("list", "--json").array().count == 1)
    }
}
