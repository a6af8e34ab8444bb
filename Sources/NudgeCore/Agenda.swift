import Foundation

/// The sections `nudge list` shows, in order.
public enum AgendaSection: CaseIterable, Sendable {
    case overdue, today, upcoming, unscheduled, completed

    public var title: String {
        switch self {
        case .overdue: "Overdue"
        case .today: "Today"
        case .upcoming: "Upcoming"
        case .unscheduled: "Unscheduled"
        case .completed: "Completed"
        }
    }
}

public enum TodoOrder: String, CaseIterable, Sendable {
    case due, priority, title, created
}

/// Sorts todos into sections relative to now: Overdue, Today, Upcoming, Unscheduled, Completed.
public struct Agenda: Sendable {
    public let now: Date
    public let clock: WallClock
    public let today: LocalDate

    public init(now: Date, zone: TimeZone) {
        self.now = now
        self.clock = WallClock(zone: zone)
        self.today = clock.day(of: now)
    }

    public func section(of todo: Todo) -> AgendaSection {
        if todo.isCompleted { return .completed }
        guard let due = todo.due else { return .unscheduled }
        if isOverdue(due) { return .overdue }
        return day(of: due) == today ? .today : .upcoming
    }

    public func isOverdue(_ todo: Todo) -> Bool {
        guard !todo.isCompleted, let due = todo.due else { return false }
        return isOverdue(due)
    }

    func isOverdue(_ due: Due) -> Bool {
        switch due {
        case .allDay(let day): day < today
        case .at(let instant, _): instant < now
        }
    }

    func day(of due: Due) -> LocalDate {
        switch due {
        case .allDay(let day): day
        case .at(let instant, _): clock.day(of: instant)
        }
    }

    /// The non-empty sections in display order, each sorted by `order` (by default: due time,
    /// then priority, highest first, then title).
    public func sections(_ todos: [Todo], order: TodoOrder = .due) -> [(section: AgendaSection, todos: [Todo])] {
        // Sort positions with their keys worked out once, rather than moving whole todos around.
        let keys = todos.map { SortKeys($0, agenda: self) }
        var buckets: [AgendaSection: [Int]] = [:]
        for (position, todo) in todos.enumerated() {
            buckets[section(of: todo), default: []].append(position)
        }
        return AgendaSection.allCases.compactMap { section in
            guard let bucket = buckets[section] else { return nil }
            let sorted = bucket.sorted { keys[$0].precedes(keys[$1], by: order) }
            return (section, sorted.map { todos[$0] })
        }
    }

    /// Seconds since 1970 of the moment a due sorts at; an all-day todo at its local midnight.
    public func sortSeconds(_ due: Due) -> Double {
        switch due {
        case .allDay(let day):
            let midnight = Double(day.dayNumber) * 86_400
            return midnight - Double(clock.offset(at: Date(timeIntervalSince1970: midnight)))
        case .at(let instant, _):
            return instant.timeIntervalSince1970
        }
    }
}

/// The values a todo is ordered by.
private struct SortKeys {
    let id: Int64
    let due: Double
    let priority: Int
    let title: String
    let created: Date

    init(_ todo: Todo, agenda: Agenda) {
        id = todo.id
        due = todo.due.map(agenda.sortSeconds) ?? .infinity
        priority = todo.priority.rawValue
        title = todo.title.lowercased()
        created = todo.createdAt
    }

    func precedes(_ other: SortKeys, by order: TodoOrder) -> Bool {
        switch order {
        case .due:
            return (due, other.priority, title, id) < (other.due, priority, other.title, other.id)
        case .priority:
            return (other.priority, due, title, id) < (priority, other.due, other.title, other.id)
        case .title:
            return (title, due, other.priority, id) < (other.title, other.due, priority, other.id)
        case .created:
            return (created, id) < (other.created, other.id)
        }
    }
}
