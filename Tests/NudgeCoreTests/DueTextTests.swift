import Foundation
import Testing
@testable import NudgeCore

struct DueTextTests {
    let berlin = TimeZone(identifier: "Europe/Berlin")!
    var calendar: Calendar { .nudge(zone: berlin) }
    var now: Date { calendar.date(from: DateComponents(year: 2026, month: 11, day: 29, hour: 10, minute: 53))! }

    func due(_ y: Int, _ m: Int, _ d: Int, _ h: Int? = nil, _ min: Int = 0) -> Due {
        guard let h else { return .allDay(LocalDate(year: y, month: m, day: d)!) }
        return .at(calendar.date(from: DateComponents(year: y, month: m, day: d, hour: h, minute: min))!, zone: berlin)
    }

    @Test func readsRelativeToToday() {
        let text = DueText(now: now, zone: berlin, style: .standard)
        #expect(text.relative(due(2026, 11, 29, 9)) == "Today 09:00")
        #expect(text.relative(due(2026, 11, 30)) == "Tomorrow")
        #expect(text.relative(due(2026, 11, 28, 17, 5)) == "Yesterday 17:05")
        #expect(text.relative(due(2026, 12, 4, 14)) == "Fri 14:00")
        #expect(text.relative(due(2026, 12, 5)) == "Sat")
        #expect(text.relative(due(2026, 12, 6)) == "Dec 6")
        #expect(text.relative(due(2026, 12, 24)) == "Dec 24")
        #expect(text.relative(due(2026, 11, 20)) == "Nov 20")
        #expect(text.relative(due(2028, 1, 3)) == "Jan 3 2028")
    }

    @Test func writesFullDates() {
        let text = DueText(now: now, zone: berlin, style: .standard)
        #expect(text.full(due(2026, 12, 24)) == "Thursday, December 24, 2026")
        #expect(text.long(now) == "November 29, 2026 at 10:53")
        #expect(text.long(LocalDate(year: 2026, month: 11, day: 29)!) == "November 29, 2026")
    }

    @Test func iso8601CarriesTheOffset() {
        let clock = WallClock(zone: berlin)
        #expect(clock.iso8601(now) == "2026-11-29T10:53:00+01:00")
        let summer = calendar.date(from: DateComponents(year: 2027, month: 7, day: 1, hour: 8))!
        #expect(clock.iso8601(summer) == "2027-07-01T08:00:00+02:00")
        #expect(WallClock(zone: TimeZone(identifier: "America/St_Johns")!).iso8601(now) == "2026-11-29T06:23:00-03:30")
    }
}

struct DueTextStyleTests {
    let berlin = TimeZone(identifier: "Europe/Berlin")!
    var calendar: Calendar { .nudge(zone: berlin) }
    var now: Date { calendar.date(from: DateComponents(year: 2026, month: 11, day: 29, hour: 10, minute: 53))! }

    func due(_ y: Int, _ m: Int, _ d: Int, _ h: Int? = nil, _ min: Int = 0) -> Due {
        guard let h else { return .allDay(LocalDate(year: y, month: m, day: d)!) }
        return .at(calendar.date(from: DateComponents(year: y, month: m, day: d, hour: h, minute: min))!, zone: berlin)
    }

    @Test func twelveHourClockMonthFirst() {
        let text = DueText(now: now, zone: berlin, style: DateStyle(clock: .twelveHour, dateOrder: .monthDayYear, weekStart: 7))
        #expect(text.relative(due(2026, 11, 29, 9)) == "Today 9:00 AM")
        #expect(text.relative(due(2026, 11, 28, 17, 5)) == "Yesterday 5:05 PM")
        #expect(text.relative(due(2026, 12, 4, 12)) == "Fri 12:00 PM")
        #expect(text.relative(due(2026, 11, 30, 0, 30)) == "Tomorrow 12:30 AM")
        #expect(text.relative(due(2026, 12, 24)) == "Dec 24")
        #expect(text.relative(due(2028, 1, 3)) == "Jan 3 2028")
        #expect(text.full(due(2026, 12, 24, 23, 59)) == "Thursday, December 24, 2026 at 11:59 PM")
        #expect(text.long(now) == "November 29, 2026 at 10:53 AM")
        #expect(text.time(hour: 14, minute: 5, second: 9) == "2:05:09 PM")
    }

    @Test func dayFirst() {
        let text = DueText(now: now, zone: berlin, style: DateStyle(clock: .twentyFourHour, dateOrder: .dayMonthYear, weekStart: 1))
        #expect(text.relative(due(2026, 11, 29, 9)) == "Today 09:00")
        #expect(text.relative(due(2026, 12, 4, 14)) == "Fri 14:00")
        #expect(text.relative(due(2026, 12, 24)) == "24 Dec")
        #expect(text.relative(due(2028, 1, 3, 8)) == "3 Jan 2028 08:00")
        #expect(text.full(due(2026, 12, 24)) == "Thursday, 24 December 2026")
        #expect(text.long(now) == "29 November 2026 at 10:53")
        #expect(text.stamp(now) == "29 Nov 10:53:00")
    }

    @Test func yearFirst() {
        let text = DueText(now: now, zone: berlin, style: DateStyle(clock: .twentyFourHour, dateOrder: .yearMonthDay, weekStart: 1))
        #expect(text.relative(due(2026, 12, 24)) == "2026-12-24")
        #expect(text.relative(due(2026, 12, 2)) == "Wed")
        #expect(text.full(due(2026, 12, 24, 9)) == "Thursday, 2026-12-24 at 09:00")
    }
}
