import Foundation
import NudgeCore
import Testing

/// Zones are the same when every moment has the same offset in both, whatever their names.
struct TimeZoneRulesTests {
    func zone(_ name: String) -> TimeZone { TimeZone(identifier: name)! }

    @Test(arguments: [("UTC", "Etc/UTC"), ("GMT", "Etc/Universal"), ("US/Pacific", "America/Los_Angeles"),
                      ("Asia/Calcutta", "Asia/Kolkata"), ("Europe/Berlin", "Europe/Berlin")])
    func zonesOfOneRuleByOtherNamesAreTheSame(names: (String, String)) {
        #expect(zone(names.0).hasSameRules(as: zone(names.1)))
        #expect(zone(names.1).hasSameRules(as: zone(names.0)))
    }

    @Test func aFixedOffsetOfZeroIsUTC() {
        #expect(TimeZone(secondsFromGMT: 0)!.hasSameRules(as: zone("Etc/UTC")))
        #expect(!TimeZone(secondsFromGMT: 3600)!.hasSameRules(as: zone("Etc/UTC")))
    }

    /// Zurich and Berlin agree today, not in 1980 (Switzerland had no summer time then).
    @Test(arguments: [("Europe/Berlin", "Asia/Tokyo"), ("Europe/Berlin", "Europe/Zurich"), ("Europe/London", "Etc/UTC")])
    func zonesThatDifferAtAnyMomentAreNot(names: (String, String)) {
        #expect(!zone(names.0).hasSameRules(as: zone(names.1)))
    }
}
