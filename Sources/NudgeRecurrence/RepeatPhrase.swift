import NudgeCore

/// The repeat phrases people say, read into RRULE values, and the phrases rules are described
/// by. Every phrase `describe` gives reads back (`rrule`) to the same rule.
///
/// Readings chosen where people could mean more than one thing:
/// - "every 2nd tue" is the second Tuesday of each month (FREQ=MONTHLY;BYDAY=2TU), not every
///   other Tuesday (that is "every 2 weeks on tue"); months without a 5th one are skipped.
/// - "every 2h between 09:00-18:00" repeats at the due's minute in the hours from 09:00 up to,
///   not including, 18:00 (BYHOUR=9,...,17): 09:00, 11:00, ..., 17:00 for a due at 09:00.
///   The window takes whole hours only, so every occurrence lies inside it whatever the minute.
/// - "every month on the 31st" skips months without a 31st (RFC 5545); "on the last day" does not.
enum RepeatPhrase {
    /// RFC 5545 day codes by the names people type.
    static let days: [String: String] = [
        "monday": "MO", "mon": "MO",
        "tuesday": "TU", "tue": "TU", "tues": "TU",
        "wednesday": "WE", "wed": "WE",
        "thursday": "TH", "thu": "TH", "thur": "TH", "thurs": "TH",
        "friday": "FR", "fri": "FR",
        "saturday": "SA", "sat": "SA",
        "sunday": "SU", "sun": "SU",
    ]

    private static let shortDays = ["MO": "mon", "TU": "tue", "WE": "wed", "TH": "thu", "FR": "fri", "SA": "sat", "SU": "sun"]

    private static let ordinals: [String: Int] = [
        "1st": 1, "first": 1, "2nd": 2, "second": 2, "3rd": 3, "third": 3,
        "4th": 4, "fourth": 4, "5th": 5, "fifth": 5, "last": -1,
    ]

    private static let units: [String: String] = [
        "hour": "HOURLY", "hours": "HOURLY", "hr": "HOURLY", "hrs": "HOURLY", "h": "HOURLY",
        "day": "DAILY", "days": "DAILY",
        "week": "WEEKLY", "weeks": "WEEKLY",
        "month": "MONTHLY", "months": "MONTHLY",
        "year": "YEARLY", "years": "YEARLY",
    ]

    /// "weekly on fri" reads as "every week on fri".
    private static let namedUnits = ["hourly": "hour", "daily": "day", "weekly": "week", "monthly": "month", "yearly": "year"]

    /// The RRULE value for a phrase (lowercased), or nil when it is not one.
    static func rrule(_ text: String) -> String? {
        var words = text.split(whereSeparator: { $0.isWhitespace || $0 == "," }).map(String.init)
        if words.count > 1, let unit = namedUnits[words[0]] { words = ["every", unit] + words.dropFirst() }
        let every = words.first == "every"
        if every { words.removeFirst() }
        guard !words.isEmpty else { return nil }
        if !every { return ordinalWeekday(words, every: false) }
        if words == ["weekday"] { return RepeatRule.weekdaysRule }
        if let days = dayList(words[...]) { return "FREQ=WEEKLY;BYDAY=" + days }
        if let rule = ordinalWeekday(words, every: true) { return rule }
        guard let (frequency, interval, rest) = interval(words) else { return nil }
        let base = interval == 1 ? "FREQ=\(frequency)" : "FREQ=\(frequency);INTERVAL=\(interval)"
        guard let first = rest.first else { return base }
        switch (frequency, first) {
        case ("HOURLY", "between"):
            return window(rest.dropFirst()).map { base + ";BYHOUR=" + $0.map(String.init).joined(separator: ",") }
        case ("WEEKLY", "on"):
            return dayList(rest.dropFirst()).map { base + ";BYDAY=" + $0 }
        case ("MONTHLY", "on"):
            return monthDay(rest.dropFirst()).map { base + ";BYMONTHDAY=\($0)" }
        default:
            return nil
        }
    }

