import Foundation
import Testing
@testable import NudgeCore

struct TimeSpanTests {
    @Test("parses typed durations", arguments: [
        ("10m", TimeSpan(seconds: 600)),
        ("2h", TimeSpan(seconds: 7200)),
        ("1h30m", TimeSpan(seconds: 5400)),
        ("3d", TimeSpan(days: 3)),
        ("1w", TimeSpan(days: 7)),
        ("2w3d", TimeSpan(days: 17)),
        ("45min", TimeSpan(seconds: 2700)),
        ("90m", TimeSpan(seconds: 5400)),
        ("1 h", TimeSpan(seconds: 3600)),
        ("2 hours", TimeSpan(seconds: 7200)),
        ("3 days", TimeSpan(days: 3)),
        ("1 week", TimeSpan(days: 7)),
        ("1 day", TimeSpan(days: 1)),
        ("1 minute", TimeSpan(seconds: 60)),
        ("5 mins", TimeSpan(seconds: 300)),
        ("2 hrs", TimeSpan(seconds: 7200)),
        ("1 hr", TimeSpan(seconds: 3600)),
        ("1wk", TimeSpan(days: 7)),
        ("3 weeks", TimeSpan(days: 21)),
        ("1H30m", TimeSpan(seconds: 5400)),
        ("1H30MIN", TimeSpan(seconds: 5400)),
        ("2D", TimeSpan(days: 2)),
        ("  1h 30m  ", TimeSpan(seconds: 5400)),
        ("2 weeks 3 days", TimeSpan(days: 17)),
        ("1d12h", TimeSpan(days: 1, seconds: 43_200)),
        ("24h", TimeSpan(seconds: 86_400)),
        ("010m", TimeSpan(seconds: 600)),
        ("5217w", TimeSpan(days: 36_519)),
    ])
    func parses(text: String, expected: TimeSpan) throws {
        #expect(try TimeSpan(parsing: text) == expected)
    }

