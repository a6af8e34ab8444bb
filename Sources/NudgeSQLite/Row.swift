import CSQLite

/// The current row of a statement. Its columns are read by name (`row.text("title")`), or,
/// in a loop over many rows, by a `Column` the statement found by name once.
public struct Row {
    @usableFromInline let statement: Statement
    @usableFromInline let handle: OpaquePointer

    // Inlinable, as are the reads by `Column` and by position: the store reads every row of a
    // list through them.
    @inlinable
    public init(statement: Statement) {
        self.statement = statement
        handle = statement.handle
    }

    public subscript(name: String) -> SQLValue { self[statement.column(name)] }
    public func isNull(_ name: String) -> Bool { isNull(statement.column(name)) }
    public func int64(_ name: String) -> Int64 { int64(statement.column(name)) }
    public func optionalInt64(_ name: String) -> Int64? { optionalInt64(statement.column(name)) }
    public func text(_ name: String) -> String? { text(statement.column(name)) }
    public func textBytes(_ name: String) -> UnsafeBufferPointer<UInt8> { textBytes(statement.column(name)) }

    @inlinable
    public subscript(column: Column) -> SQLValue { self[column.index] }

    @inlinable
    public func isNull(_ column: Column) -> Bool {
        sqlite3_column_type(handle, column.index) == SQLITE_NULL
    }

    @inlinable
    public func int64(_ column: Column) -> Int64 { int64(column.index) }
    @inlinable
    public func optionalInt64(_ column: Column) -> Int64? { optionalInt64(column.index) }
    @inlinable
    public func text(_ column: Column) -> String? { text(column.index) }
    @inlinable
    public func textBytes(_ column: Column) -> UnsafeBufferPointer<UInt8> { textBytes(column.index) }

    /// By position, for a statement of one column or where the SQL comes from elsewhere.
    @inlinable
    public subscript(column: Int32) -> SQLValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, column))
        case SQLITE_NULL: return .null
        default: return .text(text(column) ?? "")
        }
    }

    @inlinable
    public func int64(_ column: Int32) -> Int64 {
        sqlite3_column_int64(handle, column)
    }

    @inlinable
    public func optionalInt64(_ column: Int32) -> Int64? {
        sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : int64(column)
    }

    /// The column's text as UTF-8 bytes, without making a String: valid until the statement
    /// steps again. Empty for NULL. The corresponding C function is `sqlite3_column_text`.
    @inlinable
    public func textBytes(_ column: Int32) -> UnsafeBufferPointer<UInt8> {
        let bytes = sqlite3_column_text(handle, column)
        return UnsafeBufferPointer(start: bytes, count: bytes == nil ? 0 : Int(sqlite3_column_bytes(handle, column)))
    }

    @inlinable
    public func text(_ column: Int32) -> String? {
        guard let bytes = sqlite3_column_text(handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }
}
