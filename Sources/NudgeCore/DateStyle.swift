/// How dates and times are written and read: the clock, the order of day and month, and the
/// first day of the week. It comes from the locale (`DateStyle(environment:)`), overridden by
/// the config's `[display]` keys (`overridden(by:)`). Words stay English whatever the locale.
public struct DateStyle: Hashable, Sendable {
    public var clock: ClockFormat
    /// Nil where the locale does not say (C, POSIX, a locale that is not installed): dates are
    /// written month first, and a numeric date such as 3/4 is refused when both orders fit.
    public var dateOrder: DateOrder?
    /// The ISO weekday weeks start on: 1 = Monday, 6 = Saturday, 7 = Sunday.
    public var weekStart: Int

    public init(clock: ClockFormat, dateOrder: DateOrder?, weekStart: Int) {
        precondition((1...7).contains(weekStart), "weekStart is an ISO weekday, 1-7")
        self.clock = clock
        self.dateOrder = dateOrder
        self.weekStart = weekStart
    }

    /// The C and POSIX locales': 24-hour clock, month-first names ("Dec 24"), weeks from Monday.
    public static let standard = DateStyle(clock: .twentyFourHour, dateOrder: nil, weekStart: 1)

    /// The `[display]` keys that are set replace what the locale says.
    public func overridden(by display: DisplaySettings) -> DateStyle {
        DateStyle(clock: display.timeFormat ?? clock, dateOrder: display.dateFormat ?? dateOrder,
                  weekStart: display.weekStart ?? weekStart)
    }

    /// The first day of the week holding `day`.
    public func weekFirstDay(of day: LocalDate) -> LocalDate {
        day.adding(days: -((day.isoWeekday - weekStart + 7) % 7))
    }
}

/// `[display] time_format`: 24h ("14:00") or 12h ("2:00 PM").
public enum ClockFormat: String, Hashable, Sendable, CaseIterable {
    case twentyFourHour = "24h"
    case twelveHour = "12h"
}

/// `[display] date_format`: the order of a date's parts, in what Nudge writes and in numeric
/// dates typed with / or . (12/24, 24.12.).
public enum DateOrder: String, Hashable, Sendable, CaseIterable {
    /// "Dec 24", "Thursday, December 24, 2026"; 12/24 is December 24.
    case monthDayYear = "mdy"
    /// "24 Dec", "Thursday, 24 December 2026"; 24/12 is December 24.
    case dayMonthYear = "dmy"
    /// "2026-12-24", "Thursday, 2026-12-24"; 12/24 is December 24.
    case yearMonthDay = "ymd"

    /// Whether a numeric date without a year is month/day.
    var monthFirst: Bool { self != .dayMonthYear }
}

/// `[display]`: what replaces the locale's conventions; nil keeps the locale's.
public struct DisplaySettings: Hashable, Sendable {
    /// `week_start`: an ISO weekday, 1 (Monday), 6 (Saturday) or 7 (Sunday).
    public var weekStart: Int?
    /// `time_format`.
    public var timeFormat: ClockFormat?
    /// `date_format`.
    public var dateFormat: DateOrder?

    public init(weekStart: Int? = nil, timeFormat: ClockFormat? = nil, dateFormat: DateOrder? = nil) {
        self.weekStart = weekStart
        self.timeFormat = timeFormat
        self.dateFormat = dateFormat
    }
}
