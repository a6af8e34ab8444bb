import Foundation
import NudgeCore
import NudgeFilter
import NudgePlatform
import NudgeSQLite

/// What a new todo is made of; the store assigns the id, the UUID and the times.
public struct NewTodo: Sendable {
    public var title: String
    public var notes: String?
    public var due: Due?
    /// The time typed for the due when a DST gap moved it off it (`Due.wallTimeKept`).
    public var dueWallTime: TimeOfDay?
    public var priority: Priority
    public var categoryName: String?
    /// Checked with `Tag.validated`.
    public var tags: [String]
    /// The ids of the todos it comes after (`nudge add --after`).
    public var after: [Int64] = []
    public var repetition: Repetition?
    /// Reminders of its own, besides (or with `usesDefaultRules` false, instead of) the config's.
    public var reminders: [CustomReminder]
    public var usesDefaultRules: Bool
    /// The id of the todo it is a subtask of.
    public var parentID: Int64?

    public init(title: String, notes: String? = nil, due: Due? = nil, priority: Priority = .medium,
                categoryName: String? = nil, tags: [String] = [], repetition: Repetition? = nil,
                reminders: [CustomReminder] = [], usesDefaultRules: Bool = true) {
        self.title = title
        self.notes = notes
        self.due = due
        self.priority = priority
        self.categoryName = categoryName
        self.tags = tags
        self.repetition = repetition
        self.reminders = reminders
        self.usesDefaultRules = usesDefaultRules
    }
}

/// Which todos `nudge list` shows; the conditions combine.
public struct TodoQuery: Sendable {
    public enum State: Sendable { case pending, completed, all }

    public var state: State = .pending
    public var categoryName: String?
    public var priority: Priority?
    /// Only todos with every one of these tags, and none of `excludedTags` (ignoring case).
    public var tags: [String] = []
    public var excludedTags: [String] = []
    /// Matched against title and notes, ignoring case.
    public var search: String?
    /// The terms of a filter (`nudge help filter`), besides the conditions above.
    public var filter: Filter?
    /// Set by `TodoStore.searchingOnce`: the todos the search found are the ids in `temp.nudge_found`.
    var foundOnce = false
    /// Set by `TodoStore.searchingOnce` when it found most of the todos (`list -money`).
    var foundMost = false

    /// Whether the list-order indexes serve it. A search reads the notes, which they do not
    /// hold: a scan of the table, then a sort of the few todos that match, is faster; of
    /// most of the todos, a sort costs more than the walk of the indexes it saves.
    var isServedByListOrderIndexes: Bool { !isFoundOnceFirst && (!foundOnce || foundMost) }

    /// Whether a list is quicker finding its todos once first (`TodoStore.searchingOnce`): a
    /// search reads every todo's text, and a filter's terms, repeated in each of the list's
    /// dozen queries and each step of its widest-due walk, would be evaluated again in each.
    var isFoundOnceFirst: Bool { !(search?.isEmpty ?? true) || filter != nil }

    /// Whether every todo it finds has a tag it names: such a list is short (at 100,000 todos,
    /// 30% tagged with 3 of 12 tags, one tag is on 7,500), so its todos' tags are looked up
    /// by row rather than all read at once.
    var requiresATag: Bool {
        func requires(_ filter: Filter) -> Bool {
            switch filter {
            case .term(.tagged): true
            case .term: false
            case .all(let filters): filters.contains(where: requires)
            case .any(let filters): !filters.isEmpty && filters.allSatisfy(requires)
            }
        }
        return !tags.isEmpty || filter.map(requires) == true
    }

    /// The same query, for the completed todos only.
    var completed: TodoQuery {
        var query = self
        query.state = .completed
        return query
    }

    public init(state: State = .pending, categoryName: String? = nil, priority: Priority? = nil,
                search: String? = nil) {
        self.state = state
        self.categoryName = categoryName
        self.priority = priority
        self.search = search
    }
}

