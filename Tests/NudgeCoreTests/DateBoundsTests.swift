import Foundation
import Testing
@testable import NudgeCore

/// Every date Nudge computes stays in the years 0001-9999, and one read from an old database
/// outside them (an iCalendar DURATION once put a due in the year 27 million) traps nothing.
struct DateBoundsTests {
    let clock = WallClock(zone: berlin)
    let calendar = Calendar.nudge(zone: berlin)
    /// A due in the year 27,000,775.
    let farFuture = Date(timeIntervalSince1970: 852_000_000_000_000)

    @Test func anInstantOfAnyYearHasADayAndTheDayAnInstant() {
        for seconds in [852_000_000_000_000, -852_000_000_000_000, 9.3e18, -9.3e18, .infinity, -.infinity, .nan] {
            let day = clock.day(of: Date(timeIntervalSince1970: seconds))
            _ = day.start(in: calendar)
            _ = clock.iso8601(Date(timeIntervalSince1970: seconds))
            _ = clock.nextBoundary(after: Int64.max, every: 3600)
            _ = clock.nextBoundary(after: Int64.min, every: 3600)
        }
        let day = clock.day(of: farFuture)
        #expect(day.year == 27_000_775)
        #expect(clock.day(of: day.at(hour: 9, minute: 30, in: calendar)) == day)
        #expect(clock.time(of: day.at(hour: 9, minute: 30, in: calendar)) == (9, 30, 0))
    }

    @Test func aDueOutsideTheYearsGetsNoRemindersAndNoDigest() {
        let planner = ReminderPlanner(config: NudgeConfig(), zone: berlin)
        let now = instant("2026-12-04T10:00:00+01:00")
        for far in [farFuture, Date(timeIntervalSince1970: -852_000_000_000_000)] {
            let todo = Todo(id: 1, title: "far", due: .at(far, zone: berlin), createdAt: now, updatedAt: now)
            #expect(planner.pending(ReminderSubject(todo: todo)).isEmpty)
            #expect(planner.all(ReminderSubject(todo: todo)).isEmpty)
            #expect(planner.nags(following: now, of: ReminderSubject(todo: todo), through: farFuture).isEmpty)
        }
        var digest = NudgeConfig()
        digest.digest.enabled = true
        let digestPlanner = ReminderPlanner(config: digest, zone: berlin)
        #expect(digestPlanner.nextDigest(after: now, earliestDue: clock.day(of: farFuture)) == nil)
        #expect(digestPlanner.nextDigest(after: now, earliestDue: clock.day(of: Date(timeIntervalSince1970: -852_000_000_000_000)))
            == instant("2026-12-05T08:00:00+01:00"))
    }

    @Test func remindersPastTheYear9999AreLeftOut() {
        let due = Due.at(instant("9999-12-31T22:30:00+01:00"), zone: berlin)
        let now = instant("9999-12-31T20:00:00+01:00")
        let todo = Todo(id: 1, title: "last", due: due, createdAt: now, updatedAt: now)
        let reminders = ReminderPlanner(config: NudgeConfig(), zone: berlin).all(ReminderSubject(todo: todo))
        #expect(reminders.map(\.rule.description) == ["before 10m", "due", "nag 1"])
    }

    @Test func postponingATimedDuePastTheYear9999IsRefused() throws {
        let due = Due.at(instant("9999-12-31T23:59:00+01:00"), zone: berlin)
        #expect(throws: InputError("moving the due by 1w leaves the years 0001-9999")) {
            try TimeSpan(days: 7).added(to: due, calendar: calendar)
        }
        #expect(throws: InputError("moving the due by 1d leaves the years 0001-9999")) {
            try TimeSpan(days: 1).added(to: .at(farFuture, zone: berlin), calendar: calendar)
        }
        #expect(throws: InputError("moving the due by -1d leaves the years 0001-9999")) {
            try TimeSpan(days: -1).added(to: .allDay(LocalDate(year: 1, month: 1, day: 1)!), calendar: calendar)
        }
        #expect(try TimeSpan(seconds: 60).added(to: .at(instant("9999-12-31T23:58:00+01:00"), zone: berlin), calendar: calendar) == due)
    }

    @Test("WHEN texts that leave the year 9999 are refused", arguments: [
        "in 2h", "+1h", "tomorrow", "next year", "next month", "next week", "in 3 days", "in 1 year", "tomorrow 9am", "mon",
    ])
    func whenTextsPastTheYear9999AreRefused(_ text: String) {
        let lastEvening = parser("9999-12-31T23:00:00+01:00")
        #expect(throws: InputError("'\(text)' is not a date: it falls outside the years 0001-9999")) {
            try lastEvening.parse(text)
        }
    }

    @Test func theLastDayStillReadsAsItself() throws {
        let lastEvening = parser("9999-12-31T20:00:00+01:00")
        #expect(try lastEvening.parse("eoy") == at("9999-12-31T23:59:00+01:00"))
        #expect(try lastEvening.parse("in 1h") == at("9999-12-31T21:00:00+01:00"))
        #expect(try lastEvening.parse("today") == day("9999-12-31"))
        #expect(throws: InputError("'yesterday' is not a date: it falls outside the years 0001-9999")) {
            try parser("0001-01-01T10:00:00+00:00", TimeZone(identifier: "UTC")!).parse("yesterday")
        }
    }
}
