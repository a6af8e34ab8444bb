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
