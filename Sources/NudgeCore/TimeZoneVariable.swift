import Foundation

/// The zone the TZ environment variable names, in the forms tzset(3) reads, so that nudge
/// shows the times `date` shows. Foundation's own reading of TZ takes `:Europe/Berlin` and
/// `/usr/share/zoneinfo/Europe/Berlin` for UTC, and `UTC+3` for three hours east, where
/// POSIX counts west.
public enum TimeZoneVariable {
    /// Nil when TZ is unset or empty: the system's zone (/etc/localtime) applies.
    public static func zone(_ value: String?) throws(InputError) -> TimeZone? {
        guard let value, !value.isEmpty else { return nil }
        var name = value
        if name.hasPrefix(":") { name.removeFirst() }
        if name.hasPrefix("/") {
            // A zone file: Foundation knows zones by name, the path below zoneinfo/.
            guard let folder = name.range(of: "/zoneinfo/", options: .backwards) else { throw unknown(value) }
            name = String(name[folder.upperBound...])
            for variant in ["posix/", "right/"] where name.hasPrefix(variant) { name.removeFirst(variant.count) }
        }
        if let offset = fixedOffset(name) { return TimeZone(secondsFromGMT: offset) }
        guard !name.contains(","), let zone = TimeZone(identifier: name) else { throw unknown(value) }
        return zone
    }

    /// The seconds east of UTC of a POSIX zone without daylight saving time: a name of three
    /// letters or more (or `<+0530>`), then hours[:minutes[:seconds]] west of UTC.
    static func fixedOffset(_ text: String) -> Int? {
        var rest = Substring(text)
        if rest.hasPrefix("<") {
            guard let end = rest.firstIndex(of: ">") else { return nil }
            guard rest.distance(from: rest.startIndex, to: end) > 3 else { return nil }
            rest = rest[rest.index(after: end)...]
        } else {
            let letters = rest.prefix { $0.isASCII && $0.isLetter }
            guard letters.count >= 3 else { return nil }
            rest = rest.dropFirst(letters.count)
        }
        var sign = 1
        if let first = rest.first, first == "+" || first == "-" {
            sign = first == "-" ? -1 : 1
            rest = rest.dropFirst()
        }
        let parts = rest.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count),
              parts.allSatisfy({ (1...2).contains($0.count) && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }) else { return nil }
        let numbers = parts.compactMap { Int($0) }
        guard numbers[0] <= 24, numbers.dropFirst().allSatisfy({ $0 < 60 }) else { return nil }
        let west = zip(numbers, [3600, 60, 1]).map { $0 * $1 }.reduce(0, +)
        return -sign * west
    }

    static func unknown(_ value: String) -> InputError {
        InputError("TZ is '\(value)', which names no time zone nudge can follow; set it to a name from /usr/share/zoneinfo (TZ=Europe/Berlin), or unset it to use /etc/localtime")
    }
}
