import Foundation
import NudgeCore
import NudgeRecurrence

extension Context {
    /// How a todo repeats, or null: the rule as `--repeat` takes it, the RRULE it is kept as,
    /// where the next occurrence counts from, and the series' start in the due's zone.
    func json(_ repetition: Repetition?, due: Due?) -> JSON {
        guard let repetition else { return .null }
        let rule = (try? RepeatRule(parsing: "RRULE:" + repetition.rrule))?.description ?? repetition.rrule
        let zone: String? = if case .at(_, let zone) = due { zone.identifier } else { nil }
        return .object([("rule", .string(rule)), ("rrule", .string(repetition.rrule)),
                        ("from", .string(repetition.from.rawValue)), ("start", .string(repetition.start?.description)),
                        ("zone", .string(zone)), ("except", .array(repetition.exceptions.map { .string($0.description) }))])
    }

    /// One of a todo's own reminders: `before` an offset, or `at` a moment; `rule` is its name
    /// in `upcoming` and `explain`.
    func json(_ reminder: CustomReminder) -> JSON {
        let rule = ("rule", JSON.string(ReminderRule.custom(reminder).description))
        return switch reminder {
        case .before(let span): .object([rule, ("before", .string(span.description)), ("at", .null)])
        case .at(let date): .object([rule, ("before", .null), ("at", .string(WallClock(zone: zone).iso8601(date)))])
        }
    }

    /// The moment a reminder fires and the rule that made it, or null.
    func json(_ reminder: Reminder?) -> JSON {
        guard let reminder else { return .null }
        let clock = WallClock(zone: zone)
        return .object([("at", .string(clock.iso8601(reminder.at))), ("rule", .string(reminder.rule.description)),
                        ("nominal", .string(clock.iso8601(reminder.nominal)))])
    }

    /// `show --json`: the todo as `list --json` prints it, and how it repeats and reminds.
    func json(_ subject: ReminderSubject, nextReminder: Reminder?) -> JSON {
        guard case .object(var fields) = json(subject.todo) else { return json(subject.todo) }
        let snoozed = subject.snoozedUntil.flatMap { $0 > now ? $0 : nil }
        fields += [
            ("repeat", json(subject.todo.repetition, due: subject.todo.due)),
            ("reminders", .array(subject.custom.map(json))),
            ("defaultReminders", .bool(subject.usesDefaultRules)),
            ("snoozedUntil", .string(snoozed.map(WallClock(zone: zone).iso8601))),
            ("nextReminder", json(nextReminder)),
        ]
        return .object(fields)
    }
}
