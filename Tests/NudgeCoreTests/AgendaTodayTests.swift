import Foundation
import Testing
@testable import NudgeCore

/// `Agenda.secondsOfToday`: the instants whose local day is today, which `nudge status`
/// counts over; checked against `WallClock.day(of:)` itself, second by second at the edges.
struct AgendaTodayTests {
    @Test(arguments: [
        ("Europe/Berlin", "2026-11-29T10:53:00Z"),
        // Summer time ends; summer time starts at midnight (no 00:00 that day).
        ("Europe/Berlin", "2026-10-25T10:53:00Z"),
        ("America/Sao_Paulo", "2018-11-04T12:00:00Z"),
        // Clocks go back at midnight to 23:00 of the day before.
        ("America/Asuncion", "2020-03-21T20:00:00Z"),
        // Samoa skipped 30 December 2011: the day after the 29th was the 31st.
        ("Pacific/Apia", "2011-12-29T12:00:00Z"),
        ("Pacific/Kiritimati", "2026-03-01T00:00:00Z"),
        ("Pacific/Pago_Pago", "2026-03-01T00:00:00Z"),
    ])
    func rangesHoldExactlyTheInstantsOfToday(zone name: String, moment: String) throws {
        let zone = try #require(TimeZone(identifier: name))
        let now = try #require(ISO8601DateFormatter().date(from: moment))
        let agenda = Agenda(now: now, zone: zone)
        let ranges = agenda.secondsOfToday()
        try #require(!ranges.isEmpty)
        func isToday(_ second: Int64) -> Bool {
            agenda.clock.day(of: Date(timeIntervalSince1970: TimeInterval(second))) == agenda.today
        }
        for range in ranges {
            #expect(isToday(range.lowerBound) && !isToday(range.lowerBound - 1))
            #expect(isToday(range.upperBound - 1) && !isToday(range.upperBound))
        }
        // Every minute of three days around it falls in a range exactly when it is today.
        let start = ranges[0].lowerBound - 86_400
        for second in stride(from: start, to: start + 3 * 86_400, by: 60) {
            #expect(ranges.contains { $0.contains(second) } == isToday(second), "second \(second) in \(name)")
        }
    }

    @Test func anOrdinaryDayIsOneRangeOf24Hours() throws {
        let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
        let agenda = Agenda(now: Date(timeIntervalSince1970: 1_796_036_000), zone: berlin)
        let ranges = agenda.secondsOfToday()
        #expect(ranges.count == 1)
        #expect(ranges.first.map { $0.upperBound - $0.lowerBound } == 86_400)
    }
}
