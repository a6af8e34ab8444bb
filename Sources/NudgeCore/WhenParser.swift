import Foundation

/// Reads the WHEN forms people type for due dates ("tomorrow 9am", "fri", "in 2h", "dec 24").
///
/// Input is case-insensitive; surrounding white space is trimmed, repeated inner spaces and
/// commas are ignored. A form without a time of day gives `.allDay`; a form with one gives
/// `.at(instant, zone: calendar.timeZone)`. Everything is computed from the fixed `now` in
/// `calendar`'s zone. Weeks start on `style.weekStart` (from the locale or `[display]
/// week_start`), and numeric dates follow `style.dateOrder`.
///
/// Choices made where people's expectations differ:
/// - A weekday alone ("fri") is the next such day strictly after today: on a Friday, "fri" is
///   a week later.
/// - "next fri" is the Friday of next week, so with weeks from Monday "next fri" on a Sunday is
///   5 days away, on a Thursday 8; with weeks from Sunday, on a Sunday it is 12 days away.
///   "this fri" is the Friday of the current week, even if that day has passed.
/// - "next week" is the first day of next week, "next month" the 1st of next month, "next
///   year" January 1; all-day unless a time is given ("next week 9am").
/// - A time alone ("9am", "17:30", "noon", "midnight", "at 9") is the next such time: today if
///   it is strictly after now, else tomorrow. "midnight" alone is 00:00, the coming night.
/// - "midnight" with a day ("fri midnight", "tomorrow midnight") is the end of that day, 23:59
///   as "eod": someone due "Friday at midnight" has all of Friday.
/// - After "at", a bare hour is a time on the 24-hour clock in every locale: "tomorrow at 9" is
///   09:00, "at 21" and "at 9pm" are 21:00. Without "at" ("tomorrow 9") it is refused.
/// - A date with a time ("today 9am", "dec 24 9am") is that day at that time, even if already
///   past; the day is chosen first, without looking at the time.
/// - A month and day without a year ("dec 24") is the next occurrence that is today or later;
///   "feb 29" is the next one that exists.
/// - "tonight" is today at 20:00. "eod", "eow", "eom", "eoy" are 23:59 on today, on the last
///   day of this week (Sunday when weeks start on Monday), on the last day of this month and on
///   December 31.
/// - "in 2h", "+45m", "in 3 days" add a `TimeSpan` to now (days keep the wall-clock time across
///   DST changes); "in 2 months" and "in 1 year" add calendar months and years. All are timed.
/// - A wall-clock time that does not exist (DST gap) moves forward by the gap (02:30 -> 03:30);
///   one that happens twice is the first of the two (RFC 5545). `read` also gives the time
///   as typed, which a repeating todo keeps on the days that have it.
/// - Numeric dates ("12/24", "24.12.", "12/24/2026") follow the style's order of day and
///   month: 12/24 is December 24 where it is month/day (en_US), 24/12 where it is day/month
///   (de_DE), and the other one is refused. Where no order is known (C), a date that reads
///   only one way is taken, and one that reads two ways ("3/4") is refused naming both.
public struct WhenParser: Sendable {
    public let now: Date
    /// Carries the time zone; build it with `Calendar.nudge(zone:)`.
    public let calendar: Calendar
    public let style: DateStyle

    public init(now: Date, calendar: Calendar, style: DateStyle) {
        self.now = now
        self.calendar = calendar
        self.style = style
    }

    /// The forms listed in error messages.
    public static let acceptedForms = "2026-12-24, 2026-12-24 09:30, today, tonight, tomorrow 9am, tomorrow at 9, fri, next fri, next week, next month, 9am, 17:30, in 2h, in 3 days, +45m, eod, eow, eom, dec 24"

    static let timeForms = "9am, 9:30pm, 17:30, at 9, noon, midnight"

    /// What a WHEN text names: the due, and the day and wall-clock time meant, which a DST gap
    /// may have moved the due away from (02:30 typed, 03:30 due).
    public struct Reading: Hashable, Sendable {
        public var due: Due
        public var wallClock: SeriesStart
    }

    public func parse(_ text: String) throws(InputError) -> Due {
        try read(text).due
    }

    public func read(_ text: String) throws(InputError) -> Reading {
        let reading: Reading
        do { reading = try readAnyYear(text) } catch {
            if let question = Misspelling.question(corrections(of: text)) {
                throw InputError("can't read '\(text.trimmingWhitespace())' as a date; \(question)")
            }
            throw error
        }
        guard reading.due.isWithinYears else {
            throw InputError("'\(text.trimmingWhitespace())' is not a date: it falls outside the years 0001-9999")
        }
        return reading
    }

