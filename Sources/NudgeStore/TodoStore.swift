import Foundation
import NudgeCore
import NudgePlatform
import NudgeSQLite

/// How a process uses the store, which decides what opening it may write.
public enum StoreAccess: Sendable {
    /// Reads only: the file is never written. When the caller's rules or zone differ from the
    /// plan of record, what it asks of the schedule is planned by its own, for this connection
    /// alone, and only when it asks.
    case read
    /// Reads the todos and never the schedule, so that it is not planned in memory when the
    /// rules differ: for counting (`nudge status`, which a status bar runs every few seconds).
    /// The schedule it would see is the plan of record's.
    case readTodos
    /// Changes todos, planning them by the plan of record (the rules and zone of the service);
    /// in a database that has none yet, the caller's become it.
    case write
    /// The service: its rules and zone are the plan of record, and every todo is planned again
    /// when they differ from those that planned the schedule.
    case plan
}

extension StoreAccess {
    /// Whether the file is never written.
    public var isReadOnly: Bool { self == .read || self == .readTodos }
}

/// The todos and categories in one SQLite file, shared safely by every `nudge` process.
public final class TodoStore {
    public let path: String
    public let access: StoreAccess
    /// How the plan of record's rules are kept as text; nil keeps only their fingerprint.
    let recording: PlanRecording?
    /// Plans each todo's reminders whenever it changes: the plan of record, except for a
    /// reader with other rules, whose schedule lives in memory.
    public internal(set) var planner: ReminderPlanner
    private(set) var db: Connection
    /// The moment the store was opened, for what needs a time and has none of its own (the
    /// digest's starting point in a new database, a migration's record).
    let openedAt: Date
    /// The device and inode of the file opened, to notice it being replaced.
    private(set) var fileIdentity: (UInt, UInt)?
    /// Rows changed by opening, once it succeeded (nil before): a refused file is not touched
    /// on the way out, and one this process did not change is not checkpointed.
    private var changesWhenOpened: Int64?
    /// The last `PRAGMA data_version` seen by `changedElsewhere()`.
    var lastDataVersion: Int64?
    /// For a reader: whose schedule answers it, found out when first asked.
    var readerSchedule: ReaderSchedule?

