import CSQLite

/// A compiled statement, kept by its connection's cache between uses and finalized when the
/// cache lets it go.
@usableFromInline
final class PreparedStatement {
    @usableFromInline let handle: OpaquePointer
    let sql: String
    /// When the cache last handed it out, to let the least used go first.
    var lastUse: UInt64 = 0
    private struct NamedColumn {
        let name: String
        /// -1 for a name that two columns have.
        var index: Int32
    }

    /// The result columns by name; made again when SQLite has compiled the statement again (a
    /// changed schema may change `*`). Searched in order, comparing lengths first: a statement
    /// has a few columns, and a read by name in a loop over rows would hash the name at each row.
    private var columns: [NamedColumn] = []
    private var indexedAtReprepare: Int32 = -1

    /// The corresponding C functions are `sqlite3_column_name` and `sqlite3_stmt_status`.
    func columnIndex(_ name: String) -> Int32? {
        let reprepared = sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_REPREPARE, 0)
        if reprepared != indexedAtReprepare {
            columns = []
            for index in 0..<sqlite3_column_count(handle) {
                guard let name = sqlite3_column_name(handle, index).map({ String(cString: $0) }) else { continue }
                if let earlier = columns.firstIndex(where: { $0.name == name }) {
                    columns[earlier].index = -1
                } else {
                    columns.append(NamedColumn(name: name, index: index))
                }
            }
            indexedAtReprepare = reprepared
        }
        let length = name.utf8.count
        return columns.first { $0.name.utf8.count == length && $0.name == name }?.index
    }

    /// The corresponding C function is `sqlite3_prepare_v2`.
    init(connection: OpaquePointer, sql: String) throws(SQLiteError) {
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v2(connection, sql, -1, &statement, nil)
        guard rc == SQLITE_OK, let statement else {
            throw SQLiteError(code: rc, connection: connection, sql: sql)
        }
        handle = statement
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(handle)
    }
}

/// A result column found by name once, to be read from each row without looking it up again:
/// for SQL that names its columns, whose places a changed schema does not move.
public struct Column: Sendable {
    @usableFromInline let index: Int32

    @usableFromInline
    init(index: Int32) {
        self.index = index
    }
}

/// A prepared statement, lent by its connection's cache: given back, reset and with its
/// bindings cleared, when released.
public final class Statement {
    @usableFromInline let prepared: PreparedStatement
    let connection: Connection

    init(_ prepared: PreparedStatement, connection: Connection) {
        self.prepared = prepared
        self.connection = connection
    }

    deinit {
        connection.giveBack(prepared)
    }

    @inlinable var handle: OpaquePointer { prepared.handle }
    var sql: String { prepared.sql }

    /// The row the statement is at, after `step()` returned true.
    @inlinable public var row: Row { Row(statement: self) }

    /// The result column named `name` (as `AS` names it, else the column's own name). A name
    /// that no column or more than one has is a mistake in the SQL, and stops the program.
    /// The corresponding C function is `sqlite3_column_name`.
    public func column(_ name: String) -> Column {
        guard let index = prepared.columnIndex(name), index >= 0 else {
            preconditionFailure("no single column named \(name) in: \(sql)")
        }
        return Column(index: index)
    }

    public func bind(_ values: [SQLValue]) throws(SQLiteError) {
        connection.checkOwner()
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
        connection.checkOwner()
        sqlite3_reset(handle)
    }

    /// Binds `values` and runs the statement to its end, for statements that return no rows.
    public func run(_ values: [SQLValue]) throws(SQLiteError) {
        try bind(values)
        while try step() {}
    }

    /// Advances to the next row; false when the statement is done.
    public func step() throws(SQLiteError) -> Bool {
        connection.checkOwner()
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let rc: throw SQLiteError(code: rc, connection: connection.handle, sql: sql)
        }
    }
}
