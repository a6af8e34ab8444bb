import Foundation
import NudgeCore
import NudgeStore
import NudgeSync
import Testing
@testable import NudgeDaemon
@testable import NudgeTestSupport

/// The service's side of a sync pass: what it withdraws and replans, and what it reports as a
/// local change for the next pass.
struct ReminderServiceSyncTests {
    let fixture = ServiceFixture()

    @Test func aNotificationOfATodoCompletedElsewhereIsWithdrawn() throws {
        let milk = try fixture.add("Buy milk", at: fixture.date(29, 12))
        try fixture.add("Call Ann", at: fixture.date(29, 12))
        try fixture.start()
        fixture.advanceToWake()
        #expect(fixture.server.shown.map(\.content.summary) == ["Buy milk", "Call Ann"])
        // What a pass that imported the completion leaves behind (a second connection, as the
        // pass's own writes are not the test's to make here).
        _ = try fixture.store().setCompleted(ids: [milk.id], done: true, now: fixture.now)
        var report = SyncReport()
        report.imported = 1
        report.finishedElsewhere = [milk.uuid]
        fixture.onQueue { fixture.service.syncPassed(report) }
        #expect(fixture.server.closedIDs == [1])
        let withdrawn = try #require(fixture.events.kinds(.withdrawn).first)
        #expect(withdrawn.message == "withdrawn: notification 1 (Buy milk), completed on another machine")
        #expect(withdrawn.todoID == milk.id)
        // Closed once: a second report does not close it again, and Call Ann stays.
        fixture.onQueue { fixture.service.syncPassed(report) }
        #expect(fixture.server.closedIDs == [1])
    }

    @Test func aConflictGoesToTheTodosHistoryNotAmongFailures() throws {
        let milk = try fixture.add("Buy milk", at: fixture.date(29, 12))
        try fixture.start()
        var report = SyncReport()
        report.conflicted = [SyncConflict(uuid: milk.uuid, copyUUID: "copy", message: "conflict: 'Buy milk' was changed here and there")]
        fixture.onQueue { fixture.service.syncPassed(report) }
        let conflict = try #require(fixture.events.kinds(.conflict).first)
        #expect(conflict.message == "conflict: 'Buy milk' was changed here and there")
        #expect(conflict.todoID == milk.id && conflict.todoUUID == milk.uuid)
        #expect(fixture.events.kinds(.failed).isEmpty)
    }

    @Test func aNotificationOfATodoPostponedElsewhereIsWithdrawn() throws {
        var todo = try fixture.add("Buy milk", at: fixture.date(29, 12))
        try fixture.start()
        fixture.advanceToWake()
        #expect(fixture.server.shown.count == 1)
        todo.due = .at(fixture.date(30, 12), zone: fixture.zone)
        _ = try fixture.store().update(todo, now: fixture.now)
        var report = SyncReport()
        report.imported = 1
        fixture.onQueue { fixture.service.syncPassed(report) }
        #expect(fixture.server.closedIDs == [1])
        #expect(fixture.events.kinds(.withdrawn).map(\.message) == ["withdrawn: notification 1 (Buy milk), rescheduled on another machine"])
    }

    @Test func aRepeatingTodoDoneElsewhereWithdrawsTheOccurrenceShownHere() throws {
        let daily = try fixture.add("Stretch", at: fixture.date(29, 12), repetition: Repetition(rrule: "FREQ=DAILY", from: .due))
        try fixture.start()
        fixture.advanceToWake()
        #expect(fixture.server.shown.count == 1)
        var report = SyncReport()
        report.imported = 1
        report.finishedElsewhere = [daily.uuid]
        fixture.onQueue { fixture.service.syncPassed(report) }
        #expect(fixture.server.closedIDs == [1])
    }

    @Test func aNotificationOfATodoDeletedElsewhereIsWithdrawn() throws {
        let todo = try fixture.add("Buy milk", at: fixture.date(29, 12))
        try fixture.start()
        fixture.advanceToWake()
        _ = try fixture.store().delete(ids: [todo.id])
        var report = SyncReport()
        report.deletedTodos = 1
        report.finishedElsewhere = [todo.uuid]
        fixture.onQueue { fixture.service.syncPassed(report) }
        #expect(fixture.server.closedIDs == [1])
        #expect(fixture.events.kinds(.withdrawn).map(\.message) == ["withdrawn: notification 1, deleted on another machine"])
    }

    @Test func anImportedTodoDueNowIsFiredAndTheTimerReArmed() throws {
        try fixture.start()
        #expect(fixture.wakeAt == nil)
        try fixture.add("From the other machine", at: fixture.date(29, 15))
        var report = SyncReport()
        report.imported = 1
        fixture.onQueue { fixture.service.syncPassed(report) }
        #expect(fixture.wakeAt == fixture.date(29, 15))
        #expect(fixture.statusLine == "Next: From the other machine (due) at Today 15:00")
    }

    @Test func aReminderAcknowledgedElsewhereWhileStoppedIsNotCaughtUpHere() throws {
        let todo = try fixture.add("Buy milk", at: fixture.date(29, 11))
        fixture.now = fixture.date(29, 12)
        var fired: [Int] = []
        // The first pass, as the store opens, imports another machine's acknowledgement of the
        // 11:00 reminder (here: the store's own mark that it was handled).
        fixture.onOpened = { [unowned fixture] in
            fired.append(fixture.events.kinds(.fired).count + fixture.events.kinds(.missed).count)
            let store = try! fixture.store()
            _ = try! store.snooze(todoID: todo.id, until: fixture.date(29, 13), now: fixture.now)
            var report = SyncReport()
            report.imported = 1
            report.acknowledgedElsewhere = [todo.uuid]
            fixture.service.syncPassed(report)
        }
        try fixture.start()
        #expect(fired == [0], "the pass comes before the catch-up")
        #expect(fixture.server.shown.isEmpty)
        #expect(fixture.events.kinds(.missed).isEmpty)
        #expect(fixture.wakeAt == fixture.date(29, 13))
    }

    @Test func firingShowingAnsweringAndDismissingAreLocalChanges() throws {
        let todo = try fixture.add("Buy milk", at: fixture.date(29, 12))
        try fixture.start()
        let before = fixture.localChanges
        fixture.advanceToWake()
        // Fired, then shown: each a change for the next pass to write (ACKNOWLEDGED).
        #expect(fixture.localChanges == before + 2)
        fixture.onQueue { fixture.server.onClosed?(1, .dismissed, ":1.7") }
        #expect(fixture.localChanges == before + 3)
        _ = todo
    }
}
