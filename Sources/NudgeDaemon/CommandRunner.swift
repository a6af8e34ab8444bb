import CLinux
import Dispatch
import Glibc

/// How a command ended.
struct CommandResult: Equatable {
    /// The exit status, or 128 + the signal that ended it (as a shell says); nil when it could
    /// not be started.
    var status: Int32?
    /// The last line it wrote to stderr (or why it could not be started).
    var lastLine: String
    /// Its last lines on stderr, up to five (vdirsyncer's last one is only a hint to `-vdebug`).
    var tail: [String] = []

    var succeeded: Bool { status == 0 }
}

/// Runs a shell command line as a child process and calls back on the queue when it ends,
/// without blocking the queue and without any other thread: the child's exit is watched
/// through a pidfd, its stderr through a pipe, both as read sources on the queue.
final class CommandRunner {
    /// A command still running after this long is killed (a hung network sync would otherwise
    /// hold every later run): 10 minutes in nudged.
    let timeout: DispatchTimeInterval

    private let queue: DispatchQueue
    private var running: Running?

    private final class Running {
        let pid: pid_t
        let completion: (CommandResult) -> Void
        var exitSource: DispatchSourceRead?
        var stderrSource: DispatchSourceRead?
        var killTimer: DispatchSourceTimer?
        var stderrTail: [UInt8] = []

        init(pid: pid_t, completion: @escaping (CommandResult) -> Void) {
            self.pid = pid
            self.completion = completion
        }
    }

    init(queue: DispatchQueue, timeout: DispatchTimeInterval = .seconds(600)) {
        self.queue = queue
        self.timeout = timeout
    }

    /// Runs `/bin/sh -c command` with nudged's environment, stdin and stdout on /dev/null.
    /// One at a time: the caller waits for the completion before running the next.
    func run(_ command: String, _ completion: @escaping (CommandResult) -> Void) {
        dispatchPrecondition(condition: .onQueue(queue))
        precondition(running == nil, "one command at a time")
        var pipe: [Int32] = [-1, -1]
        guard pipe2(&pipe, O_CLOEXEC | O_NONBLOCK) == 0 else {
            return completion(CommandResult(status: nil, lastLine: "pipe2: " + String(cString: strerror(errno))))
        }
        let pid: pid_t
        do { pid = try ChildSpawn.spawn(["/bin/sh", "-c", command], stderr: pipe[1]) } catch {
            close(pipe[0])
            close(pipe[1])
            return completion(CommandResult(status: nil, lastLine: error.description))
        }
        close(pipe[1])
        let pidfd = nudge_pidfd_open(pid)
        guard pidfd >= 0 else {
            // Without a pidfd there is no way to learn of the exit on this queue: reap it blocking.
            let reason = "pidfd_open: " + String(cString: strerror(errno))
            var status: Int32 = 0
            _ = waitpid(pid, &status, 0)
            close(pipe[0])
            return completion(CommandResult(status: nil, lastLine: reason))
        }
        let state = Running(pid: pid, completion: completion)
        running = state

        let stderrSource = DispatchSource.makeReadSource(fileDescriptor: pipe[0], queue: queue)
        stderrSource.setEventHandler { [unowned self, state] in drainStderr(state) }
        stderrSource.setCancelHandler { [fd = pipe[0]] in close(fd) }
        state.stderrSource = stderrSource
        stderrSource.resume()

        let exitSource = DispatchSource.makeReadSource(fileDescriptor: pidfd, queue: queue)
        exitSource.setEventHandler { [unowned self, state] in exited(state) }
        exitSource.setCancelHandler { close(pidfd) }
        state.exitSource = exitSource
        exitSource.resume()

        let killTimer = DispatchSource.makeTimerSource(queue: queue)
        killTimer.schedule(deadline: .now() + timeout)
        killTimer.setEventHandler { [unowned self] in terminate() }
        state.killTimer = killTimer
        killTimer.resume()
    }

    /// Kills the running command and what it started (its process group); its completion
    /// then comes as for any other end, with status 137.
    func terminate() {
        dispatchPrecondition(condition: .onQueue(queue))
        if let running { kill(-running.pid, SIGKILL) }
    }

    private func drainStderr(_ state: Running) {
        guard let source = state.stderrSource else { return }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(Int32(source.handle), $0.baseAddress, $0.count) }
            if count > 0 {
                state.stderrTail += buffer[..<count]
                if state.stderrTail.count > 8192 { state.stderrTail.removeFirst(state.stderrTail.count - 8192) }
                continue
            }
            // End of file: a read source at EOF stays readable, so it must go.
            if count == 0 || (errno != EAGAIN && errno != EINTR) {
                source.cancel()
                state.stderrSource = nil
            }
            return
        }
    }

    private func exited(_ state: Running) {
        var status: Int32 = 0
        guard waitpid(state.pid, &status, WNOHANG) == state.pid else { return }
        drainStderr(state)
        state.stderrSource?.cancel()
        state.exitSource?.cancel()
        state.killTimer?.cancel()
        state.stderrSource = nil
        state.exitSource = nil
        state.killTimer = nil
        running = nil
        let code = ChildSpawn.shellStatus(status)
        let lines = String(decoding: state.stderrTail, as: UTF8.self).split(whereSeparator: \.isNewline)
            .filter { !$0.allSatisfy(\.isWhitespace) }.map(String.init)
        state.completion(CommandResult(status: code, lastLine: lines.last ?? "", tail: Array(lines.suffix(5))))
    }
}
