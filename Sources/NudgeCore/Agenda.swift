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
        var buckets: [AgendaSection: [SortableTodo]] = [:]
        for todo in todos {
            buckets[section(of: todo), default: []].append(SortableTodo(todo, agenda: self))
        }
        return AgendaSection.allCases.compactMap { section in
            guard let bucket = buckets[section] else { return nil }
            return (section, bucket.sorted { $0.precedes($1, by: order) }.map(\.todo))
        }
    }

    /// Seconds since 1970 of the moment a due sorts at; an all-day todo at its local midnight.
    func sortSeconds(_ due: Due) -> Double {
        switch due {
        case .allDay(let day):
            let midnight = Double(day.dayNumber) * 86_400
            return midnight - Double(clock.offset(at: Date(timeIntervalSince1970: midnight)))
        case .at(let instant, _):
            return instant.timeIntervalSince1970
        }
    }
}

/// A todo with its sort keys worked out once, not at every comparison.
private struct SortableTodo {
    let todo: Todo
    let due: Double
    let title: String

    init(_ todo: Todo, agenda: Agenda) {
        self.todo = todo
        self.due = todo.due.map(agenda.sortSeconds) ?? .infinity
        self.title = todo.title.lowercased()
    }

    func precedes(_ other: SortableTodo, by order: TodoOrder) -> Bool {
        let byDue = (due, other.due)
        let byPriority = (other.todo.priority.rawValue, todo.priority.rawValue)
        let byTitle = (title, other.title)
        let byID = (todo.id, other.todo.id)
        switch order {
        case .due:
            return (byDue.0, byPriority.0, byTitle.0, byID.0) < (byDue.1, byPriority.1, byTitle.1, byID.1)
        case .priority:
            return (byPriority.0, byDue.0, byTitle.0, byID.0) < (byPriority.1, byDue.1, byTitle.1, byID.1)
        case .title:
            return (byTitle.0, byDue.0, byPriority.0, byID.0) < (byTitle.1, byDue.1, byPriority.1, byID.1)
        case .created:
            return (todo.createdAt, byID.0) < (other.todo.createdAt, byID.1)
        }
    }
}
