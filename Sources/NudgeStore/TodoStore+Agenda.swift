import Foundation
import NudgeCore
import NudgeSQLite

/// What `nudge list` needs before its first row: the count of each non-empty section, and the
/// widths of its columns.
public struct AgendaSummary: Sendable, Equatable {
    /// The non-empty sections and how many todos each holds.
    public var counts: [AgendaSection: Int] = [:]
    public var highestID: Int64 = 0
    /// The largest `titleWidth` and `dueWidth` given to `agendaSummary`, over all the todos.
    public var widestTitle = 0
    public var widestDue = 0

    public var isEmpty: Bool { counts.isEmpty }

    mutating func add(_ count: Int64, to section: AgendaSection) {
        if count > 0 { counts[section, default: 0] += Int(count) }
    }
}

extension TodoStore {
    /// Runs `body` in one read transaction, so that what it asks in several queries (a list's
    /// summary, then its rows) comes from the same moment of the file.
    public func reading<T>(_ body: () throws -> T) throws -> T {
        try db.readTransaction(body)
    }

    /// The title as the list orders titles: in lower case as Swift's `lowercased()` has it,
    /// composed (NFC), so that comparing its bytes orders it as Swift compares strings.
    static func titleKey(_ title: String) -> String {
        title.utf8.allSatisfy { $0 < 0x80 } ? title.lowercased() : title.lowercased().precomposedStringWithCanonicalMapping
    }

