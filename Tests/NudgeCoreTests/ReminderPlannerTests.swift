import Foundation
import Testing
@testable import NudgeTestSupport
@testable import NudgeCore

struct ReminderPlannerTests {
    let berlin = TimeZone(identifier: "Europe/Berlin")!

    func date(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int = 0, in zone: TimeZone? = nil) -> Date {
        Calendar.nudge(zone: zone ?? berlin).date(from: DateComponents(year: y, month: mo, day: d, hour: h, minute: mi))!
    }

    func todo(_ due: Due?, priority: Priority = .medium, category: String? = nil, tags: [String] = [], done: Bool = false) -> Todo {
        Todo(id: 7, title: "t", due: due, priority: priority,
             category: category.map { Category(id: 1, name: $0) }, tags: tags,
             completedAt: done ? date(2026, 11, 29, 12) : nil,
             createdAt: date(2026, 11, 1, 8), updatedAt: date(2026, 11, 1, 8))
    }

    func planner(_ edit: (inout NudgeConfig) -> Void = { _ in }, zone: TimeZone? = nil) -> ReminderPlanner {
        var config = NudgeConfig()
        edit(&config)
        return ReminderPlanner(config: config, zone: zone ?? berlin)
    }

    func describe(_ reminders: [Reminder], zone: TimeZone? = nil) -> [String] {
        let clock = WallClock(zone: zone ?? berlin)
        return reminders.map { "\($0.rule) \(clock.iso8601($0.at).prefix(16))" }
    }