    /// "2 weeks", "week", "2h", "3 hours" -> (FREQ, INTERVAL, the words after).
    private static func interval(_ words: [String]) -> (String, Int, ArraySlice<String>)? {
        if let frequency = units[words[0]] {
            // "every week", but not "every weeks".
            return words[0].hasSuffix("s") ? nil : (frequency, 1, words.dropFirst())
        }
        var number = Substring(words[0])
        var rest = words.dropFirst()
        let frequency: String
        if number.hasSuffix("h"), number.count > 1 {
            number = number.dropLast()
            frequency = "HOURLY"
        } else {
            guard let unit = rest.first, let named = units[unit] else { return nil }
            frequency = named
            rest = rest.dropFirst()
        }
        guard let interval = count(number) else { return nil }
        return (frequency, interval, rest)
    }

    private static func count(_ text: Substring) -> Int? {
        guard (1...4).contains(text.count), text.allSatisfy({ $0.isASCII && $0.isNumber }),
              let value = Int(text), value >= 1 else { return nil }
        return value
    }

    /// "mon thu", "monday and thursday" -> "MO,TH"; nil with a repeated day or another word.
    private static func dayList(_ words: ArraySlice<String>) -> String? {
        var codes: [String] = []
        for (index, word) in words.enumerated() {
            if word == "and", index > 0, index < words.count - 1 { continue }
            guard let code = days[word], !codes.contains(code) else { return nil }
            codes.append(code)
        }
        return codes.isEmpty ? nil : codes.joined(separator: ",")
    }

    /// "2nd tue", "last fri of month", "first monday of the month" -> FREQ=MONTHLY;BYDAY=2TU.
    /// Without "every" the phrase needs "of month", so that "2nd tue" alone is not taken for one.
    private static func ordinalWeekday(_ words: [String], every: Bool) -> String? {
        guard words.count >= 2, let ordinal = ordinals[words[0]], let day = days[words[1]] else { return nil }
        let tail = Array(words.dropFirst(2))
        let ofMonth = tail == ["of", "month"] || (tail.count == 3 && tail.first == "of" && tail.last == "month"
            && ["the", "each", "every"].contains(tail[1]))
        guard tail.isEmpty ? every : ofMonth else { return nil }
        return "FREQ=MONTHLY;BYDAY=\(ordinal)\(day)"
    }

    /// "the 15th", "15th", "the last day" -> 15, 15, -1.
    private static func monthDay(_ words: ArraySlice<String>) -> Int? {
        var words = words
        if words.first == "the" { words = words.dropFirst() }
        if Array(words) == ["last", "day"] { return -1 }
        guard words.count == 1, let word = words.first else { return nil }
        let digits = word.prefix { $0.isASCII && $0.isNumber }
        let suffix = word.dropFirst(digits.count)
        guard (1...2).contains(digits.count), let day = Int(digits), (1...31).contains(day),
              suffix.isEmpty || suffix == ordinalSuffix(day) else { return nil }
        return day
    }

    private static func ordinalSuffix(_ number: Int) -> String {
        if (11...13).contains(number % 100) { return "th" }
        switch number % 10 {
        case 1: return "st"
        case 2: return "nd"
        case 3: return "rd"
        default: return "th"
        }
    }

    /// "09:00-18:00", "9-18", "9 and 18", "9am - 6pm" -> the hours 9..<18. Whole hours only,
    /// the end after the start; the end may be 24:00.
    private static func window(_ words: ArraySlice<String>) -> ClosedRange<Int>? {
        let text = words.joined(separator: " ")
        let sides = text.contains("-") ? text.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
            : text.components(separatedBy: " and ")
        guard sides.count == 2,
              let start = wholeHour(sides[0].trimmingWhitespace()), let end = wholeHour(sides[1].trimmingWhitespace()),
              start < end, start < 24 else { return nil }
        return start...(end - 1)
    }

    /// Why the window of an hourly phrase ("every 2h between 18:00-09:00") is refused, when
    /// its two times read but do not make a window; nil otherwise.
    static func windowProblem(_ text: String) -> String? {
        guard let range = text.range(of: " between ") else { return nil }
        let window = String(text[range.upperBound...])
        let sides = window.contains("-") ? window.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
            : window.components(separatedBy: " and ")
        guard sides.count == 2, let start = timeOfDay(sides[0].trimmingWhitespace(), allowing24: true),
              let end = timeOfDay(sides[1].trimmingWhitespace(), allowing24: true) else { return nil }
        if start.minute != 0 || end.minute != 0 {
            return "a window is whole hours (09:00-18:00), and \(start.minute != 0 ? sides[0] : sides[1]) is not on the hour"
        }
        if start.hour >= end.hour {
            return "the window \(window) does not run forward within a day; write the earlier hour first (between 09:00-18:00), or use two todos for a window across midnight"
        }
        return nil
    }

