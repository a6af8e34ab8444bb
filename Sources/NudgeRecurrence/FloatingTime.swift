import CICal
import NudgeCore

/// A wall-clock date (and time of day) with no zone: libical's "floating" icaltimetype.
/// `isDate` marks a DATE value (an all-day occurrence), whose time of day is ignored.
/// The conversions from and to icaltimetype call libical: only inside `LibICalLibrary.withLock`.
struct FloatingTime: Comparable, Sendable, CustomStringConvertible {
    var day: LocalDate
    var hour = 0
    var minute = 0
    var second = 0
    var isDate = false

    static func date(_ day: LocalDate) -> FloatingTime {
        FloatingTime(day: day, isDate: true)
    }

    static func < (a: FloatingTime, b: FloatingTime) -> Bool {
        if a.day != b.day { return a.day < b.day }
        return (a.hour, a.minute, a.second) < (b.hour, b.minute, b.second)
    }

    var description: String {
        isDate ? day.description : day.description + "T" + two(hour) + ":" + two(minute) + ":" + two(second)
    }

    private func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    /// The floating (zone-less) icaltimetype for this time.
    var icalTime: icaltimetype {
        var time = ical.icaltime_null_time()
        time.year = Int32(day.year)
        time.month = Int32(day.month)
        time.day = Int32(day.day)
        if isDate {
            time.is_date = 1
        } else {
            time.hour = Int32(hour)
            time.minute = Int32(minute)
            time.second = Int32(second)
        }
        time.zone = nil
        return time
    }

    /// Nil for libical's null time (the end of a series) or a day outside the years 1-9999.
    init?(_ time: icaltimetype) {
        guard ical.icaltime_is_null_time(time) == 0,
              let day = LocalDate(year: Int(time.year), month: Int(time.month), day: Int(time.day)) else { return nil }
        self.day = day
        self.isDate = time.is_date != 0
        if !isDate {
            hour = Int(time.hour)
            minute = Int(time.minute)
            second = Int(time.second)
        }
    }

    init(day: LocalDate, hour: Int = 0, minute: Int = 0, second: Int = 0, isDate: Bool = false) {
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.isDate = isDate
    }
}
