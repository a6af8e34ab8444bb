import Foundation

/// Works out when each todo reminds, from the config's rules, the todo's own reminders, its
/// snooze, and quiet hours. Pure: the store keeps the results indexed, so that "what fires
/// next?" never needs to look at every todo.
public struct ReminderPlanner: Sendable {
    public let config: NudgeConfig
    /// The calendar whose zone places all-day reminders, quiet hours and the digest.
    public let calendar: Calendar
    let clock: WallClock

    public init(config: NudgeConfig, zone: TimeZone) {
        self.config = config
        self.calendar = .nudge(zone: zone)
        self.clock = WallClock(zone: zone)
    }

    /// Changes whenever a change of config or zone would move reminders: stored next to the
    /// planned reminders, so they are planned again when it differs.
    public var fingerprint: String {
        calendar.timeZone.identifier + "|" + config.canonicalText
    }

    /// Whether the reminders planned under `fingerprint` are the ones this planner makes: the
    /// same rules, in this zone or one of the same offsets under another name (`TZ=UTC` and
    /// the `Etc/UTC` of /etc/localtime).
    public func plansAlike(_ fingerprint: String) -> Bool {
        if fingerprint == self.fingerprint { return true }
        guard let bar = fingerprint.firstIndex(of: "|"),
              fingerprint[fingerprint.index(after: bar)...] == config.canonicalText,
              let zone = TimeZone(identifier: String(fingerprint[..<bar])) else { return false }
        return zone.hasSameRules(as: calendar.timeZone)
    }

    /// The reminders still to fire for this todo, in order: every one after `remindedThrough`,
    /// except that only the next nag is included (the one after it is planned when it fires).
    public func pending(_ subject: ReminderSubject) -> [Reminder] {
        pending(subject, hasFired: { _ in false })
    }

    /// `pending(_:)`, where a reminder whose rule says a moment at or before `remindedThrough`,
    /// but which quiet hours hold until after it, is pending only if it has not fired:
    /// `hasFired` answers from the record of firings. It was held, and is still to come, when
    /// the todo changed during the quiet hours; it fired at its moment when the quiet hours (or
    /// the zone that places them) were set after it, and must not come again when they end.
    public func pending(_ subject: ReminderSubject, hasFired: (Reminder) throws -> Bool) rethrows -> [Reminder] {
        let floor = subject.remindedThrough ?? .distantPast
        let sorted = try candidates(subject, nagsAfter: floor)
            .filter { try $0.at > floor && !($0.nominal <= floor && hasFired($0)) }
            .sorted { ($0.at, $0.nominal) < ($1.at, $1.nominal) }
        // Two rules at one moment remind once: the first of them, as sorted. (Not by a
        // Set<Date>: its metadata costs `nudge add` a search of the binary's conformances.)
        var pending: [Reminder] = []
        for reminder in sorted where reminder.at != pending.last?.at { pending.append(reminder) }
        return pending
    }

    /// Every reminder the rules give this todo, ignoring what has fired: for `nudge explain`.
    /// `nags` limits how many nags are listed when nagging has no limit.
    public func all(_ subject: ReminderSubject, nags: Int = 3) -> [Reminder] {
        var unfired = subject
        unfired.remindedThrough = nil
        return candidates(unfired, nagsAfter: .distantPast, nagCount: nags)
            .sorted { ($0.at, $0.nominal) < ($1.at, $1.nominal) }
    }

