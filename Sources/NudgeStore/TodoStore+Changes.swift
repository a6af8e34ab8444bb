import Foundation
import NudgeCore
import NudgeSQLite

/// How far the service has looked at what happened to todos (adds, completions, snoozes), by
/// whichever process made it: `nudge`, the service's buttons, a sync.
public struct ChangeMarks: Equatable, Sendable {
    /// The highest todo id seen (ids are never reused).
    var lastTodoID: Int64 = 0
    /// The highest `completions` row seen.
    var lastCompletionID: Int64 = 0
    /// The snoozes in effect, by todo id: a new end is a new snooze.
    var snoozes: [Int64: Int64] = [:]
}

/// Something that happened to a todo since the marks.
public enum TodoChange: Equatable, Sendable {
    case added(todoID: Int64)
    /// `due`: the due of what was completed, which a repeating todo has since moved on from.
    case completed(todoID: Int64, due: Due?)
    case snoozed(todoID: Int64, until: Date)
}

extension TodoStore {
    /// The ids of the todos with these uuids that exist.
    public func todoIDs(uuids: some Collection<String>) throws(StoreError) -> [Int64] {
        try perform {
            let lookup = try db.prepare("SELECT id FROM todos WHERE uuid = ?")
            var ids: [Int64] = []
            for uuid in uuids {
                try lookup.bind([.text(uuid)])
                defer { lookup.reset() }
                if try lookup.step() { ids.append(lookup.row.int64("id")) }
            }
            return ids
        }
    }

    /// Where things stand now: what `changes(since:)` is first given, so that what happened
    /// before is not reported.
    public func changeMarks() throws(StoreError) -> ChangeMarks {
        try changes(since: nil).marks
    }

    /// What happened since `marks`, in the order of each kind (adds, completions, snoozes),
    /// and the marks to give next time. Three indexed queries: adds and completions by rowid,
    /// snoozes by the partial index of todos snoozed.
    public func changes(since marks: ChangeMarks?) throws(StoreError) -> (changes: [TodoChange], marks: ChangeMarks) {
        try perform {
            var next = ChangeMarks()
            var changes: [TodoChange] = []
            let todos = try db.prepare("SELECT id FROM todos WHERE id > ? ORDER BY id")
            try todos.bind([.integer(marks?.lastTodoID ?? 0)])
            next.lastTodoID = marks?.lastTodoID ?? 0
            if marks == nil {
                next.lastTodoID = try db.scalar("SELECT coalesce(max(id), 0) FROM todos")?.int64 ?? 0
            } else {
                while try todos.step() {
                    let id = todos.row.int64("id")
                    changes.append(.added(todoID: id))
                    next.lastTodoID = id
                }
            }
            if let marks {
                let completions = try db.prepare("""
                    SELECT c.id, c.todo_id, c.due_at, c.due_day, t.due_zone
                    FROM completions c LEFT JOIN todos t ON t.id = c.todo_id WHERE c.id > ? ORDER BY c.id
                    """)
                try completions.bind([.integer(marks.lastCompletionID)])
                next.lastCompletionID = marks.lastCompletionID
                var zones = ZoneCache(fallback: planner.calendar.timeZone)
                while try completions.step() {
                    let row = completions.row
                    var due: Due?
                    if let instant = row.optionalInt64("due_at") {
                        due = .at(Self.date(fromStamp: instant), zone: zones.zone(row.text("due_zone")))
                    } else if let day = row.text("due_day").flatMap({ LocalDate(iso: $0) }) {
                        due = .allDay(day)
                    }
                    changes.append(.completed(todoID: row.int64("todo_id"), due: due))
                    next.lastCompletionID = row.int64("id")
                }
            } else {
                next.lastCompletionID = try db.scalar("SELECT coalesce(max(id), 0) FROM completions")?.int64 ?? 0
            }
            let snoozes = try db.prepare("""
                SELECT id, snoozed_until FROM todos INDEXED BY todos_snoozed
                WHERE snoozed_until IS NOT NULL AND completed_at IS NULL ORDER BY id
                """)
            while try snoozes.step() {
                let row = snoozes.row
                let (id, until) = (row.int64("id"), row.int64("snoozed_until"))
                next.snoozes[id] = until
                if let marks, marks.snoozes[id] != until {
                    changes.append(.snoozed(todoID: id, until: Self.date(fromStamp: until)))
                }
            }
            return (changes, next)
        }
    }
}
