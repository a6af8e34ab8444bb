import Foundation
import Testing
@testable import NudgeTestSupport

/// A repeat rule that never occurs, or whose numbers libical would wrap, is refused with one
/// line; one stored before rules were checked costs `done` and `explain` no long work.
struct RuleBoundsCommandTests {
    let nudge = Nudge()

    private func timed(_ arguments: String...) throws -> (run: Run, seconds: Double) {
        try timed(arguments)
    }

    private func timed(_ arguments: [String]) throws -> (run: Run, seconds: Double) {
        let start = Date()
        let run = try nudge.run(arguments)
        return (run, Date().timeIntervalSince(start))
    }

    @Test func aRuleThatNeverOccursIsRefusedAtOnceWithOrWithoutADue() throws {
        for extra in [["--due", "tomorrow 9am"], []] {
            let (run, seconds) = try timed(["add", "F", "--repeat", "RRULE:FREQ=HOURLY;BYMONTH=2;BYMONTHDAY=30"] + extra)
            #expect(run.status == 2)
            #expect(run.stderr == "nudge: can't use 'RRULE:FREQ=HOURLY;BYMONTH=2;BYMONTHDAY=30' as a repeat rule: it never occurs\n")
            #expect(seconds < 2)
        }
        #expect(try nudge("list", "--all", "--json").array().isEmpty)
    }

    /// As an older version stored it; `done` then took 8.9 s and `explain` 9.7 s.
    @Test func aStoredRuleThatNeverOccursEndsTheSeriesWithoutLongWork() throws {
        try nudge("add", "F", "--due", "tomorrow 9am", "--repeat", "daily")
        let written = try nudge.shell("sqlite3 \"$NUDGE_DB\" \"UPDATE todos SET repeat_rule = 'FREQ=HOURLY;BYMONTH=2;BYMONTHDAY=30'\"")
        try #require(written.status == 0, "\(written.stderr)")
        let explained = try timed("explain", "1")
        #expect(explained.run.status == 0)
        #expect(explained.seconds < 2)
        let done = try timed("done", "1")
        #expect(done.run.status == 0)
        #expect(done.seconds < 2)
        #expect(try nudge("show", "1", "--json").object()["completed"] as? Bool == true)
    }

    @Test func aCountLibicalWouldWrapIsRefusedAndNothingIsStored() throws {
        let run = try nudge("add", "F", "--due", "tomorrow 9am", "--repeat", "RRULE:FREQ=DAILY;COUNT=4294967297")
        #expect(run.status == 2)
        #expect(run.stderr == "nudge: can't use 'RRULE:FREQ=DAILY;COUNT=4294967297' as a repeat rule: COUNT=4294967297 is too large; numbers in a rule (COUNT, INTERVAL, ...) go up to 10000\n")
        let until = try nudge("add", "F", "--due", "tomorrow 9am", "--repeat", "RRULE:FREQ=DAILY;UNTIL=00000101T000000Z")
        #expect(until.status == 2)
        #expect(until.stderr.hasSuffix("UNTIL=00000101T000000Z is not a date in the years 0001-9999 (UNTIL=20271231T235959Z or UNTIL=20271231)\n"))
        #expect(try nudge("list", "--all", "--json").array().isEmpty)
    }
}
