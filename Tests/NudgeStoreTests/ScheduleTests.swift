import Foundation
import NudgeCore
import Testing
@testable import NudgeTestSupport
@testable import NudgeStore

struct ScheduleTests: BerlinScheduleTesting {
    let folder = TemporaryDirectory()

    @Test func plansRemindersWhenATodoIsAddedAndKeepsThemInOrder() throws {
        let store = try store()
        _ = try store.add(NewTodo(title: "a", due: .at(date(29, 18), zone: berlin)), now: now)
        _ = try store.add(NewTodo(title: "b", due: .at(date(29, 12), zone: berlin), reminders: [.before(TimeSpan(seconds: 7200))]), now: now)
        #expect(rules(try store.upcoming(from: now, through: date(30, 0))) == [
            "2 before 10m 2026-11-29T11:50", "2 due 2026-11-29T12:00", "2 nag 1 2026-11-29T13:00",
            "1 before 10m 2026-11-29T17:50", "1 due 2026-11-29T18:00", "1 nag 1 2026-11-29T19:00",
        ])
        // The 2h reminder of b, at 10:00, came before it was added.
        #expect(try store.nextReminderTime() == date(29, 11, 50))
    }

    @Test func quietHoursSetAfterRemindersFiredDoNotBringThemBack() throws {
        let first = try store()
        _ = try first.add(NewTodo(title: "evening", due: .at(date(29, 21), zone: berlin)), now: now)
        _ = try first.add(NewTodo(title: "late", due: .at(date(29, 23), zone: berlin)), now: now)
        try first.recordFired(try first.dueReminders(through: date(29, 21, 30)), firedAt: date(29, 21, 30))
        // At 21:30, quiet hours from 20:00 are set: what fired at 20:50 and 21:00 stays fired,
        // and what they now hold (22:50, 23:00 and the nags) comes at 07:00.
        let quiet = try store { $0.quietHours = QuietHours(start: TimeOfDay(hour: 20, minute: 0)!, end: TimeOfDay(hour: 7, minute: 0)!, allowHigh: true) }
        try quiet.planAllIfRulesChanged()
        #expect(rules(try quiet.upcoming(from: date(29, 21, 30), through: date(30, 12))) == [
            "1 nag 1 2026-11-30T07:00", "2 before 10m 2026-11-30T07:00",
        ])
        // `nudge show --json` names the same next reminder as the schedule.
        let next = try quiet.pendingReminders(try quiet.reminderSubject(id: 1)).first
        #expect(next?.rule.description == "nag 1")
    }

    @Test func aTodoDueTheSecondItIsAddedStillReminds() throws {
        let store = try store()
        _ = try store.add(NewTodo(title: "now", due: .at(now, zone: berlin)), now: now)
        #expect(rules(try store.dueReminders(through: now)) == ["1 due 2026-11-29T10:53"])
    }

    @Test func aFiredReminderIsNeverReturnedAgain() throws {
        let store = try store()
        _ = try store.add(NewTodo(title: "a", due: .at(date(29, 12), zone: berlin)), now: now)
        let first = try store.dueReminders(through: date(29, 11, 55))
        #expect(rules(first) == ["1 before 10m 2026-11-29T11:50"])
        try store.recordFired(first, firedAt: date(29, 11, 50))
        try store.recordFired(first, firedAt: date(29, 11, 51)) // twice is once
        #expect(try store.dueReminders(through: date(29, 11, 55)).isEmpty)
        #expect(try store.nextReminderTime() == date(29, 12))
        #expect(try store.firings(todoID: 1).map(\.rule) == ["before 10m"])
        // Nags follow one at a time, each planned when the one before fires.
        try store.recordFired(try store.dueReminders(through: date(29, 12)), firedAt: date(29, 12))
        try store.recordFired(try store.dueReminders(through: date(29, 13)), firedAt: date(29, 13))
        #expect(rules(try store.upcoming(from: date(29, 13), through: date(30, 0))) == ["1 nag 2 2026-11-29T14:00"])
        #expect(try store.firings(todoID: 1).map(\.rule) == ["before 10m", "due", "nag 1"])
    }

    @Test func missedRemindersStayDueUntilRecorded() throws {
        let store = try store()
        _ = try store.add(NewTodo(title: "a", due: .at(date(29, 12), zone: berlin)), now: now)
        // The service was not running from 11:00 to 15:00.
        #expect(rules(try store.dueReminders(through: date(29, 15))) == [
            "1 before 10m 2026-11-29T11:50", "1 due 2026-11-29T12:00", "1 nag 1 2026-11-29T13:00",
        ])
    }

    @Test func completedSnoozedAndDeletedTodosDoNotRemind() throws {
        let store = try store()
        for title in ["done", "snoozed", "deleted"] {
            _ = try store.add(NewTodo(title: title, due: .at(date(29, 12), zone: berlin)), now: now)
        }
        _ = try store.setCompleted(ids: [1], done: true, now: now)
        _ = try store.snooze(todoID: 2, until: date(29, 12, 30), now: now)
        _ = try store.delete(ids: [3])
        #expect(rules(try store.upcoming(from: now, through: date(29, 23))) == [
            "2 snooze 2026-11-29T12:30", "2 nag 1 2026-11-29T13:30",
        ])
        #expect(throws: StoreError.alreadyDone(1)) { try store.snooze(todoID: 1, until: date(29, 13), now: now) }
        #expect(throws: StoreError.noSuchTodos([3])) { try store.snooze(todoID: 3, until: date(29, 13), now: now) }
        // Reopening plans again from now.
        _ = try store.setCompleted(ids: [1], done: false, now: now)
        #expect(try store.upcoming(from: now, through: date(29, 23)).contains { $0.todoID == 1 && $0.rule == "due" })
    }

    @Test func changedRulesPlanEveryTodoAgain() throws {
        _ = try store().add(NewTodo(title: "a", due: .at(date(29, 18), zone: berlin)), now: now)
        let changed = try store { $0.reminders.before = [TimeSpan(seconds: 3600)]; $0.reminders.nagEvery = nil }
        #expect(rules(try changed.upcoming(from: now, through: date(30, 0))) == [
            "1 before 1h 2026-11-29T17:00", "1 due 2026-11-29T18:00",
        ])
    }

    @Test func theDigestFiresOnlyWhenSomethingIsDueAndOnce() throws {
        let store = try store { $0.digest.enabled = true; $0.reminders = ReminderRules(); $0.reminders.before = []; $0.reminders.atDue = false; $0.reminders.nagEvery = nil }
        #expect(try store.upcoming(from: now, through: date(2, 12, month: 12)).isEmpty)
        _ = try store.add(NewTodo(title: "a", due: .allDay(LocalDate(year: 2026, month: 12, day: 1)!)), now: now)
        #expect(rules(try store.upcoming(from: now, through: date(2, 12, month: 12))) == [
            "- digest 2026-12-01T08:00", "- digest 2026-12-02T08:00",
        ])
        let due = try store.dueReminders(through: date(1, 8, month: 12))
        #expect(rules(due) == ["- digest 2026-12-01T08:00"])
        try store.recordFired(due, firedAt: date(1, 8, month: 12))
        #expect(try store.dueReminders(through: date(1, 9, month: 12)).isEmpty)
        #expect(try store.nextReminderTime() == date(2, 8, month: 12))
    }

    /// The service asks for the next reminder through `.distantFuture`: a digest for every day
    /// until then was 730,000 of them, 69 MB held by nudged after its first notification.
    @Test func aLimitedQuestionMakesNoMoreDigestsThanItCanReturn() throws {
        let store = try store { $0.digest.enabled = true }
        _ = try store.add(NewTodo(title: "a", due: .at(date(30, 12), zone: berlin)), now: now)
        #expect(try store.digests(after: .distantPast, through: .distantFuture, limit: 2).count == 2)
        #expect(rules(try store.upcoming(from: .distantPast, through: .distantFuture, limit: 3)) == [
            "- digest 2026-11-30T08:00", "1 before 10m 2026-11-30T11:50", "1 due 2026-11-30T12:00",
        ])
    }

    @Test func repeatingTodosMoveToTheirNextOccurrenceAndRecordTheCompletion() throws {
        let store = try store()
        let due = Due.at(date(29, 18), zone: berlin)
        let todo = try store.add(NewTodo(title: "a", due: due, repetition: Repetition(rrule: "FREQ=DAILY", from: .due)), now: now)
        let next = Due.at(date(30, 18), zone: berlin)
        let (_, after) = try store.setCompleted(ids: [todo.id], done: true, now: now) { _ in next }
        try #require(after.count == 1)
        #expect(after[0].due == next)
        #expect(!after[0].isCompleted)
        #expect(try store.db.scalar("SELECT count(*) FROM completions WHERE todo_id = 1")?.int64 == 1)
        #expect(try store.upcoming(from: now, through: date(30, 0)).isEmpty)
        #expect(try store.nextReminderTime() == date(30, 17, 50))
    }
}
