import Foundation
import NudgeCore
import Testing
@testable import NudgeTestSupport
@testable import NudgeStore

/// `nudge upcoming` lists every reminder that will fire, though the schedule holds only each
/// todo's next nag.
struct ForecastTests: BerlinScheduleTesting {
    let folder = TemporaryDirectory()

    @Test func everyNagUpToTheLimitIsListedInOrderWithTheOtherReminders() throws {
        let store = try store()
        _ = try store.add(NewTodo(title: "a", due: .at(date(29, 12), zone: berlin)), now: now)
        _ = try store.add(NewTodo(title: "b", due: .at(date(29, 13, 30), zone: berlin)), now: now)
        #expect(rules(try store.forecast(from: now, through: date(30, 0))) == [
            "1 before 10m 2026-11-29T11:50", "1 due 2026-11-29T12:00", "1 nag 1 2026-11-29T13:00",
            "2 before 10m 2026-11-29T13:20", "2 due 2026-11-29T13:30", "1 nag 2 2026-11-29T14:00",
            "2 nag 1 2026-11-29T14:30", "1 nag 3 2026-11-29T15:00", "2 nag 2 2026-11-29T15:30",
            "2 nag 3 2026-11-29T16:30",
        ])
        #expect(rules(try store.forecast(from: now, through: date(29, 14))).last == "1 nag 2 2026-11-29T14:00")
        #expect(rules(try store.forecast(from: now, through: date(30, 0), limit: 4)) == [
            "1 before 10m 2026-11-29T11:50", "1 due 2026-11-29T12:00", "1 nag 1 2026-11-29T13:00",
            "2 before 10m 2026-11-29T13:20",
        ])
        // The service still sees one nag at a time.
        #expect(try store.upcoming(from: now, through: date(30, 0)).filter { $0.rule.hasPrefix("nag") }.count == 2)
    }

    @Test func afterANagFiresTheRestAreStillListed() throws {
        let store = try store()
        _ = try store.add(NewTodo(title: "a", due: .at(date(29, 12), zone: berlin)), now: now)
        try store.recordFired(try store.dueReminders(through: date(29, 13)), firedAt: date(29, 13))
        #expect(rules(try store.forecast(from: date(29, 13), through: date(30, 0))) == [
            "1 nag 2 2026-11-29T14:00", "1 nag 3 2026-11-29T15:00",
        ])
    }

    @Test func doneAndSnoozedTodosAreListedAsTheyWillFire() throws {
        let store = try store()
        _ = try store.add(NewTodo(title: "done", due: .at(date(29, 12), zone: berlin)), now: now)
        _ = try store.add(NewTodo(title: "snoozed", due: .at(date(29, 12), zone: berlin)), now: now)
        _ = try store.setCompleted(ids: [1], done: true, now: now)
        _ = try store.snooze(todoID: 2, until: date(29, 12, 30), now: now)
        #expect(rules(try store.forecast(from: now, through: date(30, 0))) == [
            "2 snooze 2026-11-29T12:30", "2 nag 1 2026-11-29T13:30", "2 nag 2 2026-11-29T14:30", "2 nag 3 2026-11-29T15:30",
        ])
    }

    @Test func anAllDayTodoNagsFromTheNextDayUpToTheLimit() throws {
        let store = try store()
        _ = try store.add(NewTodo(title: "a", due: .allDay(LocalDate(year: 2026, month: 11, day: 29)!)), now: now)
        #expect(rules(try store.forecast(from: now, through: date(30, 23))) == [
            "1 nag 1 2026-11-30T09:00", "1 nag 2 2026-11-30T10:00", "1 nag 3 2026-11-30T11:00",
        ])
    }
}