    func readAnyYear(_ text: String) throws(InputError) -> Reading {
        let input = text.trimmingWhitespace()
        if input.isEmpty {
            throw InputError("the date is empty; accepted: \(WhenParser.acceptedForms)")
        }
        let lower = input.lowercased()

        // Relative: "in 2h", "in 3 days", "+45m", "in 2 months". The span keeps its case:
        // "M" is refused there as ambiguous.
        if lower.hasPrefix("+") {
            return try relative(String(input.dropFirst()), input: input)
        }
        var tokens = WhenParser.tokens(lower)
        if tokens.first == "in" {
            // "in 3 days at 9", "in a week 9am": that day, at that time.
            var time: ClockTime?, timeWords = 0
            // tokens.last: non-nil, each branch checks the count first.
            if tokens.count > 3, tokens[tokens.count - 2] == "at", let parsed = ClockTime.hour(tokens.last!, input: input) {
                time = try parsed.get()
                timeWords = 2
            } else if tokens.count > 2, let parsed = ClockTime.parse(tokens.last!, input: input) {
                time = try parsed.get()
                timeWords = tokens[tokens.count - 2] == "at" ? 2 : 1
            }
            let words = input.replacingOccurrences(of: ",", with: " ").split(whereSeparator: \.isWhitespace)
            let span = words.dropFirst().dropLast(timeWords).joined(separator: " ")
            return try relative(span, at: time, input: input)
        }

        // End of day, week, month, year.
        if let reading = endOf(tokens.joined(separator: " ")) {
            return reading
        }

        // An optional time of day at the end ("tomorrow 9am", "fri at 14:00") or, failing that,
        // at the start ("9am tomorrow"). Its errors wait until the date part is known to be good.
        var time: Result<ClockTime, InputError>?
        var timeWord: String?
        if let last = tokens.last, let parsed = ClockTime.parse(last, input: input) {
            time = parsed
            timeWord = tokens.removeLast()
            if tokens.last == "at" { tokens.removeLast() }
        } else if tokens.count > 1, tokens[tokens.count - 2] == "at", let parsed = ClockTime.hour(tokens.last!, input: input) {  // count checked
            time = parsed
            tokens.removeLast(2)
        } else if tokens.count > 1, let parsed = ClockTime.parse(tokens[0], input: input) {
            time = parsed
            timeWord = tokens.removeFirst()
        }

        // A time alone: the next such time.
        if tokens.isEmpty, let time {
            let time = try time.get()
            let today = LocalDate(now, in: calendar)
            let candidate = timed(time, on: today)
            return candidate.instant > now ? candidate.reading : timed(time, on: today.adding(days: 1)).reading
        }

        guard let (day, defaultTime) = try datePart(tokens, input: input) else {
            // Say which part is wrong when the text is a good date followed by something else.
            if time == nil, tokens.count >= 2 {
                var head = Array(tokens.dropLast())
                if head.last == "at" { head.removeLast() }
                if !head.isEmpty, (try? datePart(head, input: input)) != nil {
                    // tokens.last: non-nil, tokens.count >= 2.
                    throw InputError("can't read '\(tokens.last!)' in '\(input)' as a time of day; times look like \(WhenParser.timeForms)")
                }
            }
            throw InputError("can't read '\(input)' as a date\(WhenParser.hint(lower)); accepted: \(WhenParser.acceptedForms)")
        }
        if timeWord == "midnight" {
            return timed(ClockTime(hour: 23, minute: 59), on: day).reading
        }
        if let time {
            return timed(try time.get(), on: day).reading
        }
        if let defaultTime {
            return timed(defaultTime, on: day).reading
        }
        return Reading(due: .allDay(day), wallClock: SeriesStart(day: day, time: nil))
    }

    /// `time` on `day` in the calendar's zone, and as typed.
    private func timed(_ time: ClockTime, on day: LocalDate) -> (instant: Date, reading: Reading) {
        let instant = time.on(day, in: calendar)
        let wallClock = SeriesStart(day: day, time: TimeOfDay(hour: time.hour, minute: time.minute))
        return (instant, Reading(due: .at(instant, zone: calendar.timeZone), wallClock: wallClock))
    }

    // MARK: - Forms

    /// "2h", "3 days", "1h30m", "2 months", "1 year" added to now; with `time`, a span of
    /// whole days, weeks, months or years names the day, and `time` the time of day on it.
    private func relative(_ spanText: String, at time: ClockTime? = nil, input: String) throws(InputError) -> Reading {
        var text = spanText.trimmingWhitespace()
        // "in a week", "in an hour"
        for article in ["a ", "an "] where text.lowercased().hasPrefix(article) {
            text = "1 " + text.dropFirst(article.count)
        }
        let (span, months) = try SpanPiece.read(text, unreadable: { reason in
            InputError("can't read '\(input)' as a date: \(reason); relative dates look like in 2h, in 3 days, in 1h30m, +45m, in 2 months")
        }, tooLong: InputError("'\(input)' is too far away: at most 100 years ahead"))
        var result = now
        if months != 0 {
            guard let moved = calendar.date(byAdding: .month, value: months, to: now) else {
                throw InputError("'\(input)' is too far away: at most 100 years ahead")
            }
            result = moved
        }
        result = span.added(to: result, calendar: calendar)
        if let time {
            guard span.seconds == 0 else {
                throw InputError("can't read '\(input)' as a date: a time of day goes after days, weeks, months or years (in 3 days at 9), not after hours or minutes")
            }
            return timed(time, on: WallClock(zone: calendar.timeZone).day(of: result)).reading
        }
        let due = Due.at(result, zone: calendar.timeZone)
        guard span.seconds == 0 else { return Reading(due: due, wallClock: SeriesStart(due)) }
        // Whole days and months keep now's time of day, which a DST gap on that day may skip.
        let clock = WallClock(zone: calendar.timeZone)
        let (hour, minute, _) = clock.time(of: now)
        return Reading(due: due, wallClock: SeriesStart(day: clock.day(of: result), time: TimeOfDay(hour: hour, minute: minute)))
    }

