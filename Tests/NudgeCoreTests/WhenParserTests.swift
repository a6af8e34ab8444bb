import Foundation
import Testing
@testable import NudgeCore

let berlin = TimeZone(identifier: "Europe/Berlin")!
let newYork = TimeZone(identifier: "America/New_York")!

/// An instant written with its UTC offset, e.g. "2026-11-29T10:53:00+01:00". Written this way
/// so that expectations do not depend on the code under test.
func instant(_ text: String) -> Date {
    let formatter = ISO8601DateFormatter()
    guard let date = formatter.date(from: text) else { fatalError("bad test instant \(text)") }
    return date
}

func day(_ text: String) -> Due {
    .allDay(LocalDate(iso: text)!)
}

func at(_ text: String, _ zone: TimeZone = berlin) -> Due {
    .at(instant(text), zone: zone)
}

/// A parser in the C locale's style (weeks from Monday, no order of day and month), unless
/// another is given.
func parser(_ now: String, _ zone: TimeZone = berlin, style: DateStyle = .standard) -> WhenParser {
    WhenParser(now: instant(now), calendar: .nudge(zone: zone), style: style)
}

/// Sunday 2026-11-29 10:53 in Berlin (CET, +01:00).
let sunday = parser("2026-11-29T10:53:00+01:00")
/// Thursday 2026-12-03 10:53 in Berlin.
let thursday = parser("2026-12-03T10:53:00+01:00")
/// Sunday 2026-11-29 23:30 in Berlin.
let lateSunday = parser("2026-11-29T23:30:00+01:00")

