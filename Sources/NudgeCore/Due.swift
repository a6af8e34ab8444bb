import Foundation

/// When a todo is due: a whole day, or an instant remembered with the zone it was set in, so that
/// later work (recurrence, reminders) can keep 09:00 at 09:00 across DST changes.
public enum Due: Hashable, Sendable {
    case allDay(LocalDate)
    case at(Date, zone: TimeZone)

    public var isAllDay: Bool {
        if case .allDay = self { return true }
        return false
    }
}

extension Due {
    /// The years every date Nudge computes lies in; the formats it writes have four digits.
    public static let years = 1...9999

    /// True when the due's day (a timed due's day in its own zone) lies in `years`. Only a due
    /// read from a database written before this was checked can fail it: such a due is shown
    /// as it is, but gets no reminders, and moving it is refused.
    public var isWithinYears: Bool {
        switch self {
        case .allDay(let day): Due.years.contains(day.year)
        case .at(let instant, let zone): WallClock(zone: zone).isWithinYears(instant)
        }
    }

    /// This due, or an error saying that `what` (e.g. "moving the due by 1w") leaves `years`.
    /// Every due Nudge computes from another (postpone, a WHEN text, a repeat, a snooze) passes
    /// here before it is stored.
    public func checked(_ what: @autoclosure () -> String) throws(InputError) -> Due {
        guard isWithinYears else { throw InputError("\(what()) leaves the years 0001-9999") }
        return self
    }

    /// When it begins: its instant, or the start of its day in `localZone`.
    public func start(in localZone: TimeZone) -> Date {
        switch self {
        case .at(let instant, _): instant
        case .allDay(let day): day.start(in: .nudge(zone: localZone))
        }
    }
}
