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
