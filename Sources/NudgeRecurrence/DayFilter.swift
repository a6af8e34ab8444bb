import NudgeCore

/// The days a rule's BYMONTH, BYMONTHDAY, BYYEARDAY and BYDAY parts let through, read apart
/// from libical, to tell a rule that never occurs (February 30, the 53rd Monday of a month)
/// before libical's iterator looks for it until the year 2582, taking seconds.
struct DayFilter {
    private var months: Set<Int> = []
    private var monthDays: Set<Int> = []
    private var yearDays: Set<Int> = []
    private var weekdays: Set<Int> = []
    /// (n, weekday): the nth such weekday, counted from the end when negative.
    private var ordinals: [(Int, Int)] = []
    private var ordinalsInYear = false
    /// True when the rule has a part this filter does not model (WEEKLY's loose reading of
    /// BYDAY): such a rule is taken to occur. BYWEEKNO and BYSETPOS only narrow the days the
    /// other parts let through, so they are left out: a rule they narrow to nothing (found by
    /// the search's horizon) is not told apart here.
    private var unmodelled = false
    /// libical lets no day through for an ordinal BYDAY in a DAILY or HOURLY rule.
    private var ordinalNeverMatches = false

    private static let weekdayNames = ["MO": 1, "TU": 2, "WE": 3, "TH": 4, "FR": 5, "SA": 6, "SU": 7]

    /// Reads a rule as libical writes it back ("FREQ=MONTHLY;BYDAY=53MO").
    init(rrule: String) {
        var frequency = ""
        for part in rrule.split(separator: ";") {
            let pieces = part.split(separator: "=", maxSplits: 1)
            guard pieces.count == 2 else { continue }
            let values = pieces[1].split(separator: ",")
            switch pieces[0] {
            case "FREQ": frequency = String(pieces[1])
            case "BYMONTH": months = Set(values.compactMap { Int($0) })
            case "BYMONTHDAY": monthDays = Set(values.compactMap { Int($0) })
            case "BYYEARDAY": yearDays = Set(values.compactMap { Int($0) })
            case "BYDAY":
                for value in values {
                    guard let weekday = DayFilter.weekdayNames[String(value.suffix(2))] else { unmodelled = true; continue }
                    let ordinal = value.dropLast(2)
                    if ordinal.isEmpty || ordinal == "+" {
                        weekdays.insert(weekday)
                    } else if let n = Int(ordinal) {
                        ordinals.append((n, weekday))
                    } else {
                        unmodelled = true
                    }
                }
            default: continue
            }
        }
        switch frequency {
        case "MONTHLY": break
        case "YEARLY": ordinalsInYear = months.isEmpty
        case "DAILY", "HOURLY": ordinalNeverMatches = !ordinals.isEmpty
        default: unmodelled = true
        }
    }

    /// False when no day of any year passes. A year's days depend only on whether it is a leap
    /// year and on the weekday of its January 1, so the 28 years from 2000 show every kind.
    var letsSomeDayThrough: Bool {
        if unmodelled { return true }
        if ordinalNeverMatches { return false }
        if monthDays.isEmpty, yearDays.isEmpty, ordinals.isEmpty { return true }
        for year in 2000..<2028 {
            let yearLength = LocalDate.daysIn(month: 2, year: year) == 29 ? 366 : 365
            var dayOfYear = 0
            for month in 1...12 {
                let length = LocalDate.daysIn(month: month, year: year)
                defer { dayOfYear += length }
                guard months.isEmpty || months.contains(month),
                      let first = LocalDate(year: year, month: month, day: 1) else { continue }
                for day in 1...length {
                    let weekday = (first.isoWeekday + day - 2) % 7 + 1
                    let inYear = dayOfYear + day
                    if passes(day: day, monthLength: length, weekday: weekday, inYear: inYear, yearLength: yearLength) {
                        return true
                    }
                }
            }
        }
        return false
    }

    private func passes(day: Int, monthLength: Int, weekday: Int, inYear: Int, yearLength: Int) -> Bool {
        if !monthDays.isEmpty, !monthDays.contains(day), !monthDays.contains(day - monthLength - 1) { return false }
        if !yearDays.isEmpty, !yearDays.contains(inYear), !yearDays.contains(inYear - yearLength - 1) { return false }
        guard !weekdays.isEmpty || !ordinals.isEmpty else { return true }
        if weekdays.contains(weekday) { return true }
        let (position, length) = ordinalsInYear ? (inYear, yearLength) : (day, monthLength)
        let fromStart = (position - 1) / 7 + 1
        let fromEnd = -((length - position) / 7 + 1)
        return ordinals.contains { $0.1 == weekday && ($0.0 == fromStart || $0.0 == fromEnd) }
    }
}
