import Foundation
import NudgeCore
import NudgeFilter
import NudgeSQLite

extension TodoStore {
    /// The ids of the todos `query` matches.
    public func ids(matching query: TodoQuery) throws(StoreError) -> Set<Int64> {
        try perform {
            let filter = try todoFilter(query)
            return Set(try db.query("SELECT t.id FROM todos t NOT INDEXED\(filter.sql)", filter.arguments) { $0.int64("id") })
        }
    }

    /// `filter` as one SQL condition on `todos t`, its parameters added to `sql`'s. Each tag's
    /// todos go to a temporary table first, as `tagConditions` does, and for the same reason.
    func condition(_ filter: Filter, into sql: inout TodoFilter) throws -> String {
        var tables = 0
        return try condition(filter, into: &sql, tables: &tables)
    }

    private func condition(_ filter: Filter, into sql: inout TodoFilter, tables: inout Int) throws -> String {
        switch filter {
        case .all(let filters):
            guard !filters.isEmpty else { return "1" }
            var parts: [String] = []
            for filter in filters { parts.append(try condition(filter, into: &sql, tables: &tables)) }
            return "(" + parts.joined(separator: " AND ") + ")"
        case .any(let filters):
            guard !filters.isEmpty else { return "0" }
            var parts: [String] = []
            for filter in filters { parts.append(try condition(filter, into: &sql, tables: &tables)) }
            return "(" + parts.joined(separator: " OR ") + ")"
        case .term(let term):
            return try condition(term, into: &sql, tables: &tables)
        }
    }

    private func condition(_ term: FilterTerm, into sql: inout TodoFilter, tables: inout Int) throws -> String {
        switch term {
        case .ids(let ranges):
            // Integers, written into the SQL: a filter of many ids would otherwise pass SQLite's
            // limit on parameters.
            let parts = ranges.map { $0.count == 1 ? "t.id = \($0.lowerBound)" : "t.id BETWEEN \($0.lowerBound) AND \($0.upperBound)" }
            return "(" + parts.joined(separator: " OR ") + ")"
        case .tagged(let tag), .untagged(let tag):
            let table = "nudge_filter_tag_\(tables)"
            tables += 1
            try db.execute("CREATE TEMP TABLE IF NOT EXISTS \(table) (id INTEGER PRIMARY KEY); DELETE FROM temp.\(table)")
            try db.run("INSERT INTO temp.\(table) SELECT todo_id FROM todo_tags WHERE folded = ?", [.text(Tag.folded(tag))])
            if case .untagged = term { return "t.id NOT IN temp.\(table)" }
            return "t.id IN temp.\(table)"
        case .category(let name):
            return "t.category_id = " + sql.parameter(.integer(try categoryID(named: name)))
        case .priority(let priority):
            return "t.priority = \(priority.rawValue)"
        case .due(let window):
            return condition(window, into: &sql)
        case .noDue:
            return "(t.due_at IS NULL AND t.due_day IS NULL)"
        case .overdue(let window):
            return "(t.completed_at IS NULL AND \(condition(window, into: &sql)))"
        case .blocked:
            return Self.blockedCondition
        case .repeating:
            return "t.repeat_rule IS NOT NULL"
        case .parent(let id):
            return "t.parent_uuid = (SELECT p.uuid FROM todos p WHERE p.id = \(id))"
        case .text(let needle):
            if needle.allSatisfy(\.isASCII) {
                let pattern = sql.parameter(.text("%" + Self.escapedForLike(needle) + "%"))
                return #"(t.title LIKE \#(pattern) ESCAPE '\' OR t.notes LIKE \#(pattern) ESCAPE '\')"#
            }
            try db.defineFunction("nudge_filter_contains", argumentCount: 3) { arguments in
                guard let needle = arguments.text(2) else { return .integer(0) }
                let found = [arguments.text(0), arguments.text(1)].contains { $0?.range(of: needle, options: [.caseInsensitive]) != nil }
                return .integer(found ? 1 : 0)
            }
            return "nudge_filter_contains(t.title, t.notes, \(sql.parameter(.text(needle))))"
        }
    }

    /// The dues in `window`: timed ones by their instant, all-day ones by their day, whose
    /// ISO text sorts as the days do.
    private func condition(_ window: DueWindow, into sql: inout TodoFilter) -> String {
        var timed = ["t.due_at IS NOT NULL"], days = ["t.due_day IS NOT NULL"]
        if let first = window.firstInstant { timed.append("t.due_at >= \(first)") }
        if let before = window.instantsBefore { timed.append("t.due_at < \(before)") }
        if let first = window.firstDay { days.append("t.due_day >= " + sql.parameter(.text(first.description))) }
        if let last = window.lastDay { days.append("t.due_day <= " + sql.parameter(.text(last.description))) }
        return "((" + timed.joined(separator: " AND ") + ") OR (" + days.joined(separator: " AND ") + "))"
    }
}

extension TodoFilter {
    /// A new parameter holding `value`, as the SQL names it.
    mutating func parameter(_ value: SQLValue) -> String {
        arguments.append(value)
        return "?\(arguments.count)"
    }
}
