/// Where the next occurrence of a repeating todo is counted from.
public enum RepeatFrom: String, Hashable, Sendable {
    /// The series keeps its rhythm: the next due follows the current due (and lies in the future).
    case due
    /// The series restarts on the day the todo was completed, at the current due's time of day.
    case completion
}

/// How a todo repeats: an RFC 5545 RRULE value (expanded by NudgeRecurrence) and where the next
/// occurrence counts from.
public struct Repetition: Hashable, Sendable {
    /// Without the "RRULE:" prefix, e.g. "FREQ=WEEKLY;INTERVAL=2".
    public var rrule: String
    public var from: RepeatFrom

    public init(rrule: String, from: RepeatFrom) {
        self.rrule = rrule
        self.from = from
    }
}
