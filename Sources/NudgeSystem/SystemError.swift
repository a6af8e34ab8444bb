import Glibc
import NudgePlatform

/// A failed libsystemd call: sd-* functions return `-errno`. For D-Bus errors, `name` and
/// `message` carry the sd_bus_error's contents.
public struct SystemError: Error, Equatable, CustomStringConvertible, Sendable {
    public let errno: Errno
    public let name: String?
    public let message: String?
    /// Set when the error is that libsystemd could not be opened.
    public let library: LibraryLoadError?

    public init(_ errno: Errno, name: String? = nil, message: String? = nil) {
        self.errno = errno
        self.name = name
        self.message = message
        library = nil
    }

    /// libsystemd could not be opened: ENOSYS, as the functions it would provide are missing.
    public init(_ library: LibraryLoadError) {
        errno = Errno(rawValue: ENOSYS)
        name = nil
        message = nil
        self.library = library
    }

    public init(code: Int32, name: String? = nil, message: String? = nil) {
        self.init(Errno(rawValue: code), name: name, message: message)
    }

    /// The error number, for systemd's ERRNO=.
    public var code: Int32 { errno.rawValue }

    public var description: String {
        if let library { return library.description }
        if let name { return name + (message.map { ": " + $0 } ?? "") }
        return errno.description
    }
}

/// What an sd-* call returned, when it succeeded; a negative return value is `-errno`, thrown.
@discardableResult
func check(_ returned: Int32) throws(SystemError) -> Int32 {
    if returned < 0 { throw SystemError(code: -returned) }
    return returned
}
