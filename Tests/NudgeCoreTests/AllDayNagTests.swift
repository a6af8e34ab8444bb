import Foundation
import Testing
@testable import NudgeCore

/// An all-day todo's nags start the next day at all_day_time, the first exactly there; once it
/// has fired, the next one follows.
struct AllDayNagTests {
    let berlin = TimeZone(identifier: "Europe/Berlin")!

    func date(_ d: Int, _ h: Int) -> Date {
        Calendar.nudge(zone: berlin).date(from: DateComponents(year: 2026, month: 12, day: d, hour: h))!
    }

    @Test func theNagAfterTheFirstIsPlannedOnceTheFirstHasFired() {
        let todo = Todo(id: 7, title: "t", due: .allDay(LocalDate(year: 2026, month: 12, day: 1)!), priority: .medium,
                        createdAt: date(1, 8), updatedAt: date(1, 8))
        let planner = ReminderPlanner(config: NudgeConfig(), zone: berlin)
        let clock = WallClock(zone: berlin)
        var subject = ReminderSubject(todo: todo, reminderState: .init(remindedThrough: date(1, 9)))
        #expect(planner.pending(subject).map { "\($0.rule) \(clock.iso8601($0.at).prefix(16))" } == ["nag 1 2026-12-02T09:00"])
        subject.remindedThrough = date(2, 9)
        #expect(planner.pending(subject).map { "\($0.rule) \(clock.iso8601($0.at).prefix(16))" } == ["nag 2 2026-12-02T10:00"])
    }
}
