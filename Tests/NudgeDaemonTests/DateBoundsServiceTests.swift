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
}