    /// How far from a todo's anchor (its due time, or `all_day_time` on an all-day due's day)
    /// the rules place its reminders: `before` it at the earliest, `after` it at the latest,
    /// quiet hours' holds included; nil when nags go on without a limit. A reminder of the
    /// todo's own, or a snooze, may be anywhere.
    public var reach: (before: TimeInterval, after: TimeInterval?) {
        let overrides = Array(config.byPriority.values) + Array(config.byCategory.values) + config.byTag.map(\.overrides)
        // A day of the calendar lasts 25 hours at most.
        let length = { (span: TimeSpan) in Double(span.days) * 90_000 + Double(span.seconds) }
        let spans = ([config.reminders.before] + overrides.compactMap(\.before)).joined().map(length)
        let dayBefore = ([config.reminders.allDayDayBefore] + overrides.compactMap(\.allDayDayBefore)).contains(true)
        let before = max(spans.max() ?? 0, dayBefore ? 90_000 : 0, 0)
        // Quiet hours hold a reminder up to a day; a negative span reminds after the anchor.
        let late: TimeInterval = (config.quietHours == nil ? 0 : 90_000) + max(0, -(spans.min() ?? 0))
        let every = ([config.reminders.nagEvery] + overrides.compactMap(\.nagEvery)).compactMap { $0 }.map(length)
        guard let longest = every.max() else { return (before, late) }
        let limits = [config.reminders.nagLimit] + overrides.compactMap(\.nagLimit)
        guard !limits.contains(nil) else { return (before, nil) }
        // An all-day todo's first nag comes on the next day.
        let most = Double(limits.compactMap { $0 }.max() ?? 0)
        return (before, 90_000 + max(0, longest) * max(0, most) + late)
    }

    /// The rules that apply to this todo.
    public func rules(for todo: Todo) -> ReminderRules {
        config.rules(for: todo)
    }

    func candidates(_ subject: ReminderSubject, nagsAfter floor: Date, nagCount: Int = 1) -> [Reminder] {
        let todo = subject.todo
        guard !todo.isCompleted else { return [] }
        let rules = rules(for: todo)
        var found: [(ReminderRule, Date)] = []
        // A due outside the years (from an old database) is shown, but plans nothing.
        let due = todo.due.flatMap { $0.isWithinYears ? $0 : nil }
        let moment = due.map { self.anchor(of: $0, rules: rules) }

        if subject.usesDefaultRules, let due, let moment {
            for span in rules.before {
                found.append((.before(span), subtract(span, from: moment, due: due)))
            }
            if rules.atDue { found.append((due.isAllDay ? .allDay : .due, moment)) }
            if case .allDay(let day) = due, rules.allDayDayBefore {
                found.append((.dayBefore, at(rules.allDayTime, on: day.adding(days: -1))))
            }
        }
        for reminder in subject.custom {
            switch reminder {
            case .at(let date): found.append((.custom(reminder), date))
            case .before(let span):
                if let due, let moment { found.append((.custom(reminder), subtract(span, from: moment, due: due))) }
            }
        }
        if let snoozedUntil = subject.snoozedUntil {
            // A snooze replaces everything before it with one reminder at its end.
            found = found.filter { $0.1 >= snoozedUntil }
            found.append((.snooze, snoozedUntil))
        }
        if subject.usesDefaultRules, let due, let every = rules.nagEvery {
            found += nags(due: due, rules: rules, every: every, snoozedUntil: subject.snoozedUntil,
                          after: floor, count: nagCount)
        }
        // Quiet hours may hold a moment before the year 1 into it (`before = 1h` on a due at
        // 0001-01-01 00:00): its rule's moment is outside the years too, so it is not made.
        return found.compactMap { rule, nominal in
            let at = releaseTime(nominal, priority: todo.priority)
            return clock.isWithinYears(at) && clock.isWithinYears(nominal)
                ? Reminder(todoID: todo.id, rule: rule, nominal: nominal, at: at) : nil
        }
    }

    /// The moment a due's own reminder fires: the due time, or `all_day_time` on an all-day due's day.
    func anchor(of due: Due, rules: ReminderRules) -> Date {
        switch due {
        case .at(let instant, _): instant
        case .allDay(let day): at(rules.allDayTime, on: day)
        }
    }

    func at(_ time: TimeOfDay, on day: LocalDate) -> Date {
        day.at(hour: time.hour, minute: time.minute, in: calendar)
    }

    /// `anchor` moved back by `span`; days go back in the due's own zone, keeping its time of day.
    func subtract(_ span: TimeSpan, from anchor: Date, due: Due) -> Date {
        var zoneCalendar = calendar
        if case .at(_, let zone) = due { zoneCalendar.timeZone = zone }
        return TimeSpan(days: -span.days, seconds: -span.seconds).added(to: anchor, calendar: zoneCalendar)
    }

