import Foundation
import NudgeCore
import Testing
@testable import NudgeTestSupport
@testable import NudgeStore
import NudgeSQLite

/// Who plans the schedule that nudged fires from: the service's rules and zone, and nobody
/// else's, whatever zone or config a `nudge` command runs with.
struct PlanOfRecordTests {
    let folder = TemporaryDirectory()
    let berlin = TimeZone(identifier: "Europe/Berlin")!
    let tokyo = TimeZone(identifier: "Asia/Tokyo")!
    /// Sunday 2026-11-29 10:53 in Berlin.
    let now = Date(timeIntervalSince1970: 1_795_945_980)
    var path: String { folder.file("nudge.db") }

    /// Rules kept as their canonical text, read back from a table of the configs in use.
    static let configs: [NudgeConfig] = {
        var standard = NudgeConfig()
        standard.digest.enabled = false
        var late = standard
        late.reminders.allDayTime = TimeOfDay(hour: 11, minute: 0)!
        return [standard, late]
    }()
    let recording = PlanRecording(write: { $0.canonicalText },
                                  read: { text in PlanOfRecordTests.configs.first { $0.canonicalText == text } })

    func open(_ access: StoreAccess, zone: TimeZone, config: NudgeConfig = configs[0]) throws -> TodoStore {
        try TodoStore(path: path, planner: ReminderPlanner(config: config, zone: zone), now: now, access: access,
                      recording: recording)
    }

    func files() throws -> [Data] {
        try [path, path + "-wal"].map { FileManager.default.fileExists(atPath: $0) ? try Data(contentsOf: URL(fileURLWithPath: $0)) : Data() }
    }

    /// Where the all-day todo due 2026-11-30 reminds first, as wall time in `zone`.
    func firstReminder(_ store: TodoStore, in zone: TimeZone) throws -> String {
        let reminders = try store.upcoming(from: now, through: now.addingTimeInterval(3 * 86_400), limit: 1)
        return reminders.first.map { WallClock(zone: zone).iso8601($0.at) + " " + $0.rule } ?? "none"
    }

    func addAllDayTodo() throws {
        _ = try open(.plan, zone: berlin).add(NewTodo(title: "all day", due: .allDay(LocalDate(year: 2026, month: 11, day: 30)!)), now: now)
    }

    @Test func aReaderInAnotherZoneSeesItsOwnScheduleAndWritesNothing() throws {
        try addAllDayTodo()
        let before = try files()
        let reader = try open(.read, zone: tokyo)
        #expect(try firstReminder(reader, in: tokyo) == "2026-11-30T08:50:00+09:00 before 10m")
        _ = try reader.todos(matching: TodoQuery())
        #expect(try files() == before)
        #expect(try firstReminder(open(.read, zone: berlin), in: berlin) == "2026-11-30T08:50:00+01:00 before 10m")
    }

    @Test func aReaderWithOtherRulesWritesNothing() throws {
        try addAllDayTodo()
        let before = try files()
        let reader = try open(.read, zone: berlin, config: Self.configs[1])
        #expect(try firstReminder(reader, in: berlin) == "2026-11-30T10:50:00+01:00 before 10m")
        #expect(try files() == before)
    }

    @Test func aWriterInAnotherZonePlansByThePlanOfRecord() throws {
        try addAllDayTodo()
        let writer = try open(.write, zone: tokyo)
        _ = try writer.add(NewTodo(title: "another", due: .allDay(LocalDate(year: 2026, month: 12, day: 1)!)), now: now)
        #expect(writer.planner.calendar.timeZone == berlin)
        let planned = try writer.upcoming(from: now, through: now.addingTimeInterval(3 * 86_400)).map { WallClock(zone: berlin).iso8601($0.at) }
        #expect(planned.contains { $0.hasPrefix("2026-12-01T09:00:00+01:00") }, "\(planned)")
        #expect(try open(.read, zone: berlin).db.scalar("SELECT value FROM settings WHERE key = 'schedule_zone'")?.string == "Europe/Berlin")
    }

    @Test func aWriterWithoutARecordToReadPlansByItsOwnRules() throws {
        try addAllDayTodo()
        let writer = try TodoStore(path: path, planner: ReminderPlanner(config: Self.configs[0], zone: tokyo), now: now, access: .write)
        #expect(try firstReminder(writer, in: tokyo) == "2026-11-30T08:50:00+09:00 before 10m")
    }

    @Test func theServiceTakesTheScheduleBackWhenSomeoneElsePlannedIt() throws {
        try addAllDayTodo()
        let service = try open(.plan, zone: berlin)
        _ = try open(.plan, zone: tokyo)
        #expect(try firstReminder(open(.read, zone: tokyo), in: tokyo) == "2026-11-30T08:50:00+09:00 before 10m")
        try service.planAllIfRulesChanged()
        #expect(try firstReminder(service, in: berlin) == "2026-11-30T08:50:00+01:00 before 10m")
    }

    @Test func aReaderOfAMissingFileCreatesNothing() throws {
        let reader = try open(.read, zone: berlin)
        #expect(try reader.count() == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func aReaderOfAnOlderFileUpgradesACopyInMemory() throws {
        let old = try Connection(path: path, create: true)
        try old.execute("CREATE TABLE nudge_migrations (name TEXT PRIMARY KEY, applied_at INTEGER NOT NULL); PRAGMA application_id = \(Schema.applicationID)")
        let before = try files()
        #expect(try open(.read, zone: berlin).count() == 0)
        #expect(try files() == before)
    }
}
