import Foundation

/// A todo as it travels between databases and formats: everything but the local id, the
/// category by name, with its reminder state and what other programs keep with it. The todo's
/// fields read as the record's own (`record.title`).
@dynamicMemberLookup
public struct TodoRecord: Hashable, Sendable {
    /// The todo without what only one database knows: its id is 0, its category a name alone
    /// (id 0, the default icon) and it keeps no wall time of its due. Its tags are empty: the
    /// record's are `tags`, which can also say that the format gave none.
    public var todo: Todo
    /// Nil when the format does not say: an import then keeps the stored todo's tags.
    public var tags: [String]?
    /// The uuids of the todos it comes after; nil when the format does not say, and an import
    /// then keeps the stored todo's.
    public var after: [String]?
    /// Its own reminders, snooze and how far it has been reminded; its fields read as the
    /// record's own (`record.custom`).
    public var reminderState: ReminderState
    /// What another program keeps with this todo that Nudge has no field for, by format
    /// (`ics`, `taskwarrior`, ...), in that format's own words, so that an export gives it back.
    public var kept: [String: String]

    public init(uuid: String, title: String, notes: String? = nil, due: Due? = nil, priority: Priority = .medium,
                category: String? = nil, tags: [String]? = nil, after: [String]? = nil, repetition: Repetition? = nil,
                completedAt: Date? = nil,
                createdAt: Date, updatedAt: Date, reminders: [CustomReminder] = [], defaultReminders: Bool = true,
                snoozedUntil: Date? = nil, kept: [String: String] = [:], remindedThrough: Date? = nil,
                parentUUID: String? = nil) {
        todo = Todo(id: 0, uuid: uuid, title: title, notes: notes, due: due, priority: priority,
                    category: category.map { Category(id: 0, name: $0) }, repetition: repetition,
                    completedAt: completedAt, parentUUID: parentUUID, createdAt: createdAt, updatedAt: updatedAt)
        self.tags = tags
        self.after = after
        reminderState = ReminderState(custom: reminders, usesDefaultRules: defaultReminders,
                                      snoozedUntil: snoozedUntil, remindedThrough: remindedThrough)
        self.kept = kept
    }

    /// The todo alone: no reminders, snooze or kept properties.
    public init(_ todo: Todo) {
        self.init(uuid: todo.uuid, title: todo.title, notes: todo.notes, due: todo.due, priority: todo.priority,
                  category: todo.category?.name, tags: todo.tags, after: todo.after, repetition: todo.repetition,
                  completedAt: todo.completedAt,
                  createdAt: todo.createdAt, updatedAt: todo.updatedAt, parentUUID: todo.parentUUID)
    }

    @inlinable public subscript<Value>(dynamicMember field: WritableKeyPath<Todo, Value>) -> Value {
        get { todo[keyPath: field] }
        set { todo[keyPath: field] = newValue }
    }

    @inlinable public subscript<Value>(dynamicMember field: WritableKeyPath<ReminderState, Value>) -> Value {
        get { reminderState[keyPath: field] }
        set { reminderState[keyPath: field] = newValue }
    }

    /// The category's name.
    public var category: String? {
        get { todo.category?.name }
        set { todo.category = newValue.map { Category(id: 0, name: $0) } }
    }

    /// The todo this record describes; `id` is the store's, which a record does not carry.
    public func todo(id: Int64) -> Todo {
        var stored = self.todo
        stored.id = id
        stored.tags = tags ?? []
        stored.after = after ?? []
        return stored
    }
}

extension TodoRecord {
    /// The most todos one todo may come after, as a file gives them.
    public static let maximumBlockers = 100

    /// The most bytes of notes, and of what one other program keeps, that a todo from outside
    /// may hold: a file within `[import] max_size` could otherwise put megabytes into each todo
    /// of a vdir, and every pass and export would carry them.
    public static let maximumTextBytes = 1 << 20

    /// Why the record holds more text than `maximumTextBytes` allows, naming the field; nil
    /// when it does not.
    public var oversizedText: (field: String?, reason: String)? {
        let limit = BoundedRead.sizeText(Self.maximumTextBytes)
        if let notes = todo.notes, notes.utf8.count > Self.maximumTextBytes {
            return ("notes", "is \(BoundedRead.sizeText(notes.utf8.count)) long; at most \(limit) is allowed")
        }
        for (format, text) in kept.sorted(by: { $0.key < $1.key }) where text.utf8.count > Self.maximumTextBytes {
            return (nil, "holds \(BoundedRead.sizeText(text.utf8.count)) that Nudge has no field for (\(format)); "
                + "at most \(limit) is allowed")
        }
        return nil
    }
}
