import CLinux
import Dispatch
import Glibc

/// A child process in a process group of its own, watched on a dispatch queue without ever
/// blocking it: its exit comes through a pidfd as a read source (or, where the kernel has no
/// pidfd, a check every `pollInterval`), and after `deadline` the whole group is killed.
/// When the child ends, what it left running in its group is killed with it, then it is
/// reaped and `exited` is called on the queue, once. It is kept alive by its sources until then.
public final class SupervisedProcess {
    public let pid: pid_t
    /// Killed at the deadline.
    public private(set) var timedOut = false
    private let queue: DispatchQueue
    private let exited: (WaitStatus) -> Void
    private var exitSource: DispatchSourceProtocol?
    private var killTimer: DispatchSourceTimer?

    /// How often a child without a pidfd is checked for its exit.
    public static let pollInterval = DispatchTimeInterval.milliseconds(50)

    /// Starts `spawn` (its `processGroup` is replaced: the child leads a group of its own).
    /// `usesPidfd`: false to check for the exit by polling, as without a pidfd.
    public init(_ spawn: Spawn, queue: DispatchQueue, deadline: DispatchTime, usesPidfd: Bool = true,
                started: (Spawn.Started) -> Void = { _ in },
                exited: @escaping (WaitStatus) -> Void) throws(SpawnError) {
        dispatchPrecondition(condition: .onQueue(queue))
        var spawn = spawn
        spawn.processGroup = 0
        let child = try spawn.start()
        pid = child.pid
        self.queue = queue
        self.exited = exited
        started(child)

        let pidfd = usesPidfd ? nudge_pidfd_open(pid) : -1
        if pidfd >= 0 {
            let source = DispatchSource.makeReadSource(fileDescriptor: pidfd, queue: queue)
            source.setEventHandler { [self] in check() }
            source.setCancelHandler { _ = Glibc.close(pidfd) }
            exitSource = source
            source.resume()
        } else {
            let poll = DispatchSource.makeTimerSource(queue: queue)
            poll.schedule(deadline: .now() + Self.pollInterval, repeating: Self.pollInterval)
            poll.setEventHandler { [self] in check() }
            exitSource = poll
            poll.resume()
        }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: deadline)
        timer.setEventHandler { [self] in
            timedOut = true
            kill()
        }
        killTimer = timer
        timer.resume()
    }

    /// Kills the child and its process group; `exited` then comes as for any other end.
    public func kill() {
        dispatchPrecondition(condition: .onQueue(queue))
        if exitSource != nil { _ = Glibc.kill(-pid, SIGKILL) }
    }

    private func check() {
        var info = siginfo_t()
        guard waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0,
              info._sifields._sigchld.si_pid == pid else { return }
        // What it left running in its process group goes with it, before it is reaped: until
        // then its pid cannot name another process's group.
        _ = Glibc.kill(-pid, SIGKILL)
        guard let status = try? reap(pid, blocking: false) else { return }
        exitSource?.cancel()
        killTimer?.cancel()
        exitSource = nil
        killTimer = nil
        exited(status)
    }
}
