import Foundation

extension Calendar {
    /// The calendar every date computation uses: Gregorian, weeks from Monday (ISO 8601), and
    /// a fixed POSIX locale so that output does not change with the user's language settings.
    public static func nudge(zone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        calendar.locale = Locale(identifier: "en_US_POSIX")
        calendar.firstWeekday = 2
        calendar.minimumDaysInFirstWeek = 4
        return calendar
    }
}
