import Foundation
import NudgeCore
import NudgeRecurrence

/// `--repeat` texts and RRULEs, as typed and as read from files.
enum RuleTargets {
    static let timedDue = Due.at(Fixed.now, zone: Fixed.berlin)
    static let dayDue = Due.allDay(LocalDate(year: 2026, month: 12, day: 2)!)

    /// A rule read is canonical (reading its RRULE gives it again), is described by text that
    /// reads back as the same rule, and its next dues lie in 0001-9999, after the current one
    /// (from completion: after the completion).
    static func rule(_ data: Data) {
        let text = String(decoding: data, as: UTF8.self)
        guard let reading = try? RepeatRule.read(text) else { return }
        let rule = reading.rule
        check((try? RepeatRule(parsing: "RRULE:" + rule.rrule)) == rule, "repeat \(text.debugDescription): RRULE:\(rule.rrule) reads otherwise")
        check((try? RepeatRule(parsing: rule.description)) == rule,
              "repeat \(text.debugDescription): its description \(rule.description.debugDescription) reads otherwise")
        for due in [timedDue, dayDue] {
            guard (try? rule.check(for: due)) != nil else { continue }
            for from in RepeatFrom.allCases {
                guard let next = rule.nextDue(after: due, completedAt: Fixed.now, from: from, now: Fixed.now, localZone: Fixed.berlin) else { continue }
                checkInYears(next, "repeat \(text.debugDescription) after \(due)")
                // From completion, the series restarts on the day it was done.
                let floor = from == .due ? start(due) : due.isAllDay ? start(.allDay(WallClock(zone: Fixed.berlin).day(of: Fixed.now))) : Fixed.now
                check(start(next) > floor, "repeat \(text.debugDescription) from \(from): \(next) is not after \(due) done at \(Fixed.now)")
            }
        }
        if let first = rule.firstDue(now: Fixed.now, zone: Fixed.berlin, time: reading.time) {
            checkInYears(first.due, "the first due of repeat \(text.debugDescription)")
        }
    }

    static func start(_ due: Due) -> Date {
        switch due {
        case .at(let instant, _): instant
        case .allDay(let day): day.start(in: .nudge(zone: Fixed.berlin))
        }
    }
}
