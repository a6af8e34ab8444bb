import Foundation
import NudgeCore
import NudgeSQLite

extension TodoStore {
    /// A todo's tags, in order, as one text: a space never occurs in a tag. Read by the todo's
    /// id from the table's primary key, which keeps them in the order added.
    static let tagsColumn = "(SELECT group_concat(tag, ' ') FROM todo_tags WHERE todo_id = t.id) AS tags"

    /// Every tagged todo's tags, as `tagsColumn` gives them, by todo: one read of the table in
    /// the primary key's order. A list of most todos reads them so in a third of the time it
    /// takes to look each row's up by its id (at 100,000 todos, 30% tagged).
    func tagTextsByTodo() throws -> [Int64: String] {
        let statement = try db.prepare("SELECT todo_id, group_concat(tag, ' ') AS tags FROM todo_tags GROUP BY todo_id")
        let (id, tags) = (statement.column("todo_id"), statement.column("tags"))
        var texts: [Int64: String] = [:]
        while try statement.step() {
            texts[statement.row.int64(id)] = statement.row.text(tags)
        }
        return texts
    }

    static func tags(fromColumn text: String?) -> [String] {
        guard let text else { return [] }
        return text.split(separator: " ").map(String.init)
    }

    /// Gives the todo exactly `tags` (already `Tag.validated`), in this order; a tag that
    /// another todo has already is stored as spelled there, so that a tag reads the same on
    /// every todo. Nothing is written when the todo has them already.
    func replaceTags(_ tags: [String], todoID: Int64) throws {
        let wanted = Tag.unique(tags)
        let stored = try db.query("SELECT tag FROM todo_tags WHERE todo_id = ? ORDER BY position", [.integer(todoID)]) {
            $0.text("tag") ?? ""
        }
        guard stored.map(Tag.folded) != wanted.map(Tag.folded) else { return }
        try db.run("DELETE FROM todo_tags WHERE todo_id = ?", [.integer(todoID)])
        let spelling = try db.prepare("SELECT tag FROM todo_tags WHERE folded = ? LIMIT 1")
        let insert = try db.prepare("INSERT INTO todo_tags (todo_id, position, tag, folded) VALUES (?, ?, ?, ?)")
        for (position, tag) in wanted.enumerated() {
            let folded = Tag.folded(tag)
            let kept = stored.first { Tag.folded($0) == folded }
            try spelling.bind([.text(folded)])
            let shared = try spelling.step() ? spelling.row.text("tag") : nil
            spelling.reset()
            try insert.run([.integer(todoID), .integer(Int64(position)), .text(kept ?? shared ?? tag), .text(folded)])
        }
    }

    /// Every tag in use, as spelled, by folded form; for completion and `nudge list` hints.
    public func tagNames() throws(StoreError) -> [String] {
        try perform {
            try db.query("SELECT min(tag) AS tag FROM todo_tags GROUP BY folded ORDER BY folded") { $0.text("tag") ?? "" }
        }
    }

    /// The conditions that `query`'s tags add to a filter: every `tags` one, none of
    /// `excludedTags`. Each tag's todos are put in a temporary table of ids first: SQLite
    /// would gather them again at each run of a statement with `IN (SELECT ...)`, and the
    /// list runs one a hundred times and more to find its widest due (200 ms at 100,000 todos).
    func tagConditions(_ query: TodoQuery, into filter: inout TodoFilter) throws {
        var number = 0
        for (tags, negation) in [(query.tags, ""), (query.excludedTags, "NOT ")] {
            for tag in Tag.unique(tags) {
                let table = "temp.nudge_tagged_\(number)"
                number += 1
                try db.execute("CREATE TEMP TABLE IF NOT EXISTS nudge_tagged_\(number - 1) (id INTEGER PRIMARY KEY); DELETE FROM \(table)")
                try db.run("INSERT INTO \(table) SELECT todo_id FROM todo_tags WHERE folded = ?", [.text(Tag.folded(tag))])
                filter.conditions.append("t.id \(negation)IN \(table)")
            }
        }
    }
}
