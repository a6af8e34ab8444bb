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
    private var weekNumbers: Set<Int> = []
    /// WKST: 1 = Monday ... 7 = Sunday.
    private var weekStart = 1
    /// BYSETPOS: which of each period's occurrences (month, year, day or hour, by FREQ) are kept.
    private var positions: Set<Int> = []
    /// The occurrences each passing day gives within a period: one per BYHOUR (one without),
    /// except in an HOURLY rule, whose period is one hour.
    private var perDay = 1
    /// How BYSETPOS counts: the days of a month or of a year, or the occurrences of one day
    /// (DAILY) or hour (HOURLY); nil where this filter does not model it.
    private var setPeriod: SetPeriod?
    private enum SetPeriod { case month, year, day, hour }
    /// True when the rule has a part this filter does not model (WEEKLY's loose reading of
    /// BYDAY): such a rule is taken to occur. BYSETPOS is checked against each period's most
    /// occurrences, whatever BYWEEKNO takes out (`Recurrence.canonical` refuses BYSETPOS with
    /// BYWEEKNO where BYWEEKNO could change a period's count).
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
            case "BYMONTH":
                // A leap month (RFC 7529's "5L") is in no Gregorian year; 0 stands for "no month".
                months = Set(values.compactMap { Int($0) })
                if months.isEmpty { months = [0] }
            case "BYMONTHDAY": monthDays = Set(values.compactMap { Int($0) })
            case "BYYEARDAY": yearDays = Set(values.compactMap { Int($0) })
            case "BYSETPOS": positions = Set(values.compactMap { Int($0) })
            case "BYWEEKNO": weekNumbers = Set(values.compactMap { Int($0) })
            case "WKST": weekStart = DayFilter.weekdayNames[String(pieces[1])] ?? 1
            case "BYHOUR": perDay = max(1, Set(values).count)
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
        // BYWEEKNO picks days too: a rule with it alone is every day of those weeks.
        let picksDays = !monthDays.isEmpty || !yearDays.isEmpty || !weekdays.isEmpty || !ordinals.isEmpty || !weekNumbers.isEmpty
        switch frequency {
        case "MONTHLY": setPeriod = .month
        case "YEARLY":
            ordinalsInYear = months.isEmpty
            // Without a part picking days, a year's occurrences are DTSTART's day in each month.
            setPeriod = picksDays ? .year : nil
        case "DAILY":
            ordinalNeverMatches = !ordinals.isEmpty
            setPeriod = .day
        case "HOURLY":
            ordinalNeverMatches = !ordinals.isEmpty
            setPeriod = .hour
        default: unmodelled = true
        }
    }

    /// Whether BYSETPOS keeps one of `count` occurrences of a period: some position counts
    /// from the start (1...count) or from the end (-count...-1).
    private func keepsOne(of count: Int) -> Bool {
        positions.isEmpty || positions.contains { (1...count).contains($0) || (-count...(-1)).contains($0) }
    }

    /// False when no day of any year passes. A year's days depend only on whether it is a leap
    /// year and on the weekday of its January 1, so the 28 years from 2000 show every kind.
    var letsSomeDayThrough: Bool {
        if unmodelled { return true }
        if ordinalNeverMatches { return false }
        if !months.isEmpty, !months.contains(where: (1...12).contains) { return false }
        let perPeriod: Int? = switch setPeriod {
        case .day: perDay
        case .hour: 1
        case .month, .year, nil: nil
        }
        // A DAILY or HOURLY rule's period holds the same number of occurrences every day.
        if let perPeriod, !keepsOne(of: perPeriod) { return false }
        let countsDays = !positions.isEmpty && (setPeriod == .month || setPeriod == .year)
        if !countsDays, monthDays.isEmpty, yearDays.isEmpty, ordinals.isEmpty, weekNumbers.isEmpty { return true }
        let weeks = weeks
        for year in 2000..<2028 {
            let yearLength = LocalDate.daysIn(month: 2, year: year) == 29 ? 366 : 365
            var dayOfYear = 0
            var inYear = 0
            for month in 1...12 {
                let length = LocalDate.daysIn(month: month, year: year)
                defer { dayOfYear += length }
                guard months.isEmpty || months.contains(month),
                      let first = LocalDate(year: year, month: month, day: 1) else { continue }
                var inMonth = 0
                for day in 1...length {
                    let weekday = (first.isoWeekday + day - 2) % 7 + 1
                    if passes(day: day, monthLength: length, weekday: weekday, inYear: dayOfYear + day, yearLength: yearLength),
                       weeks?.contains(first.adding(days: day - 1)) ?? true {
                        if !countsDays { return true }
                        inMonth += 1
                    }
                }
                // Without a part picking days, a month's one occurrence is DTSTART's day.
                if setPeriod == .month, monthDays.isEmpty, yearDays.isEmpty, weekdays.isEmpty, ordinals.isEmpty, weekNumbers.isEmpty { inMonth = 1 }
                if setPeriod == .month, inMonth > 0, keepsOne(of: inMonth * perDay) { return true }
                inYear += inMonth
            }
            if setPeriod == .year, inYear > 0, keepsOne(of: inYear * perDay) { return true }
        }
        return false
    }

    private var weeks: WeekNumbers? {
        weekNumbers.isEmpty ? nil : WeekNumbers(weeks: weekNumbers, isoWeekStart: weekStart)
    }

    /// Whether a DAILY or HOURLY rule's BYMONTH, BYMONTHDAY, BYYEARDAY, BYDAY and BYWEEKNO
    /// let `day` through; nil when the rule has none of them, or a part this filter does not
    /// model, so that every day must be asked of libical.
    var dayTest: ((LocalDate) -> Bool)? {
        guard !unmodelled, !(months.isEmpty && monthDays.isEmpty && yearDays.isEmpty && weekdays.isEmpty
                             && ordinals.isEmpty && weekNumbers.isEmpty) else { return nil }
        let weeks = weeks
        return { day in
            guard months.isEmpty || months.contains(day.month), let january1 = LocalDate(year: day.year, month: 1, day: 1) else { return false }
            let yearLength = LocalDate.daysIn(month: 2, year: day.year) == 29 ? 366 : 365
            return passes(day: day.day, monthLength: LocalDate.daysIn(month: day.month, year: day.year), weekday: day.isoWeekday,
                          inYear: january1.days(until: day) + 1, yearLength: yearLength)
                && weeks?.contains(day) ?? true
        }
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
