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
        Int(instant.timeIntervalSince1970.rounded(.down)) + offset(at: instant)
    }

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

    /// ISO 8601 with the local offset, e.g. `2026-11-29T10:53:00+01:00`. Asks the zone once
    /// and appends to one string: `list --json` writes three of these for every todo.
    public func iso8601(_ instant: Date) -> String {
        let offset = offset(at: instant)
        let seconds = Int(instant.timeIntervalSince1970.rounded(.down)) + offset
        let time = ((seconds % 86_400) + 86_400) % 86_400
        var text = day(atLocalSeconds: seconds).description
        text.reserveCapacity(25)
        text += "T"
        for (index, value) in [time / 3600, time / 60 % 60, time % 60, abs(offset) / 3600, abs(offset) / 60 % 60].enumerated() {
            if index > 0 { text += index == 3 ? (offset < 0 ? "-" : "+") : ":" }
            if value < 10 { text += "0" }
            text += String(value)
        }
        return text
    }
}

func pad(_ value: Int) -> String {
    value < 10 ? "0\(value)" : "\(value)"
}
