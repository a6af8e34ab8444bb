import NudgeCore

/// Which todos a command works on, as `nudge help filter` describes it: terms that must all
/// hold, or any one of several, nested. Every moment in it is already resolved against the
/// clock and zone it was parsed with, so that the store can match it without either.
public indirect enum Filter: Sendable, Equatable {
    case term(FilterTerm)
    /// Every one holds.
    case all([Filter])
    /// At least one holds.
    case any([Filter])

    /// Every term, depth first, in the order typed.
    public var terms: [FilterTerm] {
        switch self {
        case .term(let term): [term]
        case .all(let filters), .any(let filters): filters.flatMap(\.terms)
        }
    }
}

/// One condition on a todo.
public enum FilterTerm: Sendable, Equatable {
    /// Its id is one of these (`3 5-8`: the ids and ranges typed next to each other).
    case ids([ClosedRange<Int64>])
    /// It has the tag (ignoring case), or with `.untagged` it has not.
    case tagged(String)
    case untagged(String)
    case category(String)
    case priority(Priority)
    /// It has a due, within the window.
    case due(DueWindow)
    case noDue
    /// It is pending and due before now.
    case overdue(DueWindow)
    /// It waits for a pending todo it comes after.
    case blocked
    case repeating
    /// It is a subtask of the todo with this id.
    case parent(Int64)
    /// Its title or notes contain the text, ignoring case.
    case text(String)
}

/// Dues between two bounds, each resolved for both kinds of due: a timed due is compared as
/// the instant it is, an all-day due as the local day it is, so that "before Friday" holds for
/// Thursday's all-day todo and for one at 23:59 on Thursday.
public struct DueWindow: Sendable, Equatable {
    /// Timed dues at or after this second since 1970 (none: no lower bound).
    public var firstInstant: Int64?
    /// Timed dues before this second since 1970.
    public var instantsBefore: Int64?
    /// All-day dues on or after this day.
    public var firstDay: LocalDate?
    /// All-day dues on or before this day.
    public var lastDay: LocalDate?

    public init(firstInstant: Int64? = nil, instantsBefore: Int64? = nil, firstDay: LocalDate? = nil, lastDay: LocalDate? = nil) {
        self.firstInstant = firstInstant
        self.instantsBefore = instantsBefore
        self.firstDay = firstDay
        self.lastDay = lastDay
    }
}

/// Which todos a filter looks at, whatever its terms say: the command decides when the filter
/// does not (`list` the pending ones).
public enum FilterStatus: String, CaseIterable, Sendable {
    case pending, completed, all
}

/// A parsed filter: the status it names, if it names one, and its terms, if it has any.
public struct ParsedFilter: Sendable, Equatable {
    public var status: FilterStatus?
    public var filter: Filter?

    public init(status: FilterStatus? = nil, filter: Filter? = nil) {
        self.status = status
        self.filter = filter
    }

    public var isEmpty: Bool { status == nil && filter == nil }
}
