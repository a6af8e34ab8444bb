import Foundation
import NudgeCore
@testable import NudgeTestSupport
@testable import NudgeStore

/// A store that plans in Berlin on Sunday 2026-11-29 at 10:53, for the schedule's tests.
protocol BerlinScheduleTesting {
    var folder: TemporaryDirectory { get }
}

extension BerlinScheduleTesting {
    var berlin: TimeZone { TimeZone(identifier: "Europe/Berlin")! }
    var now: Date { date(29, 10, 53) }

    func date(_ d: Int, _ h: Int, _ mi: Int = 0, month: Int = 11) -> Date {
        Calendar.nudge(zone: berlin).date(from: DateComponents(year: 2026, month: month, day: d, hour: h, minute: mi))!
    }

    /// The store in `folder`, with the default rules (no digest) as `edit` changes them.
    func store(_ edit: (inout NudgeConfig) -> Void = { _ in }) throws -> TodoStore {
        var config = NudgeConfig()
        config.digest.enabled = false
        edit(&config)
        return try TodoStore(path: folder.file("nudge.db"), planner: ReminderPlanner(config: config, zone: berlin), now: now)
    }

    /// "1 before 10m 2026-11-29T11:50": the todo, the rule and when, in Berlin.
    func rules(_ reminders: [ScheduledReminder]) -> [String] {
        reminders.map { "\($0.todoID.map(String.init) ?? "-") \($0.rule) \(WallClock(zone: berlin).iso8601($0.at).prefix(16))" }
    }
}