    @Test func defaultRulesRemindBeforeAtAndAfterTheDue() {
        let due = Due.at(date(2026, 12, 1, 9), zone: berlin)
        let reminders = planner().all(ReminderSubject(todo: todo(due)))
        #expect(describe(reminders) == [
            "before 10m 2026-12-01T08:50", "due 2026-12-01T09:00",
            "nag 1 2026-12-01T10:00", "nag 2 2026-12-01T11:00", "nag 3 2026-12-01T12:00",
        ])
    }

    @Test func pendingLeavesOutWhatFiredAndListsOnlyTheNextNag() {
        let subject = ReminderSubject(todo: todo(.at(date(2026, 12, 1, 9), zone: berlin)),
                                      reminderState: .init(remindedThrough: date(2026, 12, 1, 9)))
        #expect(describe(planner().pending(subject)) == ["nag 1 2026-12-01T10:00"])
        var later = subject
        later.remindedThrough = date(2026, 12, 1, 11, 30)
        #expect(describe(planner().pending(later)) == ["nag 3 2026-12-01T12:00"])
        later.remindedThrough = date(2026, 12, 1, 12)
        #expect(planner().pending(later).isEmpty)
    }

    @Test func completedAndUndatedTodosHaveNoRuleReminders() {
        #expect(planner().pending(ReminderSubject(todo: todo(.at(date(2026, 12, 1, 9), zone: berlin), done: true))).isEmpty)
        #expect(planner().pending(ReminderSubject(todo: todo(nil))).isEmpty)
        let custom = ReminderSubject(todo: todo(nil), reminderState: .init(custom: [.at(date(2026, 12, 2, 15))]))
        #expect(describe(planner().pending(custom)) == ["remind 2026-12-02T14:00Z 2026-12-02T15:00"])
    }

    @Test func priorityAndCategorySectionsOverrideTheGlobalRules() {
        let plan = planner {
            $0.byPriority[.high] = RuleOverrides(before: [TimeSpan(days: 1), TimeSpan(seconds: 3600)])
            $0.byCategory["work"] = RuleOverrides(atDue: false, nagEvery: .some(nil))
        }
        let due = Due.at(date(2026, 12, 1, 9), zone: berlin)
        #expect(describe(plan.all(ReminderSubject(todo: todo(due, priority: .high, category: "Work")))) == [
            "before 1d 2026-11-30T09:00", "before 1h 2026-12-01T08:00",
        ])
    }

    @Test func tagSectionsOverrideTheCategoryPriorityAndGlobalRules() {
        let plan = planner {
            $0.byPriority[.high] = RuleOverrides(before: [TimeSpan(days: 1)], nagLimit: .some(1))
            $0.byCategory["work"] = RuleOverrides(atDue: false, before: [TimeSpan(seconds: 7200)])
            $0.byTag = [TagRules("café", overrides: RuleOverrides(before: [TimeSpan(seconds: 1800)]))]
        }
        let due = Due.at(date(2026, 12, 1, 9), zone: berlin)
        // Matched by the folded tag; what the tag does not set comes from the category, then the priority.
        #expect(describe(plan.all(ReminderSubject(todo: todo(due, priority: .high, category: "work", tags: ["home", "CAFE\u{301}"])))) == [
            "before 30m 2026-12-01T08:30", "nag 1 2026-12-01T10:00",
        ])
        #expect(describe(plan.all(ReminderSubject(todo: todo(due, priority: .high, category: "work", tags: ["home"])))) == [
            "before 2h 2026-12-01T07:00", "nag 1 2026-12-01T10:00",
        ])
    }

    @Test func ofTwoTagsSettingAKeyTheSectionNearerTheTopOfTheFileWins() {
        let plan = planner {
            $0.reminders.nagEvery = nil
            $0.byTag = [TagRules("money", overrides: RuleOverrides(before: [TimeSpan(days: 1)])),
                        TagRules("phone", overrides: RuleOverrides(atDue: false, before: [TimeSpan(seconds: 300)]))]
        }
        let due = Due.at(date(2026, 12, 1, 9), zone: berlin)
        for tags in [["money", "phone"], ["Phone", "Money"]] {
            #expect(describe(plan.all(ReminderSubject(todo: todo(due, tags: tags)))) == ["before 1d 2026-11-30T09:00"], "\(tags)")
        }
        #expect(plan.config.sections(priority: .medium, category: nil, tags: ["phone", "money"]).map(\.name) == ["[tag.phone]", "[tag.money]"])
    }

    @Test func aTagSectionsBeforeWidensTheReach() {
        let plan = planner {
            $0.byTag = [TagRules("money", overrides: RuleOverrides(before: [TimeSpan(days: 3)]))]
        }
        #expect(plan.reach.before >= 3 * 86_400)
        #expect(plan.fingerprint != planner().fingerprint)
    }

    @Test func customRemindersOnlyWithNoDefaultRules() {
        let due = Due.at(date(2026, 12, 1, 9), zone: berlin)
        let subject = ReminderSubject(todo: todo(due),
                                      reminderState: .init(custom: [.before(TimeSpan(seconds: 7200))], usesDefaultRules: false))
        #expect(describe(planner().all(subject)) == ["remind 2h 2026-12-01T07:00"])
    }

    @Test func allDayTodosRemindAtTheirTimeAndOptionallyTheDayBefore() {
        let plan = planner {
            $0.reminders.allDayDayBefore = true
            $0.reminders.allDayTime = TimeOfDay(hour: 8, minute: 30)!
            $0.reminders.before = []
        }
        let subject = ReminderSubject(todo: todo(.allDay(LocalDate(year: 2026, month: 12, day: 24)!)))
        #expect(describe(plan.all(subject)) == [
            "day-before 2026-12-23T08:30", "all-day 2026-12-24T08:30",
            "nag 1 2026-12-25T08:30", "nag 2 2026-12-25T09:30", "nag 3 2026-12-25T10:30",
        ])
    }

    @Test func snoozeReplacesEarlierRemindersWithOneAtItsEnd() {
        let due = Due.at(date(2026, 12, 1, 9), zone: berlin)
        let subject = ReminderSubject(todo: todo(due), reminderState: .init(snoozedUntil: date(2026, 12, 1, 10, 30),
                                                                 remindedThrough: date(2026, 12, 1, 9, 5)))
        #expect(describe(planner().pending(subject)) == ["snooze 2026-12-01T10:30", "nag 1 2026-12-01T11:30"])
        // Before the due, a snooze keeps the reminders after its end.
        let early = ReminderSubject(todo: todo(due), reminderState: .init(snoozedUntil: date(2026, 12, 1, 8, 55),
                                                               remindedThrough: date(2026, 12, 1, 8, 50)))
        #expect(describe(planner().pending(early)) == ["snooze 2026-12-01T08:55", "due 2026-12-01T09:00", "nag 1 2026-12-01T10:00"])
    }

    @Test func quietHoursSpanningMidnightHoldRemindersUntilTheirEnd() {
        let plan = planner {
            $0.quietHours = QuietHours(start: TimeOfDay(hour: 22, minute: 0)!, end: TimeOfDay(hour: 7, minute: 0)!, allowHigh: true)
            $0.reminders.nagEvery = nil
        }
        let lateEvening = Due.at(date(2026, 12, 1, 23, 15), zone: berlin)
        #expect(describe(plan.all(ReminderSubject(todo: todo(lateEvening)))) == [
            "before 10m 2026-12-02T07:00", "due 2026-12-02T07:00",
        ])
        let earlyMorning = Due.at(date(2026, 12, 2, 6, 5), zone: berlin)
        let held = plan.all(ReminderSubject(todo: todo(earlyMorning)))
        #expect(held.allSatisfy { $0.at == date(2026, 12, 2, 7) && $0.isHeldByQuietHours })
        // Held reminders of one todo are released together, as one.
        #expect(plan.pending(ReminderSubject(todo: todo(earlyMorning))).count == 1)
        // High priority passes through.
        #expect(describe(plan.all(ReminderSubject(todo: todo(lateEvening, priority: .high)))) == [
            "before 10m 2026-12-01T23:05", "due 2026-12-01T23:15",
        ])
        #expect(describe(plan.all(ReminderSubject(todo: todo(.at(date(2026, 12, 1, 21, 0), zone: berlin))))) == [
            "before 10m 2026-12-01T20:50", "due 2026-12-01T21:00",
        ])
    }

    @Test func aReminderHeldPastWhatFiredComesOnlyWhenItHasNotFired() {
        let plan = planner {
            $0.quietHours = QuietHours(start: TimeOfDay(hour: 22, minute: 0)!, end: TimeOfDay(hour: 7, minute: 0)!, allowHigh: true)
            $0.reminders.nagEvery = nil
        }
        let due = Due.at(date(2026, 12, 1, 23, 15), zone: berlin)
        let subject = ReminderSubject(todo: todo(due), reminderState: .init(remindedThrough: date(2026, 12, 1, 23, 30)))
        // Changed at 23:30 during the quiet hours: what they hold is still to come at 07:00.
        #expect(describe(plan.pending(subject)) == ["before 10m 2026-12-02T07:00"])
        // Fired at 23:05 and 23:15, before quiet hours were set: neither comes back at 07:00.
        let fired: Set<String> = ["before 10m", "due"]
        let left = plan.pending(subject, hasFired: { fired.contains($0.rule.description) })
        #expect(left.isEmpty)
    }

    @Test func digestFiresDailyOnlyWhenSomethingIsDue() {
        let plan = planner()
        #expect(plan.nextDigest(after: date(2026, 11, 29, 10), earliestDue: nil) == nil)
        let overdue = LocalDate(year: 2026, month: 11, day: 1)!
        #expect(plan.nextDigest(after: date(2026, 11, 29, 7), earliestDue: overdue) == date(2026, 11, 29, 8))
        #expect(plan.nextDigest(after: date(2026, 11, 29, 8), earliestDue: overdue) == date(2026, 11, 30, 8))
        let later = LocalDate(year: 2026, month: 12, day: 5)!
        #expect(plan.nextDigest(after: date(2026, 11, 29, 10), earliestDue: later) == date(2026, 12, 5, 8))
        #expect(planner { $0.digest.enabled = false }.nextDigest(after: date(2026, 11, 29, 7), earliestDue: overdue) == nil)
    }

    static let zones = ["America/New_York", "Europe/Berlin", "Europe/Dublin", "Australia/Lord_Howe", "Pacific/Auckland"]

    @Test(arguments: zones)
    func allDayRemindersKeepTheirWallClockTimeAcrossDST(zoneName: String) {
        let zone = TimeZone(identifier: zoneName)!
        let plan = planner({ $0.reminders.before = [TimeSpan(days: 1)]; $0.reminders.nagEvery = nil }, zone: zone)
        let clock = WallClock(zone: zone)
        var day = LocalDate(year: 2027, month: 1, day: 1)!
        for _ in 0..<365 {
            for reminder in plan.all(ReminderSubject(todo: todo(.allDay(day)))) {
                let time = clock.time(of: reminder.at)
                #expect(time.hour == 9 && time.minute == 0, "\(zoneName) \(day) \(reminder.rule)")
            }
            day = day.adding(days: 1)
        }
    }

    /// Spring-forward days and the wall-clock times that do not exist on them.
    @Test(arguments: [
        ("America/New_York", LocalDate(year: 2027, month: 3, day: 14)!, 2, 30, "03:30"),
        ("Europe/Berlin", LocalDate(year: 2027, month: 3, day: 28)!, 2, 30, "03:30"),
        ("Europe/Dublin", LocalDate(year: 2027, month: 3, day: 28)!, 1, 30, "02:30"),
        ("Australia/Lord_Howe", LocalDate(year: 2027, month: 10, day: 3)!, 2, 15, "02:45"),
        ("Pacific/Auckland", LocalDate(year: 2027, month: 9, day: 26)!, 2, 30, "03:30"),
    ])
    func aTimeInTheGapFiresAfterIt(zoneName: String, day: LocalDate, hour: Int, minute: Int, expected: String) throws {
        let zone = TimeZone(identifier: zoneName)!
        let plan = planner({ $0.reminders.allDayTime = TimeOfDay(hour: hour, minute: minute)!; $0.reminders.before = []; $0.reminders.nagEvery = nil }, zone: zone)
        let reminders = plan.all(ReminderSubject(todo: todo(.allDay(day))))
        try #require(reminders.count == 1)
        let time = WallClock(zone: zone).time(of: reminders[0].at)
        #expect(TimeOfDay(hour: time.hour, minute: time.minute)!.description == expected)
    }

    /// Fall-back days, when a wall-clock time happens twice: it fires once, at the first.
    @Test(arguments: [
        ("America/New_York", LocalDate(year: 2027, month: 11, day: 7)!, 1, 30, -4 * 3600),
        ("Europe/Berlin", LocalDate(year: 2027, month: 10, day: 31)!, 2, 30, 2 * 3600),
        ("Europe/Dublin", LocalDate(year: 2027, month: 10, day: 31)!, 1, 30, 1 * 3600),
        ("Australia/Lord_Howe", LocalDate(year: 2027, month: 4, day: 4)!, 1, 45, 11 * 3600),
        ("Pacific/Auckland", LocalDate(year: 2027, month: 4, day: 4)!, 2, 30, 13 * 3600),
    ])
    func aRepeatedTimeFiresOnceAtTheFirst(zoneName: String, day: LocalDate, hour: Int, minute: Int, summerOffset: Int) throws {
        let zone = TimeZone(identifier: zoneName)!
        let plan = planner({ $0.reminders.allDayTime = TimeOfDay(hour: hour, minute: minute)!; $0.reminders.before = []; $0.reminders.nagEvery = nil }, zone: zone)
        let reminders = plan.all(ReminderSubject(todo: todo(.allDay(day))))
        try #require(reminders.count == 1)
        #expect(zone.secondsFromGMT(for: reminders[0].at) == summerOffset)
        let time = WallClock(zone: zone).time(of: reminders[0].at)
        #expect(time.hour == hour && time.minute == minute)
    }

    /// `nag_every = 1d` counts calendar days: overdue across a DST change, a todo is nagged at
    /// its due's wall-clock time, not every 86,400 seconds.
    @Test(arguments: [
        ("Europe/Berlin", LocalDate(year: 2027, month: 3, day: 26)!),
        ("Europe/Berlin", LocalDate(year: 2027, month: 10, day: 29)!),
        ("America/New_York", LocalDate(year: 2027, month: 3, day: 12)!),
        ("Australia/Lord_Howe", LocalDate(year: 2027, month: 10, day: 1)!),
        ("Pacific/Auckland", LocalDate(year: 2027, month: 4, day: 2)!),
    ])
    func dailyNagsKeepTheDuesWallClockTimeAcrossDST(zoneName: String, dueDay: LocalDate) throws {
        let zone = TimeZone(identifier: zoneName)!
        let plan = planner({ $0.reminders.before = []; $0.reminders.nagEvery = TimeSpan(days: 1); $0.reminders.nagLimit = 5 }, zone: zone)
        let due = date(dueDay.year, dueDay.month, dueDay.day, 9, in: zone)
        let subject = ReminderSubject(todo: todo(.at(due, zone: zone)))
        #expect(describe(plan.all(subject, nags: 5), zone: zone) == ["due \(dueDay)T09:00"]
            + (1...5).map { "nag \($0) \(dueDay.adding(days: $0))T09:00" })
        // The next nag after one that fired, found without stepping from the due.
        var fired = subject
        fired.remindedThrough = try #require(plan.all(subject, nags: 5).last { $0.rule == .nag(3) }).at
        #expect(describe(plan.pending(fired), zone: zone) == ["nag 4 \(dueDay.adding(days: 4))T09:00"])
        fired.remindedThrough = fired.remindedThrough!.addingTimeInterval(-60)
        #expect(describe(plan.pending(fired), zone: zone) == ["nag 3 \(dueDay.adding(days: 3))T09:00"])
    }

    @Test func dailyNagsOfAnAllDayTodoKeepAllDayTimeAcrossDST() {
        let plan = planner { $0.reminders.before = []; $0.reminders.nagEvery = TimeSpan(days: 1); $0.reminders.nagLimit = 3 }
        let subject = ReminderSubject(todo: todo(.allDay(LocalDate(year: 2027, month: 3, day: 26)!)))
        #expect(describe(plan.all(subject)) == [
            "all-day 2027-03-26T09:00", "nag 1 2027-03-27T09:00", "nag 2 2027-03-28T09:00", "nag 3 2027-03-29T09:00",
        ])
    }

    /// The next nag after any moment, found by arithmetic, is the one stepping through every nag
    /// finds.
    @Test func theNextNagIsTheOneSteppingFinds() {
        var random = SplitMix64(seed: 20270328)
        let zones = Self.zones.map { TimeZone(identifier: $0)! }
        let spans = [TimeSpan(days: 1), TimeSpan(days: 1, seconds: 3600), TimeSpan(days: 2), TimeSpan(days: 7), TimeSpan(seconds: 5400)]
        let start = Date(timeIntervalSince1970: 1_798_761_600) // 2027-01-01
        for _ in 0..<500 {
            let zone = zones[Int(random.next() % UInt64(zones.count))]
            let every = spans[Int(random.next() % UInt64(spans.count))]
            let plan = planner({ $0.reminders.nagLimit = nil }, zone: zone)
            let dueDate = start.addingTimeInterval(Double(random.next() % (365 * 86_400)))
            let due: Due = random.next() % 3 == 0 ? .allDay(WallClock(zone: zone).day(of: dueDate)) : .at(dueDate, zone: zone)
            let after = dueDate.addingTimeInterval(Double(random.next() % (40 * 86_400)))
            let rules = plan.rules(for: todo(due))
            var stepped: Date?
            for (_, at) in plan.nags(due: due, rules: rules, every: every, snoozedUntil: nil, after: .distantPast, count: 1000) where at > after {
                stepped = at
                break
            }
            let next = plan.nags(due: due, rules: rules, every: every, snoozedUntil: nil, after: after, count: 1).first?.1
            #expect(next == stepped, "\(zone.identifier) \(due) every \(every) after \(after)")
        }
    }

    /// 100,000 random todos, rules, zones and moments: the next reminder is always after now,
    /// and planning always ends.
    @Test func theNextReminderIsAlwaysAfterNow() {
        var random = SplitMix64(seed: 20261129)
        let zones = Self.zones.map { TimeZone(identifier: $0)! } + [TimeZone(identifier: "UTC")!, TimeZone(identifier: "Asia/Kolkata")!]
        let spans = [TimeSpan(seconds: 600), TimeSpan(seconds: 3600), TimeSpan(days: 1), TimeSpan(days: 7), TimeSpan(days: 1, seconds: 1800)]
        let planners = zones.flatMap { zone in
            [planner({ _ in }, zone: zone),
             planner({ $0.reminders.nagLimit = nil; $0.reminders.nagEvery = TimeSpan(seconds: 900) }, zone: zone),
             planner({ $0.quietHours = QuietHours(start: TimeOfDay(hour: 22, minute: 0)!, end: TimeOfDay(hour: 7, minute: 0)!, allowHigh: false)
                       $0.reminders.before = [TimeSpan(days: 1), TimeSpan(seconds: 3600)]; $0.reminders.allDayDayBefore = true }, zone: zone),
             planner({ $0.reminders.atDue = false; $0.reminders.before = []; $0.reminders.nagEvery = nil }, zone: zone)]
        }
        let start = Date(timeIntervalSince1970: 1_767_225_600) // 2026-01-01
        var withNext = 0
        for _ in 0..<100_000 {
            let plan = planners[Int(random.next() % UInt64(planners.count))]
            let now = start.addingTimeInterval(Double(random.next() % (5 * 365 * 86_400)))
            let offset = Double(Int(random.next() % (60 * 86_400)) - 30 * 86_400)
            let due: Due = random.next() % 3 == 0
                ? .allDay(WallClock(zone: plan.calendar.timeZone).day(of: now.addingTimeInterval(offset)))
                : .at(now.addingTimeInterval(offset), zone: zones[Int(random.next() % UInt64(zones.count))])
            var subject = ReminderSubject(todo: todo(due, priority: Priority(rawValue: Int(random.next() % 3))!),
                                          reminderState: .init(remindedThrough: now))
            if random.next() % 4 == 0 { subject.custom = [.before(spans[Int(random.next() % UInt64(spans.count))])] }
            if random.next() % 5 == 0 { subject.snoozedUntil = now.addingTimeInterval(Double(random.next() % 86_400)) }
            let pending = plan.pending(subject)
            if let next = pending.first {
                withNext += 1
                #expect(next.at > now)
            }
            #expect(pending.filter { if case .nag = $0.rule { return true } else { return false } }.count <= 1)
        }
        #expect(withNext > 20_000)
    }
}
