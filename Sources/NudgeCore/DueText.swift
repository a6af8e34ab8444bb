import Foundation

/// Due dates and times as people read them, relative to now: "Today 09:00", "Tomorrow",
/// "Fri 14:00", "Dec 24", "Jan 3 2028"; and in full: "November 29, 2026 at 09:00".
public struct DueText: Sendable {
    public let clock: WallClock
    public let today: LocalDate

    public static let monthNames = ["January", "February", "March", "April", "May", "June", "July",
                             "August", "September", "October", "November", "December"]
    public static let weekdayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

    public init(now: Date, zone: TimeZone) {
        clock = WallClock(zone: zone)
        today = clock.day(of: now)
    }

    public func relative(_ due: Due) -> String {
        switch due {
        case .allDay(let day):
            return relative(day)
        case .at(let instant, _):
            let (day, hour, minute) = clock.dayAndTime(of: instant)
            return relative(day) + " " + pad(hour) + ":" + pad(minute)
        }
    }

    public func relative(_ day: LocalDate) -> String {
        let distance = today.days(until: day)
        switch distance {
        case 0: return "Today"
        case 1: return "Tomorrow"
        case -1: return "Yesterday"
        case 2...6: return String(Self.weekdayNames[day.isoWeekday - 1].prefix(3))
        default:
            let short = String(Self.monthNames[day.month - 1].prefix(3)) + " \(day.day)"
            return day.year == today.year ? short : short + " \(day.year)"
        }
    }

    /// "Sunday, November 29, 2026" or "Sunday, November 29, 2026 at 09:00".
    public func full(_ due: Due) -> String {
        switch due {
        case .allDay(let day):
            return Self.weekdayNames[day.isoWeekday - 1] + ", " + Self.long(day)
        case .at(let instant, _):
            let day = clock.day(of: instant)
            return Self.weekdayNames[day.isoWeekday - 1] + ", " + long(instant)
        }
    }

    /// "November 29, 2026 at 09:00".
    public func long(_ instant: Date) -> String {
        let (hour, minute, _) = clock.time(of: instant)
        return Self.long(clock.day(of: instant)) + " at " + pad(hour) + ":" + pad(minute)
    }

    /// "November 29, 2026".
    public static func long(_ day: LocalDate) -> String {
        "\(monthNames[day.month - 1]) \(day.day), \(day.year)"
    }
}
