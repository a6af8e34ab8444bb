import Foundation
import NudgeCore
import NudgePlatform

extension Todo {
    /// The next occurrence of this repeating todo when completed at `completedAt`, or nil when it
    /// does not repeat or its series has ended. `localZone` decides the days of all-day todos.
    /// Throws when libical cannot be opened, so that the series is not taken as ended.
    public func nextOccurrence(completedAt: Date, localZone: TimeZone) throws(LibraryLoadError) -> Due? {
        guard let repetition, let due else { return nil }
        try LibICalLibrary.open()
        guard let rule = try? RepeatRule(parsing: "RRULE:" + repetition.rrule) else { return nil }
        return rule.nextDue(after: due, completedAt: completedAt, from: repetition.from, now: completedAt,
                            localZone: localZone, seriesStart: repetition.start,
                            exceptions: repetition.exceptions, additions: repetition.additions)
    }
}

extension Todo {
    /// The next `count` dues of this repeating todo, each as if the one before were done when
    /// due (an overdue one: done at `now`). Fewer when the series ends; empty when it does not
    /// repeat. `localZone` decides the days of all-day todos. Throws when libical cannot be opened.
    public func nextDues(_ count: Int, now: Date, localZone: TimeZone) throws(LibraryLoadError) -> [Due] {
        guard let repetition, var due else { return [] }
        try LibICalLibrary.open()
        guard let rule = try? RepeatRule(parsing: "RRULE:" + repetition.rrule) else { return [] }
        var result: [Due] = []
        while result.count < count {
            let done = max(due.start(in: localZone), now)
            guard let next = rule.nextDue(after: due, completedAt: done, from: repetition.from, now: done,
                                          localZone: localZone, seriesStart: repetition.start,
                                          exceptions: repetition.exceptions, additions: repetition.additions) else { break }
            result.append(next)
            due = next
        }
        return result
    }
}

extension RepeatRule {
    /// The due of a new repeating todo given none: the rule's first occurrence from `now` on,
    /// read in `zone`, and the series start it makes (the occurrence itself).
    /// - A day-based rule with `time` ("every weekday at 9") gives the first occurrence at that
    ///   time after `now`; without `time` it is all-day, today or later. The series may start on
    ///   any of the next seven days, so "every 2 weeks on fri" is due on the coming Friday
    ///   (started today, RFC 5545 would skip to the Friday of the week after next).
    /// - An hourly rule starts at the next whole hour, or with BYHOUR at its first hour today
    ///   (so "every 2h between 09:00-18:00" keeps 09:00, 11:00, ...), and gives the first
    ///   occurrence after `now`.
    /// Nil when the rule has no such occurrence (COUNT or UNTIL, or it never matches), or none
    /// within `Recurrence.horizonDays`.
    public func firstDue(now: Date, zone: TimeZone, time: TimeOfDay?) -> (due: Due, start: SeriesStart)? {
        let clock = WallClock(zone: zone)
        let today = clock.day(of: now)
        if isHourly {
            let hour = firstHour ?? clock.time(of: now).hour + 1
            guard case .found(let first) = firstTimed(from: FloatingTime(day: today.adding(days: hour / 24), hour: hour % 24), now: now, zone: zone),
                  first.due.isWithinYears else { return nil }
            return first
        }
        if let time {
            var found: [(due: Due, start: SeriesStart)] = []
            starts: for offset in 0..<7 {
                // A rule with nothing within the horizon from one day has nothing from the next.
                switch firstTimed(from: FloatingTime(day: today.adding(days: offset), hour: time.hour, minute: time.minute), now: now, zone: zone) {
                case .found(let first): found.append(first)
                case .ended: continue
                case .beyondHorizon: break starts
                }
            }
            return found.filter { $0.due.isWithinYears }.min { $0.start.day < $1.start.day }
        }
        var days: [LocalDate] = []
        starts: for offset in 0..<7 {
            let search = Recurrence.search(rrule, start: .date(today.adding(days: offset))) { occurrence in
                occurrence.day >= today ? .found(occurrence.day) : .next
            }
            switch search {
            case .found(let day): days.append(day)
            case .ended: continue
            case .beyondHorizon: break starts
            }
        }
        return days.min().map { (.allDay($0), SeriesStart(day: $0, time: nil)) }
    }

    private func firstTimed(from start: FloatingTime, now: Date, zone: TimeZone) -> Recurrence.Search<(due: Due, start: SeriesStart)> {
        let calendar = Calendar.nudge(zone: zone)
        let until = Recurrence.utcUntil(of: rrule)
        let search = Recurrence.search(rrule, start: start, ignoringUntil: until != nil) { occurrence -> Recurrence.Step<(Date, FloatingTime)> in
            let instant = occurrence.day.at(hour: occurrence.hour, minute: occurrence.minute, in: calendar)
            if let until, instant > until { return .end }
            return instant > now ? .found((instant, occurrence)) : .next
        }
        switch search {
        case .found(let (instant, occurrence)):
            return .found((.at(instant, zone: zone), SeriesStart(day: occurrence.day, time: TimeOfDay(hour: occurrence.hour, minute: occurrence.minute))))
        case .ended: return .ended
        case .beyondHorizon: return .beyondHorizon
        }
    }

    /// The smallest BYHOUR of the rule, if it has one.
    private var firstHour: Int? {
        guard let part = rrule.split(separator: ";").first(where: { $0.hasPrefix("BYHOUR=") }) else { return nil }
        return part.dropFirst("BYHOUR=".count).split(separator: ",").compactMap { Int($0) }.min()
    }
}