struct WhenParserTests {
    @Test("forms read on Sunday 2026-11-29 10:53 Berlin", arguments: [
        // ISO dates and date-times
        ("2026-12-24", day("2026-12-24")),
        ("2026-12-24 09:30", at("2026-12-24T09:30:00+01:00")),
        ("2026-12-24T09:30", at("2026-12-24T09:30:00+01:00")),
        ("2026-12-24t09:30:00", at("2026-12-24T09:30:00+01:00")),
        ("2026-12-24T09:30:15", at("2026-12-24T09:30:15+01:00")),
        ("2026-12-24 9am", at("2026-12-24T09:00:00+01:00")),
        ("2026-12-24 at 18:00", at("2026-12-24T18:00:00+01:00")),
        ("2027-07-01 12:00", at("2027-07-01T12:00:00+02:00")),
        ("2028-02-29", day("2028-02-29")),
        ("2026-1-5", day("2026-01-05")),
        // named days
        ("today", day("2026-11-29")),
        ("Today", day("2026-11-29")),
        ("tonight", at("2026-11-29T20:00:00+01:00")),
        ("tonight 22:00", at("2026-11-29T22:00:00+01:00")),
        ("tomorrow", day("2026-11-30")),
        ("yesterday", day("2026-11-28")),
        ("tomorrow 9am", at("2026-11-30T09:00:00+01:00")),
        ("today 17:30", at("2026-11-29T17:30:00+01:00")),
        ("today 9am", at("2026-11-29T09:00:00+01:00")),
        ("tomorrow at 9am", at("2026-11-30T09:00:00+01:00")),
        ("  TOMORROW   at   9 AM  ", at("2026-11-30T09:00:00+01:00")),
        ("tomorrow 9:30 p.m.", at("2026-11-30T21:30:00+01:00")),
        ("9am tomorrow", at("2026-11-30T09:00:00+01:00")),
        // weekdays: strictly after today (a Sunday)
        ("mon", day("2026-11-30")),
        ("monday", day("2026-11-30")),
        ("tue", day("2026-12-01")),
        ("tues", day("2026-12-01")),
        ("tuesday", day("2026-12-01")),
        ("wed", day("2026-12-02")),
        ("wednesday", day("2026-12-02")),
        ("thu", day("2026-12-03")),
        ("thur", day("2026-12-03")),
        ("thurs", day("2026-12-03")),
        ("thursday", day("2026-12-03")),
        ("fri", day("2026-12-04")),
        ("Friday", day("2026-12-04")),
        ("sat", day("2026-12-05")),
        ("saturday", day("2026-12-05")),
        ("sun", day("2026-12-06")),
        ("sunday", day("2026-12-06")),
        // next = in the next ISO week, which starts tomorrow
        ("next fri", day("2026-12-04")),
        ("next mon", day("2026-11-30")),
        ("next sun", day("2026-12-06")),
        ("next  friday", day("2026-12-04")),
        // this = in the current ISO week, Mon 11-23 .. Sun 11-29
        ("this fri", day("2026-11-27")),
        ("this mon", day("2026-11-23")),
        ("this sun", day("2026-11-29")),
        // weekdays with times
        ("fri 14:00", at("2026-12-04T14:00:00+01:00")),
        ("fri at 2pm", at("2026-12-04T14:00:00+01:00")),
        ("next mon 9am", at("2026-11-30T09:00:00+01:00")),
        // a time alone: today if strictly after 10:53, else tomorrow
        ("9am", at("2026-11-30T09:00:00+01:00")),
        ("11am", at("2026-11-29T11:00:00+01:00")),
        ("9:30am", at("2026-11-30T09:30:00+01:00")),
        ("9 pm", at("2026-11-29T21:00:00+01:00")),
        ("9PM", at("2026-11-29T21:00:00+01:00")),
        ("12am", at("2026-11-30T00:00:00+01:00")),
        ("12:30am", at("2026-11-30T00:30:00+01:00")),
        ("12pm", at("2026-11-29T12:00:00+01:00")),
        ("17:30", at("2026-11-29T17:30:00+01:00")),
        ("9:05", at("2026-11-30T09:05:00+01:00")),
        ("09:05", at("2026-11-30T09:05:00+01:00")),
        ("0:15", at("2026-11-30T00:15:00+01:00")),
        ("noon", at("2026-11-29T12:00:00+01:00")),
        ("midnight", at("2026-11-30T00:00:00+01:00")),
        ("10:53", at("2026-11-30T10:53:00+01:00")),
        ("10:54", at("2026-11-29T10:54:00+01:00")),
        ("at 9am", at("2026-11-30T09:00:00+01:00")),
        // relative
        ("in 2h", at("2026-11-29T12:53:00+01:00")),
        ("in 3 days", at("2026-12-02T10:53:00+01:00")),
        ("in 1 week", at("2026-12-06T10:53:00+01:00")),
        ("in 45 min", at("2026-11-29T11:38:00+01:00")),
        ("in 1h30m", at("2026-11-29T12:23:00+01:00")),
        ("in  1 h 30 m", at("2026-11-29T12:23:00+01:00")),
        ("in a week", at("2026-12-06T10:53:00+01:00")),
        ("in a week at 9", at("2026-12-06T09:00:00+01:00")),
        ("in 3 days 9am", at("2026-12-02T09:00:00+01:00")),
        ("in 3 days, at 17:30", at("2026-12-02T17:30:00+01:00")),
        ("in 2 weeks at noon", at("2026-12-13T12:00:00+01:00")),
        ("in 1 MO at 8pm", at("2026-12-29T20:00:00+01:00")),
        ("in an hour", at("2026-11-29T11:53:00+01:00")),
        ("In An Hour", at("2026-11-29T11:53:00+01:00")),
        ("IN 2H", at("2026-11-29T12:53:00+01:00")),
        ("in 2h, 30m", at("2026-11-29T13:23:00+01:00")),
        ("in 1 MO", at("2026-12-29T10:53:00+01:00")),
        ("+45m", at("2026-11-29T11:38:00+01:00")),
        ("+2d", at("2026-12-01T10:53:00+01:00")),
        ("+ 2d", at("2026-12-01T10:53:00+01:00")),
        ("in 2 months", at("2027-01-29T10:53:00+01:00")),
        ("in 6 months", at("2027-05-29T10:53:00+02:00")),
        ("in 1 year", at("2027-11-29T10:53:00+01:00")),
        ("in 1 year 2 months", at("2028-01-29T10:53:00+01:00")),
        // end of ...
        ("eod", at("2026-11-29T23:59:00+01:00")),
        ("EOD", at("2026-11-29T23:59:00+01:00")),
        ("eow", at("2026-11-29T23:59:00+01:00")),
        ("end of week", at("2026-11-29T23:59:00+01:00")),
        ("eom", at("2026-11-30T23:59:00+01:00")),
        ("eoy", at("2026-12-31T23:59:00+01:00")),
        // month and day
        ("dec 24", day("2026-12-24")),
        ("24 dec", day("2026-12-24")),
        ("december 24", day("2026-12-24")),
        ("24 December", day("2026-12-24")),
        ("dec 24th", day("2026-12-24")),
        ("dec 24 2027", day("2027-12-24")),
        ("24 dec 2027", day("2027-12-24")),
        ("dec 24, 2027", day("2027-12-24")),
        ("dec 24 9am", at("2026-12-24T09:00:00+01:00")),
        ("dec 24 18:00", at("2026-12-24T18:00:00+01:00")),
        ("dec 24 at 6 pm", at("2026-12-24T18:00:00+01:00")),
        ("24 dec 2027 09:30", at("2027-12-24T09:30:00+01:00")),
        ("nov 29", day("2026-11-29")),
        ("nov 28", day("2027-11-28")),
        ("jan 5", day("2027-01-05")),
        ("sept 3", day("2027-09-03")),
        ("sep 3", day("2027-09-03")),
        ("may 1", day("2027-05-01")),
        ("feb 29", day("2028-02-29")),
        ("feb 29 2028", day("2028-02-29")),
    ])
    func readsOnSunday(text: String, expected: Due) throws {
        #expect(try sunday.parse(text) == expected)
    }

