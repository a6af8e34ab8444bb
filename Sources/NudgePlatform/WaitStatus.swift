import Glibc

/// How a child process ended, decoded from its wait status (WIFEXITED, WEXITSTATUS and
/// WTERMSIG are macros that Swift does not import).
public enum WaitStatus: Equatable, Sendable {
    /// It exited with this code.
    case exited(Int32)
    /// A signal ended it.
    case signalled(Int32)

    /// From the status `waitpid` gives.
    public init(_ status: Int32) {
        let signal = status & 0x7f
        self = signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
    }

    /// As a shell says it: the code, or 128 + the signal.
    public var shellStatus: Int32 {
        switch self {
        case .exited(let code): code
        case .signalled(let signal): 128 + signal
        }
    }

    /// The signal that ended it: a status of 139 from `exit 139` is not a crash.
    public var signal: Int32? {
        if case .signalled(let signal) = self { signal } else { nil }
    }
}

/// Reaps the child `pid` if it has ended (or, `blocking`, once it ends): its status, or nil
/// while it runs. The corresponding C function is `waitpid`.
public func reap(_ pid: pid_t, blocking: Bool) throws(Errno) -> WaitStatus? {
    var status: Int32 = 0
    let reaped = try retryingOnInterrupt { waitpid(pid, &status, blocking ? 0 : WNOHANG) }
    return reaped == pid ? WaitStatus(status) : nil
}
