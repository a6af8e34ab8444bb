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

    /// The day the todo is due on, seen from `calendar`'s zone.
    public func localDate(in calendar: Calendar) -> LocalDate {
        switch self {
        case .allDay(let day): return day
        case .at(let instant, _): return LocalDate(instant, in: calendar)
        }
    }

    /// The instant used to order todos: an all-day todo sorts at the start of its day.
    public func sortInstant(in calendar: Calendar) -> Date {
        switch self {
        case .allDay(let day): return day.start(in: calendar)
        case .at(let instant, _): return instant
        }
    }

    /// A timed todo is overdue once its instant has passed; an all-day todo from the next day on.
    public func hasPassed(now: Date, calendar: Calendar) -> Bool {
        switch self {
        case .allDay(let day): return day < LocalDate(now, in: calendar)
        case .at(let instant, _): return instant < now
        }
    }
}
