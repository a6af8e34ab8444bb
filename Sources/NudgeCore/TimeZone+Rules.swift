import Foundation

extension TimeZone {
    /// The first of January 2200: past it, a zone keeps the rule it has then for ever, so two
    /// zones alike until then are alike.
    private static let rulesCompared = Date(timeIntervalSince1970: 7_258_118_400)

    /// Whether this zone gives every moment the offset `other` gives it: the same zone by
    /// another name, such as `UTC` (which Foundation calls GMT) and `Etc/UTC`, or an alias
    /// such as `US/Pacific`. Compared at every change of either zone, from the first.
    public func hasSameRules(as other: TimeZone) -> Bool {
        if identifier == other.identifier { return true }
        var moment = Date.distantPast
        guard secondsFromGMT(for: moment) == other.secondsFromGMT(for: moment) else { return false }
        // A zone changes its offset about twice a year: 2,000 changes reach beyond 2200, and
        // a zone with more is counted as another, whose schedule is only planned again.
        for _ in 0..<2_000 {
            let changes = [nextDaylightSavingTimeTransition(after: moment),
                           other.nextDaylightSavingTimeTransition(after: moment)].compactMap { $0 }
            guard let next = changes.min(), next < Self.rulesCompared else { return true }
            guard next > moment else { return false }
            guard secondsFromGMT(for: next) == other.secondsFromGMT(for: next) else { return false }
            moment = next
        }
        return false
    }
}
