import Foundation
import Testing
@testable import NudgeSQLite

/// Columns are read by the name the SQL gives them.
struct RowTests {
    @Test func columnsAreFoundByTheirNameOrAlias() throws {
        let db = try Connection(path: ":memory:", create: true)
        try db.execute("""
            CREATE TABLE todos (id INTEGER PRIMARY KEY, title TEXT, due_at INTEGER, category_id INTEGER);
            CREATE TABLE categories (id INTEGER PRIMARY KEY, name TEXT);
            INSERT INTO categories VALUES (7, 'home');
            INSERT INTO todos VALUES (1, 'Buy milk', NULL, 7), (2, 'Café', 1700000000, NULL);
            """)
        let rows = try db.query("""
            SELECT t.title, t.due_at, t.id, c.id AS category, c.name AS category_name, length(t.title) AS length
            FROM todos t LEFT JOIN categories c ON c.id = t.category_id ORDER BY t.id
            """) { row in
            [row.text("title") ?? "-", "\(row.optionalInt64("due_at") ?? -1)", "\(row.int64("id"))",
             row.isNull("category") ? "none" : "\(row["category"])", row.text("category_name") ?? "-",
             "\(row.int64("length"))", String(decoding: row.textBytes("title"), as: UTF8.self)]
        }
        #expect(rows == [["Buy milk", "-1", "1", "integer(7)", "home", "8", "Buy milk"],
                         ["Café", "1700000000", "2", "none", "-", "4", "Café"]])
    }

    @Test func aColumnFoundOnceServesEveryRow() throws {
        let db = try Connection(path: ":memory:", create: true)
        try db.execute("CREATE TABLE t (a, b); INSERT INTO t VALUES (1, 'one'), (2, 'two')")
        let statement = try db.prepare("SELECT b, a FROM t ORDER BY a")
        let (a, b) = (statement.column("a"), statement.column("b"))
        var read: [String] = []
        while try statement.step() {
            read.append("\(statement.row.int64(a)) \(statement.row.text(b) ?? "")")
        }
        #expect(read == ["1 one", "2 two"])
    }

    @Test func aNameTwoColumnsShareStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            let db = try Connection(path: ":memory:", create: true)
            try db.execute("CREATE TABLE a (id); CREATE TABLE b (id); INSERT INTO a VALUES (1); INSERT INTO b VALUES (2)")
            _ = try db.query("SELECT a.id, b.id FROM a, b") { $0.int64("id") }
        }
    }

    @Test func aNameNoColumnHasStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            let db = try Connection(path: ":memory:", create: true)
            _ = try db.query("SELECT 1 AS one") { $0.int64("two") }
        }
    }
}
