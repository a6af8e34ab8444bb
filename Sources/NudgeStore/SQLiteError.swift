import CSQLite

/// A failed SQLite call: the result code, SQLite's own message, and the SQL that failed.
public struct SQLiteError: Error, CustomStringConvertible, Sendable {
    public let code: Int32
    public let message: String
    public let sql: String?

    init(code: Int32, message: String, sql: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
    }

    init(code: Int32, connection: OpaquePointer?, sql: String? = nil) {
        let text = connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            ?? String(cString: sqlite3_errstr(code))
        self.init(code: code, message: text, sql: sql)
    }

    /// The primary result code, without the extended bits.
    public var primaryCode: Int32 { code & 0xff }

    public var isNotADatabase: Bool { primaryCode == SQLITE_NOTADB }
    public var isCorrupt: Bool { primaryCode == SQLITE_CORRUPT }

    public var description: String {
        "SQLite error \(code): \(message)" + (sql.map { " (in \($0))" } ?? "")
    }
}