    /// Nags come every `every` once the todo is overdue (a timed todo at its due time, an
    /// all-day todo on the next day at `all_day_time`, when the first nag fires), or once a
    /// snooze has ended. Returns the first `count` after `after`, within the limit.
    /// The days of `every` are calendar days in the due's zone (see `TimeSpan`), so a daily nag
    /// stays at its wall-clock time across DST changes.
    func nags(due: Due, rules: ReminderRules, every: TimeSpan, snoozedUntil: Date?, after: Date, count: Int) -> [(ReminderRule, Date)] {
        let typicalInterval = TimeInterval(every.days * 86_400 + every.seconds)
        guard typicalInterval > 0 else { return [] }
        var start: Date
        var firstStep: Int
        var zoneCalendar = calendar
        switch due {
        case .at(let instant, let zone):
            start = instant
            firstStep = 1
            zoneCalendar.timeZone = zone
        case .allDay(let day):
            start = at(rules.allDayTime, on: day.adding(days: 1))
            firstStep = 0
        }
        if let snoozedUntil, snoozedUntil > start {
            start = snoozedUntil
            firstStep = 1
        }
        // Each step counted from `start`, not from the step before: a day moved by a DST gap
        // does not move the days after it.
        let nag = { (step: Int) -> Date in
            TimeSpan(days: every.days * step, seconds: every.seconds * step).added(to: start, calendar: zoneCalendar)
        }
        // The first step whose time is after `after`, found by arithmetic, not by stepping; days
        // of 23 or 25 hours may put the guess a step off. An all-day todo's first nag (step 0)
        // is at `start` itself, so `after == start` (that nag has just fired) needs the search too.
        var step = firstStep
        if after >= start {
            step = max(firstStep, Int((after.timeIntervalSince(start) / typicalInterval).rounded(.down)) + 1)
            while step > firstStep, nag(step - 1) > after { step -= 1 }
            while nag(step) <= after { step += 1 }
        }
        var result: [(ReminderRule, Date)] = []
        while result.count < count {
            let number = step - firstStep + 1
            if let limit = rules.nagLimit, number > limit { break }
            result.append((.nag(number), nag(step)))
            step += 1
        }
        return result
    }

    /// `nominal`, or the end of the quiet hours it falls in (high priority may pass through).
    public func releaseTime(_ nominal: Date, priority: Priority) -> Date {
        guard let quiet = config.quietHours, !(quiet.allowHigh && priority == .high) else { return nominal }
        let (hour, minute, _) = clock.time(of: nominal)
        guard let time = TimeOfDay(hour: hour, minute: minute), quiet.contains(time) else { return nominal }
        let day = clock.day(of: nominal)
        let sameDay = quiet.start < quiet.end || minute + hour * 60 < quiet.end.minutes
        return at(quiet.end, on: sameDay ? day : day.adding(days: 1))
    }

    /// The next digest after `after`: daily at the digest time, from the first day on which
    /// something is overdue or due (`earliestDue`: the day of the earliest pending due, if any).
    /// Nil when the digest is off or nothing is due at all.
    public func nextDigest(after: Date, earliestDue: LocalDate?) -> Date? {
        guard config.digest.enabled, let earliestDue else { return nil }
        var day = max(clock.day(of: after), earliestDue)
        var time = at(config.digest.time, on: day)
        if time <= after {
            day = day.adding(days: 1)
            time = at(config.digest.time, on: day)
        }
        return Due.years.contains(day.year) ? time : nil
    }
}

/// How the rules of the plan of record are kept in the database as text (the config file's
/// own form), so that a writer with other rules can plan by them.
public struct PlanRecording: Sendable {
    public var write: @Sendable (NudgeConfig) -> String
    /// Nil for text this version cannot read.
    public var read: @Sendable (String) -> NudgeConfig?

    public init(write: @escaping @Sendable (NudgeConfig) -> String, read: @escaping @Sendable (String) -> NudgeConfig?) {
        self.write = write
        self.read = read
    }
}
