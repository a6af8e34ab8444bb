import Foundation
import NudgeCore
import Testing
@testable import NudgeTestSupport
@testable import NudgeDaemon

/// A due outside the years 0001-9999, as an old database may hold (an iCalendar DURATION once
/// put one in the year 27 million), does not stop nudged: it plans nothing for it and goes on.
struct DateBoundsServiceTests {
    let fixture = ServiceFixture()

    @Test(arguments: [852_000_000_000_000.0, -852_000_000_000_000])
    func aDueOutsideTheYearsPlansNothingAndTheServiceGoesOn(_ seconds: Double) throws {
        fixture.config.digest.enabled = true
        fixture.config.reminders.nagEvery = TimeSpan(seconds: 3600)
        try fixture.add("far", at: Date(timeIntervalSince1970: seconds))
        try fixture.start()
        try fixture.add("near", at: fixture.date(29, 12))
        fixture.onQueue { fixture.service.databaseMayHaveChanged() }
        fixture.advance(to: fixture.date(29, 12))
        #expect(fixture.server.shown.map(\.content.summary).contains("near"))
        #expect(!fixture.server.shown.map(\.content.summary).contains("far"))
    }

    /// Late on 9999-12-31 a snooze choice that would end in the year 10000 is not offered;
    /// pressed anyway (it was offered earlier) it falls back to the default choice, and when
    /// every fallback would end past 9999 the snooze is refused with one journal line. The
    /// reminder stays, and nudged goes on.
    @Test func aSnoozePastTheYear9999IsRefusedAndTheServiceGoesOn() throws {
        let calendar = Calendar.nudge(zone: fixture.zone)
        let late = { (minute: Int) in calendar.date(from: DateComponents(year: 9999, month: 12, day: 31, hour: 23, minute: minute))! }
        fixture.config.snooze.choices = [.span(TimeSpan(seconds: 600)), .span(TimeSpan(seconds: 3600))]
        fixture.config.snooze.defaultChoice = .span(TimeSpan(seconds: 1200))
        fixture.now = late(0)
        try fixture.add("last", at: late(30))
        try fixture.start()
        fixture.advanceToWake()
        let shown = try #require(fixture.server.shown.first)
        #expect(shown.content.actions.map(\.label) == ["Done", "Snooze 10 min"])
        fixture.onQueue { fixture.server.onActionInvoked?(1, "snooze-1", ":1.7") }
        #expect(fixture.events.kinds(.snoozed).map(\.message) == ["snoozed: last until 9999-12-31T23:50:00+01:00"])
        fixture.advanceToWake()
        #expect(fixture.now == late(50))
        #expect(fixture.server.shown.count == 2)
        fixture.now = late(55)
        fixture.onQueue { fixture.server.onActionInvoked?(1, "snooze-0", ":1.7") }
        #expect(fixture.events.kinds(.snoozed).count == 1)
        #expect(fixture.events.kinds(.failed).map(\.message)
            == ["could not handle snooze-0 on todo 1: snoozing until 10000-01-01T00:05:00+01:00 leaves the years 0001-9999"])
        #expect(try fixture.store().reminderSubject(id: 1).snoozedUntil == late(50))
        fixture.onQueue { fixture.server.onActionInvoked?(1, "done", ":1.7") }
        #expect(fixture.events.kinds(.completed).map(\.message) == ["completed: last"])
    }
}
