import CLinux
import Dispatch
import Foundation
import NudgeCore

/// One run of a `[hooks]` command for one todo.
struct HookJob {
    var event: HookEvent
    var todoID: Int64
    /// The command line as configured, for the journal.
    var command: String
    /// The program and its arguments, `${NAME}` already replaced.
    var arguments: [String]
    /// The NUDGE_* variables, added to nudged's environment.
    var variables: [String: String]
    /// Written to the hook's stdin (one JSON object).
    var input: String
    /// For an `on_fire` hook whose notification waits: called once, with true when the hook's
    /// first line of output was `suppress`, as soon as that is known (its first line, the end
    /// of its output, its exit, or its failing to start).
    var answered: ((Bool) -> Void)?
}

/// How a hook ended.
struct HookOutcome: Equatable {
    /// The exit status as a shell says it (128 + signal); nil when it could not be started.
    var status: Int32?
    /// The signal that ended it, when one did: a status of 139 from `exit 139` is not a crash.
    var signal: Int32?
    /// The first line it wrote to stderr, or why it could not be started.
    var firstErrorLine: String
    /// Killed after the timeout.
    var killed = false
    /// Its first line of output was `suppress`.
    var suppressed = false
    var seconds: Double = 0
}

/// Runs hooks as child processes, at most `limit` at once (the others wait in order, up to
/// `maximumWaiting`), each killed after `timeout` seconds, on the service's queue and without
/// ever waiting on it: exits come through pidfds, output through pipes, all as dispatch
/// sources. Nothing a hook does (hang, fail, print megabytes, ignore its stdin) reaches the
/// service beyond its outcome.
final class HookRunner {
    var limit: Int
    var timeout: Double
    static let maximumWaiting = 1000

    private let queue: DispatchQueue
    private let finished: (HookJob, HookOutcome) -> Void
    /// Called once when hooks start being dropped because too many wait.
    private let overflowed: (Int) -> Void
    private var waiting: [HookJob] = []
    private var running: [pid_t: Running] = [:]
    private var dropped = 0
    /// nudged's own environment, which every hook gets: read once, not for each hook.
    private lazy var baseEnvironment = ProcessInfo.processInfo.environment

    init(queue: DispatchQueue, limit: Int, timeout: Double,
         finished: @escaping (HookJob, HookOutcome) -> Void, overflowed: @escaping (Int) -> Void = { _ in }) {
        self.queue = queue
        self.limit = limit
        self.timeout = timeout
        self.finished = finished
        self.overflowed = overflowed
    }

    /// Hooks running now.
    var runningCount: Int { running.count }

