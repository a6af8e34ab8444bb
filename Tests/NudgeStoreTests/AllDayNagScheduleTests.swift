import Foundation
import NudgeCore
import Testing
@testable import NudgeTestSupport
@testable import NudgeStore

/// An all-day todo nags from the next day at all_day_time; its first nag is exactly there.
struct AllDayNagTests: BerlinScheduleTesting {
    let folder = TemporaryDirectory()

    @Test func afterTheFirstNagOfAnAllDayTodoFiresTheSecondIsPlanned() throws {
        let store = try store()
        _ = try store.add(NewTodo(title: "a", due: .allDay(LocalDate(year: 2026, month: 11, day: 29)!)), now: now)
        let first = try store.dueReminders(through: date(30, 9))
        #expect(first.map(\.rule) == ["nag 1"])
        try store.recordFired(first, firedAt: date(30, 9))
        #expect(try store.upcoming(from: date(30, 9), through: date(30, 23)).map(\.rule) == ["nag 2"])
    }
}
