import Foundation
import Testing
@testable import NudgeCore

/// en_US's: 12-hour clock, month/day, weeks from Sunday.
let usStyle = DateStyle(clock: .twelveHour, dateOrder: .monthDayYear, weekStart: 7)
/// de_DE's: 24-hour clock, day/month, weeks from Monday.
let germanStyle = DateStyle(clock: .twentyFourHour, dateOrder: .dayMonthYear, weekStart: 1)
/// No order of day and month, weeks from Saturday (`[display] week_start = saturday` in C).
let saturdayStyle = DateStyle(clock: .twentyFourHour, dateOrder: nil, weekStart: 6)

/// The parser at Sunday 2026-11-29 10:53 Berlin, or at another moment, in a style.
func parser(_ style: DateStyle, at now: String = "2026-11-29T10:53:00+01:00") -> WhenParser {
    parser(now, style: style)
}

struct WhenParserLocaleTests {
    @Test("weeks start where the style says, on Sunday 2026-11-29", arguments: [
        (DateStyle.standard, "eow", at("2026-11-29T23:59:00+01:00")),
        (.standard, "next week", day("2026-11-30")),
        (.standard, "this fri", day("2026-11-27")),
        (.standard, "next fri", day("2026-12-04")),
        (.standard, "next sun", day("2026-12-06")),
        (usStyle, "eow", at("2026-12-05T23:59:00+01:00")),
        (usStyle, "end of the week", at("2026-12-05T23:59:00+01:00")),
        (usStyle, "next week", day("2026-12-06")),
        (usStyle, "this fri", day("2026-12-04")),
        (usStyle, "next fri", day("2026-12-11")),
        (usStyle, "next sun", day("2026-12-06")),
        (germanStyle, "eow", at("2026-11-29T23:59:00+01:00")),
        (germanStyle, "next week", day("2026-11-30")),
        (saturdayStyle, "eow", at("2026-12-04T23:59:00+01:00")),
        (saturdayStyle, "next week", day("2026-12-05")),
        (saturdayStyle, "this fri", day("2026-12-04")),
        (saturdayStyle, "next sat", day("2026-12-05")),
        // A weekday alone is the next one whatever the week.
        (usStyle, "fri", day("2026-12-04")),
        (saturdayStyle, "sun", day("2026-12-06")),
    ])
    func weekStart(style: DateStyle, text: String, expected: Due) throws {
        #expect(try parser(style).parse(text) == expected)
    }

    @Test("weeks start where the style says, on Thursday 2026-12-03", arguments: [
        (DateStyle.standard, "next week", day("2026-12-07")),
        (usStyle, "next week", day("2026-12-06")),
        (saturdayStyle, "next week", day("2026-12-05")),
        (usStyle, "eow", at("2026-12-05T23:59:00+01:00")),
        (.standard, "eow", at("2026-12-06T23:59:00+01:00")),
    ])
    func weekStartOnThursday(style: DateStyle, text: String, expected: Due) throws {
        #expect(try parser(style, at: "2026-12-03T10:53:00+01:00").parse(text) == expected)
    }

    @Test("more of what people type, on Sunday 2026-11-29 10:53", arguments: [
        ("next week 9am", at("2026-11-30T09:00:00+01:00")),
        ("next month", day("2026-12-01")),
        ("next month at 9", at("2026-12-01T09:00:00+01:00")),
        ("next year", day("2027-01-01")),
        ("tomorrow at 9", at("2026-11-30T09:00:00+01:00")),
        ("tomorrow at 9pm", at("2026-11-30T21:00:00+01:00")),
        ("fri at 14", at("2026-12-04T14:00:00+01:00")),
        ("at 9", at("2026-11-30T09:00:00+01:00")),
        ("at 21", at("2026-11-29T21:00:00+01:00")),
        ("at 0", at("2026-11-30T00:00:00+01:00")),
        ("fri noon", at("2026-12-04T12:00:00+01:00")),
        ("noon fri", at("2026-12-04T12:00:00+01:00")),
        ("tomorrow midnight", at("2026-11-30T23:59:00+01:00")),
        ("midnight tomorrow", at("2026-11-30T23:59:00+01:00")),
        ("fri at midnight", at("2026-12-04T23:59:00+01:00")),
        ("today midnight", at("2026-11-29T23:59:00+01:00")),
        ("midnight", at("2026-11-30T00:00:00+01:00")),
        ("in a week", at("2026-12-06T10:53:00+01:00")),
        ("in an hour", at("2026-11-29T11:53:00+01:00")),
    ])
    func moreForms(text: String, expected: Due) throws {
        #expect(try sunday.parse(text) == expected)
        // None of these depends on the order of day and month.
        #expect(try parser(germanStyle).parse(text) == expected)
    }

