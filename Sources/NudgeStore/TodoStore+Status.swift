import Foundation
import NudgeCore
import NudgeSQLite

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
            SELECT (\(pending) due_at < ?1) + (\(pending) due_day < ?2) AS overdue,
                (\(pending) due_day = ?2)\(todayTimed.map { " + " + $0 }.joined()) AS today,
                (SELECT min(due_at) FROM todos WHERE completed_at IS NULL AND due_at >= ?1) AS next_at,
                (SELECT min(due_day) FROM todos WHERE completed_at IS NULL AND due_day >= ?2) AS next_day
            """
        return try perform {
            let row = try db.query(sql, arguments) {
                (overdue: Int($0.int64("overdue")), today: Int($0.int64("today")), timed: $0.optionalInt64("next_at"),
                 day: $0.text("next_day"))
            }[0]
            // Of the todos due at the earliest moment, and of those due on the earliest day,
            // the first as the list orders them (priority, then title): the first entry of the
            // list-order index there. Then the earlier of the two.
            let firsts = try [(PendingRun.timed, row.timed.sqlValue), (.days, row.day.sqlValue)].compactMap { run, value in
                try firstInListOrder(of: run, dueAt: value)
            }
            let next = agenda.sections(try fetch(ids: firsts)).first { $0.section == .today || $0.section == .upcoming }?.todos.first
            return DueSummary(overdue: row.overdue, today: row.today, next: next)
        }
    }

    /// The same summary for the pending todos `query` matches, read as `forEachAgendaTodo`
    /// reads them: a filter's todos are few, or read once, not counted in the indexes.
    public func dueSummary(matching query: TodoQuery, agenda: Agenda) throws(StoreError) -> DueSummary {
        var pending = query
        pending.state = .pending
        var overdue = 0, today = 0
        var next: Todo?
        try forEachAgendaTodo(matching: pending, agenda: agenda, order: .due) { section, todo in
            switch section {
            case .overdue: overdue += 1
            case .today: today += 1
            default: break
            }
            if next == nil, section == .today || section == .upcoming { next = todo }
        }
        return DueSummary(overdue: overdue, today: today, next: next)
    }

    /// The id of the pending todo of `run` due at `due` that `nudge list` shows first among
    /// them: the highest priority, then the title ignoring case, then the lowest id.
    private func firstInListOrder(of run: PendingRun, dueAt due: SQLValue) throws -> Int64? {
        guard due != .null, let column = run.dueColumn else { return nil }
        return try db.scalar("""
            SELECT t.id FROM todos t INDEXED BY \(run.index) WHERE \(run.condition) AND \(column) = ?
            ORDER BY \(run.order) LIMIT 1
            """, [due])?.int64
    }
}
