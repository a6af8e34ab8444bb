import CSQLite

/// The arguments of one call of a function defined with `Connection.defineFunction`.
public struct FunctionArguments {
    @usableFromInline let values: UnsafeMutablePointer<OpaquePointer?>?

    @usableFromInline
    init(values: UnsafeMutablePointer<OpaquePointer?>?) {
        self.values = values
    }

    // Inlinable: a function the list defines is called for each of its rows.
    @inlinable
    public func isNull(_ index: Int) -> Bool {
        sqlite3_value_type(values?[index]) == SQLITE_NULL
    }

    @inlinable
    public func int64(_ index: Int) -> Int64 {
        sqlite3_value_int64(values?[index])
    }

    /// The argument's text as UTF-8 bytes, valid during the call; empty for NULL.
    @inlinable
    public func textBytes(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        let value = values?[index]
        let bytes = sqlite3_value_text(value)
        return UnsafeBufferPointer(start: bytes, count: bytes == nil ? 0 : Int(sqlite3_value_bytes(value)))
    }

    @inlinable
    public func text(_ index: Int) -> String? {
        isNull(index) ? nil : String(decoding: textBytes(index), as: UTF8.self)
    }
}

/// Keeps a function's Swift body alive for as long as SQLite holds it.
private final class FunctionBody {
    let body: (FunctionArguments) -> SQLValue

    init(_ body: @escaping (FunctionArguments) -> SQLValue) {
        self.body = body
    }
}

extension Connection {
    /// Makes `name(...)` with `argumentCount` arguments callable from this connection's SQL,
    /// computed by `body`: for what SQLite cannot say itself (Unicode case, time zones).
    /// Defining the name again replaces it. The corresponding C function is
    /// `sqlite3_create_function_v2`.
    public func defineFunction(_ name: String, argumentCount: Int32,
                               _ body: @escaping (FunctionArguments) -> SQLValue) throws(SQLiteError) {
        checkOwner()
        let box = Unmanaged.passRetained(FunctionBody(body)).toOpaque()
        let rc = sqlite3_create_function_v2(
            handle, name, argumentCount, SQLITE_UTF8 | SQLITE_DETERMINISTIC, box,
            { context, count, values in
                let body = Unmanaged<FunctionBody>.fromOpaque(sqlite3_user_data(context)).takeUnretainedValue()
                switch body.body(FunctionArguments(values: values)) {
                case .null: sqlite3_result_null(context)
                case .integer(let value): sqlite3_result_int64(context, value)
                case .real(let value): sqlite3_result_double(context, value)
                case .text(let value): sqlite3_result_text(context, value, -1, nudge_sqlite_transient())
                }
            },
            nil, nil,
            { box in box.map { Unmanaged<FunctionBody>.fromOpaque($0).release() } })
        // On failure SQLite has already called the destructor, which released the box.
        guard rc == SQLITE_OK else { throw SQLiteError(code: rc, connection: handle) }
    }
}
