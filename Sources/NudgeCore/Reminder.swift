import Foundation

/// Which rule made a reminder. Its `name` is what `upcoming`, `explain`, the store and the
/// journal call it.
public enum ReminderRule: Hashable, Sendable, CustomStringConvertible {
    /// `before`: this long before the due time (for all-day todos, before `all_day_time`).
    case before(TimeSpan)
    /// `at_due`: at the due time.
    case due
    /// `at_due` for an all-day todo: on the day at `all_day_time`.
    case allDay
    /// `all_day_day_before`.
    case dayBefore
    /// `nag_every`: the Nth reminder while overdue.
    case nag(Int)
    /// `nudge remind --add` / `add --remind`.
    case custom(CustomReminder)
    /// The reminder a snooze moved the others to.
    case snooze
    /// The daily digest; it belongs to no todo.
    case digest

    public var description: String {
        switch self {
        case .before(let span): "before \(span)"
        case .due: "due"
        case .allDay: "all-day"
        case .dayBefore: "day-before"
        case .nag(let number): "nag \(number)"
        case .custom(let reminder): "remind \(reminder)"
        case .snooze: "snooze"
        case .digest: "digest"
        }
    }
}

/// A reminder a person asked for on one todo: an offset before its due, or a moment.
public enum CustomReminder: Hashable, Sendable, CustomStringConvertible {
    case before(TimeSpan)
    case at(Date)

    /// `10m` or `2026-12-24T09:00Z` style (UTC, so that it reads the same in every zone).
    public var description: String {
        switch self {
        case .before(let span): span.description
        case .at(let date): WallClock(zone: TimeZone(identifier: "UTC")!).iso8601(date)
                .replacingOccurrences(of: ":00+00:00", with: "Z")
        }
    }
}

/// One moment a todo (or the digest) reminds.
public struct Reminder: Hashable, Sendable {
    public let todoID: Int64?
    public let rule: ReminderRule
    /// When the rule says.
    public let nominal: Date
    /// When it fires: `nominal`, or the end of the quiet hours that hold it.
    public let at: Date

    public init(todoID: Int64?, rule: ReminderRule, nominal: Date, at: Date? = nil) {
        self.todoID = todoID
        self.rule = rule
        self.nominal = nominal
        self.at = at ?? nominal
    }

    public var isHeldByQuietHours: Bool { at != nominal }
}
