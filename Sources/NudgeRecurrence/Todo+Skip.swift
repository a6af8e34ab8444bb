import Foundation
import NudgeCore

/// Occurrences of a repeating todo taken out of its series (`nudge skip`): each becomes an
/// exception (RFC 5545's EXDATE), and when the todo's own due is one of them, the todo moves to
/// the first due left after them.
public struct Skip: Sendable {
    /// The dues taken out, in order.
    public var skipped: [Due]
    /// The todo afterwards: the skipped dates among its exceptions, and its new due.
    public var todo: Todo

    /// At most this many occurrences at once: a year of a daily series.
    public static let largestCount = 366
}

/// Why occurrences cannot be skipped; nothing was changed.
public enum SkipError: Error, Equatable, Sendable {
    case notRepeating
    case noDue
    case completed
    /// A series that repeats from its completion has no dates fixed in advance to skip.
    case repeatsFromCompletion
    /// The date named lies before the todo's due, or has passed.
    case beforeDue(Due)
    case passed
    /// No occurrence at the date named; `next` are the next dues, to choose from.
    case notAnOccurrence(next: [Due], alreadySkipped: Bool)
    /// The day named has several occurrences; one must be named with its time.
    case severalOnDay([Due])
    /// The series has only `remaining` dues from the one named, or would be left without a due.
    case pastTheEnd(remaining: [Due])

    /// One line for the user, about todo `id`, with dues written by `show`.
    public func message(todoID id: Int64, showing show: (Due) -> String) -> String {
        switch self {
        case .notRepeating:
            "todo \(id) does not repeat, so it has no occurrence to skip; to move its due: nudge postpone \(id) DURATION"
        case .noDue:
            "todo \(id) has no due date, so it has no occurrence to skip; set one with: nudge edit \(id) --due WHEN"
        case .completed:
            "todo \(id) is done, so it has no occurrence to skip; 'nudge undo \(id)' opens it again"
        case .repeatsFromCompletion:
            "todo \(id) repeats from its completion, so its next dates are not fixed to skip; to move its due: nudge postpone \(id) DURATION"
        case .beforeDue(let due):
            "--on names a time before todo \(id)'s due, \(show(due)); skip a due from then on (nudge explain \(id) lists them)"
        case .passed:
            "--on names a time that has passed; skip a due still ahead (nudge explain \(id) lists them)"
        case .notAnOccurrence(let next, let alreadySkipped):
            alreadySkipped ? "todo \(id)'s due then is already skipped ('nudge show \(id)' lists the skipped ones)"
                : "todo \(id) is not due then; " + (next.isEmpty ? "its series has ended" : "its next dues are " + next.map(show).joined(separator: ", "))
        case .severalOnDay(let dues):
            "todo \(id) is due \(dues.count) times that day (" + dues.map(show).joined(separator: ", ") + "); give --on its time of day too"
        case .pastTheEnd(let remaining) where remaining.count <= 1:
            "todo \(id)'s series ends " + (remaining.first.map { "with \(show($0))" } ?? "there")
                + ", so skipping it would leave no due; to end the series: nudge done \(id), or nudge delete \(id)"
        case .pastTheEnd(let remaining):
            "todo \(id)'s series has only \(remaining.count) dues left from there (" + remaining.map(show).joined(separator: ", ")
                + "); skip fewer, or end it with: nudge done \(id)"
        }
    }
}

extension Todo {
    /// Takes `count` occurrences out of this todo's series, from its due on, or from the one
    /// at `on`: a moment names the occurrence at it, a day the one occurrence on that day (in
    /// `localZone`). The occurrences are those `nextDues` previews: each after the one before
    /// and after `now`. The todo's due may have passed, and may itself be skipped; then it
    /// moves to the first due left after the skipped ones, which must exist. Nothing is
    /// skipped unless all `count` are.
    public func skipping(_ count: Int, on target: Due? = nil, now: Date, localZone: TimeZone) throws(SkipError) -> Skip {
        guard let repetition else { throw .notRepeating }
        guard let due else { throw .noDue }
        guard !isCompleted else { throw .completed }
        guard repetition.from == .due else { throw .repeatsFromCompletion }
        guard let series = Series(self, localZone: localZone) else { throw .notRepeating }
        let first = try series.occurrence(named: target, due: due, now: now)
        var skipped = [first]
        while skipped.count < count {
            guard let next = series.occurrence(after: series.later(skipped[skipped.count - 1], than: now)) else {
                throw .pastTheEnd(remaining: skipped)
            }
            skipped.append(next)
        }
        var result = self
        for occurrence in skipped where occurrence != due || series.isOccurrence(due) {
            result.repetition?.exceptions.append(SeriesStart(occurrence, wallTime: repetition.start?.time))
        }
        if first == due {
            guard let moved = series.occurrence(after: series.later(skipped[skipped.count - 1], than: now)) else {
                throw .pastTheEnd(remaining: skipped)
            }
            result.due = moved
            result.dueWallTime = nil
        }
        return Skip(skipped: skipped, todo: result)
    }

