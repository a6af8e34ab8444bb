import Foundation

/// A calendar day with no time and no zone: the due date of an all-day todo.
public struct LocalDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// Returns nil for days that do not exist, such as February 30.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
              (1...LocalDate.daysIn(month: month, year: year)).contains(day) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// The day that `date` falls on in the calendar's time zone. A Gregorian calendar's day
    /// comes from the zone's offset (`WallClock`): `dateComponents` would instantiate
    /// `Set<Calendar.Component>`, a search of the binary's conformances costing a third of a
    /// millisecond of `nudge add`.
    public init(_ date: Date, in calendar: Calendar) {
        guard calendar.identifier != .gregorian else {
            self = WallClock(zone: calendar.timeZone).day(of: date)
            return
        }
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        guard let year = parts.year, let month = parts.month, let day = parts.day else {
            self = WallClock(zone: calendar.timeZone).day(of: date)
            return
        }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses `YYYY-MM-DD`. Byte by byte: the store reads one for every listed todo.
    public init?(iso text: some StringProtocol) {
        var digits: [Int] = []
        digits.reserveCapacity(8)
        var count = 0
        for byte in text.utf8 {
            count += 1
            if count == 5 || count == 8 {
                guard byte == UInt8(ascii: "-") else { return nil }
            } else {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                digits.append(Int(byte - UInt8(ascii: "0")))
            }
        }
        guard count == 10 else { return nil }
        let year = digits[0] * 1000 + digits[1] * 100 + digits[2] * 10 + digits[3]
        self.init(year: year, month: digits[4] * 10 + digits[5], day: digits[6] * 10 + digits[7])
    }

    /// Without `String(format:)`, whose first use loads locale data: a cost at every start of
    /// `nudge status`, which a status bar runs every few seconds.
    public var description: String {
        let digits = String(year)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits + "-" + pad(month) + "-" + pad(day)
    }

    public static func < (a: LocalDate, b: LocalDate) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }

    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Midnight at the start of this day, or the first instant of the day when a DST change
    /// skips midnight.
    public func start(in calendar: Calendar) -> Date {
        if let clock = LocalDate.prolepticClock(self, calendar) { return clock.instant(atLocalSeconds: dayNumber * 86_400) }
        guard let midnight = calendar.date(from: components) else { return at(hour: 0, minute: 0, in: calendar) }
        return calendar.startOfDay(for: midnight)
    }

    /// The given wall-clock time on this day. A time inside a DST gap is moved forward by the
    /// length of the gap (RFC 5545); a time that happens twice is the first of the two.
    public func at(hour: Int, minute: Int, second: Int = 0, in calendar: Calendar) -> Date {
        let localSeconds = (dayNumber * 24 + hour) * 3600 + minute * 60 + second
        if let clock = LocalDate.prolepticClock(self, calendar) {
            return clock.instant(atLocalSeconds: localSeconds)
        }
        var parts = components
        parts.hour = hour
        parts.minute = minute
        parts.second = second
        return calendar.date(from: parts) ?? WallClock(zone: calendar.timeZone).instant(atLocalSeconds: localSeconds)
    }

    /// Foundation's Gregorian calendar is Julian before 1582-10-15, where `init(_:in:)` and the
    /// day arithmetic here are proleptic Gregorian (as ISO 8601 and RFC 5545): such a day is
    /// placed by the zone's offset alone, which has no DST changes that early.
    private static func prolepticClock(_ day: LocalDate, _ calendar: Calendar) -> WallClock? {
        guard calendar.identifier == .gregorian, day < gregorianReform else { return nil }
        return WallClock(zone: calendar.timeZone)
    }

    private static let gregorianReform = LocalDate(anyYear: 1582, month: 10, day: 15)

    public func adding(days: Int) -> LocalDate {
        LocalDate(dayNumber: dayNumber + days)
    }

    /// Whole days from `self` to `other`.
    public func days(until other: LocalDate) -> Int {
        other.dayNumber - dayNumber
    }

    /// 1 = Monday ... 7 = Sunday (ISO 8601).
    public var isoWeekday: Int {
        // 1970-01-01 was a Thursday (4).
        ((dayNumber % 7) + 7 + 3) % 7 + 1
    }

    public var components: DateComponents {
        DateComponents(year: year, month: month, day: day)
    }

    /// Days since 1970-01-01 (proleptic Gregorian), from Howard Hinnant's days_from_civil.
    var dayNumber: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    /// A day of any year, such as the year 10000 a computation reached before it is refused.
    init(anyYear year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    init(dayNumber: Int) {
        let z = dayNumber + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.year = yoe + era * 400 + (m <= 2 ? 1 : 0)
        self.month = m
        self.day = d
    }
}
