import Foundation

/// A length of time as people type it: "10m", "2h", "1h30m", "3d", "1w".
///
/// A span has two parts that behave differently:
/// - `days` are calendar days (a week is 7 of them). Moving a date by days goes through the
///   calendar, so 09:00 stays 09:00 even when a DST change makes that day 23 or 25 hours long.
/// - `seconds` are exact elapsed time (hours and minutes): "24h" is always 86 400 seconds.
///
/// So "1d" and "24h" are different spans. Parsing never produces seconds below a minute, zero
/// or negative spans, months or years (those vary in length), or spans longer than 100 years.
public struct TimeSpan: Hashable, Sendable, CustomStringConvertible {
    public var days: Int
    public var seconds: Int

    public init(days: Int = 0, seconds: Int = 0) {
        self.days = days
        self.seconds = seconds
    }

    /// The forms listed in error messages.
    public static let acceptedForms = "10m, 2h, 1h30m, 3d, 1w"

    /// The longest span accepted when parsing: 100 years.
    static let maximumSeconds = 36_525 * 86_400

    /// Parses "10m", "2h", "1h30m", "3d", "1w", "2w3d", "45min", "1 h", "2 hours", "3 days".
    /// Units: m/min/mins/minute/minutes, h/hr/hrs/hour/hours, d/day/days, w/wk/wks/week/weeks.
    public init(parsing text: String) throws(InputError) {
        let trimmed = text.trimmingWhitespace()
        if trimmed.isEmpty {
            throw InputError("the duration is empty; accepted: \(TimeSpan.acceptedForms)")
        }
        let (span, months) = try SpanPiece.read(trimmed, unreadable: { reason in
            InputError("'\(trimmed)' is not a duration: \(reason); accepted: \(TimeSpan.acceptedForms)")
        }, tooLong: InputError("'\(trimmed)' is too long: a duration can be at most 100 years; accepted: \(TimeSpan.acceptedForms)"))
        guard months == 0 else {
            throw InputError("'\(trimmed)' is not a duration: months and years vary in length, use days or weeks (e.g. 30d, 52w); accepted: \(TimeSpan.acceptedForms)")
        }
        self = span
    }

    /// Canonical short form, largest unit first: "1w2d3h4m", "1h30m", "3d", "1w" (7 days).
    /// Seconds that are not whole minutes (never produced by parsing) print as "s".
    public var description: String {
        if days <= 0, seconds <= 0, days < 0 || seconds < 0 {
            return "-" + TimeSpan(days: -days, seconds: -seconds).description
        }
        var parts = ""
        let weeks = days / 7
        if weeks != 0 { parts += "\(weeks)w" }
        if days % 7 != 0 { parts += "\(days % 7)d" }
        if seconds / 3600 != 0 { parts += "\(seconds / 3600)h" }
        if seconds % 3600 / 60 != 0 { parts += "\(seconds % 3600 / 60)m" }
        if seconds % 60 != 0 { parts += "\(seconds % 60)s" }
        return parts.isEmpty ? "0m" : parts
    }

    /// Moves `date` by `days` calendar days in `calendar`'s zone (keeping the wall-clock time;
    /// a time that falls into a DST gap moves forward), then by exactly `seconds`.
    public func added(to date: Date, calendar: Calendar) -> Date {
        var result = date
        if days != 0 {
            result = calendar.date(byAdding: .day, value: days, to: date)
                ?? date.addingTimeInterval(TimeInterval(days) * 86_400)
        }
        return result.addingTimeInterval(TimeInterval(seconds))
    }

    /// Moves a due date. A timed due moves in its own zone and keeps it; an all-day due moves
    /// only by whole days, so a span with hours or minutes is refused for it. A timed due that
    /// is `wallTime` on its day (a repeating todo's time, which a DST gap may have moved) is
    /// `wallTime` again on the day it moves to.
    public func added(to due: Due, calendar: Calendar, wallTime: TimeOfDay? = nil) throws(InputError) -> Due {
        try moved(due, calendar: calendar, wallTime: wallTime).checked("moving the due by \(self)")
    }

    private func moved(_ due: Due, calendar: Calendar, wallTime: TimeOfDay?) throws(InputError) -> Due {
        switch due {
        case .allDay(let day):
            guard seconds == 0 else {
                throw InputError("an all-day todo moves by whole days or weeks (e.g. 1d, 1w), not by \(self)")
            }
            return .allDay(day.adding(days: days))
        case .at(let instant, let zone):
            if days != 0, let wallTime {
                let day = WallClock(zone: zone).day(of: instant)
                if SeriesStart.place(wallTime, on: day, in: zone) == instant {
                    let moved = SeriesStart.place(wallTime, on: day.adding(days: days), in: zone)
                    return .at(moved.addingTimeInterval(TimeInterval(seconds)), zone: zone)
                }
            }
            var local = calendar
            local.timeZone = zone
            return .at(added(to: instant, calendar: local), zone: zone)
        }
    }
}