    @Test("refuses bad durations", arguments: [
        "", "   ", "0m", "0h0m", "1h0m", "-1h", "1x", "h", "1.5h", "1,5h", "30s", "10 seconds", "10",
        "2 months", "1 year", "m10", "1h-", "99999999w", "5218w", "36526d", "1h 30",
        "1M", "1H30M", "1 M", "1h1h", "1h 30m 10min", "1d2d", "1w1w",
    ])
    func refuses(text: String) {
        #expect {
            _ = try TimeSpan(parsing: text)
        } throws: { error in
            guard let error = error as? InputError else { return false }
            let quoted = text.trimmingWhitespace().isEmpty || error.message.contains("'\(text.trimmingWhitespace())'")
            return quoted && error.message.contains(TimeSpan.acceptedForms)
        }
    }

    @Test("refusals explain the problem", arguments: [
        ("1.5h", "'1.5h' is not a duration: use whole numbers (e.g. 1h30m, not 1.5h); accepted: 10m, 2h, 1h30m, 3d, 1w"),
        ("30s", "'30s' is not a duration: seconds are not accepted, the smallest unit is a minute; accepted: 10m, 2h, 1h30m, 3d, 1w"),
        ("1x", "'1x' is not a duration: unknown unit 'x'; accepted: 10m, 2h, 1h30m, 3d, 1w"),
        ("0m", "'0m' is not a duration: the amount must be more than zero; accepted: 10m, 2h, 1h30m, 3d, 1w"),
        ("-1h", "'-1h' is not a duration: the amount must be positive; accepted: 10m, 2h, 1h30m, 3d, 1w"),
        ("", "the duration is empty; accepted: 10m, 2h, 1h30m, 3d, 1w"),
        ("1M", "'1M' is not a duration: M could mean minutes or months; write m or min for minutes, mo for months; accepted: 10m, 2h, 1h30m, 3d, 1w"),
        ("1h1h", "'1h1h' is not a duration: hours are given twice; give each unit once; accepted: 10m, 2h, 1h30m, 3d, 1w"),
        ("1 day 2 days", "'1 day 2 days' is not a duration: days are given twice; give each unit once; accepted: 10m, 2h, 1h30m, 3d, 1w"),
    ])
    func explains(text: String, message: String) {
        #expect(throws: InputError(message)) {
            _ = try TimeSpan(parsing: text)
        }
    }

    @Test("prints the canonical short form", arguments: [
        (TimeSpan(days: 7), "1w"),
        (TimeSpan(days: 9, seconds: 3 * 3600 + 4 * 60), "1w2d3h4m"),
        (TimeSpan(seconds: 5400), "1h30m"),
        (TimeSpan(days: 3), "3d"),
        (TimeSpan(days: 14), "2w"),
        (TimeSpan(seconds: 600), "10m"),
        (TimeSpan(seconds: 86_400), "24h"),
        (TimeSpan(), "0m"),
        (TimeSpan(seconds: 90), "1m30s"),
        (TimeSpan(days: -1), "-1d"),
    ])
    func describes(span: TimeSpan, text: String) {
        #expect(span.description == text)
    }

    @Test("description parses back to the same span", arguments: [
        "10m", "2h", "1h30m", "3d", "1w", "2w3d", "90m", "2 hours", "1d12h", "24h", "8d", "100h",
    ])
    func roundTrips(text: String) throws {
        let span = try TimeSpan(parsing: text)
        #expect(try TimeSpan(parsing: span.description) == span)
    }

    @Test("days keep the wall-clock time across DST, seconds are exact")
    func addsAcrossDST() throws {
        let calendar = Calendar.nudge(zone: berlin)
        let start = instant("2027-03-27T09:00:00+01:00")
        let oneDay = try TimeSpan(parsing: "1d").added(to: start, calendar: calendar)
        #expect(oneDay == instant("2027-03-28T09:00:00+02:00"))
        #expect(oneDay.timeIntervalSince(start) == 23 * 3600)
        let twentyFourHours = try TimeSpan(parsing: "24h").added(to: start, calendar: calendar)
        #expect(twentyFourHours == instant("2027-03-28T10:00:00+02:00"))
        let mixed = try TimeSpan(parsing: "1w2h").added(to: start, calendar: calendar)
        #expect(mixed == instant("2027-04-03T11:00:00+02:00"))
        // Autumn: the day is 25 hours long.
        let autumn = instant("2027-10-30T09:00:00+02:00")
        #expect(TimeSpan(days: 1).added(to: autumn, calendar: calendar) == instant("2027-10-31T09:00:00+01:00"))
    }

    @Test("a timed due moves in its own zone and keeps it")
    func movesTimedDue() throws {
        let berlinCalendar = Calendar.nudge(zone: berlin)
        // New York springs forward on 2027-03-14; Berlin not until 2027-03-28.
        let due = Due.at(instant("2027-03-13T09:00:00-05:00"), zone: newYork)
        let moved = try TimeSpan(days: 1).added(to: due, calendar: berlinCalendar)
        #expect(moved == .at(instant("2027-03-14T09:00:00-04:00"), zone: newYork))
        let berlinDue = Due.at(instant("2026-11-29T10:53:00+01:00"), zone: berlin)
        #expect(try TimeSpan(parsing: "1h30m").added(to: berlinDue, calendar: berlinCalendar)
            == .at(instant("2026-11-29T12:23:00+01:00"), zone: berlin))
    }

    @Test("a due at its series' time moved by a DST gap is at that time again on the new day", arguments: [
        // 02:30 on Berlin's spring-forward day is 03:30; the days after have 02:30.
        ("2027-03-28T03:30:00+02:00", "02:30", "1d", "2027-03-29T02:30:00+02:00"),
        ("2027-03-28T03:30:00+02:00", "02:30", "1d2h", "2027-03-29T04:30:00+02:00"),
        ("2027-03-28T03:30:00+02:00", "02:30", "2h", "2027-03-28T05:30:00+02:00"),
        ("2027-03-27T02:30:00+01:00", "02:30", "1d", "2027-03-28T03:30:00+02:00"),
        // A due that is not at the series' time moves from where it is.
        ("2027-03-28T03:30:00+02:00", "09:00", "1d", "2027-03-29T03:30:00+02:00"),
    ])
    func movesToTheSeriesTime(due: String, wallTime: String, span: String, expected: String) throws {
        let moved = try TimeSpan(parsing: span).added(to: at(due), calendar: .nudge(zone: berlin),
                                                        wallTime: TimeOfDay(parsing: wallTime))
        #expect(moved == at(expected))
    }

    @Test("an all-day due moves by whole days only")
    func movesAllDayDue() throws {
        let calendar = Calendar.nudge(zone: berlin)
        let due = Due.allDay(LocalDate(year: 2026, month: 12, day: 28)!)
        #expect(try TimeSpan(parsing: "1w").added(to: due, calendar: calendar) == .allDay(LocalDate(year: 2027, month: 1, day: 4)!))
        #expect(try TimeSpan(parsing: "3d").added(to: due, calendar: calendar) == .allDay(LocalDate(year: 2026, month: 12, day: 31)!))
        #expect(throws: InputError("an all-day todo moves by whole days or weeks (e.g. 1d, 1w), not by 2h")) {
            _ = try TimeSpan(parsing: "2h").added(to: due, calendar: calendar)
        }
        #expect(throws: InputError.self) {
            _ = try TimeSpan(parsing: "1d2h").added(to: due, calendar: calendar)
        }
    }
}
