import CLinux
import Glibc

/// An open file descriptor: its calls throw an `Errno` and are retried after a signal.
/// Closing is the owner's job, once (`close()` or `closeAfter`).
public struct FileDescriptor: RawRepresentable, Hashable, Sendable {
    public let rawValue: Int32

    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    public static let standardInput = FileDescriptor(rawValue: STDIN_FILENO)
    public static let standardOutput = FileDescriptor(rawValue: STDOUT_FILENO)
    public static let standardError = FileDescriptor(rawValue: STDERR_FILENO)

    /// Opens `path`, always closed on exec (no child inherits it but through dup2). The
    /// corresponding C function is `open`.
    public static func open(_ path: String, _ flags: Int32, mode: mode_t = 0) throws(Errno) -> FileDescriptor {
        FileDescriptor(rawValue: try retryingOnInterrupt { Glibc.open(path, flags | O_CLOEXEC, mode) })
    }

    /// A folder, opened for fsync or syncfs.
    public static func openFolder(_ path: String) throws(Errno) -> FileDescriptor {
        try open(path, O_RDONLY | O_DIRECTORY)
    }

    /// A pipe whose ends are closed on exec, from the start: a child that another thread starts
    /// meanwhile must not keep the writing end open. The corresponding C function is `pipe2`.
    public static func pipe(nonBlocking: Bool = false) throws(Errno) -> (read: FileDescriptor, write: FileDescriptor) {
        var fds: [Int32] = [-1, -1]
        _ = try valueOrErrno { pipe2(&fds, O_CLOEXEC | (nonBlocking ? O_NONBLOCK : 0)) }
        return (FileDescriptor(rawValue: fds[0]), FileDescriptor(rawValue: fds[1]))
    }

    /// A connected pair of stream sockets, closed on exec. The corresponding C function is
    /// `socketpair`.
    public static func socketPair() throws(Errno) -> (read: FileDescriptor, write: FileDescriptor) {
        var fds: [Int32] = [-1, -1]
        _ = try valueOrErrno { socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) }
        return (FileDescriptor(rawValue: fds[0]), FileDescriptor(rawValue: fds[1]))
    }

    /// Closes the descriptor; not retried after EINTR, when Linux has closed it already.
    /// The corresponding C function is `close`.
    public func close() throws(Errno) {
        _ = try valueOrErrno { Glibc.close(rawValue) }
    }

    /// Runs `body`, then closes the descriptor whatever `body` did; a failure to close is
    /// not reported (use `close()` where it matters, after a write).
    public func closeAfter<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        defer { _ = Glibc.close(rawValue) }
        return try body()
    }

    /// Reads what is there, up to the buffer's size; 0 at end of file. The corresponding C
    /// function is `read`.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try retryingOnInterrupt { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// Writes what the descriptor takes of `buffer`. The corresponding C function is `write`.
    public func write(_ buffer: UnsafeRawBufferPointer) throws(Errno) -> Int {
        try retryingOnInterrupt { Glibc.write(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// Writes all of `buffer`, again after a short write (`FileHandle.write` stops the program
    /// on a failure instead).
    public func writeAll(_ buffer: UnsafeRawBufferPointer) throws(Errno) {
        var offset = 0
        while offset < buffer.count {
            let written = try write(UnsafeRawBufferPointer(rebasing: buffer[offset...]))
            // A write of nothing would be tried forever.
            guard written > 0 else { throw .ioError }
            offset += written
        }
    }

    public func writeAll(_ text: String) throws(Errno) {
        var text = text
        // withUTF8 rethrows untyped: the Errno is carried out in a Result.
        try text.withUTF8 { bytes in Result { () throws(Errno) in try writeAll(UnsafeRawBufferPointer(bytes)) } }.get()
    }

    public func writeAll(_ bytes: [UInt8]) throws(Errno) {
        try bytes.withUnsafeBytes { bytes in Result { () throws(Errno) in try writeAll(bytes) } }.get()
    }

    /// What the descriptor is open on: its type, size, owner, times. The corresponding C
    /// function is `fstat`.
    public func status() throws(Errno) -> stat {
        var info = stat()
        _ = try valueOrErrno { fstat(rawValue, &info) }
        return info
    }

    /// Waits for an exclusive lock on the open file (released when the descriptor is closed).
    /// The corresponding C function is `flock`.
    public func lockExclusively() throws(Errno) {
        _ = try retryingOnInterrupt { flock(rawValue, LOCK_EX) }
    }

    /// Another descriptor open on the same file, closed on exec. The corresponding C function
    /// is `fcntl` with `F_DUPFD_CLOEXEC`.
    public func duplicate() throws(Errno) -> FileDescriptor {
        FileDescriptor(rawValue: try valueOrErrno { fcntl(rawValue, F_DUPFD_CLOEXEC, 0) })
    }

    /// Flushes what was written to the disk. The corresponding C function is `fsync`.
    public func sync() throws(Errno) {
        _ = try retryingOnInterrupt { fsync(rawValue) }
    }

    /// Flushes the whole file system the descriptor is on. The corresponding C function is
    /// `syncfs`.
    public func syncFileSystem() throws(Errno) {
        _ = try retryingOnInterrupt { syncfs(rawValue) }
    }

    /// Makes reads and writes return EAGAIN instead of waiting. The corresponding C function
    /// is `fcntl`.
    public func setNonBlocking() throws(Errno) {
        let flags = try valueOrErrno { fcntl(rawValue, F_GETFL) }
        _ = try valueOrErrno { fcntl(rawValue, F_SETFL, flags | O_NONBLOCK) }
    }
}
