import Glibc

/// The errno of a failed system call. Its description is the C library's message for it
/// ("No space left on device").
public struct Errno: Error, RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32

    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// The calling thread's errno, as the call that just failed left it.
    public static var current: Errno { Errno(rawValue: errno) }

    public static let interrupted = Errno(rawValue: EINTR)
    public static let wouldBlock = Errno(rawValue: EAGAIN)
    public static let noSuchFile = Errno(rawValue: ENOENT)
    public static let fileExists = Errno(rawValue: EEXIST)
    public static let noChild = Errno(rawValue: ECHILD)
    public static let ioError = Errno(rawValue: EIO)
    public static let noSpace = Errno(rawValue: ENOSPC)
    public static let notADirectory = Errno(rawValue: ENOTDIR)
    /// A symbolic link met where `O_NOFOLLOW` refuses one, or too many of them.
    public static let tooManySymbolicLinks = Errno(rawValue: ELOOP)

    /// The corresponding C function is `strerror`.
    public var description: String { String(cString: strerror(rawValue)) }

    /// `case .noSpace:` in a `catch` of any error.
    public static func ~= (code: Errno, error: any Error) -> Bool {
        (error as? Errno) == code
    }
}

/// Calls `call`, again while a signal interrupts it (EINTR), until it succeeds or fails for
/// another reason: the one place a system call is retried. `call` returns -1 and sets errno
/// on failure, as most of the C library does.
@inlinable
public func retryingOnInterrupt<Result: SignedInteger>(_ call: () -> Result) throws(Errno) -> Result {
    while true {
        let result = call()
        if result != -1 { return result }
        let code = errno
        if code != EINTR { throw Errno(rawValue: code) }
    }
}

/// Calls `call` once: for `close`, which is not to be retried (Linux has closed the
/// descriptor even when it reports EINTR).
@inlinable
public func valueOrErrno<Result: SignedInteger>(_ call: () -> Result) throws(Errno) -> Result {
    let result = call()
    if result == -1 { throw Errno.current }
    return result
}
