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
/// its local midnight), priority (highest first), title key, then id. Its columns: id, title,
/// priority, category id, due, title key.
final class LineCursor {
    private let statement: Statement
    private let run: PendingRun
    private let agenda: Agenda
    private let categories: [Int64: String]
    private(set) var hasRow = false
    private var id: Int64 = 0
    private var priority: Int64 = 0
    private var dueKey = 0.0
    /// The all-day due of the row ahead, worked out again only when the day changes: the run
    /// comes a day at a time.
    private var dayText: [UInt8] = []
    private var day: LocalDate?

    init(_ statement: Statement, run: PendingRun, agenda: Agenda, categories: [Int64: String]) throws {
        self.statement = statement
        self.run = run
        self.agenda = agenda
        self.categories = categories
        try advance()
    }

    func advance() throws {
        hasRow = try statement.step()
        guard hasRow else { return }
        let row = Row(statement: statement)
        id = row.int64(0)
        priority = row.int64(2)
        switch run {
        case .timed:
            dueKey = Double(row.int64(4))
        case .days:
            let text = row.textBytes(4)
            if !text.elementsEqual(dayText) {
                dayText = Array(text)
                day = LocalDate(iso: String(decoding: text, as: UTF8.self))
                // One that cannot be read sorts last, as `forEachAgendaTodo` has it.
                dueKey = day.map { agenda.sortSeconds(.allDay($0)) } ?? .infinity
            }
        case .unscheduled:
            dueKey = .infinity
        }
    }

    func line() -> AgendaLine {
        let row = Row(statement: statement)
        let due: Due? = switch run {
        case .timed: .at(Date(timeIntervalSince1970: dueKey), zone: agenda.clock.zone)
        case .days: day.map(Due.allDay)
        case .unscheduled: nil
        }
        return AgendaLine(id: id, title: row.text(1) ?? "", due: due, priority: Priority(rawValue: Int(priority)) ?? .medium,
                          categoryName: row.optionalInt64(3).flatMap { categories[$0] }, isCompleted: false)
    }

    /// Whether the row ahead here comes before the one ahead in `other`.
    private func precedes(_ other: LineCursor) -> Bool {
        if dueKey != other.dueKey { return dueKey < other.dueKey }
        if priority != other.priority { return priority > other.priority }
        let key = Row(statement: statement).textBytes(5), otherKey = Row(statement: other.statement).textBytes(5)
        if !key.elementsEqual(otherKey) { return key.lexicographicallyPrecedes(otherKey) }
        return id < other.id
    }

    /// The cursor whose row ahead comes first, or nil when both are done.
    static func first(_ one: LineCursor, _ other: LineCursor) -> LineCursor? {
        switch (one.hasRow, other.hasRow) {
        case (false, false): nil
        case (true, false): one
        case (false, true): other
        case (true, true): one.precedes(other) ? one : other
        }
    }
}
