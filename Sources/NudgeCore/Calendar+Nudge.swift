import Foundation

extension Calendar {
    /// The calendar every date computation uses: Gregorian, weeks from Monday (ISO 8601),
    /// whatever the user's language settings. No locale is set: nothing formats with it, and
    /// setting one loads its ICU data at every start (half a millisecond).
    public static func nudge(zone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        calendar.firstWeekday = 2
        calendar.minimumDaysInFirstWeek = 4
        return calendar
    }
}
