import Foundation
import NudgeCore

/// The years 0001-9999, which every format Nudge reads and writes can hold (RFC 5545's and
/// ISO 8601's four digits, Taskwarrior's): a date a file computes outside them (DTSTART plus a
/// DURATION of 99999999999 weeks) is refused, and a record that holds one (stored by an older
/// version) is not written out.
public enum YearBounds {
    /// Whether the instant's day is in the years both in UTC (where Taskwarrior writes it) and
    /// in `zone`.
    static func contains(_ instant: Date, in zone: TimeZone = ICalendarFile.utc) -> Bool {
        WallClock(zone: ICalendarFile.utc).isWithinYears(instant) && WallClock(zone: zone).isWithinYears(instant)
    }

    static func contains(_ due: Due) -> Bool {
        switch due {
        case .allDay: due.isWithinYears
        case .at(let instant, let zone): contains(instant, in: zone)
        }
    }

    /// Why a record cannot be written out ("its due is outside the years 0001-9999"), or nil.
    public static func unwritable(_ record: TodoRecord) -> String? {
        guard let field = fieldOutside(record) else { return nil }
        let names = [
            "createdAt": "creation time", "updatedAt": "time of its last change", "completedAt": "completion time",
            "snoozedUntil": "snooze", "remindedThrough": "time of its last reminder", "reminders": "reminder",
            "repeat": "repeat's start",
        ]
        return "its \(names[field] ?? field) is outside the years 0001-9999"
    }

    /// Whether a reminder's moment is in the years: a moment, or a span before the due.
    static func contains(_ reminder: CustomReminder, due: Due?) -> Bool {
        switch (reminder, due) {
        case (.at(let moment), _): return contains(moment)
        case (.before, nil): return true
        case (.before(let span), .allDay(let day)?):
            let calendar = Calendar.nudge(zone: ICalendarFile.utc)
            return contains(TimeSpan(days: -span.days, seconds: -span.seconds).added(to: day.start(in: calendar), calendar: calendar))
        case (.before(let span), .at(let instant, let zone)?):
            return contains(TimeSpan(days: -span.days, seconds: -span.seconds).added(to: instant, calendar: .nudge(zone: zone)))
        }
    }

    /// The first of a record's dates outside the years, by its field's name in Nudge's JSON
    /// ("due", "completedAt", ...); nil when all are inside.
    public static func fieldOutside(_ record: TodoRecord) -> String? {
        if let due = record.due, !contains(due) { return "due" }
        let instants: [(field: String, instant: Date?)] = [
            ("createdAt", record.createdAt), ("updatedAt", record.updatedAt), ("completedAt", record.completedAt),
            ("snoozedUntil", record.snoozedUntil), ("remindedThrough", record.remindedThrough),
        ]
        if let outside = instants.first(where: { $0.instant.map { !contains($0) } ?? false }) { return outside.field }
        if record.custom.contains(where: { !contains($0, due: record.due) }) { return "reminders" }
        if let repetition = record.repetition,
           ([repetition.start].compactMap { $0 } + repetition.exceptions + repetition.additions).contains(where: { !Due.years.contains($0.day.year) }) {
            return "repeat"
        }
        return nil
    }
}
