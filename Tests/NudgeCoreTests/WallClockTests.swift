import Foundation
import Testing
@testable import NudgeCore
@testable import NudgeTestSupport

struct WallClockTests {
    /// Foundation's ISO8601DateFormatter is the oracle, in zones east and west, with half and
    /// three-quarter hour offsets, around their DST changes and over the years (the formatter writes UTC as Z).
    @Test(arguments: ["Europe/Berlin", "America/St_Johns", "Asia/Kathmandu", "Pacific/Chatham", "America/Santiago", "UTC"])
    func iso8601AgreesWithFoundation(zoneName: String) throws {
        let zone = try #require(TimeZone(identifier: zoneName))
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = zone
        var random = SplitMix64(seed: 7)
        for _ in 0..<2000 {
            // Whole seconds from 1970 to 2100: earlier, some zones' offsets had seconds, which
            // the formatter shows and Nudge (as before) does not.
            let instant = Date(timeIntervalSince1970: TimeInterval(Int64.random(in: 0...4_100_000_000, using: &random)))
            let expected = formatter.string(from: instant).replacingOccurrences(of: "Z", with: "+00:00")
            #expect(WallClock(zone: zone).iso8601(instant) == expected)
        }
    }

    /// `LocalDate(_:in:)` takes a Gregorian calendar's day from the zone's offset: Foundation's
    /// `dateComponents` is the oracle, over the same zones and years.
    @Test(arguments: ["Europe/Berlin", "America/St_Johns", "Asia/Kathmandu", "Pacific/Chatham", "America/Santiago", "UTC"])
    func theDayOfAnInstantAgreesWithFoundation(zoneName: String) throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: zoneName))
        var random = SplitMix64(seed: 11)
        for _ in 0..<2000 {
            let instant = Date(timeIntervalSince1970: TimeInterval(Int64.random(in: 0...4_100_000_000, using: &random)))
            let parts = calendar.dateComponents([.year, .month, .day], from: instant)
            let day = LocalDate(instant, in: calendar)
            #expect([day.year, day.month, day.day] == [parts.year, parts.month, parts.day], "\(instant)")
        }
    }
}
