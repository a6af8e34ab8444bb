/// Input a person typed that Nudge cannot accept. The message is one line that says what was
/// wrong and what would be accepted.
public struct InputError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
