import Foundation

/// Turns instants into local days and times of day in one zone. It asks the zone only for its
/// offset, which is much cheaper than `Calendar.dateComponents` when listing thousands of todos.
public struct WallClock: Sendable {
    public let zone: TimeZone

    public init(zone: TimeZone) {
        self.zone = zone
    }

    public func offset(at instant: Date) -> Int {
        zone.secondsFromGMT(for: instant)
    }

    private func localSeconds(_ instant: Date) -> Int {
        WallClock.seconds(instant) + offset(at: instant)
    }

    /// Seconds since 1970, held within ±2^52 (past a hundred million years either way) so that
    /// no instant read from a damaged database can overflow the arithmetic of days and times.
    static func seconds(_ instant: Date) -> Int {
        let seconds = instant.timeIntervalSince1970.rounded(.down)
        guard seconds.isFinite else { return seconds < 0 ? -limit : limit }
        return Int(max(-Double(limit), min(Double(limit), seconds)))
    }

    private static let limit = 1 << 52

    /// The instant the local clock shows `seconds` (since 1970 in local time); where the offset
    /// changes around it, the offset of the instant that much earlier in UTC decides.
    func instant(atLocalSeconds seconds: Int) -> Date {
        let guess = Date(timeIntervalSince1970: TimeInterval(seconds))
        return Date(timeIntervalSince1970: TimeInterval(seconds - offset(at: guess)))
    }

    /// True when the instant's day on this clock lies in the years 0001-9999 (`Due.years`).
    public func isWithinYears(_ instant: Date) -> Bool {
        // Far enough inside that no offset moves the day across a year's edge.
        if (WallClock.safeFirst...WallClock.safeLast).contains(instant.timeIntervalSince1970) { return true }
        return Due.years.contains(day(of: instant).year)
    }

    private static let safeFirst = TimeInterval(LocalDate(year: 1, month: 1, day: 3)!.dayNumber * 86_400)
    private static let safeLast = TimeInterval(LocalDate(year: 9999, month: 12, day: 29)!.dayNumber * 86_400)

    public func day(of instant: Date) -> LocalDate {
        day(atLocalSeconds: localSeconds(instant))
    }

    /// The local day and time of day, asking the zone for its offset once.
    public func dayAndTime(of instant: Date) -> (day: LocalDate, hour: Int, minute: Int) {
        let seconds = localSeconds(instant)
        let time = ((seconds % 86_400) + 86_400) % 86_400
        return (day(atLocalSeconds: seconds), time / 3600, time / 60 % 60)
    }

    private func day(atLocalSeconds seconds: Int) -> LocalDate {
        LocalDate(dayNumber: Int((Double(seconds) / 86_400).rounded(.down)))
    }

    /// Hour, minute and second on the local clock.
    public func time(of instant: Date) -> (hour: Int, minute: Int, second: Int) {
        let seconds = ((localSeconds(instant) % 86_400) + 86_400) % 86_400
        return (seconds / 3600, seconds / 60 % 60, seconds % 60)
    }

    /// ISO 8601 with the local offset, e.g. `2026-11-29T10:53:00+01:00`, or `+00:53:28` for an
    /// offset with seconds (local mean time before 1893), which cut to minutes would move the
    /// instant. Asks the zone once and writes the bytes in place: `list --json` writes three of
    /// these for every todo.
    public func iso8601(_ instant: Date) -> String {
        let offset = offset(at: instant)
        let seconds = WallClock.seconds(instant) + offset
        let time = ((seconds % 86_400) + 86_400) % 86_400
        let day = day(atLocalSeconds: seconds)
        let offsetSeconds = abs(offset) % 60
        guard (0...9999).contains(day.year) else {
            let sign = offset < 0 ? "-" : "+"
            return "\(day)T" + pad(time / 3600) + ":" + pad(time / 60 % 60) + ":" + pad(time % 60)
                + sign + pad(abs(offset) / 3600) + ":" + pad(abs(offset) / 60 % 60)
                + (offsetSeconds == 0 ? "" : ":" + pad(offsetSeconds))
        }
        var fields = [(day.year, 4, UInt8(ascii: "-")), (day.month, 2, UInt8(ascii: "-")), (day.day, 2, UInt8(ascii: "T")),
                      (time / 3600, 2, UInt8(ascii: ":")), (time / 60 % 60, 2, UInt8(ascii: ":")),
                      (time % 60, 2, offset < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+")),
                      (abs(offset) / 3600, 2, UInt8(ascii: ":")), (abs(offset) / 60 % 60, 2, 0)]
        if offsetSeconds != 0 {
            fields[fields.count - 1].2 = UInt8(ascii: ":")
            fields.append((offsetSeconds, 2, 0))
        }
        return String(unsafeUninitializedCapacity: 28) { bytes in
            var end = 0
            for (value, width, separator) in fields {
                var rest = value
                for position in stride(from: end + width - 1, through: end, by: -1) {
                    bytes[position] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                }
                end += width
                if separator != 0 {
                    bytes[end] = separator
                    end += 1
                }
            }
            return end
        }
    }
}

func pad(_ value: Int) -> String {
    value < 10 ? "0\(value)" : "\(value)"
}

extension WallClock {
    /// The first second after `instant` (seconds since 1970) at which the local clock reaches a
    /// multiple of `period` seconds (the next local hour, or midnight), or an earlier one where
    /// the offset changes on the way: never later, so that a search from it misses nothing.
    public func nextBoundary(after instant: Int64, every period: Int64) -> Int64 {
        // Past a hundred million years (a damaged database) one day is as good as the next.
        guard (-Int64(WallClock.limit)...Int64(WallClock.limit)).contains(instant) else { return instant == .max ? .max : instant + 1 }
        func offset(_ seconds: Int64) -> Int64 { Int64(self.offset(at: Date(timeIntervalSince1970: TimeInterval(seconds)))) }
        let local = instant + offset(instant)
        let boundary = local - ((local % period) + period) % period + period
        let sameOffset = boundary - offset(instant)
        return max(instant + 1, min(sameOffset, boundary - offset(sameOffset)))
    }
}
