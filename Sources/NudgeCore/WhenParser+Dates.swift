import Foundation

extension WhenParser {
    /// The day named by `tokens` (all of them), and the time it implies if any ("tonight").
    /// Nil when the tokens are not a date form; throws for a date form naming a day that does
    /// not exist.
    func datePart(_ tokens: [String], input: String) throws(InputError) -> (LocalDate, ClockTime?)? {
        let today = LocalDate(now, in: calendar)
        switch tokens.count {
        case 1:
            let word = tokens[0]
            switch word {
            case "today": return (today, nil)
            case "tonight": return (today, ClockTime(hour: 20, minute: 0))
            case "tomorrow", "tmrw", "tmr": return (today.adding(days: 1), nil)
            case "yesterday": return (today.adding(days: -1), nil)
            default: break
            }
            if let weekday = WhenParser.weekdays[word] {
                // Strictly after today.
                let ahead = (weekday - today.isoWeekday + 7) % 7
                return (today.adding(days: ahead == 0 ? 7 : ahead), nil)
            }
            if let day = try isoDate(word, input: input) {
                return (day, nil)
            }
            if let day = try numericDate(word, input: input) {
                return (day, nil)
            }
        case 2:
            let weekFirst = style.weekFirstDay(of: today)
            if let weekday = WhenParser.weekdays[tokens[1]] {
                let offset = (weekday - style.weekStart + 7) % 7
                switch tokens[0] {
                case "this": return (weekFirst.adding(days: offset), nil)
                case "next": return (weekFirst.adding(days: 7 + offset), nil)
                default: break
                }
            }
            if tokens[0] == "next" {
                switch tokens[1] {
                case "week": return (weekFirst.adding(days: 7), nil)
                case "month":
                    let month = today.month % 12 + 1
                    return (LocalDate(anyYear: today.year + (month == 1 ? 1 : 0), month: month, day: 1), nil)
                case "year": return (LocalDate(anyYear: today.year + 1, month: 1, day: 1), nil)
                default: break
                }
            }
            if let day = try monthDay(tokens, input: input) {
                return (day, nil)
            }
        case 3:
            if let day = try monthDay(tokens, input: input) {
                return (day, nil)
            }
        default:
            break
        }
        return nil
    }

    /// "2026-12-24" (also with one-digit month or day). Nil if not shaped like one.
    private func isoDate(_ word: String, input: String) throws(InputError) -> LocalDate? {
        let fields = word.split(separator: "-", omittingEmptySubsequences: false)
        guard fields.count == 3, fields[0].count == 4, (1...2).contains(fields[1].count),
              (1...2).contains(fields[2].count), fields.allSatisfy(WhenParser.isDigits),
              let year = Int(fields[0]), let month = Int(fields[1]), let day = Int(fields[2])
        else { return nil }
        return try WhenParser.validDay(year: year, month: month, day: day, input: input)
    }

    /// "dec 24", "24 dec", "december 24th", "dec 24 2027", "24 dec 2027". Nil if not shaped
    /// like one.
    private func monthDay(_ tokens: [String], input: String) throws(InputError) -> LocalDate? {
        var month: Int?
        var dayNumber: Int?
        if let m = WhenParser.months[tokens[0]], let d = WhenParser.dayOfMonth(tokens[1]) {
            (month, dayNumber) = (m, d)
        } else if let d = WhenParser.dayOfMonth(tokens[0]), let m = WhenParser.months[tokens[1]] {
            (month, dayNumber) = (m, d)
        }
        guard let month, let dayNumber else { return nil }
        if tokens.count == 3 {
            guard tokens[2].count == 4, WhenParser.isDigits(tokens[2]), let year = Int(tokens[2]) else {
                return nil
            }
            return try WhenParser.validDay(year: year, month: month, day: dayNumber, input: input)
        }
        return try nextOccurrence(month: month, day: dayNumber, input: input)
    }

    /// Month and day without a year: the next occurrence that is today or later.
    private func nextOccurrence(month: Int, day dayNumber: Int, input: String) throws(InputError) -> LocalDate {
        let name = WhenParser.monthNames[month - 1]
        if dayNumber < 1 {
            throw InputError("'\(input)' is not a date: there is no day 0")
        }
        let longest = month == 2 ? 29 : LocalDate.daysIn(month: month, year: 2001)
        if dayNumber > longest {
            throw InputError("'\(input)' is not a date: \(name) has \(month == 2 ? "at most 29" : "\(longest)") days")
        }
        let today = LocalDate(now, in: calendar)
        var year = today.year
        while year <= 9999 {
            if let day = LocalDate(year: year, month: month, day: dayNumber), day >= today {
                return day
            }
            year += 1
        }
        throw InputError("'\(input)' is not a date: it falls after the year 9999")
    }

    /// "12/24", "24.12.", "12/24/2026", "24.12.2026": in the style's order of day and month.
    /// Nil if not shaped like one.
    private func numericDate(_ word: String, input: String) throws(InputError) -> LocalDate? {
        guard let separator = word.first(where: { $0 == "/" || $0 == "." }) else { return nil }
        var fields = word.split(separator: separator, omittingEmptySubsequences: false)
        // "24.12." as Germans write it.
        if separator == ".", fields.count == 3, fields[2].isEmpty { fields.removeLast() }
        guard (2...3).contains(fields.count), fields.allSatisfy(WhenParser.isDigits),
              fields[0].count <= 2, fields[1].count <= 2, fields.count == 2 || fields[2].count == 4,
              let first = Int(fields[0]), let second = Int(fields[1]) else { return nil }
        let year = fields.count == 3 ? Int(fields[2]) : nil
        func day(month: Int, day: Int) throws(InputError) -> LocalDate {
            if let year { return try WhenParser.validDay(year: year, month: month, day: day, input: input) }
            guard (1...12).contains(month) else {
                throw InputError("'\(input)' is not a date: there is no month \(month) (months run 01-12)")
            }
            return try nextOccurrence(month: month, day: day, input: input)
        }
        guard let order = style.dateOrder else {
            // No known order: take the one reading that is a date; refuse two.
            let monthFirst = try? day(month: first, day: second)
            let dayFirst = try? day(month: second, day: first)
            switch (monthFirst, dayFirst) {
            case let (a?, b?) where a != b:
                throw InputError("'\(input)' is ambiguous: \(WhenParser.spoken(a)) (month\(separator)day) or "
                                 + "\(WhenParser.spoken(b)) (day\(separator)month); write \(a) or \(b), or set "
                                 + "[display] date_format")
            case let (a?, _): return a
            case let (nil, b?): return b
            case (nil, nil): return try day(month: first, day: second)
            }
        }
        let (month, dayNumber) = order.monthFirst ? (first, second) : (second, first)
        if !(1...12).contains(month), (1...12).contains(dayNumber) {
            let orderName = order.monthFirst ? "month\(separator)day" : "day\(separator)month"
            let swapped = "\(second)\(separator)\(first)" + (year.map { "\(separator)\($0)" } ?? "")
            throw InputError("'\(input)' is not a date: numeric dates are \(orderName) here (the locale's order, or "
                             + "[display] date_format) and there is no month \(month); write \(swapped)")
        }
        return try day(month: month, day: dayNumber)
    }

    /// "Thursday December 24 2026", for messages naming both readings of a date.
    static func spoken(_ day: LocalDate) -> String {
        "\(DueText.weekdayNames[day.isoWeekday - 1]) \(monthNames[day.month - 1]) \(day.day) \(day.year)"
    }
}
