import Foundation
import NudgeCore
import Testing
@testable import NudgeTestSupport
@testable import NudgeStore

/// A reader in another zone, or with other rules, than the plan of record's: it plans nothing
/// until asked about the schedule, then only what the question covers, and sees what planning
/// every todo by its own rules would show.
struct ReaderScheduleTests {
    let folder = TemporaryDirectory()
    let berlin = TimeZone(identifier: "Europe/Berlin")!
    let tokyo = TimeZone(identifier: "Asia/Tokyo")!
    let newYork = TimeZone(identifier: "America/New_York")!
    /// Sunday 2026-11-29 10:53 in Berlin.
    let now = Date(timeIntervalSince1970: 1_795_945_980)
    var path: String { folder.file("nudge.db") }

    static var standard: NudgeConfig {
        var config = NudgeConfig()
        config.digest.enabled = false
        return config
    }

    /// Every rule that moves a reminder away from its due: quiet hours, the day before, long
    /// `before`s and nags of a category and a priority.
    static var busy: NudgeConfig {
        var config = standard
        config.quietHours = QuietHours(start: TimeOfDay(hour: 22, minute: 0)!, end: TimeOfDay(hour: 7, minute: 0)!, allowHigh: true)
        config.reminders.allDayDayBefore = true
        config.reminders.before = [TimeSpan(seconds: 600), TimeSpan(days: 1)]
        config.byCategory["work"] = RuleOverrides(before: [TimeSpan(days: 3, seconds: 3600)], nagEvery: .some(TimeSpan(days: 1)), nagLimit: .some(4))
        config.byPriority[.high] = RuleOverrides(nagEvery: .some(TimeSpan(seconds: 1800)), nagLimit: .some(6))
        return config
    }

    static var endlessNags: NudgeConfig {
        var config = standard
        config.reminders.nagEvery = TimeSpan(seconds: 7200)
        config.reminders.nagLimit = nil
        return config
    }

    func open(_ access: StoreAccess, zone: TimeZone, config: NudgeConfig = standard) throws -> TodoStore {
        try TodoStore(path: path, planner: ReminderPlanner(config: config, zone: zone), now: now, access: access)
    }

    /// Whether the reader planned every todo into a table of its own.
    func plannedEverything(_ store: TodoStore) throws -> Bool {
        try store.db.scalar("SELECT count(*) FROM temp.sqlite_schema WHERE name = 'schedule'")?.int64 == 1
    }

    func files() throws -> [Data] {
        try [path, path + "-wal"].map { FileManager.default.fileExists(atPath: $0) ? try Data(contentsOf: URL(fileURLWithPath: $0)) : Data() }
    }

    func day(_ offset: Int) -> LocalDate { LocalDate(year: 2026, month: 11, day: 29)!.adding(days: offset) }

    /// Todos of every kind, due from 12 days ago to 12 days ahead, planned in Berlin.
    func addTodos(config: NudgeConfig) throws {
        let service = try open(.plan, zone: berlin, config: config)
        _ = try service.addCategory(name: "work", icon: nil, now: now)
        for offset in stride(from: -12, through: 12, by: 1) {
            let moment = now.addingTimeInterval(Double(offset) * 86_400 + Double(offset * 3_917 % 86_400))
            _ = try service.add(NewTodo(title: "timed \(offset)", due: .at(moment, zone: offset % 2 == 0 ? berlin : newYork),
                                        priority: offset % 3 == 0 ? .high : .medium), now: now)
            _ = try service.add(NewTodo(title: "all day \(offset)", due: .allDay(day(offset)),
                                        categoryName: offset % 4 == 0 ? "work" : nil), now: now)
        }
        _ = try service.add(NewTodo(title: "own, long before", due: .allDay(day(20)), reminders: [.before(TimeSpan(days: 19))]), now: now)
        _ = try service.add(NewTodo(title: "own, at a moment", due: .allDay(day(40)), reminders: [.at(now.addingTimeInterval(86_400 * 2 + 1_234))],
                                    usesDefaultRules: false), now: now)
        _ = try service.add(NewTodo(title: "no due"), now: now)
        let snoozed = try service.add(NewTodo(title: "snoozed", due: .at(now.addingTimeInterval(-86_400 * 30), zone: berlin)), now: now)
        _ = try service.snooze(todoID: snoozed.id, until: now.addingTimeInterval(86_400 * 4), now: now)
        let done = try service.add(NewTodo(title: "done", due: .at(now.addingTimeInterval(3_600), zone: berlin)), now: now)
        _ = try service.setCompleted(ids: [done.id], done: true, now: now)
        // What fired up to now is recorded, as the service would have.
        try service.recordFired(try service.dueReminders(through: now), firedAt: now)
    }

