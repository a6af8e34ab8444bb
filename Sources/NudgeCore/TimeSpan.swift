import Foundation

/// A length of time as people type it: "10m", "2h", "1h30m", "3d", "1w".
public struct TimeSpan: Hashable, Sendable {
    public var days: Int
    public var seconds: Int

    public init(days: Int = 0, seconds: Int = 0) {
        self.days = days
        self.seconds = seconds
    }

    public init(parsing text: String) throws(InputError) {
        throw InputError("not implemented")
    }

    public func added(to due: Due, calendar: Calendar) throws(InputError) -> Due {
        throw InputError("not implemented")
    }
}
