import Foundation
import NudgeCore

/// How a todo repeats: an RFC 5545 RRULE, expanded by libical's icalrecur iterator.
///
/// Occurrences are expanded in wall-clock time: the iterator runs on floating times (no zone),
/// and only then is each occurrence placed in the todo's zone with Foundation. So a todo due
/// daily at 09:00 stays at 09:00 local time across DST changes, and keeps its zone.
public struct RepeatRule: Hashable, Sendable, CustomStringConvertible {
    /// The RRULE value without the "RRULE:" prefix, as libical writes it back
    /// (icalrecurrencetype_as_string), e.g. "FREQ=WEEKLY;INTERVAL=2".
    public let rrule: String

    /// The forms listed in error messages.
    static let acceptedForms = "daily, weekdays, weekly, monthly, yearly, every N days|weeks|months, or an RFC 5545 RRULE:... string"

    static let weekdaysRule = "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"

    /// The rules `--repeat` takes by name, in the order help lists them.
    private static let named: [(name: String, rrule: String)] = [
        ("daily", "FREQ=DAILY"),
        ("weekdays", weekdaysRule),
        ("weekly", "FREQ=WEEKLY"),
        ("monthly", "FREQ=MONTHLY"),
        ("yearly", "FREQ=YEARLY"),
    ]

    /// `daily`, `weekdays`, `weekly`, `monthly`, `yearly`: what a shell offers for `--repeat`.
    public static var namedForms: [String] { named.map(\.name) }

    private static let units: [String: String] = [
        "day": "DAILY", "days": "DAILY",
        "week": "WEEKLY", "weeks": "WEEKLY",
        "month": "MONTHLY", "months": "MONTHLY",
        "year": "YEARLY", "years": "YEARLY",
    ]

    /// Reads a `--repeat` text, ignoring case: `daily`, `weekdays` (Monday to Friday), `weekly`,
    /// `monthly`, `yearly`, `every day|week|month|year`, `every N days|weeks|months|years`, or
    /// `RRULE:` followed by an RFC 5545 recurrence rule that libical can read. COUNT and UNTIL
    /// are accepted; rules repeating more often than daily (FREQ=SECONDLY, MINUTELY, HOURLY) are not.
    public init(parsing text: String) throws(InputError) {
        let trimmed = text.trimmingWhitespace()
        let lowered = trimmed.lowercased()
        let unreadable = InputError("can't read '\(trimmed)' as a repeat rule; use \(RepeatRule.acceptedForms)")
        let value: String
        if let rule = RepeatRule.named.first(where: { $0.name == lowered })?.rrule {
            value = rule
        } else if lowered.hasPrefix("rrule:") {
            value = String(trimmed.dropFirst("rrule:".count)).trimmingWhitespace()
            if value.isEmpty { throw unreadable }
        } else if let rule = RepeatRule.every(lowered) {
            value = rule
        } else {
            throw unreadable
        }
        do {
            rrule = try Recurrence.canonical(value)
        } catch {
            switch error {
            case .unreadable:
                throw unreadable
            case .subDaily(let frequency):
                throw InputError("can't use '\(trimmed)' as a repeat rule: FREQ=\(frequency) repeats within a day, and a todo repeats at most daily; use FREQ=DAILY, WEEKLY, MONTHLY or YEARLY")
            }
        }
    }

    /// "every day", "every week", "every 2 weeks", "every 3 days" -> an RRULE value, else nil.
    private static func every(_ text: String) -> String? {
        let words = text.split(whereSeparator: { $0.isWhitespace })
        guard words.first == "every", (2...3).contains(words.count),
              let frequency = units[String(words[words.count - 1])] else { return nil }
        guard words.count == 3 else {
            // "every week", but not "every weeks".
            return words[1].hasSuffix("s") ? nil : "FREQ=\(frequency)"
        }
        let number = words[1]
        guard number.count <= 4, number.allSatisfy({ $0.isASCII && $0.isNumber }),
              let interval = Int(number), interval >= 1 else { return nil }
        return interval == 1 ? "FREQ=\(frequency)" : "FREQ=\(frequency);INTERVAL=\(interval)"
    }

    private static let names = Dictionary(uniqueKeysWithValues: named.map { ($0.rrule, $0.name) })

    private static let unitNames = ["DAILY": "days", "WEEKLY": "weeks", "MONTHLY": "months", "YEARLY": "years"]

    /// "daily", "weekdays", "weekly", "monthly", "yearly", "every 2 weeks", else "RRULE:...".
    /// Every description parses back to the same rule.
    public var description: String {
        if let name = RepeatRule.names[rrule] { return name }
        let parts = rrule.split(separator: ";")
        if parts.count == 2, parts[0].hasPrefix("FREQ="), parts[1].hasPrefix("INTERVAL="),
           let unit = RepeatRule.unitNames[String(parts[0].dropFirst("FREQ=".count))],
           let interval = Int(parts[1].dropFirst("INTERVAL=".count)) {
            return "every \(interval) \(unit)"
        }
        return "RRULE:" + rrule
    }

