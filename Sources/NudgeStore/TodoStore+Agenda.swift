import Foundation
import NudgeCore

/// One non-empty section of `nudge list`, as an aggregate query finds it: what the list needs
/// before its first row (the header's count, the columns' widths).
public struct AgendaSectionSummary: Sendable, Equatable {
    public let section: AgendaSection
    public let count: Int
    public let highestID: Int64
    /// The largest `titleWidth` and `dueWidth` given to `agendaSummary`, over the section.
    public let widestTitle: Int
    public let widestDue: Int
}

extension TodoStore {
    /// Runs `body` in one read transaction, so that what it asks in several queries (a list's
    /// summary, then its rows) comes from the same moment of the file.
    public func reading<T>(_ body: () throws -> T) throws -> T {
        try db.readTransaction(body)
    }

    /// The non-empty sections of the todos matching `query`, in display order, from one
    /// aggregate query: nothing is kept of the todos themselves.
    public func agendaSummary(matching query: TodoQuery, agenda: Agenda,
                              titleWidth: @escaping (String) -> Int,
                              dueWidth: @escaping (Due) -> Int) throws(StoreError) -> [AgendaSectionSummary] {
        try perform {
            let filter = try todoFilter(query)
            let section = try agendaSectionColumn(agenda, firstParameter: filter.arguments.count + 1)
            // A title of printable ASCII is as wide as it is long; only others are measured.
            try db.defineFunction("nudge_title_width", argumentCount: 1) { arguments in
                let bytes = arguments.textBytes(0)
                if bytes.allSatisfy({ (0x20...0x7E).contains($0) }) { return .integer(Int64(bytes.count)) }
                return .integer(Int64(titleWidth(String(decoding: bytes, as: UTF8.self))))
            }
            let zone = agenda.clock.zone
            try db.defineFunction("nudge_due_width", argumentCount: 2) { arguments in
                let due: Due? = if !arguments.isNull(0) {
                    .at(Date(timeIntervalSince1970: TimeInterval(arguments.int64(0))), zone: zone)
                } else {
                    arguments.text(1).flatMap { LocalDate(iso: $0) }.map(Due.allDay)
                }
                return .integer(Int64(due.map(dueWidth) ?? 0))
            }
            let sql = """
                SELECT \(section.sql) AS section, count(*), max(t.id),
                    max(nudge_title_width(t.title)),
                    max(nudge_due_width(t.due_at, t.due_day))
                FROM todos t NOT INDEXED\(filter.sql)
                GROUP BY section ORDER BY section
                """
            return try db.query(sql, filter.arguments + section.arguments) { row in
                AgendaSectionSummary(section: AgendaSection.allCases[Int(row.int64(0))], count: Int(row.int64(1)),
                                     highestID: row.int64(2), widestTitle: Int(row.int64(3)), widestDue: Int(row.int64(4)))
            }
        }
    }

    /// Hands the todos matching `query` to `body` one at a time, in the order `nudge list`
    /// shows them: by section, then by `order` as `Agenda.sections` sorts. SQLite sorts, so
    /// that no more than one todo is held at a time, whatever the size of the list.
    public func forEachAgendaTodo(matching query: TodoQuery, agenda: Agenda, order: TodoOrder,
                                  _ body: (AgendaSection, Todo) throws -> Void) throws(StoreError) {
        try perform {
            let filter = try todoFilter(query)
            let section = try agendaSectionColumn(agenda, firstParameter: filter.arguments.count + 1)
            try defineSortFunctions(agenda)
            let keys = switch order {
            case .due: "due_key NULLS LAST, t.priority DESC, title_key, t.id"
            case .priority: "t.priority DESC, due_key NULLS LAST, title_key, t.id"
            case .title: "title_key, due_key NULLS LAST, t.priority DESC, t.id"
            case .created: "t.created_at, t.id"
            }
            let statement = try db.prepare("""
                SELECT \(Self.todoColumnList), \(section.sql) AS section,
                    coalesce(t.due_at, nudge_day_start(t.due_day)) AS due_key,
                    CASE WHEN length(CAST(t.title AS BLOB)) = length(t.title) THEN lower(t.title) ELSE nudge_fold(t.title) END AS title_key
                FROM todos t NOT INDEXED LEFT JOIN categories c ON c.id = t.category_id\(filter.sql)
                ORDER BY section, \(keys)
                """)
            try statement.bind(filter.arguments + section.arguments)
            var zones = ZoneCache(fallback: planner.calendar.timeZone)
            while try statement.step() {
                let row = Row(statement: statement)
                try body(AgendaSection.allCases[Int(row.int64(17))], Self.todo(from: row, zones: &zones))
            }
        }
    }

