import Foundation
import Testing
@testable import NudgeTestSupport

/// No command moves a date out of the years 0001-9999, and a due already outside them (an
/// old database: an iCalendar DURATION once put one in the year 27 million) crashes nothing.
struct DateBoundsCommandTests {
    let nudge = Nudge()

    @Test func postponingATimedDuePastTheYear9999IsRefusedAndChangesNothing() throws {
        try nudge("add", "F", "--due", "9999-12-31 23:59")
        let postponed = try nudge("postpone", "1", "1w")
        #expect(postponed.status == 2)
        #expect(postponed.stderr == "nudge: moving the due by 1w leaves the years 0001-9999\n")
        #expect(try nudge("show", "1", "--json").object()["due"] as? String == "9999-12-31T23:59:00+01:00")
        let edited = try nudge("edit", "1", "--due", "9999-12-31 23:59 +1h")
        #expect(edited.status == 2)
        let snoozed = try nudge("snooze", "1", "--until", "9999-12-31 23:59")
        #expect(snoozed.status == 0)
    }

    /// Every rule that moves a reminder at once: nags every minute without a limit, a day's and
    /// an hour's notice, the day before, a digest, quiet hours over midnight.
    static let busyRules = """
        [reminders]
        before = 1d, 1h, 10m
        all_day_day_before = yes
        nag_every = 1m
        nag_limit = none
        [digest]
        enabled = yes
        [quiet]
        hours = 23:30-00:30
        allow_high = no

        """

    /// What `upcoming` (as `commands` run it), `list`, `show`, `explain` and `status` print
    /// about todos 1 and 2; each must succeed and every moment it gives lie in the years.
    static func printed(by nudge: Nudge, environment: [String: String], _ commands: [[String]]) throws -> String {
        var printed = ""
        for command in commands + [["list", "--json"], ["show", "1", "--json"], ["show", "2", "--json"], ["explain", "1"],
                                   ["explain", "2"], ["explain", "1", "--json"], ["explain", "2", "--json"], ["status"]] {
            let run = try nudge.run(command, environment: environment)
            #expect(run.status == 0, "\(command): \(run.stderr)")
            printed += run.stdout
        }
        // The year of every ISO 8601 moment, e.g. 9999 of "9999-12-31T23:59:00+01:00".
        let years = printed.matches(of: /(-?\d+)-\d\d-\d\dT\d\d:\d\d/).compactMap { Int($0.1) }
        #expect(years.allSatisfy { (1...9999).contains($0) }, "\(printed)")
        return printed
    }

    /// On the last evening of the year 9999, a todo due at its last minute (and one due on its
    /// last day) with those rules: every command answers, in time, with no moment past it.
    @Test func theLastEveningOfTheYear9999ShowsNoMomentPastIt() throws {
        var nudge = Nudge()
        nudge.now = "9999-12-31 20:00:00"
        let config = nudge.folder.file("nudge.conf")
        try Self.busyRules.write(toFile: config, atomically: true, encoding: .utf8)
        let environment = ["NUDGE_CONFIG": config]
        try #require(try nudge("add", "Last", "--due", "9999-12-31 23:59", environment: environment).status == 0)
        try #require(try nudge("add", "Last day", "--due", "9999-12-31", environment: environment).status == 0)
        let printed = try Self.printed(by: nudge, environment: environment, [["upcoming", "--within", "100w"],
                                                                            ["upcoming", "--json", "--within", "100w"]])
        #expect(!printed.contains("10000"), "\(printed)")
        let upcoming = try nudge("upcoming", "--json", "--within", "100w", environment: environment).array()
        #expect(upcoming.compactMap { $0["rule"] as? String } == ["before 1h"])
    }

    /// A todo due at the first minute of the year 1 with those rules: its 10 minutes' notice
    /// would say 0000-12-31 23:50, which quiet hours would hold into the year 1. It is not made.
    @Test func aDueAtTheFirstMinuteOfTheYear1ShowsNoMomentBeforeIt() throws {
        let config = nudge.folder.file("nudge.conf")
        try Self.busyRules.write(toFile: config, atomically: true, encoding: .utf8)
        let environment = ["NUDGE_CONFIG": config, "TZ": "UTC"]
        try #require(try nudge("add", "First", "--due", "0001-01-01 00:00", environment: environment).status == 0)
        try #require(try nudge("add", "First day", "--due", "0001-01-01", environment: environment).status == 0)
        let printed = try Self.printed(by: nudge, environment: environment, [["upcoming", "--limit", "5"]])
        #expect(!printed.contains("0000-"), "\(printed)")
        let explained = try nudge("explain", "1", "--json", environment: environment).object()
        let rules = (explained["reminders"] as? [[String: Any]] ?? []).compactMap { $0["rule"] as? String }
        #expect(rules == ["due", "nag 1", "nag 2", "nag 3"], "\(explained)")
    }

    /// The due is written straight into the database, as an old version could have stored it.
    @Test(arguments: ["852000000000000", "-852000000000000", "9223372036854775807", "-9223372036854775808"])
    func aStoredDueOutsideTheYearsIsShownButPlansNothing(_ dueAt: String) throws {
        try nudge("add", "Near", "--due", "tomorrow 9am")
        try nudge("add", "Far", "--due", "tomorrow 9am")
        let written = try nudge.shell("sqlite3 \"$NUDGE_DB\" \"UPDATE todos SET due_at = \(dueAt) WHERE id = 2\"")
        try #require(written.status == 0, "\(written.stderr)")
        for command in [["upcoming"], ["list"], ["list", "--json"], ["show", "2"], ["explain", "2"], ["status"],
                        ["edit", "2", "--title", "Far away"]] {
            let run = try nudge.run(command)
            #expect(run.status == 0, "\(command): \(run.stderr)")
        }
        #expect(try nudge("explain", "2").stdout.hasSuffix("\nNothing reminds: its due is outside the years 0001-9999; set another with: nudge edit 2 --due WHEN\n"))
        let upcoming = try nudge("upcoming").stdout
        #expect(upcoming.contains("Near"))
        #expect(!upcoming.contains("Far"))
        let postponed = try nudge("postpone", "2", "1d")
        #expect(postponed.status == 2)
        #expect(postponed.stderr == "nudge: moving the due by 1d leaves the years 0001-9999\n")
        let kept = try nudge.shell("sqlite3 \"$NUDGE_DB\" \"SELECT due_at FROM todos WHERE id = 2\"")
        #expect(kept.stdout == dueAt + "\n")
    }
}
