import CSQLite
import Dispatch
import Foundation

/// One SQLite connection. It is opened without SQLite's own mutex, so it belongs to one thread
/// (the one that opened it) or, once `confine(to:)` says so, to one serial queue: every entry
/// point checks that it is called there, and stops the program otherwise.
public final class Connection {
    let handle: OpaquePointer
    private var owner: Owner
    private var statements = StatementCache()
    /// How many statements this connection has compiled.
    public private(set) var statementsPrepared = 0

    enum Owner {
        case thread(pthread_t)
        case queue(DispatchQueue)
    }

    /// With `deferCheckpoints`, the write-ahead log's pages after this connection's last commit.
    private var logPageCount: UnsafeMutablePointer<Int32>?

    /// Opens (and with `create`, creates) the database file at `path`; with `readOnly`, a
    /// connection that cannot write it; with `immutable` as well, one that takes the file
    /// alone for the database, without a -wal or -shm file or locks (SQLite's `immutable=1`).
    /// The corresponding C function is `sqlite3_open_v2`.
    public init(path: String, create: Bool, readOnly: Bool = false, immutable: Bool = false) throws(SQLiteError) {
        var db: OpaquePointer?
        let access = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0)
        let flags = access | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE | (immutable ? SQLITE_OPEN_URI : 0)
        // In a URI, a path's `?`, `#` and `%` would be read as its syntax.
        let name = immutable ? "file:" + Self.uriPath(path) + "?immutable=1" : path
        let rc = sqlite3_open_v2(name, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let error = SQLiteError(code: rc, connection: db)
            sqlite3_close_v2(db)
            throw error
        }
        handle = db
        owner = .thread(pthread_self())
    }

    private static func uriPath(_ path: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#%")
        return path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
    }

    deinit {
        statements.removeAll()
        sqlite3_close_v2(handle)
        logPageCount?.deallocate()
    }

    /// Stops the program when called off the connection's thread or queue: two threads in one
    /// connection at once would corrupt it, silently.
    @inline(__always)
    func checkOwner() {
        switch owner {
        case .thread(let thread):
            precondition(pthread_equal(thread, pthread_self()) != 0,
                         "a SQLite connection used on a thread other than the one that opened it")
        case .queue(let queue):
            dispatchPrecondition(condition: .onQueue(queue))
        }
    }

    /// From now on the connection belongs to `queue` (a serial one), whichever of its threads
    /// runs it. Called where it belongs now, and on `queue`.
    public func confine(to queue: DispatchQueue) {
        checkOwner()
        owner = .queue(queue)
        checkOwner()
    }

    /// Makes the calling thread the connection's owner, for the last holder of a connection
    /// that no other thread can reach any more (`isKnownUniquelyReferenced`), releasing it
    /// where it happens to be.
    public func adoptAsLastHolder() {
        owner = .thread(pthread_self())
    }

    /// A statement for `sql`: compiled on first use, then taken from the connection's cache.
    public func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        checkOwner()
        if let prepared = statements.take(sql) { return Statement(prepared, connection: self) }
        let prepared = try PreparedStatement(connection: handle, sql: sql)
        statementsPrepared += 1
        return Statement(prepared, connection: self)
    }

    func giveBack(_ prepared: PreparedStatement) {
        statements.keep(prepared)
    }

    /// How many statements the cache holds, lent ones not counted.
    public var cachedStatementCount: Int { statements.count }

    /// Finalizes the statements the cache holds, for a process that waits long between uses.
    public func clearStatementCache() {
        checkOwner()
        statements.removeAll()
    }

    /// Leaves the write-ahead log as it is when the connection closes, so that closing never
    /// writes the database file (checkpoints are the store's to make). The corresponding C
    /// function is `sqlite3_db_config` with `SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE`.
    public func disableCheckpointOnClose() {
        checkOwner()
        _ = nudge_sqlite_disable_checkpoint_on_close(handle)
    }

    /// Leaves the write-ahead log's checkpoints to `checkpoint()`: SQLite's automatic one runs
    /// inside the commit that takes the log past 1,000 pages, which then takes several times
    /// as long. The corresponding C function is `sqlite3_wal_hook`.
    public func deferCheckpoints() {
        checkOwner()
        guard logPageCount == nil else { return }
        let pages = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
        pages.initialize(to: 0)
        logPageCount = pages
        nudge_sqlite_defer_checkpoints(handle, pages)
    }

    /// With `deferCheckpoints`, the pages the write-ahead log held after this connection's last
    /// commit (or after its last `checkpoint()`); otherwise 0.
    public var logPages: Int { logPageCount.map { Int($0.pointee) } ?? 0 }

    /// Copies what the write-ahead log holds into the database file, as far as no reader still
    /// needs it, without waiting for anyone. The corresponding C function is
    /// `sqlite3_wal_checkpoint_v2` with `SQLITE_CHECKPOINT_PASSIVE`.
    public func checkpoint() throws(SQLiteError) {
        checkOwner()
        var logged: Int32 = 0
        var copied: Int32 = 0
        let rc = sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_PASSIVE, &logged, &copied)
        guard rc == SQLITE_OK else { throw SQLiteError(code: rc, connection: handle) }
        // All copied: the next commit starts the log again from its beginning.
        logPageCount?.pointee = copied == logged ? 0 : logged
    }

    /// Copies the whole database into `target` (an in-memory one, say). The corresponding C
    /// functions are `sqlite3_backup_init`, `_step` and `_finish`.
    public func copy(into target: Connection) throws(SQLiteError) {
        checkOwner()
        target.checkOwner()
        guard let backup = sqlite3_backup_init(target.handle, "main", handle, "main") else {
            throw SQLiteError(code: sqlite3_errcode(target.handle), connection: target.handle)
        }
        let step = sqlite3_backup_step(backup, -1)
        let finish = sqlite3_backup_finish(backup)
        guard step == SQLITE_DONE, finish == SQLITE_OK else {
            throw SQLiteError(code: step == SQLITE_DONE ? finish : step, connection: target.handle)
        }
    }

    /// How long a statement waits for another process's write lock before failing.
    public func setBusyTimeout(milliseconds: Int32) {
        checkOwner()
        sqlite3_busy_timeout(handle, milliseconds)
    }

    /// Runs one or more statements that return no rows. The corresponding C function is
    /// `sqlite3_exec`.
    public func execute(_ sql: String) throws(SQLiteError) {
        checkOwner()
        let rc = sqlite3_exec(handle, sql, nil, nil, nil)
        guard rc == SQLITE_OK else { throw SQLiteError(code: rc, connection: handle, sql: sql) }
    }

    /// Runs `sql` with `arguments` and returns each row mapped by `row`.
    public func query<T>(_ sql: String, _ arguments: [SQLValue] = [],
                         row: (Row) throws -> T) throws -> [T] {
        let statement = try prepare(sql)
        try statement.bind(arguments)
        var result: [T] = []
        while try statement.step() {
            result.append(try row(statement.row))
        }
        return result
    }

    /// Runs a statement that returns no rows.
    public func run(_ sql: String, _ arguments: [SQLValue] = []) throws(SQLiteError) {
        try prepare(sql).run(arguments)
    }

    /// The first column of the first row, or nil when there is no row.
    public func scalar(_ sql: String, _ arguments: [SQLValue] = []) throws(SQLiteError) -> SQLValue? {
        let statement = try prepare(sql)
        try statement.bind(arguments)
        guard try statement.step() else { return nil }
        return statement.row[0]
    }

    public var lastInsertRowID: Int64 {
        checkOwner()
        return sqlite3_last_insert_rowid(handle)
    }

    public var changes: Int {
        checkOwner()
        return Int(sqlite3_changes(handle))
    }

    /// Rows this connection has changed since it opened. The corresponding C function is
    /// `sqlite3_total_changes64`.
    public var totalChanges: Int64 {
        checkOwner()
        return sqlite3_total_changes64(handle)
    }
    /// Bytes the page cache holds. The corresponding C function is `sqlite3_db_status` with
    /// `SQLITE_DBSTATUS_CACHE_USED`.
    public var cacheUsed: Int {
        checkOwner()
        var current: Int32 = 0
        var highest: Int32 = 0
        _ = sqlite3_db_status(handle, SQLITE_DBSTATUS_CACHE_USED, &current, &highest, 0)
        return Int(current)
    }

    /// Frees the cached pages no statement holds (all of them between transactions). The
    /// corresponding C function is `sqlite3_db_release_memory`.
    public func releaseMemory() {
        checkOwner()
        _ = sqlite3_db_release_memory(handle)
    }

    /// Runs `body` in a read transaction: every statement in it sees the same moment of the
    /// file, whatever other processes write meanwhile.
    public func readTransaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN")
        defer { try? execute("COMMIT") }
        return try body()
    }

    /// Runs `body` in a `BEGIN IMMEDIATE` transaction: the write lock is taken up front, so the
    /// busy timeout applies and concurrent writers queue up instead of failing mid-transaction.
    public func writeTransaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }
}