/// One "number unit" pair of a typed span, such as "90m" or "2 hours".
struct SpanPiece: Equatable, Sendable {
    enum Unit: String, Sendable {
        case minute, hour, day, week, month, year

        var plural: String { rawValue + "s" }
    }

    var amount: Int
    var unit: Unit

    /// The pieces added up: days and seconds as a span, months apart (they vary in length).
    /// Nil past 100 years.
    static func total(_ pieces: [SpanPiece]) -> (span: TimeSpan, months: Int)? {
        var months = 0
        var span = TimeSpan()
        for piece in pieces {
            switch piece.unit {
            case .minute: span.seconds += piece.amount * 60
            case .hour: span.seconds += piece.amount * 3600
            case .day: span.days += piece.amount
            case .week: span.days += piece.amount * 7
            case .month: months += piece.amount
            case .year: months += piece.amount * 12
            }
            if months > 1200 || span.days * 86_400 + span.seconds > TimeSpan.maximumSeconds { return nil }
        }
        return (span, months)
    }

    /// `scan` and `total` with the caller's errors: `unreadable` given the reason when `text`
    /// is not a span, `tooLong` past 100 years.
    static func read(_ text: String, unreadable: (String) -> InputError,
                     tooLong: @autoclosure () -> InputError) throws(InputError) -> (span: TimeSpan, months: Int) {
        let pieces: [SpanPiece]
        do {
            pieces = try scan(text)
        } catch {
            throw unreadable(error.reason)
        }
        guard let total = total(pieces) else { throw tooLong() }
        return total
    }

    /// Why a text is not a span; `reason` completes a sentence such as "'x' is not a duration: …".
    struct Problem: Error {
        let reason: String
    }

    static let units: [String: Unit] = [
        "m": .minute, "min": .minute, "mins": .minute, "minute": .minute, "minutes": .minute,
        "h": .hour, "hr": .hour, "hrs": .hour, "hour": .hour, "hours": .hour,
        "d": .day, "day": .day, "days": .day,
        "w": .week, "wk": .week, "wks": .week, "week": .week, "weeks": .week,
        "mo": .month, "mos": .month, "month": .month, "months": .month,
        "y": .year, "yr": .year, "yrs": .year, "year": .year, "years": .year,
    ]

    /// Splits text like "1h30m", "1 h 30 m" or "2 weeks 3 days" into pieces. Amounts must be
    /// positive whole numbers and every amount needs a unit, each unit at most once.
    /// Case-insensitive, except that "M" alone is refused: minutes or months?
    static func scan(_ text: String) throws(Problem) -> [SpanPiece] {
        let chars = Array(text.unicodeScalars)
        var index = 0
        var pieces: [SpanPiece] = []
        func skipSpaces() {
            while index < chars.count, chars[index].properties.isWhitespace { index += 1 }
        }
        func isDigit(_ c: Unicode.Scalar) -> Bool { ("0"..."9").contains(c) }
        func isLetter(_ c: Unicode.Scalar) -> Bool { ("a"..."z").contains(c) || ("A"..."Z").contains(c) }

        skipSpaces()
        if index == chars.count { throw Problem(reason: "no amount is given") }
        while index < chars.count {
            if chars[index] == "-" {
                throw Problem(reason: "the amount must be positive")
            }
            guard isDigit(chars[index]) else {
                throw Problem(reason: "expected a number followed by a unit")
            }
            var digits = ""
            while index < chars.count, isDigit(chars[index]) {
                digits.unicodeScalars.append(chars[index])
                index += 1
            }
            if index < chars.count, chars[index] == "." || chars[index] == "," {
                throw Problem(reason: "use whole numbers (e.g. 1h30m, not 1.5h)")
            }
            let trimmedDigits = digits.drop(while: { $0 == "0" })
            if trimmedDigits.isEmpty { throw Problem(reason: "the amount must be more than zero") }
            guard trimmedDigits.count <= 7, let amount = Int(trimmedDigits) else { throw Problem(reason: "\(digits) is far too large") }
            skipSpaces()
            var word = ""
            while index < chars.count, isLetter(chars[index]) {
                word.unicodeScalars.append(chars[index])
                index += 1
            }
            if word.isEmpty {
                throw Problem(reason: "\(digits) needs a unit (e.g. \(digits)m, \(digits)h, \(digits)d)")
            }
            if word == "M" {
                throw Problem(reason: "M could mean minutes or months; write m or min for minutes, mo for months")
            }
            word = word.lowercased()
            guard let unit = units[word] else {
                if ["s", "sec", "secs", "second", "seconds"].contains(word) {
                    throw Problem(reason: "seconds are not accepted, the smallest unit is a minute")
                }
                throw Problem(reason: "unknown unit '\(word)'")
            }
            if pieces.contains(where: { $0.unit == unit }) {
                throw Problem(reason: "\(unit.plural) are given twice; give each unit once")
            }
            pieces.append(SpanPiece(amount: amount, unit: unit))
            skipSpaces()
        }
        return pieces
    }
}