    @Test("forms read on Thursday 2026-12-03 10:53 Berlin", arguments: [
        ("fri", day("2026-12-04")),
        ("next fri", day("2026-12-11")),
        ("this fri", day("2026-12-04")),
        ("thu", day("2026-12-10")),
        ("this thu", day("2026-12-03")),
        ("next thu", day("2026-12-10")),
        ("wed", day("2026-12-09")),
        ("this mon", day("2026-11-30")),
        ("next mon", day("2026-12-07")),
        ("next sun", day("2026-12-13")),
        ("sun", day("2026-12-06")),
        ("eow", at("2026-12-06T23:59:00+01:00")),
        ("eom", at("2026-12-31T23:59:00+01:00")),
        ("dec 3", day("2026-12-03")),
        ("dec 2", day("2027-12-02")),
    ])
    func readsOnThursday(text: String, expected: Due) throws {
        #expect(try thursday.parse(text) == expected)
    }

    @Test("a time alone late in the evening (Sunday 23:30) rolls over", arguments: [
        ("9am", at("2026-11-30T09:00:00+01:00")),
        ("23:45", at("2026-11-29T23:45:00+01:00")),
        ("23:30", at("2026-11-30T23:30:00+01:00")),
        ("11:59pm", at("2026-11-29T23:59:00+01:00")),
        ("midnight", at("2026-11-30T00:00:00+01:00")),
        ("noon", at("2026-11-30T12:00:00+01:00")),
        ("tonight", at("2026-11-29T20:00:00+01:00")),
        ("in 1h", at("2026-11-30T00:30:00+01:00")),
        ("eod", at("2026-11-29T23:59:00+01:00")),
    ])
    func rollsOverLateInTheEvening(text: String, expected: Due) throws {
        #expect(try lateSunday.parse(text) == expected)
    }

