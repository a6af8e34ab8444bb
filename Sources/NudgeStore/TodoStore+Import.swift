import Foundation
import NudgeCore
import NudgeSQLite

/// What an import did, or with `dryRun` would do, to each todo given.
public struct ImportSummary: Equatable, Sendable {
    public enum Outcome: Equatable, Sendable {
        case added
        case updated
        /// Stored already, changed as recently or more recently than the one given.
        case skipped
    }

    /// One for each todo given, in the order given.
    public var outcomes: [Outcome] = []
    /// Categories the todos named that did not exist, as first named.
    public var newCategories: [String] = []

    public var added: Int { outcomes.count { $0 == .added } }
    public var updated: Int { outcomes.count { $0 == .updated } }
    public var skipped: Int { outcomes.count { $0 == .skipped } }
}

extension TodoStore {
    /// Brings in todos from elsewhere, matched by UUID, in one write transaction: a todo not
    /// stored is added with its UUID and times; a stored one is replaced only by a todo
    /// updated more recently. Categories are matched by name (their ids are ignored) and
    /// created when missing. With `dryRun` nothing is written, and a reader's store will do.
    /// A record's own reminders replace the stored todo's; its snooze and kept properties too.
    public func importTodos(_ records: [TodoRecord], now: Date, dryRun: Bool = false) throws(StoreError) -> ImportSummary {
        dryRun ? try perform { try applyImport(records, now: now, dryRun: true) }
            : try write { try applyImport(records, now: now, dryRun: false) }
    }

    /// The todos with everything an export writes: own reminders, snooze and kept properties.
    public func records(_ state: TodoQuery.State) throws(StoreError) -> [TodoRecord] {
        try perform {
            let condition = switch state {
            case .pending: "t.completed_at IS NULL"
            case .completed: "t.completed_at IS NOT NULL"
            case .all: "1"
            }
            return try records(where: condition)
        }
    }

    /// The records of the todos `query` matches, as `records(_:)` gives them: the ids it finds
    /// go to a temporary table first, as the filter's parameters cannot go into `condition`.
    public func records(matching query: TodoQuery) throws(StoreError) -> [TodoRecord] {
        try perform {
            let filter = try todoFilter(query)
            try db.execute("CREATE TEMP TABLE IF NOT EXISTS nudge_found (id INTEGER PRIMARY KEY); DELETE FROM temp.nudge_found")
            defer { try? db.execute("DELETE FROM temp.nudge_found") }
            try db.run("INSERT INTO temp.nudge_found SELECT t.id FROM todos t NOT INDEXED\(filter.sql)", filter.arguments)
            return try records(where: "t.id IN temp.nudge_found")
        }
    }

    /// The records of the todos matching `condition` (on `todos t`), in the order added; with
    /// `remindedThrough`, each says how far its reminders are done with.
    func records(where condition: String, remindedThrough: Bool = false) throws -> [TodoRecord] {
        var kept: [Int64: [String: String]] = [:]
        let keptRows = try db.prepare("SELECT t.id, t.kept FROM todos t WHERE t.kept IS NOT NULL AND \(condition)")
        let (id, keptText) = (keptRows.column("id"), keptRows.column("kept"))
        while try keptRows.step() {
            let row = keptRows.row
            kept[row.int64(id)] = Self.keptProperties(row.text(keptText) ?? "")
        }
        var records: [(Int64, TodoRecord)] = []
        try forEachSubject(where: condition) { subject in
            var record = TodoRecord(subject.todo)
            record.reminderState = subject.reminderState
            record.kept = kept[subject.todo.id] ?? [:]
            if !remindedThrough { record.remindedThrough = nil }
            records.append((subject.todo.id, record))
        }
        return records.sorted { $0.0 < $1.0 }.map(\.1)
    }

    static func keptProperties(_ json: String) -> [String: String] {
        (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: String] ?? [:]
    }

    private static func keptColumn(_ kept: [String: String]) -> SQLValue {
        guard !kept.isEmpty, let data = try? JSONSerialization.data(withJSONObject: kept, options: [.sortedKeys]) else {
            return .null
        }
        return .text(String(decoding: data, as: UTF8.self))
    }

