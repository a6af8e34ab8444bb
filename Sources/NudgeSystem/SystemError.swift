import Glibc

/// A failed libsystemd call: sd-* functions return `-errno`. For D-Bus errors, `name` and
/// `message` carry the sd_bus_error's contents.
public struct SystemError: Error, Equatable, CustomStringConvertible, Sendable {
    public let code: Int32
    public let name: String?
    public let message: String?

    public init(code: Int32, name: String? = nil, message: String? = nil) {
        self.code = code
        self.name = name
        self.message = message
    }

    /// From an sd-* return value, which is `-errno` on failure.
    public init(returned value: Int32) {
        self.init(code: -value)
    }

    public var description: String {
        if let name { return name + (message.map { ": " + $0 } ?? "") }
        return String(cString: strerror(code))
    }
}