    @Test("DST: times in a gap move forward, repeated times are the first", arguments: [
        // New York springs forward on 2027-03-14 at 02:00 -> 03:00.
        (parser("2027-03-13T12:00:00-05:00", newYork), "tomorrow 2:30am", at("2027-03-14T03:30:00-04:00", newYork)),
        (parser("2027-03-13T12:00:00-05:00", newYork), "2027-03-14 02:30", at("2027-03-14T03:30:00-04:00", newYork)),
        (parser("2027-03-13T12:00:00-05:00", newYork), "tomorrow 9am", at("2027-03-14T09:00:00-04:00", newYork)),
        (parser("2027-03-13T12:00:00-05:00", newYork), "in 1d", at("2027-03-14T12:00:00-04:00", newYork)),
        (parser("2027-03-13T12:00:00-05:00", newYork), "in 24h", at("2027-03-14T13:00:00-04:00", newYork)),
        // Berlin springs forward on 2027-03-28 at 02:00 -> 03:00.
        (parser("2027-03-27T12:00:00+01:00"), "tomorrow 02:30", at("2027-03-28T03:30:00+02:00")),
        (parser("2027-03-27T12:00:00+01:00"), "2027-03-28 02:30", at("2027-03-28T03:30:00+02:00")),
        (parser("2027-03-27T12:00:00+01:00"), "tomorrow 9am", at("2027-03-28T09:00:00+02:00")),
        (parser("2027-03-27T12:00:00+01:00"), "in 1 day", at("2027-03-28T12:00:00+02:00")),
        (parser("2027-03-27T12:00:00+01:00"), "in 24h", at("2027-03-28T13:00:00+02:00")),
        (parser("2027-03-28T01:00:00+01:00"), "2:30", at("2027-03-28T03:30:00+02:00")),
        (parser("2027-03-28T01:00:00+01:00"), "eod", at("2027-03-28T23:59:00+02:00")),
        // Berlin falls back on 2027-10-31 at 03:00 -> 02:00: 02:30 happens twice.
        (parser("2027-10-30T12:00:00+02:00"), "tomorrow 02:30", at("2027-10-31T02:30:00+02:00")),
        (parser("2027-10-30T12:00:00+02:00"), "tomorrow 9am", at("2027-10-31T09:00:00+01:00")),
    ])
    func handlesDST(parser: WhenParser, text: String, expected: Due) throws {
        #expect(try parser.parse(text) == expected)
    }

    @Test("the wall-clock time typed is kept where a DST gap moved the due", arguments: [
        (parser("2027-03-13T12:00:00-05:00", newYork), "tomorrow 2:30am", "2027-03-14T02:30"),
        (parser("2027-03-13T12:00:00-05:00", newYork), "2027-03-14 02:30", "2027-03-14T02:30"),
        (parser("2027-03-27T12:00:00+01:00"), "2027-03-28 02:30", "2027-03-28T02:30"),
        (parser("2027-03-28T01:00:00+01:00"), "2:30", "2027-03-28T02:30"),
        (parser("2027-10-02T12:00:00+10:30", TimeZone(identifier: "Australia/Lord_Howe")!), "tomorrow 02:15", "2027-10-03T02:15"),
        // Whole days keep now's time of day; hours and minutes are elapsed time.
        (parser("2027-03-27T02:30:00+01:00"), "in 1 day", "2027-03-28T02:30"),
        (parser("2027-03-27T02:30:00+01:00"), "in 1d1h", "2027-03-28T04:30"),
        (parser("2027-03-27T12:00:00+01:00"), "tomorrow", "2027-03-28"),
        (parser("2027-10-30T12:00:00+02:00"), "tomorrow 02:30", "2027-10-31T02:30"),
    ])
    func keepsTheWallClockTyped(parser: WhenParser, text: String, expected: String) throws {
        #expect(try parser.read(text).wallClock.description == expected)
    }

    @Test("away from DST changes the wall-clock time typed is the due's own")
    func wallClockIsTheDuesOwnAwayFromDST() throws {
        let forms = WhenParser.acceptedForms.split(separator: ",").map { $0.trimmingWhitespace() }
            + ["in 2 months", "in 3 days", "2026-12-24T09:30:15", "tomorrow 9:30 p.m.", "next fri 14:00", "noon"]
        for form in forms {
            let reading = try sunday.read(form)
            #expect(reading.wallClock == SeriesStart(reading.due), "\(form)")
        }
    }

    @Test("LocalDate.at follows RFC 5545 in DST gaps and overlaps")
    func localDateAtAcrossDST() {
        let berlinCalendar = Calendar.nudge(zone: berlin)
        let spring = LocalDate(year: 2027, month: 3, day: 28)!
        #expect(spring.at(hour: 2, minute: 30, in: berlinCalendar) == instant("2027-03-28T03:30:00+02:00"))
        let autumn = LocalDate(year: 2027, month: 10, day: 31)!
        #expect(autumn.at(hour: 2, minute: 30, in: berlinCalendar) == instant("2027-10-31T02:30:00+02:00"))
        let nyCalendar = Calendar.nudge(zone: newYork)
        let nySpring = LocalDate(year: 2027, month: 3, day: 14)!
        #expect(nySpring.at(hour: 2, minute: 30, in: nyCalendar) == instant("2027-03-14T03:30:00-04:00"))
    }

