import Foundation
import NudgeCore

/// A todo as it travels between databases: everything but the local id, the category by name.
public struct TodoRecord: Hashable, Sendable {
    public var uuid: String
    public var title: String
    public var notes: String?
    public var due: Due?
    public var priority: Priority
    public var category: String?
    public var repetition: Repetition?
    public var completedAt: Date?
    public var createdAt: Date
    public var updatedAt: Date

    public init(uuid: String, title: String, notes: String? = nil, due: Due? = nil, priority: Priority = .medium,
                category: String? = nil, repetition: Repetition? = nil, completedAt: Date? = nil,
                createdAt: Date, updatedAt: Date) {
        self.uuid = uuid
        self.title = title
        self.notes = notes
        self.due = due
        self.priority = priority
        self.category = category
        self.repetition = repetition
        self.completedAt = completedAt
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    public init(_ todo: Todo) {
        self.init(uuid: todo.uuid, title: todo.title, notes: todo.notes, due: todo.due, priority: todo.priority,
                  category: todo.category?.name, repetition: todo.repetition, completedAt: todo.completedAt,
                  createdAt: todo.createdAt, updatedAt: todo.updatedAt)
    }

    /// The todo this record describes; `id` is the store's, which a record does not carry.
    public func todo(id: Int64) -> Todo {
        Todo(id: id, uuid: uuid, title: title, notes: notes, due: due, priority: priority,
             category: category.map { Category(id: 0, name: $0) }, repetition: repetition,
             completedAt: completedAt, createdAt: createdAt, updatedAt: updatedAt)
    }
}

/// Why one item of a file could not be read: its place in the array (1-based) and the field.
public struct RecordError: Error, Hashable, Sendable, CustomStringConvertible {
    /// 1-based, as people count.
    public var item: Int
    public var field: String?
    public var reason: String

    public init(item: Int, field: String?, reason: String) {
        self.item = item
        self.field = field
        self.reason = reason
    }

    public var description: String {
        "item \(item): " + (field.map { "\"\($0)\" " } ?? "") + reason
    }
}

/// Why a whole file could not be read.
public struct InterchangeError: Error, Hashable, Sendable, CustomStringConvertible {
    public var reason: String

    public init(reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}
