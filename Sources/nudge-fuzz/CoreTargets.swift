import Foundation
import NudgeCore

/// The parsers of what people type and write in the config file: WHEN, DURATION, hook commands.
enum CoreTargets {
    /// Each input is read in every one of these: zones with odd offsets and DST, each date order.
    static let whenParsers: [WhenParser] = [
        (Fixed.berlin, DateStyle(clock: .twentyFourHour, dateOrder: .dayMonthYear, weekStart: 1)),
        (Fixed.zones[1], DateStyle(clock: .twelveHour, dateOrder: .monthDayYear, weekStart: 7)),
        (Fixed.zones[2], DateStyle(clock: .twentyFourHour, dateOrder: nil, weekStart: 6)),
        (Fixed.zones[3], DateStyle(clock: .twelveHour, dateOrder: .yearMonthDay, weekStart: 1)),
    ].map { WhenParser(now: Fixed.now, calendar: .nudge(zone: $0.0), style: $0.1) }

    /// A WHEN read gives a due in 0001-9999, timed in the parser's zone, on the day it names,
    /// and the same due when read again.
    static func when(_ data: Data) {
        let text = String(decoding: data, as: UTF8.self)
        for parser in whenParsers {
            guard let reading = try? parser.read(text) else { continue }
            checkInYears(reading.due, "WHEN \(text.debugDescription)")
            check((try? parser.read(text)) == reading, "WHEN \(text.debugDescription) reads differently the second time")
            if case .at(let instant, let zone) = reading.due {
                check(zone == parser.calendar.timeZone, "WHEN \(text.debugDescription) is timed in \(zone.identifier)")
                check(WallClock(zone: zone).day(of: instant) == reading.wallClock.day,
                      "WHEN \(text.debugDescription): due \(instant) is not on \(reading.wallClock.day)")
            } else if case .allDay(let day) = reading.due {
                check(day == reading.wallClock.day && reading.wallClock.time == nil,
                      "WHEN \(text.debugDescription): all-day \(day) against \(reading.wallClock)")
            }
        }
    }

    /// Dues that a DURATION moves: ordinary ones and ones at the ends of the years allowed.
    static let dues: [Due] = [
        .allDay(LocalDate(year: 2026, month: 12, day: 24)!),
        .allDay(LocalDate(year: 9999, month: 12, day: 30)!),
        .at(Fixed.now, zone: Fixed.berlin),
        .at(LocalDate(year: 9999, month: 12, day: 31)!.at(hour: 23, minute: 0, in: .nudge(zone: Fixed.berlin)), zone: Fixed.berlin),
    ]

    /// A DURATION is positive, at most 100 years, written back as text that reads as the same
    /// span, and moves a due to one in 0001-9999 or says why not.
    static func duration(_ data: Data) {
        let text = String(decoding: data, as: UTF8.self)
        guard let span = try? TimeSpan(parsing: text) else { return }
        check(span.days >= 0 && span.seconds >= 0 && span.days + span.seconds > 0, "DURATION \(text.debugDescription) is \(span)")
        check(span.days <= 36_525 && span.days * 86_400 + span.seconds <= 36_525 * 86_400,
              "DURATION \(text.debugDescription) is longer than 100 years: \(span)")
        check((try? TimeSpan(parsing: span.description)) == span, "DURATION \(text.debugDescription) written as \(span) reads back otherwise")
        for due in dues {
            for wallTime in [nil, TimeOfDay(hour: 23, minute: 0)] {
                guard let moved = try? span.added(to: due, calendar: .nudge(zone: Fixed.berlin), wallTime: wallTime) else { continue }
                checkInYears(moved, "\(due) moved by \(span)")
            }
        }
    }

    /// A hook command has a program; its arguments come from its words alone, with nothing of
    /// `${NAME}` left once the variables are given.
    static func hook(_ data: Data) {
        let text = String(decoding: data, as: UTF8.self)
        guard let command = try? HookCommand(parsing: text) else { return }
        check(!command.words.isEmpty, "hook \(text.debugDescription) has no words")
        check(command.text == text, "hook \(text.debugDescription) keeps another text")
        let plain = command.arguments(environment: [:])
        if !text.contains("$") {
            check(plain == command.words, "hook \(text.debugDescription) without variables gives \(plain), not its words \(command.words)")
        }
        var environment: [String: String] = [:]
        for word in command.words {
            var rest = word[...]
            while let open = rest.range(of: "${") {
                rest = rest[open.upperBound...]
                if let close = rest.firstIndex(of: "}") { environment[String(rest[..<close])] = "a b" }
            }
            if word.hasPrefix("$") { environment[String(word.dropFirst())] = "c  d" }
        }
        _ = command.arguments(environment: environment)
    }
}
