import NudgeCore

/// The days a rule's BYWEEKNO lets through, numbered as python-dateutil numbers weeks (the
/// reference Nudge's tests compare with): week 1 is the first week (starting on WKST) with at
/// least 4 days of the year, a negative number counts from the year's last week, and the days
/// of a year that belong to the last week of the year before, or to week 1 of the next, are
/// matched as dateutil matches them. libical 3.0 finds no day for most BYWEEKNO rules.
struct WeekNumbers: Sendable {
    private let weeks: Set<Int>
    /// 0 = Monday ... 6 = Sunday.
    private let weekStart: Int

    /// `weekStart`: 1 = Monday ... 7 = Sunday (ISO 8601).
    init(weeks: Set<Int>, isoWeekStart weekStart: Int) {
        self.weeks = weeks
        self.weekStart = (weekStart + 6) % 7
    }

    func contains(_ day: LocalDate) -> Bool {
        guard let january1 = LocalDate(year: day.year, month: 1, day: 1) else { return false }
        let index = january1.days(until: day)
        let yearWeekday = january1.isoWeekday - 1
        let yearLength = Self.length(of: day.year)
        let firstWeekStart = (7 - yearWeekday + weekStart) % 7
        var week1Start = firstWeekStart
        let weekYearLength: Int
        if week1Start >= 4 {
            week1Start = 0
            weekYearLength = yearLength + Self.mod(yearWeekday - weekStart, 7)
        } else {
            weekYearLength = yearLength - week1Start
        }
        let weekCount = weekYearLength / 7 + weekYearLength % 7 / 4
        // The days from `first` up to the next week start, at most 7.
        func inWeek(from first: Int) -> Bool {
            guard index >= first else { return false }
            let end = first + 1 + Self.mod(weekStart - (yearWeekday + first + 1), 7)
            return index < min(end, first + 7)
        }
        func weekStartIndex(_ n: Int) -> Int {
            guard n > 1 else { return week1Start }
            let first = week1Start + (n - 1) * 7
            return week1Start != firstWeekStart ? first - (7 - firstWeekStart) : first
        }
        for number in weeks {
            let n = number < 0 ? number + weekCount + 1 : number
            if n > 0, n <= weekCount, inWeek(from: weekStartIndex(n)) { return true }
        }
        if weeks.contains(1) {
            // The days of this year in week 1 of the next.
            let first = weekStartIndex(weekCount + 1)
            if first < yearLength, inWeek(from: first) { return true }
        }
        if week1Start > 0, index < week1Start {
            // The days of this year in the last week of the year before.
            let lastWeek: Int
            if weeks.contains(-1) {
                lastWeek = -1
            } else {
                let lastYearWeekday = (yearWeekday + 7 - Self.length(of: day.year - 1) % 7) % 7
                let lastWeek1Start = (7 - lastYearWeekday + weekStart) % 7
                if lastWeek1Start >= 4 {
                    lastWeek = 52 + (Self.length(of: day.year - 1) + Self.mod(lastYearWeekday - weekStart, 7)) % 7 / 4
                } else {
                    lastWeek = 52 + (yearLength - week1Start) % 7 / 4
                }
            }
            if weeks.contains(lastWeek) { return true }
        }
        return false
    }

    private static func length(of year: Int) -> Int {
        LocalDate.daysIn(month: 2, year: year) == 29 ? 366 : 365
    }

    private static func mod(_ a: Int, _ b: Int) -> Int {
        ((a % b) + b) % b
    }
}
