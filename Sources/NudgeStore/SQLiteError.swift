import CSQLite
import Glibc

/// A failed SQLite call: the result code, SQLite's own message, and the SQL that failed.
public struct SQLiteError: Error, CustomStringConvertible, Sendable {
    public let code: Int32
    public let message: String
    public let sql: String?
    /// The errno of the system call that failed under it, or 0.
    public let systemCode: Int32

    init(code: Int32, message: String, sql: String? = nil, systemCode: Int32 = 0) {
        self.code = code
        self.message = message
        self.sql = sql
        self.systemCode = systemCode
    }

    /// The corresponding C functions are `sqlite3_errmsg` and `sqlite3_system_errno`.
    init(code: Int32, connection: OpaquePointer?, sql: String? = nil) {
        let text = connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            ?? String(cString: sqlite3_errstr(code))
        self.init(code: code, message: text, sql: sql, systemCode: connection.map { sqlite3_system_errno($0) } ?? 0)
    }

    /// The primary result code, without the extended bits.
    public var primaryCode: Int32 { code & 0xff }

    public var isNotADatabase: Bool { primaryCode == SQLITE_NOTADB }
    public var isCorrupt: Bool { primaryCode == SQLITE_CORRUPT }
    /// SQLite's "database or disk is full", or a write that failed for want of space.
    public var isDiskFull: Bool { primaryCode == SQLITE_FULL || (primaryCode == SQLITE_IOERR && systemCode == ENOSPC) }

    public var description: String {
        "SQLite error \(code): \(message)" + (sql.map { " (in \($0))" } ?? "")
    }
}