    @Test func readingTodosAndOneTodosRemindersInAnotherZonePlansNoSchedule() throws {
        try addTodos(config: Self.standard)
        let before = try files()
        let reader = try open(.read, zone: tokyo)
        _ = try reader.todos(matching: TodoQuery())
        let subject = try reader.reminderSubject(id: 28)
        let next = try #require(try reader.pendingReminders(subject).first)
        _ = try reader.firings(todoID: 28)
        #expect(try !plannedEverything(reader))
        #expect(reader.readerSchedule == nil)
        // The all-day todo due tomorrow reminds at 08:50 in Tokyo, where the reader is.
        #expect(subject.todo.title == "all day 1")
        #expect(WallClock(zone: tokyo).iso8601(next.at) == "2026-11-30T08:50:00+09:00")
        #expect(try files() == before)
    }

    @Test(arguments: [standard, busy, endlessNags])
    func upcomingInAnotherZoneShowsWhatPlanningEveryTodoShowsWithoutPlanningThem(config: NudgeConfig) throws {
        try addTodos(config: config)
        let before = try files()
        for (zone, rules) in [(tokyo, config), (berlin, config == Self.busy ? Self.endlessNags : Self.busy), (newYork, Self.endlessNags)] {
            let everything = try open(.read, zone: zone, config: rules)
            _ = try everything.nextReminderTime()
            #expect(try plannedEverything(everything))
            let windows: [(Date, Date, Int?)] = [
                (now, now.addingTimeInterval(7 * 86_400), nil), (now, now.addingTimeInterval(7 * 86_400), 5),
                (now.addingTimeInterval(-3 * 86_400), now.addingTimeInterval(86_400), nil),
                (now.addingTimeInterval(5 * 86_400), now.addingTimeInterval(13 * 86_400), nil),
                (.distantPast, now.addingTimeInterval(2 * 86_400), nil), (now, .distantFuture, 40),
            ]
            for (start, end, limit) in windows {
                let reader = try open(.read, zone: zone, config: rules)
                let shown = try reader.forecast(from: start, through: end, limit: limit)
                #expect(shown == (try everything.forecast(from: start, through: end, limit: limit)), "\(zone.identifier) \(start) \(end)")
                #expect(try !plannedEverything(reader))
                #expect(reader.readerSchedule == .own)
            }
        }
        #expect(try files() == before)
    }

    @Test func upcomingInAnotherZonePlansOnlyTheTodosThatMayRemindInItsWindow() throws {
        try addTodos(config: Self.standard)
        let condition = TodoStore.mayRemind(from: TodoStore.stamp(now), through: TodoStore.stamp(now.addingTimeInterval(86_400)),
                                            reach: ReminderPlanner(config: Self.standard, zone: tokyo).reach)
        let reader = try open(.read, zone: tokyo)
        let planned = try reader.subjects(where: condition).map(\.todo.title)
        let pending = try reader.subjects(where: "t.completed_at IS NULL").count
        #expect(planned.count < pending / 2, "\(planned)")
        #expect(["timed -1", "timed 0", "all day -3", "all day 3", "snoozed", "own, long before"].allSatisfy(planned.contains), "\(planned)")
        #expect(!["timed 1", "timed -3", "all day -5", "all day 5", "no due", "done"].contains(where: planned.contains), "\(planned)")
    }

    @Test func utcIsTheZoneOfEtcUTC() throws {
        let utc = TimeZone(identifier: "UTC")!, etcUTC = TimeZone(identifier: "Etc/UTC")!
        _ = try open(.plan, zone: etcUTC).add(NewTodo(title: "all day", due: .allDay(day(1))), now: now)
        // Foundation calls TZ=UTC "GMT": another name, the same offsets.
        #expect(utc.identifier != etcUTC.identifier)
        let reader = try open(.read, zone: utc)
        let shown = try reader.upcoming(from: now, through: now.addingTimeInterval(2 * 86_400)).map(\.rule)
        #expect(shown == ["before 10m", "all-day", "nag 1"], "\(shown)")
        #expect(reader.readerSchedule == .stored)
        // Nor does the service plan again for it.
        let service = try open(.plan, zone: utc)
        #expect(try service.setting(TodoStore.fingerprintKey)?.hasPrefix("Etc/UTC|") == true)
        #expect(try open(.read, zone: tokyo).plansOwnSchedule())
    }
}