    /// "9", "09", "09:00", "9am", "6pm", "noon", "24:00" -> the hour; nil for a time with minutes.
    private static func wholeHour(_ text: String) -> Int? {
        guard let time = timeOfDay(text, allowing24: true), time.minute == 0 else { return nil }
        return time.hour
    }

    /// A time of day as people type it after "at" or in a window: "9", "09:30", "9am",
    /// "9:30pm", "17:30", "noon", "midnight". With `allowing24`, "24" and "24:00" are hour 24.
    static func timeOfDay(_ text: String, allowing24: Bool = false) -> (hour: Int, minute: Int)? {
        switch text {
        case "noon", "midday": return (12, 0)
        case "midnight": return (0, 0)
        default: break
        }
        var body = Substring(text)
        var meridiem: String?
        for suffix in ["am", "pm"] where body.hasSuffix(suffix) {
            meridiem = suffix
            body = body.dropLast(2).drop { $0 == " " }
        }
        body = Substring(body.trimmingWhitespace())
        let fields = body.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(fields.count), (1...2).contains(fields[0].count),
              fields.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              var hour = Int(fields[0]) else { return nil }
        var minute = 0
        if fields.count == 2 {
            guard fields[1].count == 2, let value = Int(fields[1]), value <= 59 else { return nil }
            minute = value
        }
        if let meridiem {
            guard (1...12).contains(hour) else { return nil }
            hour = hour % 12 + (meridiem == "pm" ? 12 : 0)
        }
        if allowing24, hour == 24, minute == 0 { return (24, 0) }
        guard hour <= 23 else { return nil }
        return (hour, minute)
    }

    // MARK: - Describing

    /// The phrase for an RRULE value as libical writes it, or nil when no phrase says it.
    static func describe(_ rrule: String) -> String? {
        var fields: [String: String] = [:]
        for part in rrule.split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { return nil }
            fields[String(pair[0])] = String(pair[1])
        }
        guard let frequency = fields.removeValue(forKey: "FREQ") else { return nil }
        let interval = fields.removeValue(forKey: "INTERVAL").map { Int($0) ?? 0 } ?? 1
        guard interval >= 1 else { return nil }
        switch frequency {
        case "HOURLY":
            let base = interval == 1 ? "hourly" : "every \(interval)h"
            guard let hours = fields.removeValue(forKey: "BYHOUR") else { return fields.isEmpty ? base : nil }
            let list = hours.split(separator: ",").compactMap { Int($0) }
            guard fields.isEmpty, let first = list.first, let last = list.last,
                  list == Array(first...max(first, last)) else { return nil }
            return base + " between \(twoDigits(first)):00-\(twoDigits(last + 1)):00"
        case "WEEKLY":
            guard let byDay = fields.removeValue(forKey: "BYDAY"), fields.isEmpty else { return nil }
            let names = byDay.split(separator: ",").map { shortDays[String($0)] }
            guard !names.contains(nil) else { return nil }
            let list = names.compactMap { $0 }.joined(separator: ",")
            return interval == 1 ? "every \(list)" : "every \(interval) weeks on \(list)"
        case "MONTHLY":
            if let byDay = fields.removeValue(forKey: "BYDAY") {
                guard fields.isEmpty, interval == 1, byDay.count >= 3,
                      let day = shortDays[String(byDay.suffix(2))],
                      let ordinal = Int(byDay.dropLast(2)), ordinal == -1 || (1...5).contains(ordinal) else { return nil }
                return "every " + (ordinal == -1 ? "last" : "\(ordinal)\(ordinalSuffix(ordinal))") + " " + day
            }
            guard let byMonthDay = fields.removeValue(forKey: "BYMONTHDAY"), fields.isEmpty,
                  let day = Int(byMonthDay), day == -1 || (1...31).contains(day) else { return nil }
            let unit = interval == 1 ? "every month" : "every \(interval) months"
            return unit + " on the " + (day == -1 ? "last day" : "\(day)\(ordinalSuffix(day))")
        default:
            return nil
        }
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
