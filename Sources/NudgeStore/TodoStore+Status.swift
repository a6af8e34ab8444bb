import Foundation
import NudgeCore

/// What a status bar shows: how many todos are overdue and due today, and which comes next.
public struct DueSummary: Sendable {
    /// As many as `nudge list` shows in its Overdue and Today sections.
    public let overdue: Int
    public let today: Int
    /// The first todo of Today, else of Upcoming, as `nudge list` orders them.
    public let next: Todo?
}

extension TodoStore {
    /// Counts the todos of the Overdue and Today sections of `agenda` and finds the next one
    /// with aggregate queries over the pending-due indexes, without reading every todo: a
    /// status bar asks every few seconds, whatever the size of the list.
    public func dueSummary(agenda: Agenda) throws(StoreError) -> DueSummary {
        // A timed due is overdue before now; stored dues are whole seconds.
        let now = SQLValue.integer(Int64(agenda.now.timeIntervalSince1970.rounded(.up)))
        let today = SQLValue.text(agenda.today.description)
        let pending = "SELECT count(*) FROM todos WHERE completed_at IS NULL AND"
        var todayTimed: [String] = []
        var arguments: [SQLValue] = [now, today]
        for range in agenda.secondsOfToday() {
            todayTimed.append("(\(pending) due_at >= max(?1, ?\(arguments.count + 1)) AND due_at < ?\(arguments.count + 2))")
            arguments += [.integer(range.lowerBound), .integer(range.upperBound)]
        }
        // One statement: the counts and the next come from the same moment of the file.
        let sql = """
            SELECT (\(pending) due_at < ?1) + (\(pending) due_day < ?2),
                (\(pending) due_day = ?2)\(todayTimed.map { " + " + $0 }.joined()),
                (SELECT min(due_at) FROM todos WHERE completed_at IS NULL AND due_at >= ?1),
                (SELECT min(due_day) FROM todos WHERE completed_at IS NULL AND due_day >= ?2)
            """
        return try perform {
            let row = try db.query(sql, arguments) {
                (overdue: Int($0.int64(0)), today: Int($0.int64(1)), timed: $0.optionalInt64(2), day: $0.text(3))
            }[0]
            // Every todo due at the earliest moment or on the earliest day: the list's order
            // (priority, then title) picks among them.
            // Two queries: with OR, SQLite scans every pending todo instead of two index entries.
            let select = "SELECT \(Self.todoColumns) WHERE t.completed_at IS NULL AND"
            let candidates = try selectTodos(select + " t.due_at = ?", [row.timed.sqlValue])
                + selectTodos(select + " t.due_day = ?", [row.day.sqlValue])
            let next = agenda.sections(candidates).first { $0.section == .today || $0.section == .upcoming }?.todos.first
            return DueSummary(overdue: row.overdue, today: row.today, next: next)
        }
    }
}