    /// The sections of the todos matching `query`, with their counts and the widths of the
    /// list's columns; nothing is kept of the todos themselves. The pending ones are counted in
    /// the list-order indexes, unless `query` searches. `dueWidth` of a timed due may depend on its local day and, when
    /// `dueWidthVariesByHour`, its hour, not on its minute: each is asked once per day or hour.
    public func agendaSummary(matching query: TodoQuery, agenda: Agenda,
                              titleWidth: @escaping (String) -> Int, dueWidth: @escaping (Due) -> Int,
                              dueWidthVariesByHour: Bool) throws(StoreError) -> AgendaSummary {
        try perform {
            let filter = try todoFilter(query)
            let bounds = SectionBounds(agenda, firstParameter: filter.arguments.count + 1)
            // A title of printable ASCII is as wide as it is long; only others are measured.
            try db.defineFunction("nudge_title_width", argumentCount: 1) { arguments in
                let bytes = arguments.textBytes(0)
                if bytes.allSatisfy({ (0x20...0x7E).contains($0) }) { return .integer(Int64(bytes.count)) }
                return .integer(Int64(titleWidth(String(decoding: bytes, as: UTF8.self))))
            }
            var summary = AgendaSummary()
            func measure(_ sql: String, _ arguments: [SQLValue], _ body: (Row) -> Void) throws {
                let statement = try prepare(sql, filter.arguments + arguments)
                guard try statement.step() else { return }
                let row = statement.row
                summary.highestID = max(summary.highestID, row.int64("highest_id"))
                summary.widestTitle = max(summary.widestTitle, Int(row.int64("widest_title")))
                body(row)
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
            guard query.isServedByListOrderIndexes else {
                let statement = try prepare("""
                    SELECT \(bounds.sectionColumn) AS section, count(*) AS total, max(t.id) AS highest_id,
                        max(nudge_title_width(t.title)) AS widest_title, max(nudge_due_width(t.due_at, t.due_day)) AS widest_due
                    FROM todos t NOT INDEXED\(filter.sql) GROUP BY section
                    """, filter.arguments + bounds.arguments)
                while try statement.step() {
                    let row = statement.row
                    summary.add(row.int64("total"), to: AgendaSection.allCases[Int(row.int64("section"))])
                    summary.highestID = max(summary.highestID, row.int64("highest_id"))
                    summary.widestTitle = max(summary.widestTitle, Int(row.int64("widest_title")))
                    summary.widestDue = max(summary.widestDue, Int(row.int64("widest_due")))
                }
                return summary
            }
            if query.state != .completed {
                for run in PendingRun.allCases {
                    try measure("""
                        SELECT count(*) FILTER (WHERE \(bounds.condition(run, .overdue))) AS overdue,
                            count(*) FILTER (WHERE \(bounds.condition(run, .today))) AS today, count(*) AS total,
                            max(t.id) AS highest_id, max(nudge_title_width(t.title)) AS widest_title
                        FROM todos t INDEXED BY \(run.index) WHERE \(run.condition)\(filter.and)
                        """, bounds.arguments) { row in
                        let (overdue, today, all) = (row.int64("overdue"), row.int64("today"), row.int64("total"))
                        if run == .unscheduled {
                            summary.add(all, to: .unscheduled)
                        } else {
                            summary.add(overdue, to: .overdue)
                            summary.add(today, to: .today)
                            summary.add(all - overdue - today, to: .upcoming)
                        }
                    }
                }
                summary.widestDue = try widestPendingDue(filter, agenda: agenda, dueWidth: dueWidth,
                                                         variesByHour: dueWidthVariesByHour)
            }
            if query.state != .pending {
                try measure("""
                    SELECT count(*) AS total, max(t.id) AS highest_id, max(nudge_title_width(t.title)) AS widest_title,
                        max(nudge_due_width(t.due_at, t.due_day)) AS widest_due
                    FROM todos t WHERE t.completed_at IS NOT NULL\(filter.and)
                    """, []) { row in
                    summary.add(row.int64("total"), to: .completed)
                    summary.widestDue = max(summary.widestDue, Int(row.int64("widest_due")))
                }
            }
            return summary
        }
    }

    /// The widest due of the pending todos matching `filter`, asking `dueWidth` once for each
    /// day that has todos (and each hour, when `variesByHour`): the index is searched for the
    /// first due of the next day (or hour), never read through.
    private func widestPendingDue(_ filter: TodoFilter, agenda: Agenda, dueWidth: (Due) -> Int,
                                  variesByHour: Bool) throws -> Int {
        let next = "?\(filter.arguments.count + 1)"
        var widest = 0
        let firstDay = try db.prepare("""
            SELECT t.due_day FROM todos t INDEXED BY \(PendingRun.days.index)
            WHERE \(PendingRun.days.condition)\(filter.and) AND t.due_day > \(next) ORDER BY t.due_day LIMIT 1
            """)
        var day = ""
        while true {
            try firstDay.bind(filter.arguments + [.text(day)])
            guard try firstDay.step(), let found = firstDay.row.text("due_day") else { break }
            day = found
            if let date = LocalDate(iso: found) { widest = max(widest, dueWidth(.allDay(date))) }
        }
        let firstInstant = try db.prepare("""
            SELECT t.due_at FROM todos t INDEXED BY \(PendingRun.timed.index)
            WHERE \(PendingRun.timed.condition)\(filter.and) AND t.due_at >= \(next) ORDER BY t.due_at LIMIT 1
            """)
        var instant = Int64.min
        while true {
            try firstInstant.bind(filter.arguments + [.integer(instant)])
            guard try firstInstant.step() else { break }
            let found = firstInstant.row.int64("due_at")
            widest = max(widest, dueWidth(.at(Date(timeIntervalSince1970: TimeInterval(found)), zone: agenda.clock.zone)))
            instant = agenda.clock.nextBoundary(after: found, every: variesByHour ? 3600 : 86_400)
            if instant <= found { break }
        }
        return widest
    }

    /// Hands the todos matching `query` to `body` one at a time, as lines of `nudge list`, in
    /// its order, as `forEachAgendaTodo` reads them; those `leavingOut` names are skipped
    /// before a line is made of them. `tags` are every todo's, when the caller has read them
    /// (`SubtaskLinks.tags`).
    public func forEachAgendaLine(matching query: TodoQuery, agenda: Agenda, order: TodoOrder,
                                  leavingOut skipped: (Int64) -> Bool = { _ in false }, tags: [Int64: String]? = nil,
                                  _ body: (AgendaSection, AgendaLine) throws -> Void) throws(StoreError) {
        let blocked = try openBlockersByTodo()
        func line(_ todo: Todo) -> AgendaLine {
            var line = AgendaLine(todo)
            line.blockedBy = blocked[todo.id] ?? []
            return line
        }
        guard order == .due, query.state != .completed, query.isServedByListOrderIndexes else {
            return try forEachSortedTodo(matching: query, agenda: agenda, order: order) {
                if !skipped($1.id) { try body($0, line($1)) }
            }
        }
        try perform {
            let categories = try Dictionary(uniqueKeysWithValues: db.query("SELECT id, name FROM categories") {
                ($0.int64("id"), $0.text("name") ?? "")
            })
            // A list of todos with a tag is short: each row's tags are looked up by its id.
            let tagTexts = query.requiresATag ? nil : try tags ?? tagTextsByTodo()
            try forEachPendingInListOrder(matching: query, agenda: agenda,
                                          columns: ["t.title", "t.category_id"] + (tagTexts == nil ? [Self.tagsColumn] : []),
                                          found: { (title: $0.column("title"), category: $0.column("category_id"),
                                                    tags: tagTexts == nil ? $0.column("tags") : nil) }) { section, cursor in
                if skipped(cursor.id) { return }
                let row = cursor.row
                var line = AgendaLine(id: cursor.id, title: row.text(cursor.columns.title) ?? "", due: cursor.due,
                                      priority: cursor.priority,
                                      categoryName: row.optionalInt64(cursor.columns.category).flatMap { categories[$0] },
                                      tagsText: tagTexts.map { $0[cursor.id] } ?? cursor.columns.tags.flatMap { row.text($0) },
                                      isCompleted: false)
                if !blocked.isEmpty { line.blockedBy = blocked[cursor.id] ?? [] }
                try body(section, line)
            }
        }
        if query.state == .all {
            try forEachSortedTodo(matching: query.completed, agenda: agenda, order: order) {
                if !skipped($1.id) { try body($0, line($1)) }
            }
        }
    }

    /// Hands the todos matching `query` to `body` one at a time, in the order `nudge list`
    /// shows them: by section, then by `order` as `Agenda.sections` sorts. In the default
    /// order the pending ones are read in order from the list-order indexes, the timed and the
    /// all-day ones of each section merged; otherwise (another order, a search) and for the
    /// completed ones, SQLite sorts. Either way no more than one todo is held at a time.
    public func forEachAgendaTodo(matching query: TodoQuery, agenda: Agenda, order: TodoOrder,
                                  _ body: (AgendaSection, Todo) throws -> Void) throws(StoreError) {
        guard order == .due, query.state != .completed, query.isServedByListOrderIndexes else {
            return try forEachSortedTodo(matching: query, agenda: agenda, order: order, body)
        }
        var zones = ZoneCache(fallback: planner.calendar.timeZone)
        try perform {
            try forEachPendingInListOrder(matching: query, agenda: agenda, columns: Self.todoColumnList.components(separatedBy: ","),
                                          joiningCategories: true, found: TodoColumns.init) { section, cursor in
                try body(section, Self.todo(from: cursor.row, columns: cursor.columns, zones: &zones))
            }
        }
        if query.state == .all {
            try forEachSortedTodo(matching: query.completed, agenda: agenda, order: order, body)
        }
    }

    /// Reads the pending todos matching `query` in the list's order, from the list-order
    /// indexes, and hands `body` each one's section and a cursor at its row, which has
    /// `columns`, as `found` finds them by name.
    private func forEachPendingInListOrder<Columns>(matching query: TodoQuery, agenda: Agenda, columns: [String],
                                                    joiningCategories: Bool = false, found: (Statement) -> Columns,
                                                    _ body: (AgendaSection, ListOrderCursor<Columns>) throws -> Void) throws {
        let filter = try todoFilter(query)
        let bounds = SectionBounds(agenda, firstParameter: filter.arguments.count + 1)
        func cursor(_ run: PendingRun, _ section: AgendaSection) throws -> ListOrderCursor<Columns> {
            let statement = try prepare("""
                SELECT \(columns.joined(separator: ",")), t.id AS key_id, t.priority AS key_priority,
                    \(run.dueColumn ?? "NULL") AS key_due, t.title_key AS key_title
                FROM todos t INDEXED BY \(run.index)\(joiningCategories ? " LEFT JOIN categories c ON c.id = t.category_id" : "")
                WHERE \(run.condition) AND \(bounds.condition(run, section))\(filter.and)
                ORDER BY \(run.order)
                """, filter.arguments + bounds.arguments)
            return try ListOrderCursor(statement, run: run, agenda: agenda, columns: found)
        }
        for section in [AgendaSection.overdue, .today, .upcoming] {
            let timed = try cursor(.timed, section), days = try cursor(.days, section)
            while let next = ListOrderCursor.first(timed, days) {
                try body(section, next)
                try next.advance()
            }
        }
        let unscheduled = try cursor(.unscheduled, .unscheduled)
        while unscheduled.hasRow {
            try body(.unscheduled, unscheduled)
            try unscheduled.advance()
        }
    }

    /// The todos matching `query` as `forEachAgendaTodo` hands them, with SQLite sorting them all.
    func forEachSortedTodo(matching query: TodoQuery, agenda: Agenda, order: TodoOrder,
                           _ body: (AgendaSection, Todo) throws -> Void) throws(StoreError) {
        try perform {
            let filter = try todoFilter(query)
            let bounds = SectionBounds(agenda, firstParameter: filter.arguments.count + 1)
            try defineDayStart(agenda)
            let statement = try db.prepare("""
                SELECT \(Self.todoColumnList), \(bounds.sectionColumn) AS section,
                    coalesce(t.due_at, nudge_day_start(t.due_day)) AS due_key
                FROM todos t NOT INDEXED LEFT JOIN categories c ON c.id = t.category_id\(filter.sql)
                ORDER BY section, \(Self.sortKeys(order))
                """)
            try statement.bind(filter.arguments + bounds.arguments)
            let (columns, section) = (TodoColumns(statement), statement.column("section"))
            var zones = ZoneCache(fallback: planner.calendar.timeZone)
            while try statement.step() {
                let row = statement.row
                try body(AgendaSection.allCases[Int(row.int64(section))], Self.todo(from: row, columns: columns, zones: &zones))
            }
        }
    }

    /// `nudge_day_start(due_day)`: an all-day todo sorts at its local midnight in the agenda's zone.
    func defineDayStart(_ agenda: Agenda) throws {
        try db.defineFunction("nudge_day_start", argumentCount: 1) { arguments in
            guard let day = arguments.text(0).flatMap({ LocalDate(iso: $0) }) else { return .null }
            return .real(agenda.sortSeconds(.allDay(day)))
        }
    }

    /// The ORDER BY keys within a section, after a `due_key` column as `forEachSortedTodo` selects it.
    static func sortKeys(_ order: TodoOrder) -> String {
        switch order {
        case .due: "due_key NULLS LAST, t.priority DESC, t.title_key, t.id"
        case .priority: "t.priority DESC, due_key NULLS LAST, t.title_key, t.id"
        case .title: "t.title_key, due_key NULLS LAST, t.priority DESC, t.id"
        case .created: "t.created_at, t.id"
        }
    }

    /// `sql` prepared with the first of `arguments`, as many as it numbers: the bounds of one
    /// section leave the others' parameters out.
    private func prepare(_ sql: String, _ arguments: [SQLValue]) throws -> Statement {
        let statement = try db.prepare(sql)
        try statement.bind(Array(arguments.prefix(statement.parameterCount)))
        return statement
    }

    /// Runs `body` with a query for the todos `query` finds whose search, if it has one, is made
    /// once: the ids it finds go to a temporary table, and `body`'s reads (a summary, then the
    /// rows) look them up by id instead of reading every todo's text again for each.
    /// Call it inside `reading`.
    public func searchingOnce<T>(_ query: TodoQuery, _ body: (TodoQuery) throws -> T) throws -> T {
        guard query.isFoundOnceFirst else { return try body(query) }
        defer { try? db.execute("DELETE FROM temp.nudge_found") }
        let foundMost = try perform {
            let filter = try todoFilter(query)
            try db.execute("CREATE TEMP TABLE IF NOT EXISTS nudge_found (id INTEGER PRIMARY KEY); DELETE FROM temp.nudge_found")
            try db.run("INSERT INTO temp.nudge_found SELECT t.id FROM todos t NOT INDEXED\(filter.sql)", filter.arguments)
            // The highest id stands for the number of todos: it costs no count.
            let highest = try db.scalar("SELECT max(id) FROM todos")?.int64 ?? 0
            return Int64(db.changes) * 2 > highest
        }
        var found = query
        found.search = nil
        found.filter = nil
        found.foundOnce = true
        found.foundMost = foundMost
        return try body(found)
    }

    /// The WHERE conditions of `query`, its parameters numbered from 1. A search ignores case:
    /// with SQLite's LIKE for an ASCII needle, and for any other with Foundation's
    /// case-insensitive search, as a SQL function.
    func todoFilter(_ query: TodoQuery) throws -> TodoFilter {
        var filter = TodoFilter()
        switch query.state {
        case .pending: filter.conditions.append("t.completed_at IS NULL")
        case .completed: filter.conditions.append("t.completed_at IS NOT NULL")
        case .all: break
        }
        if let name = query.categoryName {
            filter.conditions.append("t.category_id = ?\(filter.arguments.count + 1)")
            filter.arguments.append(.integer(try categoryID(named: name)))
        }
        if let priority = query.priority {
            filter.conditions.append("t.priority = ?\(filter.arguments.count + 1)")
            filter.arguments.append(.integer(Int64(priority.rawValue)))
        }
        try tagConditions(query, into: &filter)
        if let terms = query.filter {
            filter.conditions.append(try condition(terms, into: &filter))
        }
        if query.foundOnce {
            filter.conditions.append("t.id IN temp.nudge_found")
        }
        if let needle = query.search, !needle.isEmpty {
            if needle.allSatisfy(\.isASCII) {
                let parameter = "?\(filter.arguments.count + 1)"
                filter.conditions.append(#"(t.title LIKE \#(parameter) ESCAPE '\' OR t.notes LIKE \#(parameter) ESCAPE '\')"#)
                filter.arguments.append(.text("%" + Self.escapedForLike(needle) + "%"))
            } else {
                try db.defineFunction("nudge_contains", argumentCount: 2) { arguments in
                    let found = [arguments.text(0), arguments.text(1)].contains {
                        $0?.range(of: needle, options: [.caseInsensitive]) != nil
                    }
                    return .integer(found ? 1 : 0)
                }
                filter.conditions.append("nudge_contains(t.title, t.notes)")
            }
        }
        return filter
    }
}

/// The conditions a query puts on todos, as SQL on `todos t`, and their parameters.
struct TodoFilter {
    var conditions: [String] = []
    var arguments: [SQLValue] = []

    /// A WHERE clause, or nothing.
    var sql: String { conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ") }
    /// The conditions, each after AND, for a WHERE clause of its own.
    var and: String { conditions.map { " AND " + $0 }.joined() }
}

/// The three runs of pending todos that the list-order indexes hold (migration 009), each in
/// the list's order within a section.
enum PendingRun: CaseIterable {
    case timed, days, unscheduled

    var index: String {
        switch self {
        case .timed: "todos_pending_timed_in_order"
        case .days: "todos_pending_days_in_order"
        case .unscheduled: "todos_pending_unscheduled_in_order"
        }
    }

    /// The index's own WHERE, which a query must imply to use it.
    var condition: String {
        switch self {
        case .timed: "t.completed_at IS NULL AND t.due_at IS NOT NULL"
        case .days: "t.completed_at IS NULL AND t.due_day IS NOT NULL"
        case .unscheduled: "t.completed_at IS NULL AND t.due_at IS NULL AND t.due_day IS NULL"
        }
    }

    var dueColumn: String? {
        switch self {
        case .timed: "t.due_at"
        case .days: "t.due_day"
        case .unscheduled: nil
        }
    }

    /// The index's order, so that SQLite reads it rather than sorting.
    var order: String {
        ((dueColumn.map { [$0] } ?? []) + ["t.priority DESC", "t.title_key", "t.id"]).joined(separator: ", ")
    }
}

/// Where the pending sections lie in the timed and the all-day runs, and every todo's section
/// as a column, in SQL whose parameters are numbered from `firstParameter`: the boundaries are
/// worked out here from the agenda's now and zone, so that the SQL agrees with
/// `Agenda.section(of:)`.
struct SectionBounds {
    private(set) var arguments: [SQLValue]
    private let now: String, today: String
    /// The timed dues within today, whether or not they are past.
    private let withinToday: String

    init(_ agenda: Agenda, firstParameter: Int) {
        // A timed due is overdue before now; stored dues are whole seconds.
        arguments = [.integer(Int64(agenda.now.timeIntervalSince1970.rounded(.up))), .text(agenda.today.description)]
        now = "?\(firstParameter)"
        today = "?\(firstParameter + 1)"
        var ranges: [String] = []
        for range in agenda.secondsOfToday() {
            let lower = "?\(firstParameter + arguments.count)", upper = "?\(firstParameter + arguments.count + 1)"
            ranges.append("(t.due_at >= \(lower) AND t.due_at < \(upper))")
            arguments += [.integer(range.lowerBound), .integer(range.upperBound)]
        }
        withinToday = ranges.isEmpty ? "0" : "(" + ranges.joined(separator: " OR ") + ")"
    }

    /// The todos of `run` in `section`.
    func condition(_ run: PendingRun, _ section: AgendaSection) -> String {
        switch (run, section) {
        case (.timed, .overdue): "t.due_at < \(now)"
        case (.timed, .today): "t.due_at >= \(now) AND \(withinToday)"
        case (.timed, _): "t.due_at >= \(now) AND NOT \(withinToday)"
        case (.days, .overdue): "t.due_day < \(today)"
        case (.days, .today): "t.due_day = \(today)"
        case (.days, _): "t.due_day > \(today)"
        case (.unscheduled, _): "1"
        }
    }

    /// The index of a todo's section in `AgendaSection.allCases`.
    var sectionColumn: String {
        func index(_ section: AgendaSection) -> Int { AgendaSection.allCases.firstIndex(of: section)! }  // allCases has each
        return """
            CASE WHEN t.completed_at IS NOT NULL THEN \(index(.completed))
                WHEN t.due_at IS NOT NULL THEN CASE WHEN t.due_at < \(now) THEN \(index(.overdue))
                    WHEN \(withinToday) THEN \(index(.today)) ELSE \(index(.upcoming)) END
                WHEN t.due_day IS NOT NULL THEN CASE WHEN t.due_day < \(today) THEN \(index(.overdue))
                    WHEN t.due_day = \(today) THEN \(index(.today)) ELSE \(index(.upcoming)) END
                ELSE \(index(.unscheduled)) END
            """
    }
}