    /// `replacing`: a stored todo is replaced whatever its updated_at (the sync's merge decided).
    func applyImport(_ records: [TodoRecord], now: Date, dryRun: Bool, replacing: Bool = false) throws -> ImportSummary {
        var summary = ImportSummary()
        var categories: [String: Int64?] = [:]
        // Items earlier in the same file count as stored, also when nothing is written.
        var seen: [String: Int64] = [:]
        var changed: [Int64] = []
        let nowStamp = Int64(now.timeIntervalSince1970.rounded(.down))
        // Prepared once, not for each todo: preparing is a large part of a statement's cost.
        let find = try db.prepare("SELECT id, updated_at FROM todos WHERE uuid = ?")
        let (foundID, foundUpdated) = (find.column("id"), find.column("updated_at"))
        let insert = dryRun ? nil : try db.prepare("""
            INSERT INTO todos (uuid, title, notes, due_at, due_day, due_zone, priority, category_id,
                repeat_rule, repeat_from, repeat_start, completed_at, created_at, updated_at,
                reminded_through, default_reminders, snoozed_until, kept, title_key, repeat_dates, due_wall_time, parent_uuid)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22)
            """)
        let update = dryRun ? nil : try db.prepare("""
            UPDATE todos SET title = ?2, notes = ?3, due_at = ?4, due_day = ?5, due_zone = ?6,
                priority = ?7, category_id = ?8, repeat_rule = ?9, repeat_from = ?10,
                repeat_start = ?11, completed_at = ?12, created_at = ?13, updated_at = ?14,
                reminded_through = max(coalesce(reminded_through, ?15), ?15),
                default_reminders = ?16, snoozed_until = ?17, kept = ?18, title_key = ?19, repeat_dates = ?20,
                due_wall_time = ?21, parent_uuid = ?22
            WHERE uuid = ?1
            """)
        /// The id and updated_at of the todo stored with `uuid`.
        func storedTodo(_ uuid: String) throws -> (id: Int64, updated: Int64)? {
            try find.bind([.text(uuid)])
            defer { find.reset() }
            guard try find.step() else { return nil }
            let row = find.row
            return (row.int64(foundID), row.int64(foundUpdated))
        }
        for record in records {
            let todo = record.todo(id: 0)
            let updatedStamp = Self.stamp(todo.updatedAt)
            let stored = try seen[todo.uuid] ?? storedTodo(todo.uuid)?.updated
            if let stored, updatedStamp <= stored, !replacing {
                summary.outcomes.append(.skipped)
                continue
            }
            seen[todo.uuid] = updatedStamp
            summary.outcomes.append(stored == nil ? .added : .updated)
            var categoryID: Int64?
            if let name = todo.category?.name {
                categoryID = try importedCategoryID(name, cache: &categories, summary: &summary, now: nowStamp, dryRun: dryRun)
            }
            guard !dryRun else { continue }
            let (dueAt, dueDay, dueZone) = Self.columns(for: todo.due)
            let values: [SQLValue] = [
                .text(todo.uuid), .text(todo.title), todo.notes.sqlValue, dueAt.sqlValue, dueDay.sqlValue,
                dueZone.sqlValue, .integer(Int64(todo.priority.rawValue)), categoryID.sqlValue,
                todo.repetition.map(\.rrule).sqlValue, todo.repetition.map(\.from.rawValue).sqlValue,
                (todo.repetition?.start?.description).sqlValue, todo.completedAt.map(Self.stamp).sqlValue,
                // A later acknowledgement (another machine's) moves it forward, never back.
                .integer(Self.stamp(todo.createdAt)), .integer(updatedStamp),
                .integer(max(nowStamp - 1, record.remindedThrough.map(Self.stamp) ?? 0)),
                .integer(record.usesDefaultRules ? 1 : 0), record.snoozedUntil.map(Self.stamp).sqlValue,
                Self.keptColumn(record.kept), .text(Self.titleKey(todo.title)), (todo.repetition?.datesText).sqlValue,
                (todo.dueWallTime?.description).sqlValue,
                // A todo from outside that names itself its parent would be its own subtask.
                (todo.parentUUID == todo.uuid ? nil : todo.parentUUID).sqlValue,
            ]
            guard let insert, let update else { continue }
            if stored == nil {
                // Reminders from before the import are not owed: none fire for the past.
                try insert.run(values)
                let id = db.lastInsertRowID
                try insertCustomReminders(record.custom, todoID: id)
                try replaceTags(record.tags ?? [], todoID: id)
                changed.append(id)
            } else {
                try update.run(values)
                if let id = try storedTodo(todo.uuid)?.id {
                    try db.run("DELETE FROM custom_reminders WHERE todo_id = ?", [.integer(id)])
                    try insertCustomReminders(record.custom, todoID: id)
                    // A format that says nothing of tags leaves the stored ones.
                    if let tags = record.tags { try replaceTags(tags, todoID: id) }
                    changed.append(id)
                }
            }
        }
        if !dryRun {
            try importBlockers(zip(records, summary.outcomes).filter { $0.1 != .skipped }.map(\.0), keepingWaiting: replacing)
            try linkArrivedBlockers()
        }
        if !changed.isEmpty {
            try replan(ids: changed)
            try replanDependents(of: changed)
        }
        return summary
    }

    /// The id of the category named so (ignoring case), created unless `dryRun`; nil for one
    /// that a dry run would create.
    private func importedCategoryID(_ name: String, cache: inout [String: Int64?], summary: inout ImportSummary,
                                    now: Int64, dryRun: Bool) throws -> Int64? {
        let key = name.lowercased()
        if let known = cache[key] { return known }
        var id = try db.scalar("SELECT id FROM categories WHERE name = ?", [.text(name)])?.int64
        if id == nil {
            summary.newCategories.append(name)
            if !dryRun {
                try db.run("INSERT INTO categories (name, icon, created_at) VALUES (?, ?, ?)",
                           [.text(name), .text(Category.defaultIcon), .integer(now)])
                id = db.lastInsertRowID
            }
        }
        cache[key] = id
        return id
    }
}
