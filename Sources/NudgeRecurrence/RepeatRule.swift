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
    static let acceptedForms = "daily, weekdays, weekly, monthly, yearly, every N days|weeks|months, every 2h [between 09:00-18:00], "
        + "every mon,thu, every 2 weeks on fri, every 2nd tue, last fri of month, every month on the 15th, "
        + "optionally ending in 'at 9' (add, edit), or an RFC 5545 RRULE:... string"

    static let weekdaysRule = "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"

    /// The rules `--repeat` takes by name, in the order help lists them.
    private static let named: [(name: String, rrule: String)] = [
        ("hourly", "FREQ=HOURLY"),
        ("daily", "FREQ=DAILY"),
        ("weekdays", weekdaysRule),
        ("weekly", "FREQ=WEEKLY"),
        ("monthly", "FREQ=MONTHLY"),
        ("yearly", "FREQ=YEARLY"),
    ]

    /// `hourly`, `daily`, `weekdays`, `weekly`, `monthly`, `yearly`: what a shell offers for `--repeat`.
    public static var namedForms: [String] { named.map(\.name) }

    /// Reads a `--repeat` text, ignoring case: `daily`, `weekdays` (Monday to Friday), `weekly`,
    /// `monthly`, `yearly`, `every day|week|month|year`, `every N days|weeks|months|years`, one of
    /// the phrases of `RepeatPhrase` (`every 2h between 09:00-18:00`, `every mon,thu`,
    /// `every 2nd tue`, `last fri of month`, `every month on the 15th`, ...), or `RRULE:`
    /// followed by an RFC 5545 recurrence rule that libical can read. COUNT and UNTIL are
    /// accepted; rules repeating more often than hourly (FREQ=SECONDLY, MINUTELY, or several
    /// BYMINUTE or BYSECOND values) are not, nor numbers above `Recurrence.largestNumber`, an
    /// UNTIL outside the years 0001-9999, or a rule that no day of any year matches.
    /// A trailing `at 9` is read by `RepeatRule.read`, not here.
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
        } else if let rule = RepeatPhrase.rrule(lowered) {
            value = rule
        } else if let problem = RepeatPhrase.windowProblem(lowered) {
            throw InputError("can't read '\(trimmed)' as a repeat rule: \(problem)")
        } else {
            throw unreadable
        }
        do {
            rrule = try Recurrence.canonical(value)
        } catch {
            switch error {
            case .unreadable:
                throw unreadable
            case .subHourly(let frequency):
                throw InputError("can't use '\(trimmed)' as a repeat rule: FREQ=\(frequency) repeats within an hour, and a todo repeats at most hourly; use FREQ=HOURLY (every 2h) or less often")
            case .withinAnHour(let part):
                throw InputError("can't use '\(trimmed)' as a repeat rule: \(part) repeats within an hour, and a todo repeats at most hourly; give one minute, or use FREQ=HOURLY")
            case .tooLarge(let part):
                throw InputError("can't use '\(trimmed)' as a repeat rule: \(part) is too large; numbers in a rule (COUNT, INTERVAL, ...) go up to \(Recurrence.largestNumber)")
            case .badUntil(let part):
                throw InputError("can't use '\(trimmed)' as a repeat rule: \(part) is not a date in the years 0001-9999 (UNTIL=20271231T235959Z or UNTIL=20271231)")
            case .neverOccurs:
                throw InputError("can't use '\(trimmed)' as a repeat rule: it never occurs")
            case .unsupportedPositions(let reason):
                throw InputError("can't use '\(trimmed)' as a repeat rule: \(reason)")
            case .noLibrary(let error):
                throw InputError(error.description)
            }
        }
    }

    /// A `--repeat` text as `add` and `edit` read it: the rule, and the time of day a trailing
    /// `at TIME` gives the due ("every weekday at 9", "every mon,thu at 18:30").
    public struct Reading: Hashable, Sendable {
        public var rule: RepeatRule
        public var time: TimeOfDay?
    }

    /// Reads a `--repeat` text that may end in `at TIME` (9, 09:30, 9am, 6:30pm, noon). An hourly
    /// rule takes no `at`: its minute is the due's.
    public static func read(_ text: String) throws(InputError) -> Reading {
        let lowered = text.trimmingWhitespace().lowercased()
        guard !lowered.hasPrefix("rrule:"), let range = lowered.range(of: " at ", options: .backwards) else {
            return Reading(rule: try RepeatRule(parsing: text), time: nil)
        }
        let timeText = String(lowered[range.upperBound...]).trimmingWhitespace()
        guard let (hour, minute) = RepeatPhrase.timeOfDay(timeText), let time = TimeOfDay(hour: hour, minute: minute) else {
            throw InputError("can't read '\(timeText)' in '\(text.trimmingWhitespace())' as a time of day; write at 9, at 09:30, at 6pm or at noon")
        }
        let rule = try RepeatRule(parsing: String(lowered[..<range.lowerBound]))
        if rule.isHourly {
            throw InputError("'\(text.trimmingWhitespace())' repeats hourly, so 'at' has nothing to set; give the first time with --due, or a window: every 2h between 09:00-18:00")
        }
        return Reading(rule: rule, time: time)
    }

    /// FREQ=HOURLY: an all-day todo cannot repeat by it.
    public var isHourly: Bool { rrule.hasPrefix("FREQ=HOURLY") }

    /// Refuses a rule the due cannot repeat by: an hourly one for an all-day due.
    public func check(for due: Due) throws(InputError) {
        if isHourly, case .allDay = due {
            throw InputError("an all-day todo can't repeat \(description); give the due a time of day (--due \"tomorrow 9am\")")
        }
    }

    private static let names = Dictionary(uniqueKeysWithValues: named.map { ($0.rrule, $0.name) })

    private static let unitNames = ["DAILY": "days", "WEEKLY": "weeks", "MONTHLY": "months", "YEARLY": "years"]

    /// "daily", "weekdays", "every 2 weeks", "every 2h between 09:00-18:00", "every mon,thu",
    /// "every 2nd tue", "every month on the 15th", ..., else "RRULE:...".
    /// Every description parses back to the same rule.
    public var description: String {
        if let name = RepeatRule.names[rrule] { return name }
        let parts = rrule.split(separator: ";")
        if parts.count == 2, parts[0].hasPrefix("FREQ="), parts[1].hasPrefix("INTERVAL="),
           let unit = RepeatRule.unitNames[String(parts[0].dropFirst("FREQ=".count))],
           let interval = Int(parts[1].dropFirst("INTERVAL=".count)) {
            return "every \(interval) \(unit)"
        }
        return RepeatPhrase.describe(rrule) ?? "RRULE:" + rrule
    }

    /// The description and, when it is a phrase, the RRULE it stands for:
    /// "every mon,thu (RRULE:FREQ=WEEKLY;BYDAY=MO,TH)".
    public var shownBack: String {
        let text = description
        return text.hasPrefix("RRULE:") ? text : "\(text) (RRULE:\(rrule))"
    }

    /// The next due of a repeating todo being completed, or nil when the series has ended
    /// (COUNT used up, UNTIL passed, the year 9999 passed), the rule never matches, or nothing
    /// was found within `Recurrence.maximumSteps` occurrences or `Recurrence.horizonDays`.
    ///
    /// The rule is expanded by libical in wall-clock time, from a DTSTART that depends on `from`:
    /// - `.due`: DTSTART is the current due. The result is the first occurrence strictly after
    ///   the current due and strictly after `now`, so a todo that is overdue by three days and
    ///   repeats daily moves to its next future occurrence instead of working through a backlog.
    /// - `.completion`: DTSTART is the day of `completedAt` at the current due's time of day
    ///   (all-day: the day of `completedAt`). The result is the first occurrence strictly after
    ///   that DTSTART: "every 3 days" due at 09:00 and completed on Dec 1 at 15:00 is next due
    ///   on Dec 4 at 09:00.
    /// - Hourly rules step in wall-clock hours like the others step in days: with `.due` a todo
    ///   due 10:00 every 2h and done at 10:05 is next due at 12:00, an overdue one at the next
    ///   step after `now`; with `.completion` DTSTART is the hour of `completedAt` at the due's
    ///   minute. On the night clocks go forward, a step in the skipped hour is placed after the
    ///   gap and a step placed on the same instant as the one before is not a second due; on
    ///   the night they go back, the repeated hour is rung once, at the first.
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
    ///
    /// With `.due`, `exceptions` (RFC 5545's EXDATE) are occurrences that are not dues, and
    /// `additions` (RDATE) dues besides the rule's, as `Repetition` keeps them: wall-clock
    /// times in `zone` (an exception matches the occurrence placed at the same instant), days
    /// for an all-day series. As in RFC 5545, COUNT counts the rule's occurrences before
    /// exceptions are taken out, an exception also takes out an addition, and an addition is
    /// a due after the rule has ended. With `.completion` both are ignored: the series
    /// restarts at each completion, so dates fixed in advance say nothing about it.
    public func nextDue(after current: Due, completedAt: Date, from: RepeatFrom, now: Date, localZone: TimeZone,
                        seriesStart: SeriesStart? = nil, exceptions: [SeriesStart] = [],
                        additions: [SeriesStart] = []) -> Due? {
        // A series reaching past the year 9999 has ended there.
        nextDueAnyYear(after: current, completedAt: completedAt, from: from, now: now, localZone: localZone,
                       seriesStart: seriesStart, exceptions: exceptions, additions: additions)
            .flatMap { $0.isWithinYears ? $0 : nil }
    }

    private func nextDueAnyYear(after current: Due, completedAt: Date, from: RepeatFrom, now: Date, localZone: TimeZone,
                                seriesStart: SeriesStart?, exceptions: [SeriesStart], additions: [SeriesStart]) -> Due? {
        let exceptions = from == .due ? exceptions : []
        let additions = from == .due ? additions : []
        switch current {
        case .allDay(let day):
            // `check(for:)` keeps hourly rules off all-day todos; one imported anyway ends here.
            if isHourly { return nil }
            let local = WallClock(zone: localZone)
            let start = from == .due ? (seriesStart?.day ?? day) : local.day(of: completedAt)
            let floor = from == .due ? max(day, local.day(of: now)) : start
            let excluded = Set(exceptions.map(\.day))
            let next = Recurrence.first(in: rrule, start: .date(start), from: .date(floor)) { occurrence in
                occurrence.day > floor && !excluded.contains(occurrence.day) ? .found(occurrence.day) : .next
            }
            let added = additions.map(\.day).filter { $0 > floor && !excluded.contains($0) }.min()
            return [next, added].compactMap { $0 }.min().map(Due.allDay)

        case .at(let instant, let zone):
            let clock = WallClock(zone: zone)
            let calendar = Calendar.nudge(zone: zone)
            let current = clock.time(of: instant)
            let time: (hour: Int, minute: Int) = seriesStart?.time.map { ($0.hour, $0.minute) } ?? (current.hour, current.minute)
            let startDay = from == .due ? (seriesStart?.day ?? clock.day(of: instant)) : clock.day(of: completedAt)
            var start = FloatingTime(day: startDay, hour: time.hour, minute: time.minute)
            if isHourly, from == .completion {
                // The series restarts in the hour it was done, at the due's minute.
                start.hour = clock.time(of: completedAt).hour
            }
            let until = Recurrence.utcUntil(of: rrule)
            let place = { (occurrence: FloatingTime) -> Date in
                occurrence.day.at(hour: occurrence.hour, minute: occurrence.minute, in: calendar)
            }
            let next: Date?
            switch from {
            case .due:
                let floor = max(instant, now)
                let placedDates = { (dates: [SeriesStart]) -> [Date] in
                    dates.compactMap { date in date.time.map { date.day.at(hour: $0.hour, minute: $0.minute, in: calendar) } }
                }
                let excluded = Set(placedDates(exceptions))
                let added = placedDates(additions).filter { $0 > floor && !excluded.contains($0) }.min()
                if let until, until <= floor { return added.map { .at($0, zone: zone) } }
                // Occurrences on days well before `floor`'s day cannot be after it; skip them
                // without asking the calendar.
                let earliestDay = clock.day(of: floor).adding(days: -2)
                if isHourly { start = hourlyStart(start, near: FloatingTime(day: earliestDay)) }
                let ruled = Recurrence.first(in: rrule, start: start, from: FloatingTime(day: earliestDay),
                                             ignoringUntil: until != nil) { occurrence -> Recurrence.Step<Date> in
                    guard occurrence.day >= earliestDay else { return .next }
                    let candidate = place(occurrence)
                    if let until, candidate > until { return .end }
                    return candidate > floor && !excluded.contains(candidate) ? .found(candidate) : .next
                }
                next = [ruled, added].compactMap { $0 }.min()
            case .completion:
                // Dues are whole minutes: an occurrence in the start's minute (BYSECOND) is the start.
                let started = place(start)
                next = Recurrence.first(in: rrule, start: start, ignoringUntil: until != nil) { occurrence in
                    let candidate = place(occurrence)
                    guard occurrence > start, candidate > started else { return .next }
                    if let until, candidate > until { return .end }
                    return .found(candidate)
                }
            }
            return next.map { .at($0, zone: zone) }
        }
    }

    /// An hourly series' DTSTART moved forward by whole intervals to the last step at or before
    /// `limit`, so that a series started months ago does not use up `Recurrence.maximumSteps`
    /// before it reaches now. The occurrences after `limit` stay the same: the iterator steps by
    /// INTERVAL floating hours from DTSTART. Not with COUNT, which counts from the first one.
    private func hourlyStart(_ start: FloatingTime, near limit: FloatingTime) -> FloatingTime {
        var interval = 1
        for part in rrule.split(separator: ";") {
            if part.hasPrefix("COUNT=") { return start }
            if part.hasPrefix("INTERVAL="), let value = Int(part.dropFirst("INTERVAL=".count)) { interval = value }
        }
        let hours = start.day.days(until: limit.day) * 24 + limit.hour - start.hour
        let steps = hours / interval
        guard steps > 0 else { return start }
        let hour = start.hour + steps * interval
        var moved = start
        moved.day = start.day.adding(days: hour / 24)
        moved.hour = hour % 24
        return moved
    }
}
