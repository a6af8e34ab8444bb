import Foundation
import NudgeCore
import NudgeSQLite

/// Which todos are subtasks of which, and which of them a list shows where: see
/// `TodoStore.subtaskLinks(listing:agenda:order:titleWidth:)`.
public struct SubtaskLinks: Sendable {
    /// Each subtask's parent (by id), by the subtask's id, with whether the subtask is done.
    public var parents: [Int64: (parent: Int64, isDone: Bool)] = [:]
    /// The section and title width of each listed subtask and parent.
    public var listed: [Int64: (section: AgendaSection, titleWidth: Int)] = [:]
    /// The lines of each listed parent's listed subtasks, in the list's order.
    public var subtaskLines = SubtaskLines()
    /// Every tagged todo's tags, read for the lines when the list has no tag in its query, so
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

    /// Every todo's parent in the store, as `subtaskLinks()` has them; the section and title
    /// width of each subtask and parent among them that `query` lists; and, by parent, the
    /// lines of the listed subtasks of each listed parent, in the list's `order`: what a list
    /// of subtasks under their parents needs before its first row, read in one pass over the
    /// parent index. `titleWidth` is asked only for titles not of printable ASCII.
    /// Call it inside `reading`, with the query the list is read with.
    public func subtaskLinks(listing query: TodoQuery, agenda: Agenda, order: TodoOrder,
                             titleWidth: (String) -> Int) throws(StoreError) -> SubtaskLinks {
        try perform {
            let filter = try todoFilter(query)
            let bounds = SectionBounds(agenda, firstParameter: filter.arguments.count + 1)
            return try readSubtaskLinks(listing: (filter, bounds, agenda, order), readingTags: !query.tags.isEmpty,
                                        titleWidth: titleWidth)
        }
    }

    /// The parent index read in its order, each parent looked up once by its uuid (rather than
    /// joined for each subtask: at 10,000 parents of 5 subtasks, a fifth of the lookups).
    /// A list with a tag in its query is short: its subtasks' tags are read by row (`readingTags`).
    private func readSubtaskLinks(listing: (filter: TodoFilter, bounds: SectionBounds, agenda: Agenda, order: TodoOrder)?,
                                  readingTags: Bool = false, titleWidth: (String) -> Int = { _ in 0 }) throws -> SubtaskLinks {
        let section: String, tags: String, dueKey: String, order: String, arguments: [SQLValue]
        if let listing {
            let listed = listing.filter.conditions.isEmpty ? "1" : listing.filter.conditions.joined(separator: " AND ")
            section = "CASE WHEN \(listed) THEN \(listing.bounds.sectionColumn) END"
            // For the listed subtasks only: one lookup each in the tags' primary key.
            tags = readingTags ? "CASE WHEN \(listed) THEN (SELECT group_concat(tag, ' ') FROM todo_tags WHERE todo_id = t.id) END" : "NULL"
            // Each parent's subtasks in the list's order: SQLite sorts only within a parent.
            (dueKey, order) = ("coalesce(t.due_at, nudge_day_start(t.due_day))", "t.parent_uuid, section, " + Self.sortKeys(listing.order))
            arguments = listing.filter.arguments + listing.bounds.arguments
            try defineDayStart(listing.agenda)
        } else {
            (section, tags, dueKey, order, arguments) = ("NULL", "NULL", "NULL", "t.parent_uuid", [])
        }
        let subtasks = try db.prepare("""
            SELECT t.id, t.parent_uuid, t.completed_at IS NOT NULL AS done, \(section) AS section, t.title,
                t.due_at, t.due_day, t.priority, t.category_id, \(tags) AS tags,
                \(dueKey) AS due_key
            FROM todos t INDEXED BY todos_by_parent WHERE t.parent_uuid IS NOT NULL ORDER BY \(order)
            """)
        try subtasks.bind(arguments)
        let parent = try db.prepare("SELECT t.id, \(section) AS section, t.title FROM todos t WHERE t.uuid = ?\(arguments.count + 1)")
        let (id, parentUUID, done) = (subtasks.column("id"), subtasks.column("parent_uuid"), subtasks.column("done"))
        var links = SubtaskLinks()
        if listing != nil && !readingTags { links.tags = try tagTextsByTodo() }
        func noteListed(_ statement: Statement, id: Int64) -> AgendaSection? {
            let row = statement.row
            guard listing != nil, let index = row.optionalInt64("section") else { return nil }
            let title = row.textBytes("title")
            let width = title.allSatisfy { (0x20...0x7E).contains($0) }
                ? title.count : titleWidth(String(decoding: title, as: UTF8.self))
            let section = AgendaSection.allCases[Int(index)]
            links.listed[id] = (section, width)
            return section
        }
        var lines: SubtaskLineReader?
        if let listing {
            let categories = try Dictionary(uniqueKeysWithValues: db.query("SELECT id, name FROM categories") {
                ($0.int64("id"), $0.text("name") ?? "")
            })
            lines = SubtaskLineReader(subtasks, agenda: listing.agenda, categories: categories, tagTexts: links.tags,
                                      blocked: try openBlockersByTodo())
        }
        var lastUUID: [UInt8] = [], parentID: Int64?, parentListed = false
        while try subtasks.step() {
            let row = subtasks.row
            let uuid = row.textBytes(parentUUID)
            if !uuid.elementsEqual(lastUUID) {
                lastUUID = Array(uuid)
                try parent.bind(arguments + [.text(String(decoding: uuid, as: UTF8.self))])
                parentID = try parent.step() ? parent.row.int64("id") : nil
                parentListed = parentID.map { noteListed(parent, id: $0) != nil } ?? false
                parent.reset()
            }
            let subtask = row.int64(id)
            guard let parentID, parentID != subtask else { continue }
            links.parents[subtask] = (parentID, row.int64(done) != 0)
            if noteListed(subtasks, id: subtask) != nil, parentListed {
                lines?.add(row, under: parentID)
            }
        }
        if let lines { links.subtaskLines = lines.byParent }
        return links
    }
}

/// The lines of listed subtasks, as `readSubtaskLinks` reads them from the parent index: each
/// parent's together and already in the list's order, kept in one array.
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
