import Foundation
import NudgeCore
import Testing
@testable import NudgeDaemon
@testable import NudgeStore
@testable import NudgeTestSupport

/// Reminders that cannot be recorded as fired (a full disk): the service stays up, tries again
/// after a while rather than at once and for ever, and fires them once it can write.
struct ReminderServiceWriteFailureTests {
    let fixture = ServiceFixture()

    @Test func aFireThatCannotBeRecordedIsTriedAgainLaterNotInALoop() throws {
        try fixture.add("Buy milk", at: fixture.date(29, 12))
        try fixture.start()
        // Every write of the service's connection now fails, as on a full disk (before, the
        // service asked to wake at the past due again and again: 50,000 journal lines a minute).
        try fixture.onQueue { try fixture.service.store.db.execute("PRAGMA query_only = ON") }
        fixture.advanceToWake()
        #expect(fixture.server.shown.isEmpty)
        #expect(fixture.wakeAt == fixture.date(29, 12).addingTimeInterval(ReminderService.retryDelay))
        #expect(fixture.events.kinds(.failed).count == 1)
        // Woken early (a change elsewhere), it does not try again before its moment.
        fixture.onQueue { fixture.service.wake() }
        #expect(fixture.events.kinds(.failed).count == 1)

        try fixture.onQueue { try fixture.service.store.db.execute("PRAGMA query_only = OFF") }
        fixture.advanceToWake()
        #expect(fixture.server.shown.map(\.content.summary) == ["Buy milk"])
        #expect(fixture.events.kinds(.fired).map(\.todoID) == [1])
    }
}