    /// The WHERE clause of `query`, its parameters numbered from 1. A search ignores case: with SQLite's LIKE for an ASCII
    /// needle, and for any other with Foundation's case-insensitive search, as a SQL function.
    func todoFilter(_ query: TodoQuery) throws -> (sql: String, arguments: [SQLValue]) {
        var conditions: [String] = []
        var arguments: [SQLValue] = []
        switch query.state {
        case .pending: conditions.append("t.completed_at IS NULL")
        case .completed: conditions.append("t.completed_at IS NOT NULL")
        case .all: break
        }
        if let name = query.categoryName {
            conditions.append("t.category_id = ?\(arguments.count + 1)")
            arguments.append(.integer(try categoryID(named: name)))
        }
        if let priority = query.priority {
            conditions.append("t.priority = ?\(arguments.count + 1)")
            arguments.append(.integer(Int64(priority.rawValue)))
        }
        if let needle = query.search, !needle.isEmpty {
            if needle.allSatisfy(\.isASCII) {
                let parameter = "?\(arguments.count + 1)"
                conditions.append(#"(t.title LIKE \#(parameter) ESCAPE '\' OR t.notes LIKE \#(parameter) ESCAPE '\')"#)
                arguments.append(.text("%" + Self.escapedForLike(needle) + "%"))
            } else {
                try db.defineFunction("nudge_contains", argumentCount: 2) { arguments in
                    let found = [arguments.text(0), arguments.text(1)].contains {
                        $0?.range(of: needle, options: [.caseInsensitive]) != nil
                    }
                    return .integer(found ? 1 : 0)
                }
                conditions.append("nudge_contains(t.title, t.notes)")
            }
        }
        return (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND "), arguments)
    }

    /// The index of a todo's section in `AgendaSection.allCases`, as SQL whose parameters are
    /// numbered from `firstParameter`: the boundaries are worked out here from the agenda's
    /// now and zone, so that the SQL agrees with `Agenda.section(of:)`.
    private func agendaSectionColumn(_ agenda: Agenda, firstParameter: Int) throws -> (sql: String, arguments: [SQLValue]) {
        // A timed due is overdue before now; stored dues are whole seconds.
        var arguments: [SQLValue] = [.integer(Int64(agenda.now.timeIntervalSince1970.rounded(.up))),
                                     .text(agenda.today.description)]
        let now = "?\(firstParameter)", today = "?\(firstParameter + 1)"
        var todayTimed: [String] = []
        for range in agenda.secondsOfToday() {
            let lower = "?\(firstParameter + arguments.count)", upper = "?\(firstParameter + arguments.count + 1)"
            todayTimed.append("(t.due_at >= \(lower) AND t.due_at < \(upper))")
            arguments += [.integer(range.lowerBound), .integer(range.upperBound)]
        }
        func index(_ section: AgendaSection) -> Int { AgendaSection.allCases.firstIndex(of: section)! }
        let sql = """
            CASE WHEN t.completed_at IS NOT NULL THEN \(index(.completed))
                WHEN t.due_at IS NOT NULL THEN CASE WHEN t.due_at < \(now) THEN \(index(.overdue))
                    WHEN \(todayTimed.isEmpty ? "0" : todayTimed.joined(separator: " OR ")) THEN \(index(.today))
                    ELSE \(index(.upcoming)) END
                WHEN t.due_day IS NOT NULL THEN CASE WHEN t.due_day < \(today) THEN \(index(.overdue))
                    WHEN t.due_day = \(today) THEN \(index(.today)) ELSE \(index(.upcoming)) END
                ELSE \(index(.unscheduled)) END
            """
        return (sql, arguments)
    }

    /// What SQLite cannot work out itself: an all-day todo's local midnight in the agenda's
    /// zone, and a title in lower case as Swift's `lowercased()` has it, composed (NFC) so that
    /// comparing its bytes orders it as Swift compares strings (by the scalars of NFC).
    private func defineSortFunctions(_ agenda: Agenda) throws {
        try db.defineFunction("nudge_day_start", argumentCount: 1) { arguments in
            guard let day = arguments.text(0).flatMap({ LocalDate(iso: $0) }) else { return .null }
            return .real(agenda.sortSeconds(.allDay(day)))
        }
        // ASCII titles (as many bytes as characters), most of them, are folded by SQLite's
        // lower(), which agrees there.
        try db.defineFunction("nudge_fold", argumentCount: 1) { arguments in
            .text((arguments.text(0) ?? "").lowercased().precomposedStringWithCanonicalMapping)
        }
    }
}
