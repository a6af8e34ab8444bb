import Foundation

/// Reads the WHEN forms people type for due dates ("tomorrow 9am", "fri", "in 2h", "dec 24").
public struct WhenParser: Sendable {
    public let now: Date
    public let calendar: Calendar

    public init(now: Date, calendar: Calendar) {
        self.now = now
        self.calendar = calendar
    }

    public func parse(_ text: String) throws(InputError) -> Due {
        throw InputError("not implemented")
    }
}
