import NudgePlatform

/// Why nudged cannot start or go on: the line it prints, and what systemd is told.
struct DaemonError: Error, CustomStringConvertible {
    let description: String
    /// The system's error number behind it, when there is one (for systemd's ERRNO=).
    let errno: Errno?

    init(_ description: String, errno: Errno? = nil) {
        self.description = description
        self.errno = errno
    }

    /// A part's failure in its own words (the config's, the store's), with no error number.
    init(describing error: any Error) {
        self.init(String(describing: error))
    }

    /// A C library that could not be opened: what to install, with no error number.
    init(_ error: LibraryLoadError) {
        self.init(error.description)
    }

    /// What systemd is told. ERRNO= only with the system's own error number: `systemctl
    /// status` shows it as `Error: N (strerror)`, and a fixed 1 read "Operation not permitted"
    /// under a status line saying "No such file or directory".
    var serviceStatus: String {
        "STATUS=Failed: \(description)" + (errno.map { "\nERRNO=\($0.rawValue)" } ?? "")
    }
}
