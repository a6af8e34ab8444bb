/// A config file Nudge cannot use: where (the file and, when known, the line) and why, with
/// what would be accepted instead.
public struct ConfigError: Error, Equatable, Sendable, CustomStringConvertible {
    public let path: String
    /// 1-based; nil when the problem is the file as a whole (unreadable, not UTF-8, ...).
    public let line: Int?
    public let message: String

    public init(path: String, line: Int?, message: String) {
        self.path = path
        self.line = line
        self.message = message
    }

    /// `PATH:LINE: MESSAGE` or `PATH: MESSAGE`, on one line.
    public var description: String {
        let text = line.map { "\(path):\($0): \(message)" } ?? "\(path): \(message)"
        return String(text.map { $0.isNewline ? " " : $0 })
    }
}
