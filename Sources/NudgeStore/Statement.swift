import CSQLite

/// A value bound to or read from a statement.
public enum SQLValue: Hashable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

    public var int64: Int64? {
        if case .integer(let v) = self { return v }
        return nil
    }

    public var string: String? {
        if case .text(let v) = self { return v }
        return nil
    }
}

extension SQLValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    public init(stringLiteral value: String) { self = .text(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
}

extension Optional where Wrapped == String {
    public var sqlValue: SQLValue { map(SQLValue.text) ?? .null }
}

extension Optional where Wrapped == Int64 {
    public var sqlValue: SQLValue { map(SQLValue.integer) ?? .null }
}

/// A prepared statement, finalized when released.
public final class Statement {
    let handle: OpaquePointer
    let sql: String
    unowned let connection: Connection

    init(connection: Connection, sql: String) throws(SQLiteError) {
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v2(connection.handle, sql, -1, &statement, nil)
        guard rc == SQLITE_OK, let statement else {
            throw SQLiteError(code: rc, connection: connection.handle, sql: sql)
        }
        self.handle = statement
        self.sql = sql
        self.connection = connection
    }

    deinit {
        sqlite3_finalize(handle)
    }

    public func bind(_ values: [SQLValue]) throws(SQLiteError) {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let rc: Int32
            switch value {
            case .null: rc = sqlite3_bind_null(handle, index)
            case .integer(let v): rc = sqlite3_bind_int64(handle, index, v)
            case .real(let v): rc = sqlite3_bind_double(handle, index, v)
            case .text(let v): rc = sqlite3_bind_text(handle, index, v, -1, nudge_sqlite_transient())
            }
            guard rc == SQLITE_OK else { throw SQLiteError(code: rc, connection: connection.handle, sql: sql) }
        }
    }

    /// The highest parameter number the SQL uses. The corresponding C function is
    /// `sqlite3_bind_parameter_count`.
    public var parameterCount: Int { Int(sqlite3_bind_parameter_count(handle)) }

    /// Ends a statement read only part way, so that it holds no read of the database. The
    /// corresponding C function is `sqlite3_reset`.
    public func reset() {
        sqlite3_reset(handle)
    }

    /// Binds `values` and runs the statement to its end, for statements that return no rows.
    public func run(_ values: [SQLValue]) throws(SQLiteError) {
        try bind(values)
        while try step() {}
    }

    /// Advances to the next row; false when the statement is done.
    public func step() throws(SQLiteError) -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let rc: throw SQLiteError(code: rc, connection: connection.handle, sql: sql)
        }
    }
}

/// The current row of a statement.
public struct Row {
    let statement: Statement

    public subscript(column: Int32) -> SQLValue {
        let h = statement.handle
        switch sqlite3_column_type(h, column) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(h, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(h, column))
        case SQLITE_NULL: return .null
        default: return .text(text(column) ?? "")
        }
    }

    public func int64(_ column: Int32) -> Int64 {
        sqlite3_column_int64(statement.handle, column)
    }

    public func optionalInt64(_ column: Int32) -> Int64? {
        sqlite3_column_type(statement.handle, column) == SQLITE_NULL ? nil : int64(column)
    }

    /// The column's text as UTF-8 bytes, without making a String: valid until the statement
    /// steps again. Empty for NULL. The corresponding C function is `sqlite3_column_text`.
    public func textBytes(_ column: Int32) -> UnsafeBufferPointer<UInt8> {
        let bytes = sqlite3_column_text(statement.handle, column)
        return UnsafeBufferPointer(start: bytes, count: bytes == nil ? 0 : Int(sqlite3_column_bytes(statement.handle, column)))
    }

    public func text(_ column: Int32) -> String? {
        guard let bytes = sqlite3_column_text(statement.handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(statement.handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }
}