    /// The next due of a repeating todo being completed, or nil when the series has ended
    /// (COUNT used up, UNTIL passed), the rule never matches, or nothing was found within
    /// `Recurrence.maximumSteps` occurrences.
    ///
    /// The rule is expanded by libical in wall-clock time, from a DTSTART that depends on `from`:
    /// - `.due`: DTSTART is the current due. The result is the first occurrence strictly after
    ///   the current due and strictly after `now`, so a todo that is overdue by three days and
    ///   repeats daily moves to its next future occurrence instead of working through a backlog.
    /// - `.completion`: DTSTART is the day of `completedAt` at the current due's time of day
    ///   (all-day: the day of `completedAt`). The result is the first occurrence strictly after
    ///   that DTSTART: "every 3 days" due at 09:00 and completed on Dec 1 at 15:00 is next due
    ///   on Dec 4 at 09:00.
    ///
    /// For `.at(instant, zone)` the wall-clock time is read in `zone`, and each occurrence is
    /// placed back in `zone` with `LocalDate.at(hour:minute:in:)`: a time that falls into a DST
    /// gap moves forward by the gap (RFC 5545: 02:30 becomes 03:30), a time that happens twice
    /// is the first of the two. Seconds are dropped. The result keeps `zone`.
    /// Without `seriesStart` the wall-clock time is read from the current due, so after a gap
    /// moved 02:30 to 03:30, the following occurrences would be at 03:30.
    ///
    /// For `.allDay(day)` the rule is expanded on DATE values and the result is `.allDay`;
    /// "today" and the day of `completedAt` are taken in `localZone`.
    ///
    /// An UNTIL in UTC ("...Z") is the instant it names (RFC 5545): an occurrence placed in
    /// `zone` after it ends the series. A floating UNTIL is compared in wall-clock time, and
    /// for an all-day todo UNTIL counts by its date, as libical compares them.
    ///
    /// `seriesStart`, when given, is the series' DTSTART: with `.due` the occurrences follow it
    /// instead of the current due (so a 02:30 moved to 03:30 by a DST gap is back at 02:30 the
    /// next day, and COUNT counts from the first occurrence); with `.completion` its time of
    /// day is used.
    public func nextDue(after current: Due, completedAt: Date, from: RepeatFrom, now: Date, localZone: TimeZone,
                        seriesStart: SeriesStart? = nil) -> Due? {
        switch current {
        case .allDay(let day):
            let local = WallClock(zone: localZone)
            let start = from == .due ? (seriesStart?.day ?? day) : local.day(of: completedAt)
            let floor = from == .due ? max(day, local.day(of: now)) : start
            let next = Recurrence.first(in: rrule, start: .date(start)) { occurrence in
                occurrence.day > floor ? .found(occurrence.day) : .next
            }
            return next.map(Due.allDay)

        case .at(let instant, let zone):
            let clock = WallClock(zone: zone)
            let calendar = Calendar.nudge(zone: zone)
            let current = clock.time(of: instant)
            let time: (hour: Int, minute: Int) = seriesStart?.time.map { ($0.hour, $0.minute) } ?? (current.hour, current.minute)
            let startDay = from == .due ? (seriesStart?.day ?? clock.day(of: instant)) : clock.day(of: completedAt)
            let start = FloatingTime(day: startDay, hour: time.hour, minute: time.minute)
            let until = Recurrence.utcUntil(of: rrule)
            let place = { (occurrence: FloatingTime) -> Date in
                occurrence.day.at(hour: occurrence.hour, minute: occurrence.minute, in: calendar)
            }
            let next: Date?
            switch from {
            case .due:
                let floor = max(instant, now)
                if let until, until <= floor { return nil }
                // Occurrences on days well before `floor`'s day cannot be after it; skip them
                // without asking the calendar.
                let earliestDay = clock.day(of: floor).adding(days: -2)
                next = Recurrence.first(in: rrule, start: start, ignoringUntil: until != nil) { occurrence in
                    guard occurrence.day >= earliestDay else { return .next }
                    let candidate = place(occurrence)
                    if let until, candidate > until { return .end }
                    return candidate > floor ? .found(candidate) : .next
                }
            case .completion:
                next = Recurrence.first(in: rrule, start: start, ignoringUntil: until != nil) { occurrence in
                    guard occurrence > start else { return .next }
                    let candidate = place(occurrence)
                    if let until, candidate > until { return .end }
                    return .found(candidate)
                }
            }
            return next.map { .at($0, zone: zone) }
        }
    }
}