    func submit(_ job: HookJob) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard waiting.count < Self.maximumWaiting else {
            dropped += 1
            if dropped == 1 { overflowed(Self.maximumWaiting) }
            job.answered?(false)
            return
        }
        waiting.append(job)
        // Started on a turn of their own: the caller may be submitting a hundred.
        startOnALaterTurn()
    }

    /// Hooks started in one turn of the queue. Started as they were submitted, a burst of 100
    /// `on_fire` hooks held the queue for tens of milliseconds; now a reminder due meanwhile
    /// waits for a few spawns at most.
    static let startsPerTurn = 8
    /// Signalled to start more on a later turn of the queue; signals coalesce.
    private var laterTurn: DispatchSourceUserDataAdd?

    deinit {
        laterTurn?.cancel()
    }

    private func startOnALaterTurn() {
        if laterTurn == nil {
            let source = DispatchSource.makeUserDataAddSource(queue: queue)
            source.setEventHandler { [unowned self] in startWaiting() }
            source.resume()
            laterTurn = source
        }
        laterTurn?.add(data: 1)
    }

    private func startWaiting() {
        var started = 0
        while running.count < limit, !waiting.isEmpty {
            guard started < Self.startsPerTurn else {
                startOnALaterTurn()
                return
            }
            start(waiting.removeFirst())
            started += 1
        }
        if waiting.isEmpty { dropped = 0 }
    }

    private final class Running {
        let job: HookJob
        let pid: pid_t
        let started = DispatchTime.now()
        var sources: [DispatchSourceProtocol] = []
        var output = PipeReader(keep: 256)
        var errors = PipeReader(keep: 4096)
        var input: [UInt8]
        var killed = false
        var answered = false

        init(job: HookJob, pid: pid_t) {
            self.job = job
            self.pid = pid
            self.input = Array(job.input.utf8)
        }

        var suppressed: Bool {
            output.firstLine?.trimmingCharacters(in: .whitespaces).lowercased() == "suppress"
        }
    }

    private func start(_ job: HookJob) {
        var stdin: [Int32] = [-1, -1], stdout: [Int32] = [-1, -1], stderr: [Int32] = [-1, -1]
        // stdin is a socket, not a pipe: send(MSG_NOSIGNAL) to a hook that went away fails
        // with EPIPE instead of raising SIGPIPE in the service.
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &stdin) == 0,
              pipe2(&stdout, O_CLOEXEC) == 0, pipe2(&stderr, O_CLOEXEC) == 0 else {
            let reason = "pipe2: " + String(cString: strerror(errno))
            for fd in stdin + stdout + stderr where fd >= 0 { close(fd) }
            return fail(job, reason)
        }
        let environment = baseEnvironment.merging(job.variables) { _, hook in hook }
            .map { $0.key + "=" + $0.value }
        let pid: pid_t
        do {
            pid = try ChildSpawn.spawn(job.arguments, environment: environment, stdin: stdin[0], stdout: stdout[1],
                                       stderr: stderr[1])
        } catch {
            for fd in stdin + stdout + stderr { close(fd) }
            return fail(job, error.description)
        }
        close(stdin[0])
        close(stdout[1])
        close(stderr[1])
        for fd in [stdin[1], stdout[0], stderr[0]] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        let pidfd = nudge_pidfd_open(pid)
        guard pidfd >= 0 else {
            // No way to learn of the exit on the queue: the hook is killed, not waited for.
            kill(-pid, SIGKILL)
            var status: Int32 = 0
            _ = waitpid(pid, &status, 0)
            for fd in [stdin[1], stdout[0], stderr[0]] { close(fd) }
            return fail(job, "pidfd_open: " + String(cString: strerror(errno)))
        }
        let state = Running(job: job, pid: pid)
        running[pid] = state

        let writer = DispatchSource.makeWriteSource(fileDescriptor: stdin[1], queue: queue)
        writer.setEventHandler { [unowned self, state] in feed(state, writer) }
        writer.setCancelHandler { close(stdin[1]) }
        writer.resume()
        let output = DispatchSource.makeReadSource(fileDescriptor: stdout[0], queue: queue)
        output.setEventHandler { [unowned self, state] in
            let open = state.output.drain(output)
            if state.output.firstLine != nil || !open { answer(state) }
        }
        output.setCancelHandler { close(stdout[0]) }
        output.resume()
        let errors = DispatchSource.makeReadSource(fileDescriptor: stderr[0], queue: queue)
        errors.setEventHandler { [state] in _ = state.errors.drain(errors) }
        errors.setCancelHandler { close(stderr[0]) }
        errors.resume()
        let exit = DispatchSource.makeReadSource(fileDescriptor: pidfd, queue: queue)
        exit.setEventHandler { [unowned self, state] in exited(state, output: output, errors: errors) }
        exit.setCancelHandler { close(pidfd) }
        exit.resume()
        let killTimer = DispatchSource.makeTimerSource(queue: queue)
        killTimer.schedule(deadline: .now() + timeout)
        killTimer.setEventHandler { [state] in
            state.killed = true
            kill(-state.pid, SIGKILL)
        }
        killTimer.resume()
        state.sources = [writer, output, errors, exit, killTimer]
    }

    /// Writes what the pipe takes of the input; a hook that does not read it, or exits first,
    /// loses the rest.
    private func feed(_ state: Running, _ writer: DispatchSourceWrite) {
        while !state.input.isEmpty {
            let count = state.input.withUnsafeBytes { send(Int32(writer.handle), $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count > 0 {
                state.input.removeFirst(count)
            } else if count < 0 && errno == EINTR {
                continue
            } else if count < 0 && errno == EAGAIN {
                return
            } else {
                break
            }
        }
        writer.cancel()
    }

    private func answer(_ state: Running) {
        guard !state.answered else { return }
        state.answered = true
        state.job.answered?(state.suppressed)
    }

    private func exited(_ state: Running, output: DispatchSourceRead, errors: DispatchSourceRead) {
        var info = siginfo_t()
        guard waitid(P_PID, id_t(state.pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0,
              info._sifields._sigchld.si_pid == state.pid else { return }
        // What it left running in its process group goes with it, before it is reaped: until
        // then its pid cannot name another process's group.
        kill(-state.pid, SIGKILL)
        var status: Int32 = 0
        guard waitpid(state.pid, &status, WNOHANG) == state.pid else { return }
        // What it wrote before it ended is still in the pipes.
        _ = state.output.drain(output)
        _ = state.errors.drain(errors)
        for source in state.sources where !source.isCancelled { source.cancel() }
        running[state.pid] = nil
        answer(state)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - state.started.uptimeNanoseconds) / 1e9
        let signal = status & 0x7f
        finished(state.job, HookOutcome(status: ChildSpawn.shellStatus(status), signal: signal == 0 ? nil : signal,
                                        firstErrorLine: state.errors.firstNonEmptyLine,
                                        killed: state.killed, suppressed: state.suppressed, seconds: seconds))
        startWaiting()
    }

    private func fail(_ job: HookJob, _ reason: String) {
        job.answered?(false)
        // Not started: startWaiting's loop gives its place to the next.
        finished(job, HookOutcome(status: nil, firstErrorLine: reason))
    }
}

/// The start of what a hook writes to a pipe; the rest is read and thrown away, so that a
/// hook printing without end never blocks on a full pipe.
struct PipeReader {
    let keep: Int
    private(set) var bytes: [UInt8] = []
    private var buffer = [UInt8](repeating: 0, count: 16384)

    init(keep: Int) { self.keep = keep }

    /// Reads what is there; false at the end of the output (the source is then cancelled).
    mutating func drain(_ source: DispatchSourceRead) -> Bool {
        guard !source.isCancelled else { return false }
        while true {
            let count = buffer.withUnsafeMutableBytes { read(Int32(source.handle), $0.baseAddress, $0.count) }
            if count > 0 {
                if bytes.count < keep { bytes += buffer[..<min(count, keep - bytes.count)] }
                continue
            }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && errno == EAGAIN { return true }
            source.cancel()
            return false
        }
    }

    /// The first line, once it is complete.
    var firstLine: String? {
        guard let end = bytes.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        return String(decoding: bytes[..<end], as: UTF8.self)
    }

    /// Cut at `longestLine` characters: it goes into a journal message, where a line of a
    /// hook's 16 KiB would be one unreadable entry.
    var firstNonEmptyLine: String {
        guard let line = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline)
            .first(where: { !$0.allSatisfy(\.isWhitespace) }) else { return "" }
        return line.count > Self.longestLine ? line.prefix(Self.longestLine) + "…" : String(line)
    }

    static let longestLine = 300
}