    /// `$NUDGE_DB`, else `$XDG_DATA_HOME/nudge/nudge.db`, else `~/.local/share/nudge/nudge.db`.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let path = environment["NUDGE_DB"], !path.isEmpty { return path }
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.local/share")
        return dataHome + "/nudge/nudge.db"
    }

    /// Opens the database at `path` for `access`. A writer creates it (mode 0600, in a 0700
    /// directory) when missing and upgrades it when older; a reader leaves the file alone and
    /// works on a copy in memory instead. A file that is not a Nudge database, is damaged, or
    /// comes from a newer version is refused and left byte-for-byte as it was. `now` is the
    /// caller's clock: nothing in the store reads the real one. `recording` keeps the plan of
    /// record's rules as text, so that a writer with other rules can plan by them; without
    /// it a writer's own rules become the plan of record.
    public init(path: String, planner: ReminderPlanner, now: Date, access: StoreAccess = .plan,
                recording: PlanRecording? = nil) throws(StoreError) {
        self.path = path
        self.planner = planner
        self.access = access
        self.recording = recording
        openedAt = now
        var info = stat()
        let exists = stat(path, &info) == 0
        // SQLite would wait for ever on a FIFO's writer.
        if exists, let kind = info.notAFile { throw StoreError.cannotOpen(path: path, reason: "it is \(kind), not a file") }
        var made = false
        if !exists && !access.isReadOnly { made = try Self.createEmptyFile(at: path) }
        if exists && info.st_size == 0 && !access.isReadOnly && info.st_mode & 0o077 != 0 {
            // Empty (a creation cut short, or `touch`): it becomes a new database, as private
            // as one made here, and its -wal and -shm take its mode.
            chmod(path, 0o600)
        }
        do {
            // A reader of a missing file sees an empty database that is never written anywhere.
            db = try Connection(path: exists || !access.isReadOnly ? path : ":memory:", create: !exists,
                                readOnly: access.isReadOnly && exists)
            if access.isReadOnly && exists { db = try Self.readable(db, path: path) }
        } catch {
            if made { Self.removeUnmade(path) }
            throw StoreError.cannotOpen(path: path, reason: error.message)
        }
        db.disableCheckpointOnClose()
        fileIdentity = Self.identity(of: path)
        db.setBusyTimeout(milliseconds: 15_000)
        do {
            let pending = try pendingMigrations()
            try db.execute("PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL")
            if access.isReadOnly {
                if !pending.isEmpty { try upgradeInMemory(existing: exists) }
            } else {
                try refuseIfDamaged()
                try enableWriteAheadLog()
                if !pending.isEmpty { try migrate() }
                try adoptPlanOfRecord()
            }
            changesWhenOpened = db.totalChanges
        } catch let error as StoreError {
            if made { Self.removeUnmade(path) }
            throw error
        } catch {
            if made { Self.removeUnmade(path) }
            throw storeError(error)
        }
    }

    deinit {
        // The last holder may release the store off its queue (a test's service at the end).
        if isKnownUniquelyReferenced(&db) { db.adoptAsLastHolder() }
        // A file replaced meanwhile must not get this file's log, nor its record.
        guard !access.isReadOnly, let changesWhenOpened, db.totalChanges > changesWhenOpened,
              !released, isStillAtPath else { return }
        try? checkpointAndRecordFile()
    }

    /// Set by `releaseReplacedFile`: the file this store opened is no longer at its path.
    private var released = false

    /// For a file that was deleted or replaced (moved or restored over): moves what the log
    /// holds into the old file and empties the log, which the file now at the path would
    /// otherwise inherit. Call it before opening the new file; the store is not used after.
    public func releaseReplacedFile() throws(StoreError) {
        released = true
        try perform { try db.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
    }

    /// From now on the store is used on `queue` alone (a serial one), whichever of its threads
    /// runs it; until then, on the thread that opened it. Each use elsewhere stops the program.
    public func confine(to queue: DispatchQueue) {
        db.confine(to: queue)
    }

    /// For a process whose commits must stay short (the reminder service, which shows a firing's
    /// notifications after its commit): the write-ahead log is checkpointed only by
    /// `checkpointLog()`, at a moment the process chooses, never inside a commit.
    public func deferCheckpoints() {
        db.deferCheckpoints()
    }

    /// With `deferCheckpoints`, the pages the write-ahead log held after the last commit here.
    public var logPages: Int { db.logPages }

    /// Copies the write-ahead log into the database file as far as no reader still needs it,
    /// waiting for no one (a passive checkpoint).
    public func checkpointLog() throws(StoreError) {
        try perform { try db.checkpoint() }
    }

    /// Frees the pages SQLite keeps of the file (up to 2 MB), which work that reads every todo
    /// fills (planning them all, checking the file): a long-running process keeps them otherwise.
    public func releaseMemory() {
        db.clearStatementCache()
        db.releaseMemory()
    }

    /// An older file seen by a reader: upgraded in a copy in memory, never in place.
    private func upgradeInMemory(existing: Bool) throws {
        if existing {
            let memory = try Connection(path: ":memory:", create: true)
            try db.copy(into: memory)
            db = memory
            try db.execute("PRAGMA foreign_keys = ON")
        }
        try migrate()
    }

    /// A reader's connection that can read: in a folder it cannot write, SQLite cannot make the
    /// -shm file a WAL database needs ("attempt to write a readonly database"). Without a log
    /// to read, the file alone is the database and is opened immutable; with one, no reader
    /// can see it, and the error says why.
    private static func readable(_ connection: Connection, path: String) throws(SQLiteError) -> Connection {
        do {
            _ = try connection.scalar("PRAGMA application_id")
            return connection
        } catch {
            // Any other failure is met again, and named, by what reads the file next.
            guard case .readOnly = error.code else { return connection }
            var log = stat()
            if stat(path + "-wal", &log) == 0 && log.st_size > 0 {
                let folder = (path as NSString).deletingLastPathComponent
                throw SQLiteError(code: error.code, message: "its write-ahead log \(path)-wal can only be read with "
                                  + "\(path)-shm, which cannot be made in \(folder.isEmpty ? "." : folder) (a read-only folder?)")
            }
            return try Connection(path: path, create: false, readOnly: true, immutable: true)
        }
    }

    /// Whether this call made the file (false: another process made it first).
    @discardableResult
    private static func createEmptyFile(at path: String) throws(StoreError) -> Bool {
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty && !FileManager.default.fileExists(atPath: directory) {
            do {
                try PrivateFolder.create(directory)
            } catch {
                throw StoreError.cannotOpen(path: path, reason: "cannot create the folder \(directory)")
            }
        }
        do throws(Errno) {
            let descriptor = try FileDescriptor.open(path, O_CREAT | O_EXCL | O_WRONLY, mode: 0o600)
            try? descriptor.close()
            return true
        } catch {
            guard error == .fileExists else { throw StoreError.cannotOpen(path: path, reason: "\(error)") }
            return false
        }
    }

    /// Removes a database this process made and could not set up (a full disk): an empty file
    /// left behind would be taken for one cut short. Only while nothing was written to it or
    /// its log, which another process that opened it meanwhile would have.
    private static func removeUnmade(_ path: String) {
        var info = stat(), log = stat()
        guard stat(path, &info) == 0, info.st_size == 0,
              stat(path + "-wal", &log) != 0 || log.st_size == 0 else { return }
        for suffix in ["", "-wal", "-shm", "-checked"] { unlink(path + suffix) }
    }

    /// Reads the header and the migration record without writing anything, and says which
    /// migrations this file still needs.
    private func pendingMigrations() throws -> [Migration] {
        let applicationID = try db.scalar("PRAGMA application_id")?.int64 ?? 0
        if applicationID == 0 {
            let objects = try db.scalar("SELECT count(*) FROM sqlite_schema")?.int64 ?? 0
            if objects == 0 { return Schema.migrations }
            // What `sqlite3 damaged.db .dump | sqlite3 recovered.db` makes: Nudge's tables
            // without the header's application id, which a dump does not carry.
            let record = try db.scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'nudge_migrations'")?.int64
            guard record == 1 else { throw StoreError.notANudgeDatabase(path: path) }
        } else if applicationID != Int64(Schema.applicationID) {
            throw StoreError.notANudgeDatabase(path: path)
        }
        return try pending(applied: appliedMigrations())
    }

    private func appliedMigrations() throws -> [String] {
        try db.query("SELECT name FROM nudge_migrations ORDER BY rowid") { $0.text("name") ?? "" }
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
                guard case .busy = error.code, attempts < 500 else { throw error }
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
            // What a step computes that SQLite cannot.
            try db.defineFunction("nudge_title_key", argumentCount: 1) { arguments in
                .text(Self.titleKey(arguments.text(0) ?? ""))
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
        switch error.code {
        case .notADatabase: return .notANudgeDatabase(path: path)
        case .corrupt: return .corrupt(path: path, reason: error.message)
        case _ where error.isDiskFull: return .diskFull(path: path)
        default: return .failed(reason: error.message)
        }
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
