import Foundation
import NudgeCore
import NudgeSQLite

/// Which todos are subtasks of which, and which of them a list shows where: see
/// `TodoStore.subtaskLinks(listing:agenda:order:titleWidth:)`.
public struct SubtaskLinks: Sendable {
    /// Each subtask's parent (by id), by the subtask's id, with whether the subtask is done:
    /// for every subtask whose parent is in the store, or in a short list, its own subtasks.
    public var parents: [Int64: (parent: Int64, isDone: Bool)] = [:]
    /// How many of each parent's subtasks are done, of how many: of every parent, or in a
    /// short list, of its own.
    public var progress: [Int64: SubtaskProgress] = [:]
    /// The section and title width of each listed subtask and parent.
    public var listed: [Int64: (section: AgendaSection, titleWidth: Int)] = [:]
    /// The lines of each listed parent's listed subtasks, in the list's order.
    public var subtaskLines = SubtaskLines()
    /// Every tagged todo's tags, read for the lines of a list without a tag in its query, so
    /// that the list's rows can be given them rather than read them again.
    public var tags: [Int64: String]?
}

/// The lines of listed subtasks, by their parent.
public struct SubtaskLines: Sendable {
    var lines: [AgendaLine] = []
    var ranges: [Int64: Range<Int>] = [:]

    public subscript(parent: Int64) -> ArraySlice<AgendaLine> { lines[ranges[parent] ?? 0..<0] }
}

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
    /// subtask is done: one read of the parent index, for a list of any length.
    public func subtaskLinks() throws(StoreError) -> [Int64: (parent: Int64, isDone: Bool)] {
        try perform { try readSubtaskLinks(listing: nil).parents }
    }

    /// What a list of subtasks under their parents needs before its first row (`SubtaskLinks`)
    /// for the todos `query` lists, its subtasks' lines in the list's `order`. `titleWidth` is
    /// asked only for titles not of printable ASCII. Call it inside `reading`, with the query
    /// the list is read with.
    public func subtaskLinks(listing query: TodoQuery, agenda: Agenda, order: TodoOrder,
                             titleWidth: (String) -> Int) throws(StoreError) -> SubtaskLinks {
        try perform {
            let filter = try todoFilter(query)
            let bounds = SectionBounds(agenda, firstParameter: filter.arguments.count + 1)
            // Reading the listed todos costs two counts each in the parent index; reading every
            // subtask, a row each: the fewer rows win.
            var isShort = query.requiresATag
            if !isShort && query.foundOnce {
                let found = try db.scalar("SELECT count(*) FROM temp.nudge_found")?.int64 ?? 0
                let subtasks = try db.scalar("SELECT count(*) FROM todos INDEXED BY todos_by_parent WHERE parent_uuid IS NOT NULL")
                isShort = found < (subtasks?.int64 ?? 0) / 2
            }
            return try readSubtaskLinks(listing: (filter, bounds, agenda, order, isShort: isShort), titleWidth: titleWidth)
        }
    }

    /// Without `listing`, the parent index read in its order, each parent looked up once by its
    /// uuid (rather than joined for each subtask: at 10,000 parents of 5 subtasks, a fifth of
    /// the lookups), and so with `listing` too, the same rows giving the listed ones. A short list
    /// (`isShort`) has its own todos read instead, each with its subtasks counted in the index.
    private func readSubtaskLinks(listing: (filter: TodoFilter, bounds: SectionBounds, agenda: Agenda, order: TodoOrder, isShort: Bool)?,
                                  titleWidth: (String) -> Int = { _ in 0 }) throws -> SubtaskLinks {
        var links = SubtaskLinks()
        let statement: Statement, parent: Statement, arguments: [SQLValue]
        let tags = "(SELECT group_concat(tag, ' ') FROM todo_tags WHERE todo_id = t.id)"
        if let listing {
            try defineDayStart(listing.agenda)
            arguments = listing.filter.arguments + listing.bounds.arguments
            let listed = listing.filter.conditions.isEmpty ? "1" : listing.filter.conditions.joined(separator: " AND ")
            let section = "CASE WHEN \(listed) THEN \(listing.bounds.sectionColumn) END"
            let columns = """
                t.id, t.parent_uuid, t.completed_at IS NOT NULL AS done, t.title, t.due_at, t.due_day, t.priority, t.category_id,
                coalesce(t.due_at, nudge_day_start(t.due_day)) AS due_key
                """
            // Each parent's subtasks together, in the list's order.
            let order = "t.parent_uuid, section, " + Self.sortKeys(listing.order)
            if listing.isShort {
                statement = try db.prepare("""
                    SELECT \(columns), \(listing.bounds.sectionColumn) AS section, \(tags) AS tags,
                        (SELECT count(*) FROM todos s INDEXED BY todos_by_parent WHERE s.parent_uuid = t.uuid AND s.id != t.id)
                            AS subtask_count,
                        (SELECT count(s.completed_at) FROM todos s INDEXED BY todos_by_parent
                            WHERE s.parent_uuid = t.uuid AND s.id != t.id) AS done_count
                    FROM todos t\(listing.filter.sql) ORDER BY \(order)
                    """)
            } else {
                // SQLite sorts only within each parent. The tags of the listed are read once
                // for all todos, for the list's rows too.
                links.tags = try tagTextsByTodo()
                statement = try db.prepare("""
                    SELECT \(columns), \(section) AS section, NULL AS tags
                    FROM todos t INDEXED BY todos_by_parent WHERE t.parent_uuid IS NOT NULL ORDER BY \(order)
                    """)
            }
            parent = try db.prepare("SELECT t.id, \(section) AS section, t.title FROM todos t WHERE t.uuid = ?\(arguments.count + 1)")
        } else {
            arguments = []
            statement = try db.prepare("""
                SELECT t.id, t.parent_uuid, t.completed_at IS NOT NULL AS done, NULL AS section
                FROM todos t INDEXED BY todos_by_parent WHERE t.parent_uuid IS NOT NULL ORDER BY t.parent_uuid
                """)
            parent = try db.prepare("SELECT t.id, NULL AS section FROM todos t WHERE t.uuid = ?1")
        }
        try statement.bind(arguments)
        let (id, parentUUID, done) = (statement.column("id"), statement.column("parent_uuid"), statement.column("done"))
        let counts = listing?.isShort == true ? (statement.column("subtask_count"), statement.column("done_count")) : nil
        func noteListed(_ statement: Statement, id: Int64) -> Bool {
            let row = statement.row
            guard let index = row.optionalInt64("section") else { return false }
            let title = row.textBytes("title")
            let width = title.allSatisfy { (0x20...0x7E).contains($0) }
                ? title.count : titleWidth(String(decoding: title, as: UTF8.self))
            links.listed[id] = (AgendaSection.allCases[Int(index)], width)
            return true
        }
        var lines: SubtaskLineReader?
        if let listing {
            let categories = try Dictionary(uniqueKeysWithValues: db.query("SELECT id, name FROM categories") {
                ($0.int64("id"), $0.text("name") ?? "")
            })
            lines = SubtaskLineReader(statement, agenda: listing.agenda, categories: categories, tagTexts: links.tags,
                                      blocked: try openBlockersByTodo())
        }
        var lastUUID: [UInt8] = [], parentID: Int64?, parentListed = false
        while try statement.step() {
            let row = statement.row
            let todo = row.int64(id)
            if let counts {
                let total = row.int64(counts.0)
                if total > 0 {
                    links.progress[todo] = SubtaskProgress(done: Int(row.int64(counts.1)), total: Int(total))
                    _ = noteListed(statement, id: todo)
                }
                if row.isNull(parentUUID) { continue }
            }
            let uuid = row.textBytes(parentUUID)
            if !uuid.elementsEqual(lastUUID) {
                lastUUID = Array(uuid)
                try parent.bind(arguments + [.text(String(decoding: uuid, as: UTF8.self))])
                parentID = try parent.step() ? parent.row.int64("id") : nil
                parentListed = parentID.map { noteListed(parent, id: $0) } ?? false
                parent.reset()
            }
            guard let parentID, parentID != todo else { continue }
            let isDone = row.int64(done) != 0
            links.parents[todo] = (parentID, isDone)
            if counts == nil {
                links.progress[parentID, default: SubtaskProgress(done: 0, total: 0)].total += 1
                if isDone { links.progress[parentID]?.done += 1 }
            }
            if noteListed(statement, id: todo), parentListed {
                lines?.add(row, under: parentID)
            }
        }
        if let lines { links.subtaskLines = lines.byParent }
        return links
    }
}

