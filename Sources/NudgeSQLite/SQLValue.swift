/// A value bound to or read from a statement.
public enum SQLValue: Hashable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

    public var int64: Int64? {
        if case .integer(let v) = self { return v }
        return nil
    }

    public var string: String? {
        if case .text(let v) = self { return v }
        return nil
    }
}

extension SQLValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    public init(stringLiteral value: String) { self = .text(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
}

extension Optional where Wrapped == String {
    public var sqlValue: SQLValue { map(SQLValue.text) ?? .null }
}

extension Optional where Wrapped == Int64 {
    public var sqlValue: SQLValue { map(SQLValue.integer) ?? .null }
}
