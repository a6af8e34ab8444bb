import Foundation
import NudgeCore

/// One row of `nudge list` as a terminal shows it: what the line needs and no more.
public struct AgendaLine: Sendable, Equatable {
    public let id: Int64
    public let title: String
    /// A timed due carries the list's zone, not the todo's own.
    public let due: Due?
    public let priority: Priority
    public let categoryName: String?
    public let isCompleted: Bool

    public init(_ todo: Todo) {
        self.init(id: todo.id, title: todo.title, due: todo.due, priority: todo.priority,
                  categoryName: todo.category?.name, isCompleted: todo.isCompleted)
    }

    public init(id: Int64, title: String, due: Due?, priority: Priority, categoryName: String?, isCompleted: Bool) {
        self.id = id
        self.title = title
        self.due = due
        self.priority = priority
        self.categoryName = categoryName
        self.isCompleted = isCompleted
    }
}

/// A run of pending todos read one row ahead from its list-order index, so that the timed and
/// the all-day runs of a section can be merged in the list's order: by due (an all-day todo at
/// its local midnight), priority (highest first), title key, then id. Its statement selects the
/// caller's columns, then from `keyColumn` on: id, priority, due, title key.
final class ListOrderCursor {
    private let statement: Statement
    private let run: PendingRun
    private let agenda: Agenda
    private let keyColumn: Int32
    private(set) var hasRow = false
    private(set) var id: Int64 = 0
    private var priorityValue: Int64 = 0
    private var dueKey = 0.0
    /// The all-day due of the row ahead, worked out again only when the day changes: the run
    /// comes a day at a time.
    private var dayText: [UInt8] = []
    private var day: LocalDate?

    init(_ statement: Statement, run: PendingRun, agenda: Agenda, keyColumn: Int32) throws {
        self.statement = statement
        self.run = run
        self.agenda = agenda
        self.keyColumn = keyColumn
        try advance()
    }

    /// The row ahead, for the caller's columns.
    var row: Row { Row(statement: statement) }

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
        id = row.int64(keyColumn)
        priorityValue = row.int64(keyColumn + 1)
        switch run {
        case .timed:
            dueKey = Double(row.int64(keyColumn + 2))
        case .days:
            let text = row.textBytes(keyColumn + 2)
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
        let key = row.textBytes(keyColumn + 3), otherKey = other.row.textBytes(other.keyColumn + 3)
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
