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
