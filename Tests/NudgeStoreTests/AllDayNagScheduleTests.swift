import Foundation
import NudgeCore
import Testing
@testable import NudgeTestSupport
@testable import NudgeStore

/// An all-day todo nags from the next day at all_day_time; its first nag is exactly there.
struct AllDayNagTests {
    let folder = TemporaryDirectory()
    let berlin = TimeZone(identifier: "Europe/Berlin")!
    var now: Date { date(29, 10, 53) }

    func date(_ d: Int, _ h: Int, _ mi: Int = 0) -> Date {
        Calendar.nudge(zone: berlin).date(from: DateComponents(year: 2026, month: 11, day: d, hour: h, minute: mi))!
    }

    @Test func afterTheFirstNagOfAnAllDayTodoFiresTheSecondIsPlanned() throws {
        var config = NudgeConfig()
        config.digest.enabled = false
        let store = try TodoStore(path: folder.file("nudge.db"), planner: ReminderPlanner(config: config, zone: berlin), now: now)
        _ = try store.add(NewTodo(title: "a", due: .allDay(LocalDate(year: 2026, month: 11, day: 29)!)), now: now)
        let first = try store.dueReminders(through: date(30, 9))
        #expect(first.map(\.rule) == ["nag 1"])
        try store.recordFired(first, firedAt: date(30, 9))
        #expect(try store.upcoming(from: date(30, 9), through: date(30, 23)).map(\.rule) == ["nag 2"])
    }
}
