import Foundation

public enum Priority: Int, CaseIterable, Comparable, Sendable, CustomStringConvertible {
    case low = 0, medium = 1, high = 2

    public init?(name: String) {
        switch name.lowercased() {
        case "low", "l": self = .low
        case "medium", "med", "m": self = .medium
        case "high", "h": self = .high
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .low: "low"
        case .medium: "medium"
        case .high: "high"
        }
    }

    public static func < (a: Priority, b: Priority) -> Bool { a.rawValue < b.rawValue }
}

public struct Category: Hashable, Sendable {
    /// A freedesktop icon name shown on this category's notifications unless one is chosen.
    public static let defaultIcon = "task-due"

    public var id: Int64
    public var name: String
    public var icon: String

    public init(id: Int64, name: String, icon: String = Category.defaultIcon) {
        self.id = id
        self.name = name
        self.icon = icon
    }
}

public struct Todo: Hashable, Sendable {
    public var id: Int64
    /// Lowercase RFC 4122 text, kept as text: parsing it for every listed todo costs time.
    public var uuid: String
    public var title: String
    public var notes: String?
    public var due: Due?
    /// The time of day a one-off todo's timed due was set for, kept only while a DST gap has
    /// moved the due off it (see `Due.wallTimeKept`); a repeating todo's series keeps its own.
    public var dueWallTime: TimeOfDay?
    public var priority: Priority
    public var category: Category?
    /// In the order added, each as first typed (see `Tag`).
    public var tags: [String]
    /// The uuids of the todos it comes after (`nudge add --after`), by their ids' order.
    public var after: [String]
    public var repetition: Repetition?
    /// The uuid of the todo this one is a subtask of; the parent need not be in the store.
    public var parentUUID: String?
    public var completedAt: Date?
    public var createdAt: Date
    public var updatedAt: Date

    public init(id: Int64, uuid: String = UUID().uuidString.lowercased(), title: String, notes: String? = nil, due: Due? = nil,
                priority: Priority = .medium, category: Category? = nil, tags: [String] = [], after: [String] = [], repetition: Repetition? = nil,
                completedAt: Date? = nil, dueWallTime: TimeOfDay? = nil,
                parentUUID: String? = nil, createdAt: Date, updatedAt: Date) {
        self.id = id
        self.uuid = uuid
        self.title = title
        self.notes = notes
        self.due = due
        self.priority = priority
        self.category = category
        self.tags = tags
        self.after = after
        self.repetition = repetition
        self.parentUUID = parentUUID
        self.completedAt = completedAt
        self.dueWallTime = dueWallTime
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    public var isCompleted: Bool { completedAt != nil }

    /// How many levels of todos a tree may hold: a todo, its subtasks, theirs, and so on.
    public static let maximumSubtaskLevels = 8
}