    /// "eod", "eow", "eom", "eoy" and their spelled-out forms ("end of week").
    private func endOf(_ text: String) -> Reading? {
        let today = LocalDate(now, in: calendar)
        let day: LocalDate
        switch text {
        case "eod", "end of day", "end of today":
            day = today
        case "eow", "end of week", "end of the week":
            day = style.weekFirstDay(of: today).adding(days: 6)
        case "eom", "end of month", "end of the month":
            day = LocalDate(anyYear: today.year, month: today.month,
                            day: LocalDate.daysIn(month: today.month, year: today.year))
        case "eoy", "end of year", "end of the year":
            day = LocalDate(anyYear: today.year, month: 12, day: 31)
        default:
            return nil
        }
        return timed(ClockTime(hour: 23, minute: 59), on: day).reading
    }

    // MARK: - Helpers

    /// Lower-cased words; commas count as spaces, "9 am" becomes "9am", "2026-12-24t09:30"
    /// becomes "2026-12-24" "09:30".
    static func tokens(_ lower: String) -> [String] {
        let words = lower.unicodeScalars
            .split(whereSeparator: { $0.properties.isWhitespace || $0 == "," })
            .map { String(String.UnicodeScalarView($0)) }
        var result: [String] = []
        for word in words {
            let meridiem = ["am": "am", "pm": "pm", "a.m.": "am", "p.m.": "pm", "a.m": "am", "p.m": "pm"][word]
            if let meridiem, let previous = result.last,
               previous.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ":") }) {
                result[result.count - 1] = previous + meridiem
            } else if let t = word.firstIndex(of: "t"), word[..<t].contains("-"),
                      word[..<t].allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "-") }) {
                result.append(String(word[..<t]))
                result.append(String(word[word.index(after: t)...]))
            } else {
                result.append(word)
            }
        }
        return result
    }

    /// The day, or a message saying why it does not exist.
    static func validDay(year: Int, month: Int, day: Int, input: String) throws(InputError) -> LocalDate {
        guard (1...9999).contains(year) else {
            throw InputError("'\(input)' is not a date: years run 0001-9999")
        }
        guard (1...12).contains(month) else {
            throw InputError("'\(input)' is not a date: there is no month \(month) (months run 01-12)")
        }
        guard day >= 1 else {
            throw InputError("'\(input)' is not a date: there is no day 0")
        }
        guard let date = LocalDate(year: year, month: month, day: day) else {
            throw InputError("'\(input)' is not a date: \(monthNames[month - 1]) \(year) has \(LocalDate.daysIn(month: month, year: year)) days")
        }
        return date
    }

    /// "24", "24th", "1st", "2nd", "3rd".
    static func dayOfMonth(_ word: String) -> Int? {
        var digits = Substring(word)
        for suffix in ["st", "nd", "rd", "th"] where digits.hasSuffix(suffix) {
            digits = digits.dropLast(2)
        }
        guard (1...2).contains(digits.count), isDigits(digits) else { return nil }
        return Int(digits)
    }

    static func isDigits(_ text: some StringProtocol) -> Bool {
        !text.isEmpty && text.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// A hint for forms that look like dates Nudge deliberately does not read.
    static func hint(_ lower: String) -> String {
        if lower.contains("/") {
            return " (numeric dates look like 12/24 or 12/24/2026 in the order of day and month the locale sets; or write 2026-12-24 or dec 24)"
        }
        return ""
    }

    /// ISO weekday numbers, 1 = Monday.
    static let weekdays: [String: Int] = [
        "monday": 1, "mon": 1,
        "tuesday": 2, "tue": 2, "tues": 2,
        "wednesday": 3, "wed": 3,
        "thursday": 4, "thu": 4, "thur": 4, "thurs": 4,
        "friday": 5, "fri": 5,
        "saturday": 6, "sat": 6,
        "sunday": 7, "sun": 7,
    ]

    static let months: [String: Int] = [
        "january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3,
        "april": 4, "apr": 4, "may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7,
        "august": 8, "aug": 8, "september": 9, "sep": 9, "sept": 9,
        "october": 10, "oct": 10, "november": 11, "nov": 11, "december": 12, "dec": 12,
    ]

    static let monthNames = [
        "January", "February", "March", "April", "May", "June",
        "July", "August", "September", "October", "November", "December",
    ]
}
