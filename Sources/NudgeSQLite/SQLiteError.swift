import CSQLite
import Glibc

/// A failed SQLite call: the result code, SQLite's own message, and the SQL that failed.
public struct SQLiteError: Error, CustomStringConvertible, Sendable {
    public let code: ResultCode
    public let message: String
    public let sql: String?
    /// The errno of the system call that failed under it, or 0.
    public let systemCode: Int32

    public init(code: ResultCode, message: String, sql: String? = nil, systemCode: Int32 = 0) {
        self.code = code
        self.message = message
        self.sql = sql
        self.systemCode = systemCode
    }

    /// The corresponding C functions are `sqlite3_errmsg` and `sqlite3_system_errno`.
    init(code: Int32, connection: OpaquePointer?, sql: String? = nil) {
        let text = connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            ?? String(cString: sqlite3_errstr(code))
        self.init(code: ResultCode(rawValue: code), message: text, sql: sql,
                  systemCode: connection.map { sqlite3_system_errno($0) } ?? 0)
    }

    /// SQLite's "database or disk is full", or a write that failed for want of space.
    public var isDiskFull: Bool {
        switch code {
        case .full: true
        case .ioError: systemCode == ENOSPC
        default: false
        }
    }

    public var description: String {
        "SQLite error \(code.rawValue): \(message)" + (sql.map { " (in \($0))" } ?? "")
    }
}