    @Test("the due keeps the parser's zone")
    func keepsZone() throws {
        let due = try parser("2026-11-29T10:53:00-05:00", newYork).parse("tomorrow 9am")
        guard case .at(let date, let zone) = due else {
            Issue.record("expected a timed due, got \(due)")
            return
        }
        #expect(zone.identifier == "America/New_York")
        #expect(date == instant("2026-11-30T09:00:00-05:00"))
    }

    @Test("refused inputs say what was typed", arguments: [
        "blorp",
        "32/13",
        "2026-02-30",
        "2026-13-01",
        "2026-00-10",
        "2026-12-00",
        "2027-02-29",
        "feb 30",
        "feb 29 2027",
        "apr 31",
        "dec 32",
        "dec 0",
        "2026-12-24 25:00",
        "2026-12-24T25:00",
        "24:00",
        "25:00",
        "13pm",
        "0am",
        "9:60",
        "9:5",
        "123:00",
        "tomorrow 9",
        "tomorrow blorp",
        "tomorrow tomorrow",
        "fri 25:00",
        "next",
        "next blorp",
        "this",
        "in",
        "in 0m",
        "in -1h",
        "in 2x",
        "in 1.5h",
        "in 30s",
        "in 2",
        "in 200 years",
        "in 99999999w",
        "+",
        "+0d",
        "in 1M",
        "+1M",
        "in 1h1h",
        "+1d 2 days",
        "in 1 month 1 mo",
        "dec",
        "dec 24 2027 2028",
        "dec 24 27",
        "2026",
        "2026-12-24 09:30 10:00",
        "eod 9am",
    ])
    func refuses(text: String) {
        #expect {
            _ = try sunday.parse(text)
        } throws: { error in
            guard let error = error as? InputError else { return false }
            return error.message.contains("'\(text)'") && !error.message.contains("\n")
        }
    }

    @Test("refusals explain the problem", arguments: [
        ("2026-02-30", "'2026-02-30' is not a date: February 2026 has 28 days"),
        ("2026-13-01", "'2026-13-01' is not a date: there is no month 13 (months run 01-12)"),
        ("feb 30", "'feb 30' is not a date: February has at most 29 days"),
        ("Feb 29 2027", "'Feb 29 2027' is not a date: February 2027 has 28 days"),
        ("apr 31", "'apr 31' is not a date: April has 30 days"),
        ("32/13", "'32/13' is not a date: there is no month 32 (months run 01-12)"),
        ("blorp", "can't read 'blorp' as a date; accepted: \(WhenParser.acceptedForms)"),
        ("", "the date is empty; accepted: \(WhenParser.acceptedForms)"),
        ("   ", "the date is empty; accepted: \(WhenParser.acceptedForms)"),
        ("in 1M", "can't read 'in 1M' as a date: M could mean minutes or months; write m or min for minutes, mo for months; relative dates look like in 2h, in 3 days, in 1h30m, +45m, in 2 months"),
        ("+1h 1h", "can't read '+1h 1h' as a date: hours are given twice; give each unit once; relative dates look like in 2h, in 3 days, in 1h30m, +45m, in 2 months"),
        ("in 2h at 9", "can't read 'in 2h at 9' as a date: a time of day goes after days, weeks, months or years (in 3 days at 9), not after hours or minutes"),
    ])
    func explains(text: String, message: String) {
        #expect(throws: InputError(message)) {
            _ = try sunday.parse(text)
        }
    }

    @Test("time refusals name the bad part", arguments: [
        ("2026-12-24 25:00", "hours run 0-23"),
        ("24:00", "midnight"),
        ("13pm", "1-12"),
        ("9:60", "minutes run 00-59"),
        ("tomorrow blorp", "'blorp'"),
        ("in 2x", "unknown unit 'x'"),
        ("in 0m", "more than zero"),
    ])
    func timeRefusals(text: String, fragment: String) {
        #expect {
            _ = try sunday.parse(text)
        } throws: { error in
            (error as? InputError)?.message.contains(fragment) == true
        }
    }

    @Test("accepted forms all parse")
    func acceptedFormsParse() throws {
        let forms = WhenParser.acceptedForms.split(separator: ",").map { $0.trimmingWhitespace() }
        #expect(forms.count == 19)
        for form in forms {
            _ = try sunday.parse(form)
        }
    }
}
