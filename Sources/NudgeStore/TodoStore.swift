import CSQLite
import Foundation
import NudgeCore

/// The todos and categories in one SQLite file, shared safely by every `nudge` process.
public final class TodoStore {
    public let path: String
    /// Plans each todo's reminders whenever it changes.
    public let planner: ReminderPlanner
    let db: Connection
    /// The moment the store was opened, for what needs a time and has none of its own (the
    /// digest's starting point in a new database, a migration's record).
    let openedAt: Date
    /// The last `PRAGMA data_version` seen by `changedElsewhere()`.
    var lastDataVersion: Int64?

    /// `$NUDGE_DB`, else `$XDG_DATA_HOME/nudge/nudge.db`, else `~/.local/share/nudge/nudge.db`.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let path = environment["NUDGE_DB"], !path.isEmpty { return path }
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.local/share")
        return dataHome + "/nudge/nudge.db"
    }

    /// Opens the database at `path`, creating it (mode 0600, in a 0700 directory) when missing
    /// and upgrading it when older. A file that is not a Nudge database, is damaged, or comes
    /// from a newer version is refused and left byte-for-byte as it was. `now` is the caller's
    /// clock: nothing in the store reads the real one.
    public init(path: String, planner: ReminderPlanner, now: Date) throws(StoreError) {
        self.path = path
        self.planner = planner
        openedAt = now
        let isNew = !FileManager.default.fileExists(atPath: path)
        if isNew { try Self.createEmptyFile(at: path) }
        do {
            db = try Connection(path: path, create: false)
        } catch {
            throw StoreError.cannotOpen(path: path, reason: error.message)
        }
        db.setBusyTimeout(milliseconds: 15_000)
        do {
            let pending = try pendingMigrations()
            try db.execute("PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL")
            try enableWriteAheadLog()
            if !pending.isEmpty { try migrate() }
            try planAllIfRulesChanged()
        } catch let error as StoreError {
            throw error
        } catch {
            throw storeError(error)
        }
    }

    private static func createEmptyFile(at path: String) throws(StoreError) {
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty && !FileManager.default.fileExists(atPath: directory) {
            do {
                try FileManager.default.createDirectory(
                    atPath: directory, withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o700])
            } catch {
                throw StoreError.cannotOpen(path: path, reason: "cannot create the folder \(directory)")
            }
        }
        let fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        if fd >= 0 {
            close(fd)
        } else if errno != EEXIST {
            throw StoreError.cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
    }

    /// Reads the header and the migration record without writing anything, and says which
    /// migrations this file still needs.
    private func pendingMigrations() throws -> [Migration] {
        let applicationID = try db.scalar("PRAGMA application_id")?.int64 ?? 0
        if applicationID == 0 {
            let objects = try db.scalar("SELECT count(*) FROM sqlite_schema")?.int64 ?? 0
            guard objects == 0 else { throw StoreError.notANudgeDatabase(path: path) }
            return Schema.migrations
        }
        guard applicationID == Int64(Schema.applicationID) else {
            throw StoreError.notANudgeDatabase(path: path)
        }
        return try pending(applied: appliedMigrations())
    }

    private func appliedMigrations() throws -> [String] {
        try db.query("SELECT name FROM nudge_migrations ORDER BY rowid") { $0.text(0) ?? "" }
    }

    private func pending(applied: [String]) throws -> [Migration] {
        let known = Set(Schema.migrations.map(\.name))
        let unknown = applied.filter { !known.contains($0) }
        guard unknown.isEmpty else { throw StoreError.newerVersion(path: path, unknownMigrations: unknown) }
        let done = Set(applied)
        return Schema.migrations.filter { !done.contains($0.name) }
    }

    private func enableWriteAheadLog() throws(SQLiteError) {
        guard try db.scalar("PRAGMA journal_mode")?.string?.lowercased() != "wal" else { return }
        // Switching needs a moment alone with the file; another process may be doing the same.
        var attempts = 0
        while true {
            do {
                try db.execute("PRAGMA journal_mode = WAL")
                return
            } catch {
                attempts += 1
                guard error.primaryCode == SQLITE_BUSY, attempts < 500 else { throw error }
                usleep(10_000)
            }
        }
    }

    /// Applies what is missing inside one write transaction, checking again once the lock is
    /// held, since another process may have migrated in the meantime.
    private func migrate() throws {
        try db.writeTransaction {
            let hasRecord = try db.scalar(
                "SELECT count(*) FROM sqlite_schema WHERE name = 'nudge_migrations'")?.int64 == 1
            if !hasRecord {
                try db.execute("CREATE TABLE nudge_migrations (name TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)")
                try db.execute("PRAGMA application_id = \(Schema.applicationID)")
            }
            for migration in try pending(applied: appliedMigrations()) {
                try db.execute(migration.sql)
                try db.run("INSERT INTO nudge_migrations (name, applied_at) VALUES (?, ?)",
                           [.text(migration.name), .integer(Self.stamp(openedAt))])
            }
        }
    }

    func storeError(_ error: any Error) -> StoreError {
        if let error = error as? StoreError { return error }
        guard let error = error as? SQLiteError else { return .failed(reason: "\(error)") }
        if error.isNotADatabase { return .notANudgeDatabase(path: path) }
        if error.isCorrupt { return .corrupt(path: path, reason: error.message) }
        return .failed(reason: error.message)
    }

    /// Runs `body` and turns any failure into a `StoreError`.
    func perform<T>(_ body: () throws -> T) throws(StoreError) -> T {
        do {
            return try body()
        } catch {
            throw storeError(error)
        }
    }

    /// Runs `body` in a write transaction, and turns any failure into a `StoreError`.
    func write<T>(_ body: () throws -> T) throws(StoreError) -> T {
        try perform { try db.writeTransaction(body) }
    }
}
