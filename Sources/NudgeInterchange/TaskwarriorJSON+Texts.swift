import Foundation
import NudgeCore

/// Taskwarrior's texts for a moment (`20261224T090000Z`) and a repeat (`recur`: `weekly`,
/// `3d`), read and written.
extension TaskwarriorJSON {
    static let epoch = LocalDate(year: 1970, month: 1, day: 1)!
    static let utc = WallClock(zone: TimeZone(secondsFromGMT: 0)!)

    /// `20261130T120000Z`, Taskwarrior's UTC form.
    static func stamp(_ date: Date) -> String {
        let (day, hour, minute) = utc.dayAndTime(of: date)
        let second = utc.time(of: date).second
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
        let year = String(day.year)
        return String(repeating: "0", count: max(0, 4 - year.count)) + year + two(day.month) + two(day.day)
            + "T" + two(hour) + two(minute) + two(second) + "Z"
    }

    /// `20261130T120000Z`, or ISO 8601 with dashes and an offset, which Taskwarrior also reads.
    static func parseDate(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        if bytes.count == 16, bytes[8] == UInt8(ascii: "T"), bytes[15] == UInt8(ascii: "Z") {
            func number(_ range: Range<Int>) -> Int? {
                var value = 0
                for byte in bytes[range] {
                    guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                    value = value * 10 + Int(byte - UInt8(ascii: "0"))
                }
                return value
            }
            guard let year = number(0..<4), let month = number(4..<6), let dayNumber = number(6..<8),
                  let hour = number(9..<11), let minute = number(11..<13), let second = number(13..<15),
                  let day = LocalDate(year: year, month: month, day: dayNumber), hour < 24, minute < 60, second < 61 else {
                return nil
            }
            return Date(timeIntervalSince1970: TimeInterval(epoch.days(until: day) * 86_400 + hour * 3600 + minute * 60 + second))
        }
        return NudgeJSON.parseDate(text)
    }

    // MARK: - Recurrence

    /// The RRULE a Taskwarrior `recur` value means, or nil for one Nudge cannot repeat by
    /// (minutes, seconds).
    static func rrule(recur text: String) -> String? {
        let text = text.lowercased()
        func rule(_ freq: String, _ interval: Int) -> String {
            interval == 1 ? "FREQ=\(freq)" : "FREQ=\(freq);INTERVAL=\(interval)"
        }
        switch text {
        case "daily", "day": return rule("DAILY", 1)
        case "weekdays": return "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"
        case "weekly", "sennight": return rule("WEEKLY", 1)
        case "biweekly", "fortnight": return rule("WEEKLY", 2)
        case "monthly": return rule("MONTHLY", 1)
        case "bimonthly": return rule("MONTHLY", 2)
        case "quarterly": return rule("MONTHLY", 3)
        case "semiannual": return rule("MONTHLY", 6)
        case "yearly", "annual": return rule("YEARLY", 1)
        case "biannual", "biyearly": return rule("YEARLY", 2)
        default: break
        }
        var body = Substring(text)
        let iso = body.hasPrefix("p")
        if iso { body = body.dropFirst() }
        // ISO 8601's time part (PT2H): its M is minutes, which nudge does not repeat by.
        let isoTime = iso && body.hasPrefix("t")
        if isoTime { body = body.dropFirst() }
        let digits = body.prefix { $0.isASCII && $0.isNumber }
        let count = digits.isEmpty ? 1 : Int(digits) ?? 0
        guard count > 0 else { return nil }
        // Taskwarrior reads "3 days" as it reads "3days".
        let unit = body.dropFirst(digits.count).drop { $0 == " " }
        if isoTime { return unit == "h" ? rule("HOURLY", count) : nil }
        switch unit {
        case "h", "hr", "hrs", "hour", "hours": return rule("HOURLY", count)
        case "d", "day", "days": return rule("DAILY", count)
        case "w", "wk", "wks", "week", "weeks": return rule("WEEKLY", count)
        case "mo", "mth", "mths", "mnths", "month", "months": return rule("MONTHLY", count)
        case "m" where iso: return rule("MONTHLY", count)
        case "q", "qtr", "qtrs", "qrtr", "qrtrs", "quarter", "quarters":
            let (months, overflow) = count.multipliedReportingOverflow(by: 3)
            return overflow ? nil : rule("MONTHLY", months)
        case "y", "yr", "yrs", "year", "years": return rule("YEARLY", count)
        default: return nil
        }
    }

    /// The nearest `recur` for an RRULE, and the rule that `recur` means: equal to the given
    /// rule (upper-cased) when Taskwarrior says it exactly.
    static func recur(for rrule: String) -> (text: String, rrule: String) {
        var freq = "DAILY", interval = 1, byDay: String?
        for part in rrule.uppercased().split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            switch pair[0] {
            case "FREQ": freq = String(pair[1])
            case "INTERVAL": interval = max(1, Int(pair[1]) ?? 1)
            case "BYDAY": byDay = String(pair[1])
            default: break
            }
        }
        // rrule(recur:) reads each text made here: a constant, or a count of at least 1 and a unit.
        if freq == "WEEKLY", interval == 1, byDay == "MO,TU,WE,TH,FR" { return ("weekdays", Self.rrule(recur: "weekdays")!) }
        let text = switch (freq, interval) {
        case ("WEEKLY", 1): "weekly"
        case ("WEEKLY", _): "\(interval)w"
        case ("MONTHLY", 1): "monthly"
        case ("MONTHLY", _): "\(interval)mo"
        case ("YEARLY", 1): "yearly"
        case ("YEARLY", _): "\(interval)y"
        case ("HOURLY", _): "\(interval)h"
        case ("DAILY", 1): "daily"
        default: "\(interval)d"
        }
        return (text, Self.rrule(recur: text)!)
    }
}
