import Foundation

/// A todo's reminders beside what the config's rules give it: the ones of its own, its snooze
/// and how far it has been reminded. The store keeps it with the todo; a `TodoRecord` carries it.
public struct ReminderState: Hashable, Sendable {
    /// Reminders the person added to this todo (`nudge remind --add`).
    public var custom: [CustomReminder]
    /// False when the todo was added with `--no-default-reminders`: only `custom` ones fire.
    public var usesDefaultRules: Bool
    public var snoozedUntil: Date?
    /// Reminders at or before this moment have fired, were answered or passed over (they came
    /// before the second the todo was added or last changed: one due that very second still
    /// fires). In a record, also on another machine (iCalendar's ACKNOWLEDGED); nil when the
    /// format does not say.
    public var remindedThrough: Date?

    public init(custom: [CustomReminder] = [], usesDefaultRules: Bool = true,
                snoozedUntil: Date? = nil, remindedThrough: Date? = nil) {
        self.custom = custom
        self.usesDefaultRules = usesDefaultRules
        self.snoozedUntil = snoozedUntil
        self.remindedThrough = remindedThrough
    }
}

/// What the planner needs to know about one todo: the todo and its reminder state, whose
/// fields read as the subject's own (`subject.custom`).
@dynamicMemberLookup
public struct ReminderSubject: Sendable {
    public var todo: Todo
    public var reminderState: ReminderState

    public init(todo: Todo, reminderState: ReminderState = ReminderState()) {
        self.todo = todo
        self.reminderState = reminderState
    }

    @inlinable public subscript<Value>(dynamicMember field: WritableKeyPath<ReminderState, Value>) -> Value {
        get { reminderState[keyPath: field] }
        set { reminderState[keyPath: field] = newValue }
    }
}