    @Test("next month in December is next year's January")
    func nextMonthInDecember() throws {
        #expect(try thursday.parse("next month") == day("2027-01-01"))
    }

    @Test("numeric dates in the style's order", arguments: [
        (usStyle, "12/24", day("2026-12-24")),
        (usStyle, "12/24/2027", day("2027-12-24")),
        (usStyle, "3/4", day("2027-03-04")),
        (usStyle, "11/29", day("2026-11-29")),
        (usStyle, "11/28", day("2027-11-28")),
        (usStyle, "12/24 5pm", at("2026-12-24T17:00:00+01:00")),
        (germanStyle, "24.12. 18:00", at("2026-12-24T18:00:00+01:00")),
        (germanStyle, "24/12", day("2026-12-24")),
        (germanStyle, "24.12.", day("2026-12-24")),
        (germanStyle, "24.12", day("2026-12-24")),
        (germanStyle, "24.12.2026", day("2026-12-24")),
        (germanStyle, "3/4", day("2027-04-03")),
        (DateStyle(clock: .twentyFourHour, dateOrder: .yearMonthDay, weekStart: 1), "12/24", day("2026-12-24")),
        // No order known: a date that reads only one way is that date.
        (.standard, "12/24", day("2026-12-24")),
        (.standard, "24/12", day("2026-12-24")),
        (.standard, "24.12.2026", day("2026-12-24")),
        (.standard, "5/5", day("2027-05-05")),
    ])
    func numericDates(style: DateStyle, text: String, expected: Due) throws {
        #expect(try parser(style).parse(text) == expected)
    }

    @Test("numeric dates against the style's order are refused saying why", arguments: [
        (usStyle, "24/12", "'24/12' is not a date: numeric dates are month/day here (the locale's order, or [display] date_format) and there is no month 24; write 12/24"),
        (usStyle, "24/12/2026", "'24/12/2026' is not a date: numeric dates are month/day here (the locale's order, or [display] date_format) and there is no month 24; write 12/24/2026"),
        (germanStyle, "12/24", "'12/24' is not a date: numeric dates are day/month here (the locale's order, or [display] date_format) and there is no month 24; write 24/12"),
        (germanStyle, "12.24.", "'12.24.' is not a date: numeric dates are day.month here (the locale's order, or [display] date_format) and there is no month 24; write 24.12"),
        (germanStyle, "31.4.", "'31.4.' is not a date: April has 30 days"),
        (usStyle, "2/30", "'2/30' is not a date: February has at most 29 days"),
        (usStyle, "2/29/2027", "'2/29/2027' is not a date: February 2027 has 28 days"),
        (DateStyle.standard, "3/4", "'3/4' is ambiguous: Thursday March 4 2027 (month/day) or Saturday April 3 2027 (day/month); write 2027-03-04 or 2027-04-03, or set [display] date_format"),
        (.standard, "3.4.2027", "'3.4.2027' is ambiguous: Thursday March 4 2027 (month.day) or Saturday April 3 2027 (day.month); write 2027-03-04 or 2027-04-03, or set [display] date_format"),
        (.standard, "13/13", "'13/13' is not a date: there is no month 13 (months run 01-12)"),
    ])
    func numericRefusals(style: DateStyle, text: String, message: String) {
        #expect(throws: InputError(message)) {
            _ = try parser(style).parse(text)
        }
    }

    @Test("a bare hour needs at, and a real hour", arguments: [
        ("tomorrow 9", "can't read '9' in 'tomorrow 9' as a time of day"),
        ("tomorrow at 24", "hours run 0-23, not 24"),
        ("at 123", "can't read 'at 123' as a date"),
    ])
    func bareHours(text: String, fragment: String) {
        #expect {
            _ = try sunday.parse(text)
        } throws: { error in
            (error as? InputError)?.message.contains(fragment) == true
        }
    }
}
