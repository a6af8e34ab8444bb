import Foundation
import NudgeCore
import NudgeSQLite

/// How many of a todo's subtasks are done, of how many.
public struct SubtaskProgress: Sendable, Equatable {
    public var done: Int
    public var total: Int

    public init(done: Int, total: Int) {
        self.done = done
        self.total = total
    }
}

extension TodoStore {
    /// The uuid of the todo `parentID`, once it is checked that `todoID` (nil for a new todo)
    /// may become its subtask: no cycle, no more than `Todo.maximumSubtaskLevels` levels.
    func checkedParentUUID(_ parentID: Int64, forTodo todoID: Int64?) throws -> String {
        guard let parent = try lookUp(ids: [parentID]).found.first else {
            throw StoreError.badParent("there is no todo \(parentID) to be the parent; 'nudge list --all' shows the ids")
        }
        try checkParent(uuid: parent.uuid, forTodo: todoID)
        return parent.uuid
    }

    /// The uuid to give `todoID` as its parent's, the todo `parentID`, when it may have it
    /// (see `checkParent`).
    public func parentUUID(_ parentID: Int64, forTodo todoID: Int64) throws(StoreError) -> String {
        try perform { try checkedParentUUID(parentID, forTodo: todoID) }
    }

    /// Refuses, naming the todos, a parent that does not exist, that is `todoID` itself or one
    /// of its subtasks, or that would make a tree deeper than `Todo.maximumSubtaskLevels`.
    func checkParent(uuid: String, forTodo todoID: Int64?) throws {
        let find = try db.prepare("SELECT id, parent_uuid FROM todos WHERE uuid = ?")
        // The parent, its parent, and so on up; a loop already in the data (from a file) ends it.
        var chain: [Int64] = []
        var next: String? = uuid
        while let current = next, chain.count <= Todo.maximumSubtaskLevels {
            try find.bind([.text(current)])
            guard try find.step() else { break }
            let id = find.row.int64("id")
            if chain.contains(id) { break }
            chain.append(id)
            next = find.row.text("parent_uuid")
            find.reset()
        }
        guard let parentID = chain.first else { throw StoreError.badParent("there is no todo with uuid \(uuid) to be the parent") }
        guard let todoID else {
            if chain.count >= Todo.maximumSubtaskLevels { throw Self.tooDeep(nil, parentID, chain: chain) }
            return
        }
        if parentID == todoID { throw StoreError.badParent("todo \(todoID) cannot be a subtask of itself") }
        if let index = chain.firstIndex(of: todoID) {
            let path = chain[...index].map(String.init).joined(separator: " → ")
            throw StoreError.badParent("todo \(todoID) cannot be a subtask of \(parentID), which is a subtask of it (\(path))")
        }
        if chain.count + (try subtaskLevels(of: todoID)) > Todo.maximumSubtaskLevels {
            throw Self.tooDeep(todoID, parentID, chain: chain)
        }
    }

    private static func tooDeep(_ todoID: Int64?, _ parentID: Int64, chain: [Int64]) -> StoreError {
        let path = chain.reversed().map(String.init).joined(separator: " → ")
        return .badParent("\(todoID.map { "todo \($0)" } ?? "a new todo") cannot be a subtask of \(parentID) (\(path)): "
            + "subtasks go at most \(Todo.maximumSubtaskLevels) levels deep")
    }

    /// How many levels the todo and its subtasks make (1 for a todo without any), counting no
    /// further than one past the limit.
    private func subtaskLevels(of todoID: Int64) throws -> Int {
        Int(try db.scalar("""
            WITH RECURSIVE tree(uuid, level) AS (
                SELECT uuid, 1 FROM todos WHERE id = ?1
                UNION SELECT t.uuid, tree.level + 1 FROM todos t JOIN tree ON t.parent_uuid = tree.uuid WHERE tree.level <= ?2
            )
            SELECT max(level) FROM tree
            """, [.integer(todoID), .integer(Int64(Todo.maximumSubtaskLevels))])?.int64 ?? 1)
    }

    /// The todo's subtasks (not theirs), pending first, each group by title.
    public func subtasks(of todo: Todo) throws(StoreError) -> [Todo] {
        try perform {
            try selectTodos("SELECT \(Self.todoColumns) WHERE t.parent_uuid = ? ORDER BY t.completed_at IS NOT NULL, t.title_key, t.id",
                            [.text(todo.uuid)])
        }
    }

