import CSQLite
import Foundation
import NudgeCore
import Testing
@testable import NudgeTestSupport
@testable import NudgeStore
import NudgeSQLite

/// Files the store must refuse, leaving them exactly as they were.
struct RefusalTests {
    let folder = TemporaryDirectory()
    let now = Date(timeIntervalSince1970: 1_796_126_400)
    let planner = ReminderPlanner(config: NudgeConfig(), zone: TimeZone(identifier: "Europe/Berlin")!)

    func bytes(_ path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path))
    }

    func expectRefusedUntouched(_ path: String, _ expected: (StoreError) -> Bool) throws {
        let wal = path + "-wal"
        let walBefore = FileManager.default.fileExists(atPath: wal) ? try bytes(wal) : Data()
        let before = try bytes(path)
        for access in [StoreAccess.write, .plan] {
            do {
                _ = try TodoStore(path: path, planner: planner, now: now, access: access)
                Issue.record("the store opened \(path)")
            } catch {
                #expect(expected(error), "\(error)")
            }
        }
        #expect(try bytes(path) == before)
        if FileManager.default.fileExists(atPath: wal) {
            #expect(try bytes(wal) == walBefore)
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

    /// 300 todos with long titles, written out to the file: enough pages to damage one that
    /// a change to todo 1 never reads.
    func makeDatabaseWithManyPages(_ path: String) throws {
        let store = try TodoStore(path: path, planner: planner, now: now)
        for index in 0..<300 { _ = try store.add(NewTodo(title: "todo \(index) " + String(repeating: "x", count: 200)), now: now) }
    }

    /// Overwrites the middle of page `page` (1-based), as a disk error or a stray write would.
    func scribble(onPage page: Int, of path: String) throws {
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        try handle.seek(toOffset: UInt64((page - 1) * 4096 + 1000))
        try handle.write(contentsOf: Data((0..<2000).map { UInt8(truncatingIfNeeded: $0 &* 31) }))
        try handle.close()
    }

    @Test func aPageOverwrittenAnywhereIsRefusedBeforeAnyWrite() throws {
        let path = folder.file("nudge.db")
        try makeDatabaseWithManyPages(path)
        let pages = try #require(try Connection(path: path, create: false, readOnly: true).scalar("PRAGMA page_count")?.int64)
        try scribble(onPage: Int(pages) - 2, of: path)
        try expectRefusedUntouched(path) { error in
            guard case .corrupt(let damaged, _) = error else { return false }
            return damaged == path && error.description.contains(".dump")
        }
    }

    @Test func aWriterRecordsTheFileItLeftSoTheNextNeedNotCheckIt() throws {
        let path = folder.file("nudge.db")
        try makeDatabaseWithManyPages(path)
        let store = try TodoStore(path: path, planner: planner, now: now, access: .write)
        #expect(store.recordedStamp() == store.fileStamp())
        _ = try store.add(NewTodo(title: "one more"), now: now)
        try store.checkpointAndRecordFile()
        #expect(store.recordedStamp() == store.fileStamp())
        #expect(try Data(contentsOf: URL(fileURLWithPath: path + "-wal")).isEmpty)
    }

    @Test func whatADumpOfADamagedFileRecoversOpensAsANudgeDatabase() throws {
        let damaged = folder.file("nudge.db")
        try makeDatabaseWithManyPages(damaged)
        let recovered = folder.file("recovered.db")
        // As `sqlite3 nudge.db .dump | sqlite3 recovered.db`: the tables, not the header.
        let copy = try Connection(path: recovered, create: true)
        try copy.execute("ATTACH '\(damaged)' AS old")
        for (name, sql) in try copy.query("SELECT name, sql FROM old.sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'", [], row: { ($0.text(0) ?? "", $0.text(1) ?? "") }) {
            try copy.execute(sql)
            try copy.execute("INSERT INTO main.\(name) SELECT * FROM old.\(name)")
        }
        try copy.execute("DETACH old")
        #expect(try copy.scalar("PRAGMA application_id")?.int64 == 0)
        #expect(try TodoStore(path: recovered, planner: planner, now: now).count() == 300)
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
