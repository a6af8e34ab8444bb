import Foundation
import NudgeCore
@testable import NudgeStore
import Testing
@testable import NudgeTestSupport
@testable import NudgeDaemon

/// A blocked todo's reminders, held while its blocker is pending, reach the screen when another
/// process finishes the blocker.
struct HeldReminderServiceTests {
    let fixture = ServiceFixture()

    /// Two todos after one blocker, due at 10:30 and 11:30; the blocker is done at 12:00.
    private func holdTwoTodosUntilNoon() throws {
        fixture.now = fixture.date(29, 10)
        let blocker = try fixture.add("blocker", at: nil)
        for (title, due) in [("a", fixture.date(29, 10, 30)), ("b", fixture.date(29, 11, 30))] {
            var todo = NewTodo(title: title, due: .at(due, zone: fixture.zone))
            todo.after = [blocker.id]
            _ = try fixture.store().add(todo, now: fixture.now)
        }
        try fixture.start()
        fixture.advance(to: fixture.date(29, 12))
        #expect(fixture.server.shown.isEmpty)
        _ = try fixture.store().setCompleted(ids: [blocker.id], done: true, now: fixture.now)
        fixture.onQueue { fixture.service.databaseMayHaveChanged() }
    }

    /// Shown: the summaries; missed: the todos too old to show (a is 2, b is 3).
    @Test(arguments: [(CatchUp.digest, ["Came due while blocked: 2 todos"], [Int64]()), (.all, ["a", "b"], []),
                      (.skipOlderThan(TimeSpan(seconds: 3600)), ["b"], [2])])
    func whatFellDueWhileHeldIsCaughtUpByThePolicy(policy: CatchUp, shown: [String], missed: [Int64]) throws {
        fixture.config.catchUp = policy
        try holdTwoTodosUntilNoon()
        #expect(fixture.server.shown.map(\.content.summary) == shown)
        #expect(try fixture.store().dueReminders(through: fixture.now).isEmpty)
        #expect(fixture.events.kinds(.missed).map(\.todoID) == missed)
        #expect(fixture.events.kinds(.fired).compactMap(\.todoID) == [2, 3].filter { !missed.contains($0) })
    }

    @Test func aTodoReleasedBeforeItsReminderRemindsAsAnyOther() throws {
        fixture.now = fixture.date(29, 10)
        let blocker = try fixture.add("blocker", at: nil)
        var todo = NewTodo(title: "a", due: .at(fixture.date(29, 10, 30), zone: fixture.zone))
        todo.after = [blocker.id]
        _ = try fixture.store().add(todo, now: fixture.now)
        try fixture.start()
        fixture.now = fixture.date(29, 10, 15)
        _ = try fixture.store().setCompleted(ids: [blocker.id], done: true, now: fixture.now)
        fixture.onQueue { fixture.service.databaseMayHaveChanged() }
        #expect(fixture.wakeAt == fixture.date(29, 10, 30))
        fixture.advanceToWake()
        #expect(fixture.server.shown.map(\.content.summary) == ["a"])
    }
}
