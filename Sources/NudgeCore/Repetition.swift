import Foundation

/// Where the next occurrence of a repeating todo is counted from.
public enum RepeatFrom: String, CaseIterable, Hashable, Sendable {
    /// The series keeps its rhythm: the next due follows the current due (and lies in the future).
    case due
    /// The series restarts on the day the todo was completed, at the current due's time of day.
    case completion
}

/// How a todo repeats: an RFC 5545 RRULE value (expanded by NudgeRecurrence), where the next
/// occurrence counts from, and where the series started.
public struct Repetition: Hashable, Sendable {
    /// Without the "RRULE:" prefix, e.g. "FREQ=WEEKLY;INTERVAL=2".
    public var rrule: String
    public var from: RepeatFrom
    /// The wall-clock start of the series (RFC 5545's DTSTART): occurrences follow it, not the
    /// current due, so an occurrence moved by a DST gap does not move the ones after it, and
    /// COUNT counts from the first.
    public var start: SeriesStart?
    /// RFC 5545's EXDATE: occurrences of the rule that are not dues, as wall-clock times in the
    /// due's zone (days for an all-day series). Used when the series repeats from its due.
    public var exceptions: [SeriesStart]
    /// RFC 5545's RDATE: dues besides the rule's, which neither COUNT nor UNTIL limit.
    /// Used when the series repeats from its due.
    public var additions: [SeriesStart]

    public init(rrule: String, from: RepeatFrom, start: SeriesStart? = nil,
                exceptions: [SeriesStart] = [], additions: [SeriesStart] = []) {
        self.rrule = rrule
        self.from = from
        self.start = start
        self.exceptions = exceptions
        self.additions = additions
    }

    /// The exceptions and additions as one line of text, each a `SeriesStart` marked `-`
    /// (EXDATE) or `+` (RDATE): `-2026-12-11T09:00 +2026-12-20T09:00`; nil when there are none.
    /// How the store keeps them.
    public var datesText: String? {
        let words = exceptions.map { "-\($0)" } + additions.map { "+\($0)" }
        return words.isEmpty ? nil : words.joined(separator: " ")
    }

    /// Reads `datesText` back; words it cannot read are left out.
    public mutating func readDates(_ text: String) {
        for word in text.split(separator: " ") {
            guard let date = SeriesStart(parsing: String(word.dropFirst())) else { continue }
            switch word.first {
            case "-": exceptions.append(date)
            case "+": additions.append(date)
            default: continue
            }
        }
    }
}

/// A day, with a wall-clock time unless the series is all-day: `2027-03-28T02:30` or `2027-03-28`.
public struct SeriesStart: Hashable, Sendable, CustomStringConvertible {
    public var day: LocalDate
    public var time: TimeOfDay?

    public init(day: LocalDate, time: TimeOfDay?) {
        self.day = day
        self.time = time
    }

    /// The start of a series whose first occurrence is `due`, read in the due's own zone.
    /// When `wallTime` on the due's day is the due, the series keeps `wallTime`: the due may be
    /// a time that a DST gap moved (03:30 for 02:30), and the other days have 02:30.
    public init(_ due: Due, wallTime: TimeOfDay? = nil) {
        switch due {
        case .allDay(let day):
            self.init(day: day, time: nil)
        case .at(let instant, let zone):
            let clock = WallClock(zone: zone)
            let day = clock.day(of: instant)
            if let wallTime, SeriesStart.place(wallTime, on: day, in: zone) == instant {
                self.init(day: day, time: wallTime)
            } else {
                let (hour, minute, _) = clock.time(of: instant)
                self.init(day: day, time: TimeOfDay(hour: hour, minute: minute))
            }
        }
    }

    /// `time` on `day` in `zone`, as occurrences are placed (see `LocalDate.at`).
    static func place(_ time: TimeOfDay, on day: LocalDate, in zone: TimeZone) -> Date {
        day.at(hour: time.hour, minute: time.minute, in: .nudge(zone: zone))
    }

    public init?(parsing text: String) {
        let parts = text.split(separator: "T", maxSplits: 1)
        guard let day = parts.first.flatMap({ LocalDate(iso: $0) }) else { return nil }
        if parts.count == 2 {
            guard let time = TimeOfDay(parsing: parts[1]) else { return nil }
            self.init(day: day, time: time)
        } else {
            self.init(day: day, time: nil)
        }
    }

    public var description: String {
        time.map { "\(day)T\($0)" } ?? day.description
    }
}
