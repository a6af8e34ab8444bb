import CSQLite

/// A connection's prepared statements, one per SQL text: compiling a statement again at each
/// call costs more than running a small one. A statement lent out is not in the cache, so a
/// nested use of the same SQL gets a statement of its own; when both come back, the second is
/// finalized.
struct StatementCache {
    /// Enough for every fixed statement of the store; SQL built from the caller's input (a
    /// list of ids) would otherwise fill it without end.
    static let capacity = 64
    /// Longer SQL is built around the caller's data (an IN list of thousands of ids), used once.
    static let longestSQL = 4096

    private var statements: [String: PreparedStatement] = [:]
    private var uses: UInt64 = 0

    var count: Int { statements.count }

    mutating func take(_ sql: String) -> PreparedStatement? {
        statements.removeValue(forKey: sql)
    }

    /// Keeps `prepared`, reset and with its bindings cleared, unless the cache already holds
    /// its SQL; when full, the least recently used statement goes. The corresponding C
    /// functions are `sqlite3_reset` and `sqlite3_clear_bindings`.
    mutating func keep(_ prepared: PreparedStatement) {
        sqlite3_reset(prepared.handle)
        sqlite3_clear_bindings(prepared.handle)
        guard prepared.sql.utf8.count <= Self.longestSQL, statements[prepared.sql] == nil else { return }
        if statements.count >= Self.capacity, let oldest = statements.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            statements[oldest.key] = nil
        }
        uses += 1
        prepared.lastUse = uses
        statements[prepared.sql] = prepared
    }

    /// Finalizes every statement kept.
    mutating func removeAll() {
        statements.removeAll()
    }
}
