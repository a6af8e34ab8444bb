/// Where the next occurrence of a repeating todo is counted from.
public enum RepeatFrom: String, Sendable {
    /// The series keeps its rhythm: the next due follows the current due (and lies in the future).
    case due
    /// The series restarts on the day the todo was completed, at the current due's time of day.
    case completion
}
