import Foundation

/// A wall-clock time as typed: "9am", "9:30pm", "17:30", "09:30:00", "noon", "midnight".
struct ClockTime: Equatable, Sendable {
    var hour: Int
    var minute: Int
    var second: Int = 0

    /// This time on `day` in `calendar`'s zone (see `LocalDate.at` for DST).
    func on(_ day: LocalDate, in calendar: Calendar) -> Date {
        day.at(hour: hour, minute: minute, in: calendar).addingTimeInterval(TimeInterval(second))
    }

    /// A bare hour after "at" ("at 9", "at 21"): 24-hour. Nil when `word` is not one or two
    /// digits.
    static func hour(_ word: String, input: String) -> Result<ClockTime, InputError>? {
        guard (1...2).contains(word.count), WhenParser.isDigits(word), let hour = Int(word) else { return nil }
        guard hour <= 23 else {
            return .failure(InputError("'\(input)' is not a valid time: hours run 0-23, not \(hour); times look like \(WhenParser.timeForms)"))
        }
        return .success(ClockTime(hour: hour, minute: 0))
    }

    /// Nil when `word` is not shaped like a time (a time needs a colon, am/pm, or is "noon" or
    /// "midnight"); a failure when it is shaped like one but is not a real time ("25:00", "13pm").
    static func parse(_ word: String, input: String) -> Result<ClockTime, InputError>? {
        switch word {
        case "noon", "midday": return .success(ClockTime(hour: 12, minute: 0))
        case "midnight": return .success(ClockTime(hour: 0, minute: 0))
        default: break
        }
        var body = Substring(word)
        var meridiem: String?
        for suffix in ["am", "pm"] where body.hasSuffix(suffix) {
            meridiem = suffix
            body = body.dropLast(2)
        }
        let fields = body.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(fields.count), fields.allSatisfy(WhenParser.isDigits),
              meridiem != nil || fields.count > 1 else { return nil }
        func failure(_ reason: String) -> Result<ClockTime, InputError> {
            .failure(InputError("'\(input)' is not a valid time: \(reason); times look like \(WhenParser.timeForms)"))
        }
        guard fields[0].count <= 2, let hour = Int(fields[0]) else {
            return failure("\(fields[0]) is not an hour")
        }
        var minute = 0
        var second = 0
        if fields.count > 1 {
            guard fields[1].count == 2, let m = Int(fields[1]) else {
                return failure("minutes are written with two digits (e.g. 9:05)")
            }
            guard m <= 59 else { return failure("minutes run 00-59, not \(fields[1])") }
            minute = m
        }
        if fields.count > 2 {
            guard fields[2].count == 2, let s = Int(fields[2]), s <= 59 else {
                return failure("seconds run 00-59")
            }
            second = s
        }
        if let meridiem {
            guard (1...12).contains(hour) else {
                return failure("with am/pm the hour runs 1-12, not \(hour)")
            }
            let hour24 = (hour % 12) + (meridiem == "pm" ? 12 : 0)
            return .success(ClockTime(hour: hour24, minute: minute, second: second))
        }
        if hour == 24 {
            return failure("hours run 0-23 (use midnight or 00:00 for the start of a day)")
        }
        guard hour <= 23 else { return failure("hours run 0-23, not \(hour)") }
        return .success(ClockTime(hour: hour, minute: minute, second: second))
    }
}
