import Foundation
import Testing
@testable import NudgeSQLite

/// Each SQL text is compiled once per connection; a statement comes back reset, its bindings
/// cleared.
struct StatementCacheTests {
    func numbers() throws -> Connection {
        let db = try Connection(path: ":memory:", create: true)
        try db.execute("CREATE TABLE t (n INTEGER); INSERT INTO t VALUES (1), (2), (3)")
        return db
    }

    @Test func theSameSQLIsCompiledOnce() throws {
        let db = try numbers()
        let before = db.statementsPrepared
        for n in 1...3 {
            #expect(try db.scalar("SELECT n FROM t WHERE n = ?", [.integer(Int64(n))]) == .integer(Int64(n)))
        }
        #expect(db.statementsPrepared == before + 1)
        _ = try db.scalar("SELECT count(*) FROM t")
        #expect(db.statementsPrepared == before + 2)
    }

    @Test func aStatementComesBackWithoutItsBindings() throws {
        let db = try numbers()
        #expect(try db.scalar("SELECT ?1", ["milk"]) == .text("milk"))
        let again = try db.prepare("SELECT ?1")
        #expect(try again.step())
        #expect(again.row[0] == .null)
    }

    @Test func aStatementReadPartWayIsResetWhenGivenBack() throws {
        let db = try numbers()
        do {
            let statement = try db.prepare("SELECT n FROM t ORDER BY n")
            #expect(try statement.step())
        }
        // A statement still reading the table would keep it locked.
        try db.execute("DROP TABLE t")
    }

    @Test func aNestedUseOfTheSameSQLGetsAStatementOfItsOwn() throws {
        let db = try numbers()
        let sql = "SELECT n FROM t WHERE n >= ? ORDER BY n"
        let pairs = try db.query(sql, [1]) { outer in
            try db.query(sql, [.integer(outer.int64("n"))]) { inner in [outer.int64("n"), inner.int64("n")] }.count
        }
        #expect(pairs == [3, 2, 1])
        #expect(db.cachedStatementCount == 1)
        #expect(try db.query(sql, [2]) { $0.int64("n") } == [2, 3])
    }

    @Test func theCacheKeepsAtMostItsCapacityAndNoLongSQL() throws {
        let db = try numbers()
        for n in 0..<(StatementCache.capacity + 10) {
            _ = try db.scalar("SELECT \(n)")
        }
        #expect(db.cachedStatementCount == StatementCache.capacity)
        db.clearStatementCache()
        #expect(db.cachedStatementCount == 0)
        let long = "SELECT n FROM t WHERE n IN (" + (1...2000).map(String.init).joined(separator: ",") + ")"
        #expect(try db.query(long) { $0.int64("n") } == [1, 2, 3])
        #expect(db.cachedStatementCount == 0)
    }

    @Test func aChangedSchemaIsSeenByACachedStatement() throws {
        let db = try numbers()
        #expect(try db.query("SELECT * FROM t ORDER BY n") { $0.int64("n") } == [1, 2, 3])
        try db.execute("ALTER TABLE t ADD COLUMN label TEXT; UPDATE t SET label = 'x' || n")
        #expect(try db.query("SELECT * FROM t ORDER BY n") { $0.text("label") } == ["x1", "x2", "x3"])
    }
}
