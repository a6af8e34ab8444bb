import Foundation
import NudgeCore
import NudgeSQLite

/// One row of `nudge list` as a terminal shows it: what the line needs and no more.
public struct AgendaLine: Sendable, Equatable {
    public let id: Int64
    public let title: String
    /// A timed due carries the list's zone, not the todo's own.
    public let due: Due?
    public let priority: Priority
    public let categoryName: String?
    /// The tags as the store reads them, separated by spaces (a tag holds none), or nil: a row
    /// of a long list is written from it without an array of strings made for each.
    public let tagsText: String?
    public var tags: [String] { TodoStore.tags(fromColumn: tagsText) }
    public let isCompleted: Bool
    /// The ids of its pending blockers: while there are any, it is blocked.
    public var blockedBy: [Int64] = []

    public init(_ todo: Todo) {
        self.init(id: todo.id, title: todo.title, due: todo.due, priority: todo.priority,
                  categoryName: todo.category?.name, tags: todo.tags, isCompleted: todo.isCompleted)
    }

    public init(id: Int64, title: String, due: Due?, priority: Priority, categoryName: String?, tags: [String] = [],
                isCompleted: Bool) {
        self.init(id: id, title: title, due: due, priority: priority, categoryName: categoryName,
                  tagsText: tags.isEmpty ? nil : tags.joined(separator: " "), isCompleted: isCompleted)
    }

    init(id: Int64, title: String, due: Due?, priority: Priority, categoryName: String?, tagsText: String?, isCompleted: Bool) {
        self.id = id
        self.title = title
        self.due = due
        self.priority = priority
        self.categoryName = categoryName
        self.tagsText = tagsText?.isEmpty == true ? nil : tagsText
        self.isCompleted = isCompleted
    }
}

/// A run of pending todos read one row ahead from its list-order index, so that the timed and
/// the all-day runs of a section can be merged in the list's order: by due (an all-day todo at
/// its local midnight), priority (highest first), title key, then id. Its statement selects the
/// caller's columns, found by name once as `columns`, and the order's keys: `key_id`,
/// `key_priority`, `key_due` and `key_title`.
final class ListOrderCursor<Columns> {
    private let statement: Statement
    private let run: PendingRun
    private let agenda: Agenda
    let columns: Columns
    private let keyID, keyPriority, keyDue, keyTitle: Column
    private(set) var hasRow = false
    private(set) var id: Int64 = 0
    private var priorityValue: Int64 = 0
    private var dueKey = 0.0
    /// The all-day due of the row ahead, worked out again only when the day changes: the run
    /// comes a day at a time.
    private var dayText: [UInt8] = []
    private var day: LocalDate?

    init(_ statement: Statement, run: PendingRun, agenda: Agenda, columns: (Statement) -> Columns) throws {
        self.statement = statement
        self.run = run
        self.agenda = agenda
        self.columns = columns(statement)
        keyID = statement.column("key_id")
        keyPriority = statement.column("key_priority")
        keyDue = statement.column("key_due")
        keyTitle = statement.column("key_title")
        try advance()
    }

    /// The row ahead, for the caller's columns.
    var row: Row { statement.row }

    var priority: Priority { Priority(rawValue: Int(priorityValue)) ?? .medium }

    /// The due of the row ahead; a timed one in the agenda's zone.
    var due: Due? {
        switch run {
        case .timed: .at(Date(timeIntervalSince1970: dueKey), zone: agenda.clock.zone)
        case .days: day.map(Due.allDay)
        case .unscheduled: nil
        }
    }

    func advance() throws {
        hasRow = try statement.step()
        guard hasRow else { return }
        id = row.int64(keyID)
        priorityValue = row.int64(keyPriority)
        switch run {
        case .timed:
            dueKey = Double(row.int64(keyDue))
        case .days:
            let text = row.textBytes(keyDue)
            if !text.elementsEqual(dayText) {
                dayText = Array(text)
                day = LocalDate(iso: String(decoding: text, as: UTF8.self))
                // One that cannot be read sorts last, as SQLite's sort has it.
                dueKey = day.map { agenda.sortSeconds(.allDay($0)) } ?? .infinity
            }
        case .unscheduled:
            dueKey = .infinity
        }
    }

    /// Whether the row ahead here comes before the one ahead in `other`.
    private func precedes(_ other: ListOrderCursor) -> Bool {
        if dueKey != other.dueKey { return dueKey < other.dueKey }
        if priorityValue != other.priorityValue { return priorityValue > other.priorityValue }
        let key = row.textBytes(keyTitle), otherKey = other.row.textBytes(other.keyTitle)
        if !key.elementsEqual(otherKey) { return key.lexicographicallyPrecedes(otherKey) }
        return id < other.id
    }

    /// The cursor whose row ahead comes first, or nil when both are done.
    static func first(_ one: ListOrderCursor, _ other: ListOrderCursor) -> ListOrderCursor? {
        switch (one.hasRow, other.hasRow) {
        case (false, false): nil
        case (true, false): one
        case (false, true): other
        case (true, true): one.precedes(other) ? one : other
        }
    }
}
