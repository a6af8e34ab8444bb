import Foundation
import Testing
@testable import NudgeCore

/// What `nudge upcoming` lists after a todo's next nag, which is all the schedule holds.
struct ReminderPlannerForecastTests {
    let berlin = TimeZone(identifier: "Europe/Berlin")!

    func date(_ d: Int, _ h: Int, _ mi: Int = 0) -> Date {
        Calendar.nudge(zone: berlin).date(from: DateComponents(year: 2026, month: 12, day: d, hour: h, minute: mi))!
    }

    func subject(due: Date, snoozedUntil: Date? = nil) -> ReminderSubject {
        let todo = Todo(id: 7, title: "t", due: .at(due, zone: berlin), priority: .medium,
                        createdAt: date(1, 8), updatedAt: date(1, 8))
        return ReminderSubject(todo: todo, reminderState: .init(snoozedUntil: snoozedUntil, remindedThrough: date(1, 8)))
    }

    func planner(_ edit: (inout NudgeConfig) -> Void = { _ in }) -> ReminderPlanner {
        var config = NudgeConfig()
        edit(&config)
        return ReminderPlanner(config: config, zone: berlin)
    }

    func describe(_ reminders: [Reminder]) -> [String] {
        reminders.map { "\($0.rule) \(WallClock(zone: berlin).iso8601($0.at).prefix(16))" }
    }

    @Test func theNagsAfterTheFirstComeUpToTheLimit() {
        let plan = planner()
        let todo = subject(due: date(3, 15))
        #expect(describe(plan.pending(todo)).last == "nag 1 2026-12-03T16:00")
        #expect(describe(plan.nags(following: date(3, 16), of: todo, through: date(4, 0))) == [
            "nag 2 2026-12-03T17:00", "nag 3 2026-12-03T18:00",
        ])
        #expect(describe(plan.nags(following: date(3, 16), of: todo, through: date(3, 17, 30))) == ["nag 2 2026-12-03T17:00"])
    }

    @Test func withoutALimitTheyGoOnToTheEndOrTheLimitAsked() {
        let plan = planner { $0.reminders.nagLimit = nil; $0.reminders.nagEvery = TimeSpan(seconds: 1800) }
        let todo = subject(due: date(3, 15))
        #expect(plan.nags(following: date(3, 15, 30), of: todo, through: date(3, 20)).count == 9)
        #expect(plan.nags(following: date(3, 15, 30), of: todo, through: date(10, 0), limit: 4).count == 4)
    }

    /// Nags held by quiet hours fire as one at their end, and nagging goes on from there.
    @Test func quietHoursThinThemOutAsTheServiceWill() {
        let plan = planner {
            $0.reminders.nagLimit = nil
            $0.quietHours = QuietHours(start: TimeOfDay(hour: 22, minute: 0)!, end: TimeOfDay(hour: 7, minute: 0)!, allowHigh: true)
        }
        let todo = subject(due: date(3, 21))
        #expect(describe(plan.pending(todo)).last == "nag 1 2026-12-04T07:00")
        #expect(describe(plan.nags(following: date(4, 7), of: todo, through: date(4, 9))) == [
            "nag 11 2026-12-04T08:00", "nag 12 2026-12-04T09:00",
        ])
    }

    @Test func aSnoozeRestartsThem() {
        let plan = planner()
        let todo = subject(due: date(3, 15), snoozedUntil: date(3, 16, 30))
        #expect(describe(plan.pending(todo)) == ["snooze 2026-12-03T16:30", "nag 1 2026-12-03T17:30"])
        #expect(describe(plan.nags(following: date(3, 17, 30), of: todo, through: date(4, 0))) == [
            "nag 2 2026-12-03T18:30", "nag 3 2026-12-03T19:30",
        ])
    }
}
