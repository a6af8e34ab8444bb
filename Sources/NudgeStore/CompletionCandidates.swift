import Foundation

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
    }

    /// The ids and titles of the todos in `state` whose id starts with `idPrefix`, by id.
    public func todos(_ state: TodoQuery.State, idPrefix: String = "") throws(StoreError) -> [(id: Int64, title: String)] {
        let condition = switch state {
        case .pending: "completed_at IS NULL AND "
        case .completed: "completed_at IS NOT NULL AND "
        case .all: ""
        }
        return try rows("SELECT id, title FROM todos WHERE \(condition)CAST(id AS TEXT) LIKE ?1 || '%' ESCAPE '\\' ORDER BY id",
                        [.text(Self.likeEscaped(idPrefix))]) { row in (row.int64(0), row.text(1) ?? "") }
    }

    /// The category names that start with `prefix`, ignoring case, by name.
    public func categoryNames(prefix: String = "") throws(StoreError) -> [String] {
        try rows("SELECT name FROM categories WHERE name LIKE ?1 || '%' ESCAPE '\\' ORDER BY name COLLATE NOCASE",
                 [.text(Self.likeEscaped(prefix))]) { row in row.text(0) ?? "" }
    }

    private func rows<T>(_ sql: String, _ arguments: [SQLValue], _ read: (Row) -> T) throws(StoreError) -> [T] {
        do {
            return try db.query(sql, arguments, row: read)
        } catch let error as SQLiteError where error.isNotADatabase {
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
