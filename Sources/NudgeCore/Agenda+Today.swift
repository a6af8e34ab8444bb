import Foundation

extension Agenda {
    /// The whole seconds since 1970 whose local day is today, as half-open ranges: what a
    /// timed due must fall in to be today's. Usually one range; an offset change near
    /// midnight can make more, and the ranges follow `WallClock.day(of:)` exactly, so that a
    /// count over them agrees with `section(of:)`.
    public func secondsOfToday() -> [Range<Int64>] {
        let midnight = Int64(today.dayNumber) * 86_400
        // No zone is more than a day from UTC, so today's instants lie within this window.
        let end = midnight + 2 * 86_400
        var ranges: [Range<Int64>] = []
        var start = midnight - 86_400
        while start < end {
            let offset = Int64(clock.offset(at: Self.instant(start)))
            let next = nextOffsetChange(after: start, from: offset, before: end)
            let lower = max(start, midnight - offset), upper = min(next, midnight + 86_400 - offset)
            if lower < upper {
                if let last = ranges.last, last.upperBound == lower {
                    ranges[ranges.count - 1] = last.lowerBound..<upper
                } else {
                    ranges.append(lower..<upper)
                }
            }
            start = next
        }
        return ranges
    }

    /// The first second after `start` whose offset is not `offset`, or `end`. Looks an hour at
    /// a time, then halves: zones change their offset at most once in an hour.
    private func nextOffsetChange(after start: Int64, from offset: Int64, before end: Int64) -> Int64 {
        var probe = start
        while probe < end {
            let step = min(probe + 3600, end)
            if Int64(clock.offset(at: Self.instant(step))) != offset {
                var low = probe, high = step
                while high - low > 1 {
                    let middle = low + (high - low) / 2
                    if Int64(clock.offset(at: Self.instant(middle))) == offset { low = middle } else { high = middle }
                }
                return high
            }
            probe = step
        }
        return end
    }

    private static func instant(_ seconds: Int64) -> Date {
        Date(timeIntervalSince1970: TimeInterval(seconds))
    }
}
