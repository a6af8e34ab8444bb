import Foundation

/// Why one item of a file could not be read: where it is (1-based, as people count: the item
/// of a JSON array, or the line of a todo.txt file) and the field.
public struct RecordError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Place: String, Sendable {
        case item, line, todo
    }

    public var item: Int
    public var place: Place
    public var field: String?
    public var reason: String

    public init(item: Int, place: Place = .item, field: String?, reason: String) {
        self.item = item
        self.place = place
        self.field = field
        self.reason = reason
    }

    public var description: String {
        "\(place.rawValue) \(item): " + (field.map { "\"\($0)\" " } ?? "") + reason
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
