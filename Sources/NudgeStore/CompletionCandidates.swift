import Foundation
import NudgeCore
import NudgeSQLite

/// What a shell offers while completing a `nudge` command line: todo ids with their titles,
/// and category names. Each is one query on the file opened read-only, without a `TodoStore`
/// (no migrations, no planning, no whole todos), so that a keypress stays fast at any size.
/// Only columns of the first schema are read, so any Nudge database, old or new, answers.
public struct CompletionCandidates {
    private let db: Connection
    private let path: String

    /// Opens the database at `path` read-only; nil when there is no file (nothing to offer).
    public init?(path: String) throws(StoreError) {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        self.path = path
        do {
            db = try Connection(path: path, create: false, readOnly: true)
        } catch {
            throw StoreError.cannotOpen(path: path, reason: error.message)
        }
        // A writer holds the lock for milliseconds; a shell waiting longer is worse than no list.
        db.setBusyTimeout(milliseconds: 200)
        // Pages mapped rather than copied with read(2): listing every todo reads the table.
        try? db.execute("PRAGMA mmap_size = 268435456")
    }

    /// Calls `body` with the id and the title (its UTF-8 bytes, valid during the call) of each
    /// todo in `state` whose id starts with `idPrefix`, by id, up to `limit` todos. Nothing is
    /// collected.
    public func forEachTodo(_ state: TodoQuery.State, idPrefix: String = "", limit: Int = .max,
                            _ body: (Int64, UnsafeBufferPointer<UInt8>) -> Void) throws(StoreError) {
        let inState = switch state {
        case .pending: "completed_at IS NULL"
        case .completed: "completed_at IS NOT NULL"
        case .all: "1"
        }
        guard let ranges = idPrefix.isEmpty ? [Int64.min...Int64.max] : Self.idRanges(startingWith: idPrefix) else { return }
        // One rowid range at a time, each read in order: the ranges ascend, so all come by id
        // (one query with OR and ORDER BY would read the whole table).
        try perform {
            let statement = try db.prepare("SELECT id, title FROM todos WHERE id BETWEEN ?1 AND ?2 AND \(inState) ORDER BY id")
            let (id, title) = (statement.column("id"), statement.column("title"))
            var count = 0
            for range in ranges {
                try statement.bind([.integer(range.lowerBound), .integer(range.upperBound)])
                while count < limit, try statement.step() {
                    let row = statement.row
                    body(row.int64(id), row.textBytes(title))
                    count += 1
                }
            }
            statement.reset()
        }
    }

    /// The ids whose digits start with `prefix`: 12 is 12...12, 120...129, 1200...1299 and on
    /// while they fit in an Int64; ranges of the id, which SQLite looks up instead of reading
    /// every row. Nil when no id starts so (not digits, or a leading zero).
    static func idRanges(startingWith prefix: String) -> [ClosedRange<Int64>]? {
        guard prefix.first != "0", prefix.allSatisfy({ $0.isASCII && $0.isNumber }), var low = Int64(prefix) else { return nil }
        var ranges: [ClosedRange<Int64>] = []
        var width: Int64 = 1
        while true {
            let (high, overflow) = low.addingReportingOverflow(width - 1)
            ranges.append(low...(overflow ? .max : high))
            let (nextLow, lowOverflow) = low.multipliedReportingOverflow(by: 10)
            let (nextWidth, widthOverflow) = width.multipliedReportingOverflow(by: 10)
            if overflow || lowOverflow || widthOverflow { return ranges }
            low = nextLow
            width = nextWidth
        }
    }

    /// The category names that start with `prefix`, ignoring case, by name.
    public func categoryNames(prefix: String = "") throws(StoreError) -> [String] {
        try rows("SELECT name FROM categories WHERE name LIKE ?1 || '%' ESCAPE '\\' ORDER BY name COLLATE NOCASE",
                 [.text(Self.likeEscaped(prefix))]) { row in row.text("name") ?? "" }
    }

    /// The tags in use that start with `prefix`, ignoring case, by name; none in a database
    /// from before tags.
    public func tagNames(prefix: String = "") throws(StoreError) -> [String] {
        let tables = try rows("SELECT count(*) AS tables FROM sqlite_schema WHERE name = 'todo_tags'", []) { $0.int64("tables") }
        guard tables.first == 1 else { return [] }
        return try rows("""
            SELECT min(tag) AS tag FROM todo_tags WHERE substr(folded, 1, length(?1)) = ?1 GROUP BY folded ORDER BY folded
            """, [.text(Tag.folded(prefix))]) { row in row.text("tag") ?? "" }
    }

    private func rows<T>(_ sql: String, _ arguments: [SQLValue], _ read: (Row) -> T) throws(StoreError) -> [T] {
        try perform { try db.query(sql, arguments, row: read) }
    }

    private func perform<T>(_ body: () throws -> T) throws(StoreError) -> T {
        do {
            return try body()
        } catch let error as SQLiteError where .notADatabase ~= error.code {
            throw .notANudgeDatabase(path: path)
        } catch {
            throw .failed(reason: "\(error)")
        }
    }

    /// `prefix` matched literally by LIKE: its `%`, `_` and `\` are escaped.
    static func likeEscaped(_ prefix: String) -> String {
        var escaped = ""
        for character in prefix {
            if "%_\\".contains(character) { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }
}
