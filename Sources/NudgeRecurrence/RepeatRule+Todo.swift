import Foundation
import NudgeCore

extension Todo {
    /// The next occurrence of this repeating todo when completed at `completedAt`, or nil when it
    /// does not repeat or its series has ended. `localZone` decides the days of all-day todos.
    public func nextOccurrence(completedAt: Date, localZone: TimeZone) -> Due? {
        guard let repetition, let due,
              let rule = try? RepeatRule(parsing: "RRULE:" + repetition.rrule) else { return nil }
        return rule.nextDue(after: due, completedAt: completedAt, from: repetition.from, now: completedAt,
                            localZone: localZone, seriesStart: repetition.start)
    }
}
