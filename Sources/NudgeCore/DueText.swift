import Foundation

/// Due dates and times as people read them, relative to now, in a `DateStyle`: "Today 09:00",
/// "Tomorrow", "Fri 14:00", "Dec 24", "Jan 3 2028"; and in full: "November 29, 2026 at 09:00".
/// Under a 12-hour clock times read "9:00 AM"; under day-month order "24 Dec" and
/// "29 November 2026"; under year-month-day "2026-12-24". Words stay English.
public struct DueText: Sendable {
    public let clock: WallClock
    public let today: LocalDate
    public let style: DateStyle

    public static let monthNames = ["January", "February", "March", "April", "May", "June", "July",
                             "August", "September", "October", "November", "December"]
    public static let weekdayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

    public init(now: Date, zone: TimeZone, style: DateStyle) {
        clock = WallClock(zone: zone)
        today = clock.day(of: now)
        self.style = style
    }

    public func relative(_ due: Due) -> String {
        switch due {
        case .allDay(let day):
            return relative(day)
        case .at(let instant, _):
            let (day, hour, minute) = clock.dayAndTime(of: instant)
            return relative(day) + " " + time(hour: hour, minute: minute)
        }
    }

    public func relative(_ day: LocalDate) -> String {
        let distance = today.days(until: day)
        switch distance {
        case 0: return "Today"
        case 1: return "Tomorrow"
        case -1: return "Yesterday"
        case 2...6: return Self.shortWeekday(day)
        default: return short(day)
        }
    }

    /// "Dec 24" ("24 Dec"), with the year when it is not this year's: "Jan 3 2028"; under
    /// year-month-day always "2026-12-24". `padded` writes a one-digit day after a space, as
    /// ls -l does, so that a column of them lines up: "Dec  3", " 3 Dec".
    public func short(_ day: LocalDate, padded: Bool = false) -> String {
        let month = String(Self.monthNames[day.month - 1].prefix(3))
        let year = day.year == today.year ? "" : " \(day.year)"
        let number = padded && day.day < 10 ? " \(day.day)" : "\(day.day)"
        switch style.dateOrder {
        case .monthDayYear?, nil: return month + " " + number + year
        case .dayMonthYear?: return number + " " + month + year
        case .yearMonthDay?: return day.description
        }
    }

    /// "Sunday, November 29, 2026" or "Sunday, November 29, 2026 at 09:00".
    public func full(_ due: Due) -> String {
        switch due {
        case .allDay(let day):
            return Self.weekdayNames[day.isoWeekday - 1] + ", " + long(day)
        case .at(let instant, _):
            let day = clock.day(of: instant)
            return Self.weekdayNames[day.isoWeekday - 1] + ", " + long(instant)
        }
    }

    /// "November 29, 2026 at 09:00".
    public func long(_ instant: Date) -> String {
        let (hour, minute, _) = clock.time(of: instant)
        return long(clock.day(of: instant)) + " at " + time(hour: hour, minute: minute)
    }

    /// "November 29, 2026", "29 November 2026" or "2026-11-29".
    public func long(_ day: LocalDate) -> String {
        let month = Self.monthNames[day.month - 1]
        switch style.dateOrder {
        case .monthDayYear?, nil: return "\(month) \(day.day), \(day.year)"
        case .dayMonthYear?: return "\(day.day) \(month) \(day.year)"
        case .yearMonthDay?: return day.description
        }
    }

    /// "14:05" or "2:05 PM"; with `second`, "14:05:09" or "2:05:09 PM".
    public func time(hour: Int, minute: Int, second: Int? = nil) -> String {
        let seconds = second.map { ":" + pad($0) } ?? ""
        switch style.clock {
        case .twentyFourHour:
            return pad(hour) + ":" + pad(minute) + seconds
        case .twelveHour:
            let twelve = hour % 12 == 0 ? 12 : hour % 12
            return "\(twelve):" + pad(minute) + seconds + (hour < 12 ? " AM" : " PM")
        }
    }

    /// "Dec 24 14:05:09": a moment to the second, as the history shows it.
    public func stamp(_ instant: Date) -> String {
        let (day, hour, minute) = clock.dayAndTime(of: instant)
        return short(day) + " " + time(hour: hour, minute: minute, second: clock.time(of: instant).second)
    }

    /// "Fri".
    public static func shortWeekday(_ day: LocalDate) -> String {
        String(weekdayNames[day.isoWeekday - 1].prefix(3))
    }
}
