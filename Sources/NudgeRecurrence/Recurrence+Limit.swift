import CICal
import NudgeCore

extension Recurrence {
    /// The parts of a rule libical 3.0 expands wrongly, taken out of it and applied by `search`
    /// as the limits RFC 5545 makes them, with COUNT, which counts the occurrences that pass:
    /// - FREQ=HOURLY with BYHOUR: libical steps every hour whatever the INTERVAL, and skips hours
    ///   of the first day when DTSTART is outside them;
    /// - a negative BYMONTHDAY (from the month's end) in a DAILY or HOURLY rule: libical never
    ///   matches it, and stepped to the horizon finding nothing (FREQ=DAILY;BYMONTHDAY=-1 is the
    ///   last day of each month);
    /// - BYWEEKNO, of any FREQ: libical finds no day for FREQ=YEARLY;BYWEEKNO=20 or 53, and its
    ///   yearly loop, which ignores UNTIL, looked for one until the year 2582 (half a second).
    ///   A YEARLY, MONTHLY or WEEKLY rule with no other part picking days is given every weekday
    ///   in BYDAY, so that libical expands every day of each period (in its BYMONTH), as RFC
    ///   5545 expands a YEARLY BYWEEKNO (and dateutil the others).
    struct Limit {
        var hours: Set<Int>?
        var monthDays: Set<Int>?
        var weeks: WeekNumbers?
        var count: Int

        /// Nil when there is nothing to take.
        init?(taking rule: inout icalrecurrencetype) {
            if rule.freq == ICAL_HOURLY_RECURRENCE {
                let taken = Self.take(&rule.by_hour)
                if !taken.isEmpty { hours = taken }
            }
            if rule.freq == ICAL_HOURLY_RECURRENCE || rule.freq == ICAL_DAILY_RECURRENCE,
               Self.values(rule.by_month_day).contains(where: { $0 < 0 }) {
                monthDays = Self.take(&rule.by_month_day)
            }
            if let weekNumbers = Self.weekNumbers(of: rule) {
                weeks = weekNumbers
                _ = Self.take(&rule.by_week_no)
                if [ICAL_YEARLY_RECURRENCE, ICAL_MONTHLY_RECURRENCE, ICAL_WEEKLY_RECURRENCE].contains(rule.freq),
                   Self.values(rule.by_year_day).isEmpty,
                   Self.values(rule.by_month_day).isEmpty, Self.values(rule.by_day).isEmpty {
                    // In week order (libical's WEEKLY loop expects it): 1 = Sunday ... 7 = Saturday.
                    let first = rule.week_start.rawValue == 0 ? 2 : Int(rule.week_start.rawValue)
                    withUnsafeMutableBytes(of: &rule.by_day) { raw in
                        let days = raw.bindMemory(to: Int16.self)
                        for offset in 0..<7 { days[offset] = Int16((first - 1 + offset) % 7 + 1) }
                        days[7] = Self.end
                    }
                }
            }
            guard hours != nil || monthDays != nil || weeks != nil else { return nil }
            count = Int(rule.count)
            rule.count = 0
        }

        func passes(_ occurrence: FloatingTime) -> Bool {
            if let hours, !hours.contains(occurrence.hour) { return false }
            if let weeks, !weeks.contains(occurrence.day) { return false }
            if let monthDays {
                let day = occurrence.day
                let fromEnd = day.day - LocalDate.daysIn(month: day.month, year: day.year) - 1
                return monthDays.contains(day.day) || monthDays.contains(fromEnd)
            }
            return true
        }

        private static let end = Int16(truncatingIfNeeded: ICAL_RECURRENCE_ARRAY_MAX.rawValue)

        /// The rule's BYWEEKNO, numbered from its WKST; nil without one.
        static func weekNumbers(of rule: icalrecurrencetype) -> WeekNumbers? {
            let numbers = values(rule.by_week_no)
            return numbers.isEmpty ? nil : WeekNumbers(weeks: Set(numbers), isoWeekStart: isoWeekStart(of: rule))
        }

        /// WKST, 1 = Monday ... 7 = Sunday. libical's week_start: 1 = Sunday ... 7 = Saturday, 0 when not given (Monday).
        static func isoWeekStart(of rule: icalrecurrencetype) -> Int {
            rule.week_start.rawValue == 0 ? 1 : (Int(rule.week_start.rawValue) + 5) % 7 + 1
        }

        static func values<List>(_ list: List) -> [Int] {
            withUnsafeBytes(of: list) { raw in
                Array(raw.bindMemory(to: Int16.self).prefix { $0 != end }.map(Int.init))
            }
        }

        /// The values of one of libical's BY lists, leaving it empty.
        private static func take<List>(_ list: inout List) -> Set<Int> {
            let taken = Set(values(list))
            withUnsafeMutableBytes(of: &list) { raw in raw.bindMemory(to: Int16.self)[0] = end }
            return taken
        }
    }
}
