import Foundation
import NudgeCore
import Testing
@testable import NudgeTestSupport
@testable import NudgeStore

/// `dueSummary`, what `nudge status` shows, from a store opened to read the todos only.
struct DueSummaryTests {
    let folder = TemporaryDirectory()
    let berlin = TimeZone(identifier: "Europe/Berlin")!
    let tokyo = TimeZone(identifier: "Asia/Tokyo")!
    /// Sunday 2026-11-29 10:53 in Berlin, 18:53 in Tokyo.
    let now = Date(timeIntervalSince1970: 1_795_945_980)
    var path: String { folder.file("nudge.db") }

    func open(_ access: StoreAccess, zone: TimeZone) throws -> TodoStore {
        try TodoStore(path: path, planner: ReminderPlanner(config: NudgeConfig(), zone: zone), now: now, access: access)
    }

    func at(_ seconds: TimeInterval) -> Due { .at(now.addingTimeInterval(seconds), zone: berlin) }

    /// Due 2 hours ago, in 4 hours (14:53 Berlin, 22:53 Tokyo), in 6 hours (16:53 Berlin, the
    /// next day in Tokyo) and all day on Sunday the 29th.
    func addTodos() throws {
        let writer = try open(.plan, zone: berlin)
        for (title, due) in [("late", at(-7200)), ("soon", at(4 * 3600)), ("later", at(6 * 3600)),
                             ("all day", Due.allDay(LocalDate(year: 2026, month: 11, day: 29)!))] {
            _ = try writer.add(NewTodo(title: title, due: due), now: now.addingTimeInterval(-86_400))
        }
    }

    @Test func countsFollowTheZoneOfTheAgendaAndAgreeWithItsSections() throws {
        try addTodos()
        for zone in [berlin, tokyo] {
            let store = try open(.readTodos, zone: zone)
            let agenda = Agenda(now: now, zone: zone)
            let summary = try store.dueSummary(agenda: agenda)
            let sections = agenda.sections(try store.todos(matching: TodoQuery()))
            let count = { (section: AgendaSection) in sections.first { $0.section == section }?.todos.count ?? 0 }
            #expect(summary.overdue == count(.overdue))
            #expect(summary.today == count(.today))
            #expect(summary.next?.title == "all day")
        }
        #expect(try open(.readTodos, zone: berlin).dueSummary(agenda: Agenda(now: now, zone: berlin)).today == 3)
        #expect(try open(.readTodos, zone: tokyo).dueSummary(agenda: Agenda(now: now, zone: tokyo)).today == 2)
    }

    @Test func readingTheTodosOnlyLeavesTheScheduleAsPlanned() throws {
        try addTodos()
        let before = try [path, path + "-wal"].map { FileManager.default.fileExists(atPath: $0) ? try Data(contentsOf: URL(fileURLWithPath: $0)) : Data() }
        let rules = { (store: TodoStore) in
            try store.upcoming(from: self.now, through: self.now.addingTimeInterval(86_400)).map { WallClock(zone: self.berlin).iso8601($0.at) }
        }
        // A reader with other rules plans them in memory; one that reads the todos only does not.
        var other = NudgeConfig()
        other.reminders.before = [TimeSpan(seconds: 7200)]
        let reader = try TodoStore(path: path, planner: ReminderPlanner(config: other, zone: berlin), now: now, access: .read)
        let counter = try TodoStore(path: path, planner: ReminderPlanner(config: other, zone: berlin), now: now, access: .readTodos)
        #expect(try rules(counter) == rules(open(.read, zone: berlin)))
        #expect(try rules(reader) != rules(counter))
        let after = try [path, path + "-wal"].map { FileManager.default.fileExists(atPath: $0) ? try Data(contentsOf: URL(fileURLWithPath: $0)) : Data() }
        #expect(before == after)
    }

    @Test func anEmptyOrMissingDatabaseHasNothing() throws {
        let summary = try open(.readTodos, zone: berlin).dueSummary(agenda: Agenda(now: now, zone: berlin))
        #expect(summary.overdue == 0 && summary.today == 0 && summary.next == nil)
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