    /// How many of the todo's subtasks are done, of how many (0 of 0 without any).
    public func subtaskProgress(of todo: Todo) throws(StoreError) -> SubtaskProgress {
        try perform {
            let statement = try db.prepare("SELECT count(*) AS total, count(completed_at) AS done FROM todos WHERE parent_uuid = ?")
            try statement.bind([.text(todo.uuid)])
            guard try statement.step() else { return SubtaskProgress(done: 0, total: 0) }
            return SubtaskProgress(done: Int(statement.row.int64("done")), total: Int(statement.row.int64("total")))
        }
    }

    /// The todo this one is a subtask of, when it is in the store.
    public func parent(of todo: Todo) throws(StoreError) -> Todo? {
        guard let uuid = todo.parentUUID else { return nil }
        return try perform { try selectTodos("SELECT \(Self.todoColumns) WHERE t.uuid = ?", [.text(uuid)]).first }
    }

    /// The pending subtasks of each of `ids`, by id, deepest first: what `done` and `delete`
    /// of a parent would leave open. Bounded by the depth limit; a loop in the data ends it.
    public func openSubtaskIDs(of ids: [Int64]) throws(StoreError) -> [Int64] {
        try perform {
            let statement = try db.prepare("""
                WITH RECURSIVE tree(id, uuid, level) AS (
                    SELECT id, uuid, 0 FROM todos WHERE id = ?1
                    UNION SELECT t.id, t.uuid, tree.level + 1 FROM todos t JOIN tree ON t.parent_uuid = tree.uuid
                        WHERE tree.level <= ?2
                )
                SELECT tree.id FROM tree JOIN todos t ON t.id = tree.id
                WHERE tree.level > 0 AND t.completed_at IS NULL ORDER BY tree.level DESC
                """)
            var found: [Int64] = []
            for id in ids {
                try statement.bind([.integer(id), .integer(Int64(Todo.maximumSubtaskLevels))])
                while try statement.step() {
                    let subtask = statement.row.int64("id")
                    if !found.contains(subtask) && !ids.contains(subtask) { found.append(subtask) }
                }
            }
            return found
        }
    }

    /// Every todo's parent (by id) that is in the store, by the subtask's id, with whether the
    /// subtask is done: one read of the parent index, for a list of any length. For a query
    /// whose todos were found once (`searchingOnce`), only the links of those todos, as
    /// subtask or as parent: all a list of them places or counts.
    public func subtaskLinks(of query: TodoQuery? = nil) throws(StoreError) -> [Int64: (parent: Int64, isDone: Bool)] {
        try perform {
            let found = query?.foundOnce == true ? " AND (s.id IN temp.nudge_found OR p.id IN temp.nudge_found)" : ""
            let statement = try db.prepare("""
                SELECT s.id, p.id AS parent_id, s.completed_at IS NOT NULL AS done
                FROM todos s INDEXED BY todos_by_parent JOIN todos p ON p.uuid = s.parent_uuid
                WHERE s.parent_uuid IS NOT NULL AND p.id != s.id\(found)
                """)
            var links: [Int64: (parent: Int64, isDone: Bool)] = [:]
            while try statement.step() {
                let row = statement.row
                links[row.int64("id")] = (row.int64("parent_id"), row.int64("done") != 0)
            }
            return links
        }
    }

    /// Runs `body` with `query` narrowed to the todos with these ids, put in a temporary table
    /// so that a list reads them in its order without looking at the others' rows.
    /// Call it inside `reading`.
    public func onlyIDs<T>(_ ids: some Sequence<Int64>, of query: TodoQuery, _ body: (TodoQuery) throws -> T) throws -> T {
        defer { try? db.execute("DELETE FROM temp.nudge_only") }
        try perform {
            try db.execute("CREATE TEMP TABLE IF NOT EXISTS nudge_only (id INTEGER PRIMARY KEY); DELETE FROM temp.nudge_only")
            let insert = try db.prepare("INSERT OR IGNORE INTO temp.nudge_only VALUES (?)")
            for id in ids { try insert.run([.integer(id)]) }
        }
        var narrowed = query
        narrowed.onlyListed = true
        return try body(narrowed)
    }
}
