import Dispatch
import Foundation
import NudgeCore
import NudgePlatform

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
        let started = DispatchTime.now()
        var process: SupervisedProcess?
        var writer: DispatchSourceWrite?
        var outputSource: DispatchSourceRead?
        var errorSource: DispatchSourceRead?
        var output = PipeReader(keep: 256)
        var errors = PipeReader(keep: 4096)
        var input: [UInt8]
        var answered = false

        init(job: HookJob) {
            self.job = job
            self.input = Array(job.input.utf8)
        }

        var suppressed: Bool {
            output.firstLine?.trimmingCharacters(in: .whitespaces).lowercased() == "suppress"
        }
    }

    private func start(_ job: HookJob) {
        let environment = baseEnvironment.merging(job.variables) { _, hook in hook }
            .map { $0.key + "=" + $0.value }
        var spawn = Spawn(job.arguments, environment: environment)
        (spawn.stdin, spawn.stdout, spawn.stderr) = (.pipe, .pipe, .pipe)
        let state = Running(job: job)
        do {
            let process = try SupervisedProcess(spawn, queue: queue, deadline: .now() + timeout, started: { child in
                // Non-nil: each is a pipe.
                watch(state, stdin: child.stdin!, stdout: child.stdout!, stderr: child.stderr!)
            }) { [unowned self, state] status in exited(state, status) }
            state.process = process
            running[process.pid] = state
        } catch {
            fail(job, error.description)
        }
    }

    private func watch(_ state: Running, stdin: FileDescriptor, stdout: FileDescriptor, stderr: FileDescriptor) {
        let writer = DispatchSource.makeWriteSource(fileDescriptor: stdin.rawValue, queue: queue)
        writer.setEventHandler { [unowned self, state] in feed(state, writer) }
        writer.setCancelHandler { try? stdin.close() }
        writer.resume()
        let output = DispatchSource.makeReadSource(fileDescriptor: stdout.rawValue, queue: queue)
        output.setEventHandler { [unowned self, state] in
            let open = state.output.drain(output)
            if state.output.firstLine != nil || !open { answer(state) }
        }
        output.setCancelHandler { try? stdout.close() }
        output.resume()
        let errors = DispatchSource.makeReadSource(fileDescriptor: stderr.rawValue, queue: queue)
        errors.setEventHandler { [state] in _ = state.errors.drain(errors) }
        errors.setCancelHandler { try? stderr.close() }
        errors.resume()
        (state.writer, state.outputSource, state.errorSource) = (writer, output, errors)
    }

    /// Writes what the pipe takes of the input; a hook that does not read it, or exits first,
    /// loses the rest.
    private func feed(_ state: Running, _ writer: DispatchSourceWrite) {
        while !state.input.isEmpty {
            do {
                let count = try retryingOnInterrupt {
                    state.input.withUnsafeBytes { send(Int32(writer.handle), $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                }
                guard count > 0 else { break }
                state.input.removeFirst(count)
            } catch .wouldBlock {
                return
            } catch {
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

    private func exited(_ state: Running, _ status: WaitStatus) {
        // What it wrote before it ended is still in the pipes.
        if let output = state.outputSource { _ = state.output.drain(output) }
        if let errors = state.errorSource { _ = state.errors.drain(errors) }
        for source in [state.writer, state.outputSource, state.errorSource] as [DispatchSourceProtocol?] {
            if let source, !source.isCancelled { source.cancel() }
        }
        // Non-nil: set as soon as it started, before any exit could come. Let go of, as it
        // holds this state in its callback.
        let process = state.process!
        state.process = nil
        running[process.pid] = nil
        answer(state)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - state.started.uptimeNanoseconds) / 1e9
        finished(state.job, HookOutcome(status: status.shellStatus, signal: status.signal,
                                        firstErrorLine: state.errors.firstNonEmptyLine,
                                        killed: process.timedOut, suppressed: state.suppressed, seconds: seconds))
        startWaiting()
    }

    private func fail(_ job: HookJob, _ reason: String) {
        job.answered?(false)
        // Not started: startWaiting's loop gives its place to the next.
        finished(job, HookOutcome(status: nil, firstErrorLine: reason))
    }
}

extension PipeReader {
    /// Cut at `longestLine` characters: it goes into a journal message, where a line of a
    /// hook's 16 KiB would be one unreadable entry.
    var firstNonEmptyLine: String {
        guard let line = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline)
            .first(where: { !$0.allSatisfy(\.isWhitespace) }) else { return "" }
        return line.count > Self.longestLine ? line.prefix(Self.longestLine) + "…" : String(line)
    }

    static let longestLine = 300
}
