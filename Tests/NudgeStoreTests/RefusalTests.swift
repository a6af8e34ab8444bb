import CSQLite
import Foundation
import NudgeCore
import Testing
@testable import NudgeTestSupport
@testable import NudgeStore

/// Files the store must refuse, leaving them exactly as they were.
struct RefusalTests {
    let folder = TemporaryDirectory()
    let now = Date(timeIntervalSince1970: 1_796_126_400)
    let planner = ReminderPlanner(config: NudgeConfig(), zone: TimeZone(identifier: "Europe/Berlin")!)

    func bytes(_ path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path))
    }

    func expectRefusedUntouched(_ path: String, _ expected: (StoreError) -> Bool) throws {
        let before = try bytes(path)
        do {
            _ = try TodoStore(path: path, planner: planner, now: now)
            Issue.record("the store opened \(path)")
        } catch {
            #expect(expected(error), "\(error)")
        }
        #expect(try bytes(path) == before)
        let wal = path + "-wal"
        if FileManager.default.fileExists(atPath: wal) {
            #expect(try bytes(wal).isEmpty)
        }
    }

    @Test func refusesATextFile() throws {
        let path = folder.file("notes.txt")
        try Data(String(repeating: "not a database\n", count: 100).utf8).write(to: URL(fileURLWithPath: path))
        try expectRefusedUntouched(path) { $0 == .notANudgeDatabase(path: path) }
    }

    @Test func refusesAnotherProgramsDatabase() throws {
        let path = folder.file("other.db")
        let other = try Connection(path: path, create: true)
        try other.execute("CREATE TABLE things (x); INSERT INTO things VALUES (1)")
        try expectRefusedUntouched(path) { $0 == .notANudgeDatabase(path: path) }
    }

    @Test func refusesADatabaseFromANewerVersion() throws {
        let path = folder.file("nudge.db")
        _ = try TodoStore(path: path, planner: planner, now: now)
        let db = try Connection(path: path, create: false)
        try db.execute("INSERT INTO nudge_migrations VALUES ('999-from-the-future', 0); PRAGMA wal_checkpoint(TRUNCATE)")
        try expectRefusedUntouched(path) {
            $0 == .newerVersion(path: path, unknownMigrations: ["999-from-the-future"])
        }
    }

    @Test func refusesADamagedDatabase() throws {
        let path = folder.file("nudge.db")
        let store = try TodoStore(path: path, planner: planner, now: now)
        for index in 0..<200 { _ = try store.add(NewTodo(title: "todo \(index) " + String(repeating: "x", count: 200)), now: now) }
        try store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        // Scribble over the schema page: the header still says SQLite, the content is garbage.
        var data = try bytes(path)
        for offset in 100..<4096 { data[offset] = UInt8(truncatingIfNeeded: offset &* 31) }
        try data.write(to: URL(fileURLWithPath: path))
        try expectRefusedUntouched(path) {
            if case .corrupt = $0 { return true }
            if case .notANudgeDatabase = $0 { return true }
            return false
        }
    }

    @Test func upgradesAnOlderDatabaseInPlace() throws {
        // A database from before the first schema step: marked as Nudge's, nothing applied yet.
        let path = folder.file("old.db")
        let old = try Connection(path: path, create: true)
        try old.execute("CREATE TABLE nudge_migrations (name TEXT PRIMARY KEY, applied_at INTEGER NOT NULL); PRAGMA application_id = \(Schema.applicationID)")
        let store = try TodoStore(path: path, planner: planner, now: now)
        _ = try store.add(NewTodo(title: "works"), now: now)
        #expect(try store.count() == 1)
    }

    @Test func anEmptyFileBecomesANewDatabase() throws {
        let path = folder.file("empty.db")
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        #expect(try TodoStore(path: path, planner: planner, now: now).count() == 0)
    }
}