    /// The occurrences taken out of this todo's series (EXDATE), in order, each placed as
    /// its due would be: at that wall-clock time in the due's zone, or that day when all-day.
    public func skippedDues(localZone: TimeZone) -> [Due] {
        guard let repetition, let due else { return [] }
        let dues = repetition.exceptions.compactMap { date -> Due? in
            switch (due, date.time) {
            case (.allDay, _): .allDay(date.day)
            case (.at(_, let zone), let time?): .at(date.day.at(hour: time.hour, minute: time.minute, in: .nudge(zone: zone)), zone: zone)
            case (.at, nil): nil
            }
        }
        return Set(dues).sorted { $0.start(in: localZone) < $1.start(in: localZone) }
    }
}

/// A todo's series as `skipping` walks it: its occurrences one after another.
private struct Series {
    let todo: Todo
    let rule: RepeatRule
    let repetition: Repetition
    let start: SeriesStart
    let localZone: TimeZone
    let calendar: Calendar

    init?(_ todo: Todo, localZone: TimeZone) {
        guard let repetition = todo.repetition, let due = todo.due,
              let rule = try? RepeatRule(parsing: "RRULE:" + repetition.rrule) else { return nil }
        self.todo = todo
        self.rule = rule
        self.repetition = repetition
        // Without a stored start the series starts at the due, as `nextDue` takes it then.
        start = repetition.start ?? SeriesStart(due)
        self.localZone = localZone
        calendar = .nudge(zone: localZone)
    }

    func instant(_ due: Due) -> Date { due.start(in: localZone) }

    func day(_ due: Due) -> LocalDate {
        switch due {
        case .at(let instant, _): WallClock(zone: localZone).day(of: instant)
        case .allDay(let day): day
        }
    }

    /// `due`, or `now` when it is later (as a day for an all-day series): where the next
    /// occurrence is looked for after, as `nextDues` does.
    func later(_ due: Due, than now: Date) -> Due {
        switch due {
        case .at(let instant, let zone): .at(max(instant, now), zone: zone)
        case .allDay(let day): .allDay(max(day, WallClock(zone: localZone).day(of: now)))
        }
    }

    /// The first occurrence after `point`: after its instant, or after its day when all-day.
    func occurrence(after point: Due) -> Due? {
        let moment = instant(point)
        return rule.nextDue(after: point, completedAt: moment, from: .due, now: moment, localZone: localZone,
                            seriesStart: start, exceptions: repetition.exceptions, additions: repetition.additions)
    }

    /// Whether `due` is an occurrence of the series (not a due moved off it).
    func isOccurrence(_ due: Due) -> Bool {
        occurrence(after: before(due)) == due
    }

    /// Just before `due`: a second before it, or the day before.
    private func before(_ due: Due) -> Due {
        switch due {
        case .at(let instant, let zone): .at(instant.addingTimeInterval(-1), zone: zone)
        case .allDay(let day): .allDay(day.adding(days: -1))
        }
    }

    /// The occurrence `target` names, or the todo's due without one.
    func occurrence(named target: Due?, due: Due, now: Date) throws(SkipError) -> Due {
        guard let target else { return due }
        let allDay = due.isAllDay
        // A day names the occurrence on it; for an all-day series a moment names its day.
        let named: Due = allDay ? .allDay(day(target)) : target
        if case .at(let moment, _) = named, case .at(let dueInstant, _) = due {
            if moment == dueInstant { return due }
            if moment < dueInstant { throw .beforeDue(due) }
            if moment < now { throw .passed }
            let found = occurrence(after: before(.at(moment, zone: zone(of: due))))
            guard let found, instant(found) == moment else { throw notFound(named, now: now) }
            return found
        }
        let wanted = day(named)
        if wanted < day(due) { throw .beforeDue(due) }
        var onDay = day(due) == wanted ? [due] : []
        if allDay {
            if onDay.isEmpty {
                if wanted < WallClock(zone: localZone).day(of: now) { throw .passed }
                if let found = occurrence(after: .allDay(wanted.adding(days: -1))), found == .allDay(wanted) { onDay.append(found) }
            }
        } else {
            // A timed series' occurrences on that day, from its start (or from now) on.
            var point: Due = later(.at(max(wanted.start(in: calendar).addingTimeInterval(-1), instant(due)), zone: zone(of: due)), than: now)
            while onDay.count <= 24, let next = occurrence(after: point), day(next) == wanted {
                onDay.append(next)
                point = next
            }
            if onDay.isEmpty, wanted < WallClock(zone: localZone).day(of: now) { throw .passed }
        }
        guard let found = onDay.first else { throw notFound(named, now: now) }
        guard onDay.count == 1 else { throw .severalOnDay(onDay) }
        return found
    }

    private func zone(of due: Due) -> TimeZone {
        if case .at(_, let zone) = due { return zone }
        return localZone
    }

    /// The error for a date that names no occurrence: the next dues to choose from, or that it
    /// was skipped before.
    private func notFound(_ named: Due, now: Date) -> SkipError {
        let excepted = todo.skippedDues(localZone: localZone).contains { other in
            switch named {
            case .allDay(let day): day == self.day(other)
            case .at(let moment, _): instant(other) == moment
            }
        }
        return .notAnOccurrence(next: Array(([todo.due].compactMap { $0 } + ((try? todo.nextDues(3, now: now, localZone: localZone)) ?? [])).prefix(4)),
                                alreadySkipped: excepted)
    }
}
