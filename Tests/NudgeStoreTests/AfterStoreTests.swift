import Foundation
import NudgeCore
import Testing
@testable import NudgeTestSupport
@testable import NudgeStore

/// Todos after others (migration 014): cycles and unknown ids refused with nothing stored, and a
/// blocked todo's reminders held until its last blocker is done, then caught up.
struct AfterStoreTests: BerlinScheduleTesting {
    let folder = TemporaryDirectory()

    func blockerIDs(_ store: TodoStore, _ id: Int64) throws -> [Int64] {
        try store.blockers(of: [id])[id]?.map(\.id) ?? []
    }

    @Test func aCycleIsRefusedNamingItsTodosAndNothingIsStored() throws {
        let store = try store()
        let tests = try store.add(NewTodo(title: "Write tests"), now: now)
        var deploy = NewTodo(title: "Deploy")
        deploy.after = [tests.id]
        let deployed = try store.add(deploy, now: now)
        var announce = NewTodo(title: "Announce")
        announce.after = [deployed.id]
        let announced = try store.add(announce, now: now)
        #expect(try blockerIDs(store, announced.id) == [deployed.id])
        #expect(throws: StoreError.cycle(ids: [1, 3, 2, 1], titles: ["Write tests", "Announce", "Deploy", "Write tests"])) {
            try store.changeBlockers(todoID: tests.id, adding: [announced.id], removing: [], now: now)
        }
        #expect(StoreError.cycle(ids: [1, 3, 2, 1], titles: ["Write tests", "Announce", "Deploy", "Write tests"]).description
            == "todo 1 cannot come after 3: that makes a cycle, 1 (Write tests) after 3 (Announce) after 2 (Deploy) after 1 (Write tests)")
        #expect(throws: StoreError.cycle(ids: [2, 2], titles: ["Deploy", "Deploy"])) {
            try store.changeBlockers(todoID: deployed.id, adding: [deployed.id], removing: [], now: now)
        }
        // A refused change leaves what was asked with it undone too.
        #expect(throws: StoreError.cycle(ids: [1, 2, 1], titles: ["Write tests", "Deploy", "Write tests"])) {
            try store.changeBlockers(todoID: tests.id, adding: [deployed.id], removing: [], now: now)
        }
        #expect(try blockerIDs(store, tests.id) == [])
        #expect(try blockerIDs(store, deployed.id) == [tests.id])
        // Two ways to one blocker are no cycle.
        #expect(try store.changeBlockers(todoID: announced.id, adding: [tests.id], removing: [], now: now).map(\.id) == [1, 2])
    }

    @Test func unknownBlockersAreRefusedAndNothingIsStored() throws {
        let store = try store()
        let tests = try store.add(NewTodo(title: "Write tests"), now: now)
        var deploy = NewTodo(title: "Deploy")
        deploy.after = [tests.id, 99]
        #expect(throws: StoreError.noSuchTodos([99])) { try store.add(deploy, now: now) }
        #expect(try store.count() == 1)
        #expect(throws: StoreError.noSuchTodos([98, 99])) {
            try store.changeBlockers(todoID: tests.id, adding: [98, 99], removing: [], now: now)
        }
        #expect(throws: StoreError.noSuchTodos([7])) {
            try store.changeBlockers(todoID: 7, adding: [tests.id], removing: [], now: now)
        }
    }

    @Test func aBlockedTodoIsHeldUntilItsLastBlockerIsDoneThenCaughtUp() throws {
        let store = try store()
        let tests = try store.add(NewTodo(title: "Write tests"), now: now)
        let review = try store.add(NewTodo(title: "Review"), now: now)
        var deploy = NewTodo(title: "Deploy", due: .at(date(29, 12), zone: berlin))
        deploy.after = [tests.id, review.id]
        let deployed = try store.add(deploy, now: now)
        #expect(try store.upcoming(from: now, through: date(30, 0)).isEmpty)
        #expect(try store.nextReminderTime() == nil)
        _ = try store.setCompleted(ids: [tests.id], done: true, now: date(29, 11))
        #expect(try store.dueReminders(through: date(29, 13)).isEmpty)
        // Review is done at 12:30: the 11:50 and 12:00 reminders fell due while it was held and
        // come now, the nags after them as ever.
        _ = try store.setCompleted(ids: [review.id], done: true, now: date(29, 12, 30))
        #expect(rules(try store.dueReminders(through: date(29, 12, 30))) == [
            "3 before 10m 2026-11-29T11:50", "3 due 2026-11-29T12:00",
        ])
        try store.recordFired(try store.dueReminders(through: date(29, 12, 30)), firedAt: date(29, 12, 30))
        #expect(rules(try store.upcoming(from: date(29, 12, 30), through: date(29, 14))) == ["3 nag 1 2026-11-29T13:00"])
        // Reopened, a blocker holds it again.
        _ = try store.setCompleted(ids: [review.id], done: false, now: date(29, 12, 40))
        #expect(try store.upcoming(from: date(29, 12, 40), through: date(30, 0)).isEmpty)
        // Deleted, it holds it no longer.
        _ = try store.delete(ids: [review.id])
        #expect(rules(try store.upcoming(from: date(29, 12, 40), through: date(29, 14))) == ["3 nag 1 2026-11-29T13:00"])
        #expect(try blockerIDs(store, deployed.id) == [tests.id])
    }

    /// "Write tests", and "Deploy" due at 12:00 after it.
    func addDeployAfterTests(_ store: TodoStore) throws -> (tests: Todo, deploy: Todo) {
        let tests = try store.add(NewTodo(title: "Write tests"), now: now)
        var deploy = NewTodo(title: "Deploy", due: .at(date(29, 12), zone: berlin))
        deploy.after = [tests.id]
        return (tests, try store.add(deploy, now: now))
    }

    @Test func anEditOfAHeldTodoKeepsWhatFellDueForItsRelease() throws {
        let store = try store()
        let (tests, added) = try addDeployAfterTests(store)
        var deploy = added
        // Renamed at 12:30, past its reminders: they are still what fell due while it was held.
        deploy.title = "Deploy to production"
        _ = try store.update(deploy, now: date(29, 12, 30))
        _ = try store.setCompleted(ids: [tests.id], done: true, now: date(29, 12, 45))
        #expect(rules(try store.dueReminders(through: date(29, 12, 45))) == [
            "2 before 10m 2026-11-29T11:50", "2 due 2026-11-29T12:00",
        ])
    }

    @Test func aNewDueForAHeldTodoPassesOverTheRemindersBeforeTheEdit() throws {
        let store = try store()
        let (tests, added) = try addDeployAfterTests(store)
        var deploy = added
        // Moved at 12:30 to 12:35: its 12:25 reminder never fell due as the todo was then.
        deploy.due = .at(date(29, 12, 35), zone: berlin)
        _ = try store.update(deploy, now: date(29, 12, 30))
        _ = try store.setCompleted(ids: [tests.id], done: true, now: date(29, 12, 45))
        #expect(rules(try store.dueReminders(through: date(29, 12, 45))) == ["2 due 2026-11-29T12:35"])
    }

    @Test func theHeldTodosAreThosePendingWithAPendingBlockerWhileHoldingIsOn() throws {
        let store = try store()
        let (tests, deploy) = try addDeployAfterTests(store)
        var announce = NewTodo(title: "Announce")
        announce.after = [tests.id]
        let announced = try store.add(announce, now: now)
        _ = try store.setCompleted(ids: [announced.id], done: true, now: now)
        #expect(try store.heldTodoIDs() == [deploy.id])
        _ = try store.setCompleted(ids: [tests.id], done: true, now: now)
        #expect(try store.heldTodoIDs().isEmpty)
        _ = try store.setCompleted(ids: [tests.id], done: false, now: now)
        #expect(try self.store { $0.holdBlocked = false }.heldTodoIDs().isEmpty)
    }

    @Test func removingTheLastOpenBlockerReleasesTheTodo() throws {
        let store = try store()
        let tests = try store.add(NewTodo(title: "Write tests"), now: now)
        var deploy = NewTodo(title: "Deploy", due: .at(date(29, 12), zone: berlin))
        deploy.after = [tests.id]
        let deployed = try store.add(deploy, now: now)
        #expect(try store.upcoming(from: now, through: date(30, 0)).isEmpty)
        #expect(try store.changeBlockers(todoID: deployed.id, adding: [], removing: [tests.id], now: now).isEmpty)
        #expect(rules(try store.upcoming(from: now, through: date(29, 12))) == [
            "2 before 10m 2026-11-29T11:50", "2 due 2026-11-29T12:00",
        ])
    }

    @Test func withHoldingOffABlockedTodoRemindsAsAnyOther() throws {
        let store = try store { $0.holdBlocked = false }
        let tests = try store.add(NewTodo(title: "Write tests"), now: now)
        var deploy = NewTodo(title: "Deploy", due: .at(date(29, 12), zone: berlin))
        deploy.after = [tests.id]
        _ = try store.add(deploy, now: now)
        #expect(rules(try store.upcoming(from: now, through: date(29, 12))) == [
            "2 before 10m 2026-11-29T11:50", "2 due 2026-11-29T12:00",
        ])
        // The rules changed: holding on plans the todo again, held.
        let holding = try self.store()
        try holding.planAllIfRulesChanged()
        #expect(try holding.upcoming(from: now, through: date(30, 0)).isEmpty)
    }
}