extension TodoStore {
    static let todoColumns = todoColumnList + "\n" + todoTables
    /// The columns `todo(from:columns:zones:)` reads, by the names `TodoColumns` finds.
    static let todoColumnList = """
        t.id, t.uuid, t.title, t.notes, t.due_at, t.due_day, t.due_zone, t.priority,
        t.completed_at, t.created_at, t.updated_at, c.id AS category_id, c.name AS category_name,
        c.icon AS category_icon, t.repeat_rule, t.repeat_from, t.repeat_start, t.repeat_dates, t.due_wall_time,
        t.parent_uuid, \(tagsColumn), \(afterColumn)
        """
    static let todoTables = "FROM todos t LEFT JOIN categories c ON c.id = t.category_id"

    public func add(_ new: NewTodo, now: Date) throws(StoreError) -> Todo {
        try write {
            var categoryID: Int64?
            if let name = new.categoryName { categoryID = try self.categoryID(named: name) }
            let (dueAt, dueDay, dueZone) = Self.columns(for: new.due)
            let stamp = Int64(now.timeIntervalSince1970)
            var parentUUID: String?
            if let parentID = new.parentID { parentUUID = try checkedParentUUID(parentID, forTodo: nil) }
            try db.run("""
                INSERT INTO todos (uuid, title, notes, due_at, due_day, due_zone, priority, category_id,
                    repeat_rule, repeat_from, repeat_start, repeat_dates, default_reminders, reminded_through, created_at,
                    updated_at, title_key, due_wall_time, parent_uuid)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, [.text(UUID().uuidString.lowercased()), .text(new.title), new.notes.sqlValue,
                      dueAt.sqlValue, dueDay.sqlValue, dueZone.sqlValue,
                      .integer(Int64(new.priority.rawValue)), categoryID.sqlValue,
                      new.repetition.map(\.rrule).sqlValue, new.repetition.map(\.from.rawValue).sqlValue,
                      (new.repetition?.start?.description).sqlValue, (new.repetition?.datesText).sqlValue,
                      .integer(new.usesDefaultRules ? 1 : 0), .integer(stamp - 1), .integer(stamp), .integer(stamp),
                      .text(Self.titleKey(new.title)), (new.dueWallTime?.description).sqlValue, parentUUID.sqlValue])
            let id = db.lastInsertRowID
            try insertCustomReminders(new.reminders, todoID: id)
            try replaceTags(new.tags, todoID: id)
            try insertBlockers(new.after, todoID: id)
            try replan(ids: [id])
            return try fetch(ids: [id])[0]
        }
    }

    /// The todos with these ids, in the order given; fails naming every id that does not exist.
    public func todos(ids: [Int64]) throws(StoreError) -> [Todo] {
        try perform { try fetch(ids: ids) }
    }

    /// The todos with these ids that still exist, in the order given.
    public func existingTodos(ids: [Int64]) throws(StoreError) -> [Todo] {
        try perform {
            try lookUp(ids: ids).found
        }
    }

    /// The todos matching `query`, in no particular order (`forEachAgendaTodo` gives the list's).
    public func todos(matching query: TodoQuery) throws(StoreError) -> [Todo] {
        try perform {
            let filter = try todoFilter(query)
            // Reading most of the table, a plain scan beats looking each row up from an index.
            let columns = Self.todoColumns.replacingOccurrences(of: "FROM todos t", with: "FROM todos t NOT INDEXED")
            return try selectTodos("SELECT \(columns)\(filter.sql)", filter.arguments)
        }
    }

    /// Pending todos that are overdue or due by the end of `day`: what the digest lists.
    public func pendingTodos(dueBy day: LocalDate, endingAt end: Date) throws(StoreError) -> [Todo] {
        try perform {
            try selectTodos("SELECT \(Self.todoColumns) WHERE t.completed_at IS NULL AND (t.due_at < ? OR t.due_day <= ?)",
                            [.integer(Int64(end.timeIntervalSince1970)), .text(day.description)])
        }
    }

    /// Saves the title, notes, due, priority, category, tags and parent of `todo`, and puts it
    /// after each of `addingBlockers` and no longer after each of `removingBlockers`, all or
    /// nothing (see `changeBlockers`). A new due ends the snooze, which held the reminders of
    /// the old one (as a repeating todo's next due after `done` does).
    public func update(_ todo: Todo, addingBlockers: [Int64] = [], removingBlockers: [Int64] = [],
                       now: Date) throws(StoreError) -> Todo {
        try write {
            let stored = try fetch(ids: [todo.id])[0]
            if let parent = todo.parentUUID, parent != stored.parentUUID {
                try checkParent(uuid: parent, forTodo: todo.id)
            }
            let wasHeld = try isHeld(todo.id)
            try applyBlockerChange(todoID: todo.id, adding: addingBlockers, removing: removingBlockers)
            // What fell due while the todo was held is still to be caught up when it is
            // released, by this edit too; only a new due (or series) passes over the reminders
            // before the edit.
            let keepsHeldReminders = try (wasHeld || isHeld(todo.id)) && todo.due == stored.due
                && todo.repetition == stored.repetition
            let (dueAt, dueDay, dueZone) = Self.columns(for: todo.due)
            try db.run("""
                UPDATE todos SET title = ?1, notes = ?2, due_at = ?3, due_day = ?4, due_zone = ?5,
                    priority = ?6, category_id = ?7, repeat_rule = ?8, repeat_from = ?9, repeat_start = ?12, updated_at = ?10,
                    reminded_through = CASE WHEN ?17 THEN coalesce(reminded_through, updated_at)
                        ELSE max(coalesce(reminded_through, ?10 - 1), ?10 - 1) END, title_key = ?13, repeat_dates = ?14,
                    due_wall_time = ?15, parent_uuid = ?16,
                    snoozed_until = CASE WHEN due_at IS ?3 AND due_day IS ?4 THEN snoozed_until END
                WHERE id = ?11
                """, [.text(todo.title), todo.notes.sqlValue, dueAt.sqlValue, dueDay.sqlValue,
                      dueZone.sqlValue, .integer(Int64(todo.priority.rawValue)),
                      todo.category.map(\.id).sqlValue, todo.repetition.map(\.rrule).sqlValue,
                      todo.repetition.map(\.from.rawValue).sqlValue, .integer(Int64(now.timeIntervalSince1970)),
                      .integer(todo.id), (todo.repetition?.start?.description).sqlValue, .text(Self.titleKey(todo.title)),
                      (todo.repetition?.datesText).sqlValue, (todo.dueWallTime?.description).sqlValue,
                      todo.parentUUID.sqlValue, .integer(keepsHeldReminders ? 1 : 0)])
            guard db.changes == 1 else { throw StoreError.noSuchTodos([todo.id]) }
            try replaceTags(todo.tags, todoID: todo.id)
            try replan(ids: [todo.id])
            return try fetch(ids: [todo.id])[0]
        }
    }

    /// Marks the todos done (or, with `done: false`, not done). A repeating todo, when
    /// `nextDue` gives it a next occurrence, moves there instead and stays pending; its
    /// completion is recorded. Returns the todos before and after, so the caller can tell what
    /// changed. Nothing changes unless every id exists, nor when `nextDue` cannot open the
    /// library it needs.
    public func setCompleted(ids: [Int64], done: Bool, now: Date,
                             nextDue: (Todo) throws(LibraryLoadError) -> Due? = { _ in nil }) throws(StoreError) -> (before: [Todo], after: [Todo]) {
        try write {
            let before = try fetch(ids: ids)
            let stamp = Int64(now.timeIntervalSince1970)
            let complete = try db.prepare(
                "UPDATE todos SET completed_at = ?1, updated_at = ?1, snoozed_until = NULL WHERE id = ?2 AND completed_at IS NULL")
            let reopen = try db.prepare("""
                UPDATE todos SET completed_at = NULL, updated_at = ?1, reminded_through = ?1 - 1
                WHERE id = ?2 AND completed_at IS NOT NULL
                """)
            let advance = try db.prepare("""
                UPDATE todos SET due_at = ?1, due_day = ?2, due_zone = ?3, due_wall_time = NULL, updated_at = ?4,
                    reminded_through = ?4 - 1, snoozed_until = NULL
                WHERE id = ?5
                """)
            let record = try db.prepare("INSERT INTO completions (todo_id, due_at, due_day, completed_at) VALUES (?, ?, ?, ?)")
            for todo in before {
                if !done {
                    try reopen.run([.integer(stamp), .integer(todo.id)])
                    continue
                }
                guard !todo.isCompleted else { continue }
                let (dueAt, dueDay, _) = Self.columns(for: todo.due)
                try record.run([.integer(todo.id), dueAt.sqlValue, dueDay.sqlValue, .integer(stamp)])
                let next: Due?
                do throws(LibraryLoadError) { next = todo.repetition == nil ? nil : try nextDue(todo) } catch { throw StoreError.missingLibrary(error) }
                if let next {
                    let (at, day, zone) = Self.columns(for: next)
                    try advance.run([at.sqlValue, day.sqlValue, zone.sqlValue, .integer(stamp), .integer(todo.id)])
                } else {
                    try complete.run([.integer(stamp), .integer(todo.id)])
                }
            }
            try replan(ids: ids)
            try replanDependents(of: ids)
            return (before, try fetch(ids: ids))
        }
    }

    /// Deletes the todos and returns them; nothing is deleted unless every id exists. Their
    /// subtasks left become todos of their own.
    public func delete(ids: [Int64]) throws(StoreError) -> [Todo] {
        try write {
            let todos = try fetch(ids: ids)
            let dependents = try self.dependents(of: ids)
            let statement = try db.prepare("DELETE FROM todos WHERE id = ?")
            let detach = try db.prepare("UPDATE todos SET parent_uuid = NULL WHERE parent_uuid = ?")
            for todo in todos {
                try statement.run([.integer(todo.id)])
                try detach.run([.text(todo.uuid)])
            }
            try replan(ids: dependents.filter { !ids.contains($0) })
            return todos
        }
    }

    public func count() throws(StoreError) -> Int {
        try perform { Int(try db.scalar("SELECT count(*) FROM todos")?.int64 ?? 0) }
    }

    // MARK: - Rows

    func fetch(ids: [Int64]) throws -> [Todo] {
        let (found, missing) = try lookUp(ids: ids)
        guard missing.isEmpty else { throw StoreError.noSuchTodos(missing) }
        return found
    }

    /// The todos with these ids, in the order given, and the ids that have none.
    func lookUp(ids: [Int64]) throws -> (found: [Todo], missing: [Int64]) {
        let statement = try db.prepare("SELECT \(Self.todoColumns) WHERE t.id = ?")
        let columns = TodoColumns(statement)
        var found: [Todo] = []
        var missing: [Int64] = []
        var zones = ZoneCache(fallback: planner.calendar.timeZone)
        for id in ids {
            try statement.bind([.integer(id)])
            if try statement.step() {
                found.append(Self.todo(from: statement.row, columns: columns, zones: &zones))
            } else {
                missing.append(id)
            }
        }
        return (found, missing)
    }

    func selectTodos(_ sql: String, _ arguments: [SQLValue]) throws -> [Todo] {
        let statement = try db.prepare(sql)
        try statement.bind(arguments)
        let columns = TodoColumns(statement)
        var zones = ZoneCache(fallback: planner.calendar.timeZone)
        var todos: [Todo] = []
        while try statement.step() {
            todos.append(Self.todo(from: statement.row, columns: columns, zones: &zones))
        }
        return todos
    }

    static func todo(from row: Row, columns c: TodoColumns, zones: inout ZoneCache) -> Todo {
        var due: Due?
        if let instant = row.optionalInt64(c.dueAt) {
            due = .at(Date(timeIntervalSince1970: TimeInterval(instant)), zone: zones.zone(row.text(c.dueZone)))
        } else if let day = row.text(c.dueDay).flatMap({ LocalDate(iso: $0) }) {
            due = .allDay(day)
        }
        let repetition = row.text(c.repeatRule).map {
            var repetition = Repetition(rrule: $0, from: row.text(c.repeatFrom).flatMap(RepeatFrom.init(rawValue:)) ?? .due,
                                        start: row.text(c.repeatStart).flatMap(SeriesStart.init(parsing:)))
            if let dates = row.text(c.repeatDates) { repetition.readDates(dates) }
            return repetition
        }
        let category = row.optionalInt64(c.categoryID).map {
            Category(id: $0, name: row.text(c.categoryName) ?? "", icon: row.text(c.categoryIcon) ?? Category.defaultIcon)
        }
        return Todo(
            id: row.int64(c.id),
            uuid: row.text(c.uuid) ?? "",
            title: row.text(c.title) ?? "",
            notes: row.text(c.notes),
            due: due,
            priority: Priority(rawValue: Int(row.int64(c.priority))) ?? .medium,
            category: category,
            tags: Self.tags(fromColumn: row.text(c.tags)),
            after: Self.tags(fromColumn: row.text(c.after)),
            repetition: repetition,
            completedAt: row.optionalInt64(c.completedAt).map(date(fromStamp:)),
            dueWallTime: row.text(c.dueWallTime).flatMap(TimeOfDay.init(parsing:)),
            parentUUID: row.text(c.parentUUID),
            createdAt: date(fromStamp: row.int64(c.createdAt)),
            updatedAt: date(fromStamp: row.int64(c.updatedAt)))
    }

    static func date(fromStamp stamp: Int64) -> Date {
        Date(timeIntervalSince1970: TimeInterval(stamp))
    }

    static func columns(for due: Due?) -> (at: Int64?, day: String?, zone: String?) {
        switch due {
        case nil: (nil, nil, nil)
        case .allDay(let day)?: (nil, day.description, nil)
        case .at(let instant, let zone)?: (seconds(instant), nil, zone.identifier)
        }
    }

    /// Whole seconds since 1970; a due read from a damaged database as far out as an Int64
    /// reaches is written back as it was, not trapped on.
    static func seconds(_ instant: Date) -> Int64 {
        let seconds = instant.timeIntervalSince1970.rounded(.down)
        return Int64(exactly: seconds) ?? (seconds < 0 ? .min : .max)
    }

    static func escapedForLike(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }
}

/// The columns of `TodoStore.todoColumnList` in one statement, found by name once.
struct TodoColumns {
    let id, uuid, title, notes, dueAt, dueDay, dueZone, priority, completedAt, createdAt, updatedAt: Column
    let categoryID, categoryName, categoryIcon, repeatRule, repeatFrom, repeatStart, repeatDates, dueWallTime, parentUUID, tags, after: Column

    init(_ statement: Statement) {
        id = statement.column("id")
        uuid = statement.column("uuid")
        title = statement.column("title")
        notes = statement.column("notes")
        dueAt = statement.column("due_at")
        dueDay = statement.column("due_day")
        dueZone = statement.column("due_zone")
        priority = statement.column("priority")
        completedAt = statement.column("completed_at")
        createdAt = statement.column("created_at")
        updatedAt = statement.column("updated_at")
        categoryID = statement.column("category_id")
        categoryName = statement.column("category_name")
        categoryIcon = statement.column("category_icon")
        repeatRule = statement.column("repeat_rule")
        repeatFrom = statement.column("repeat_from")
        repeatStart = statement.column("repeat_start")
        repeatDates = statement.column("repeat_dates")
        dueWallTime = statement.column("due_wall_time")
        parentUUID = statement.column("parent_uuid")
        tags = statement.column("tags")
        after = statement.column("after_uuids")
    }
}

/// Looking a zone up by name is slow; a listing names the same few zones over and over.
struct ZoneCache {
    private var zones: [String: TimeZone] = [:]

    /// The zone of a todo that names none, or one this machine does not know.
    let fallback: TimeZone

    init(fallback: TimeZone) {
        self.fallback = fallback
    }

    mutating func zone(_ identifier: String?) -> TimeZone {
        guard let identifier else { return fallback }
        if let zone = zones[identifier] { return zone }
        let zone = TimeZone(identifier: identifier) ?? fallback
        zones[identifier] = zone
        return zone
    }
}