/// The lines of listed subtasks, as `readSubtaskLinks` reads them: each parent's together and
/// already in the list's order, kept in one array.
private struct SubtaskLineReader {
    private let agenda: Agenda
    private let categories: [Int64: String]
    private let blocked: [Int64: [Int64]]
    /// Every todo's tags, or nil when the statement reads them.
    private let tagTexts: [Int64: String]?
    private let id, title, dueAt, dueDay, priority, category, tags, done: Column
    /// Each all-day due read, by its text: most subtasks share a few hundred days.
    private var days: [String: LocalDate?] = [:]
    private var lines: [AgendaLine] = []
    private var ranges: [Int64: Range<Int>] = [:]

    init(_ statement: Statement, agenda: Agenda, categories: [Int64: String], tagTexts: [Int64: String]?, blocked: [Int64: [Int64]]) {
        self.agenda = agenda
        self.categories = categories
        self.blocked = blocked
        self.tagTexts = tagTexts
        (id, title, dueAt, dueDay) = (statement.column("id"), statement.column("title"), statement.column("due_at"),
                                      statement.column("due_day"))
        (priority, category, tags, done) = (statement.column("priority"), statement.column("category_id"), statement.column("tags"),
                                            statement.column("done"))
    }

    /// The row's line, after those of the same parent read before it.
    mutating func add(_ row: Row, under parent: Int64) {
        let id = row.int64(self.id)
        let due: Due?
        if let at = row.optionalInt64(dueAt) {
            due = .at(Date(timeIntervalSince1970: TimeInterval(at)), zone: agenda.clock.zone)
        } else if let text = row.text(dueDay) {
            let day: LocalDate?
            if let known = days[text] { day = known } else { day = LocalDate(iso: text); days[text] = day }
            due = day.map(Due.allDay)
        } else {
            due = nil
        }
        var line = AgendaLine(id: id, title: row.text(title) ?? "", due: due,
                              priority: Priority(rawValue: Int(row.int64(priority))) ?? .medium,
                              categoryName: row.optionalInt64(category).flatMap { categories[$0] },
                              tagsText: tagTexts.map { $0[id] } ?? row.text(tags), isCompleted: row.int64(done) != 0)
        line.blockedBy = blocked[id] ?? []
        let start = ranges[parent]?.lowerBound ?? lines.count
        lines.append(line)
        ranges[parent] = start..<lines.count
    }

    /// The lines by parent.
    var byParent: SubtaskLines { SubtaskLines(lines: lines, ranges: ranges) }
}
