import Dispatch
import Foundation
import NudgeSync

/// A one-shot timer on the service's queue: a fake in unit tests.
protocol OneShotTimer: AnyObject {
    /// Fires once `delay` seconds from now, replacing any earlier schedule; nil disarms it.
    func schedule(after delay: TimeInterval?)
}

/// A wall-clock timer source (a suspended laptop does not stretch it), resumed at once and
/// parked far in the future when disarmed.
final class DispatchOneShotTimer: OneShotTimer {
    private let source: DispatchSourceTimer

    init(queue: DispatchQueue, _ handler: @escaping () -> Void) {
        source = DispatchSource.makeTimerSource(queue: queue)
        source.setEventHandler(handler: handler)
        source.schedule(wallDeadline: .distantFuture)
        source.resume()
    }

    deinit { source.cancel() }

    func schedule(after delay: TimeInterval?) {
        guard let delay else { return source.schedule(wallDeadline: .distantFuture) }
        source.schedule(wallDeadline: .now() + max(0, delay), leeway: .milliseconds(10))
    }
}

/// When `nudged` syncs with the vdir, and when it runs `[sync] command`:
/// - a two-way pass ~200 ms after the folder changed (inotify) or the store changed here,
///   at most one at a time (passes run on the queue, so they never overlap);
/// - the command after each local change (once the pass wrote it to the folder), and every
///   `interval`; while it fails, the interval doubles each time, up to `longestBackoff`;
///   a local change still runs it. One command at a time: a change during a run runs it
///   once more afterwards.
final class SyncScheduler {
    struct Environment {
        var queue: DispatchQueue
        var now: () -> Date
        /// One two-way pass at this moment.
        var pass: (Date) throws -> SyncReport
        /// `[sync] command`, nil for none, and `[sync] interval` in seconds.
        var command: String?
        var interval: TimeInterval
        /// Runs a command line; the completion comes later, on the queue.
        var run: (String, @escaping (CommandResult) -> Void) -> Void
        var makeTimer: (@escaping () -> Void) -> OneShotTimer
        var events: EventRecorder
        /// After every pass that did not fail: the service replans and withdraws.
        var passed: (SyncReport) -> Void
    }

    /// How long changes are gathered before a pass: editors and vdirsyncer write in several steps.
    static let debounce: TimeInterval = 0.2
    static let longestBackoff: TimeInterval = 4 * 3600

    private let environment: Environment
    private var passTimer: OneShotTimer!
    private var commandTimer: OneShotTimer!
    private var passScheduled = false
    /// A local change reached the folder: the command should carry it to the server.
    private var commandWanted = false
    private var commandRunning = false
    private var commandAgain = false
    /// Failed runs in a row.
    private(set) var failures = 0
    private var passFailed = false

    init(_ environment: Environment) {
        self.environment = environment
        passTimer = environment.makeTimer { [unowned self] in
            passScheduled = false
            passNow()
        }
        commandTimer = environment.makeTimer { [unowned self] in runCommand() }
    }

    private func record(_ kind: ServiceEvent.Kind, _ message: String, priority: Int32 = 6, fields: [(String, String)] = []) {
        environment.events.record(ServiceEvent(kind: kind, message: message, priority: priority, fields: fields))
    }

    /// A first pass for what changed while nudged was not running, then the command.
    func start() {
        dispatchPrecondition(condition: .onQueue(environment.queue))
        passNow()
        if environment.command != nil { runCommand() }
    }

    /// Something in the vdir was written, moved or deleted.
    func folderChanged() {
        dispatchPrecondition(condition: .onQueue(environment.queue))
        schedulePass()
    }

    /// The store changed here (`nudge` or the service itself): the change goes to the folder,
    /// then with the command to the server.
    func localChange() {
        dispatchPrecondition(condition: .onQueue(environment.queue))
        if environment.command != nil { commandWanted = true }
        schedulePass()
    }

    private func schedulePass() {
        // Not pushed back by further events: a steady trickle still gets a pass within the debounce.
        guard !passScheduled else { return }
        passScheduled = true
        passTimer.schedule(after: Self.debounce)
    }

    private func passNow() {
        let started = environment.now()
        let report: SyncReport
        do {
            report = try environment.pass(started)
        } catch {
            // Logged once until a pass works again: a missing folder would otherwise log at every change.
            if !passFailed { record(.failed, "sync pass failed: \(error)", priority: 4) }
            passFailed = true
            return
        }
        passFailed = false
        let milliseconds = max(0, environment.now().timeIntervalSince(started)) * 1000
        let fields = [("NUDGE_SYNC_IMPORTED", String(report.imported)), ("NUDGE_SYNC_DELETED_TODOS", String(report.deletedTodos)),
                      ("NUDGE_SYNC_WRITTEN", String(report.written)), ("NUDGE_SYNC_DELETED_FILES", String(report.deletedFiles)),
                      ("NUDGE_SYNC_CONFLICTS", String(report.conflicts)), ("NUDGE_SYNC_MS", String(format: "%.1f", milliseconds))]
        let summary = "synced: \(report.imported) imported, \(report.deletedTodos) deleted here, \(report.written) written, "
            + "\(report.deletedFiles) files deleted, \(report.conflicts) conflicts"
        // A pass that found nothing is routine (every write of its own comes back through inotify).
        record(.synced, report.changedNothing ? "synced: nothing changed" : summary,
               priority: report.changedNothing ? 7 : 6, fields: fields)
        for warning in report.warnings { record(.failed, "sync: \(warning)", priority: 4) }
        environment.passed(report)
        if commandWanted {
            commandWanted = false
            runCommand()
        }
    }

    private func runCommand() {
        guard let command = environment.command else { return }
        guard !commandRunning else {
            commandAgain = true
            return
        }
        commandRunning = true
        commandTimer.schedule(after: nil)
        let started = environment.now()
        environment.run(command) { [unowned self] result in
            commandRunning = false
            let seconds = String(format: "%.1f", max(0, environment.now().timeIntervalSince(started)))
            if result.succeeded {
                failures = 0
                record(.command, "\(command): done in \(seconds) s", fields: [("NUDGE_EXIT_STATUS", "0")])
            } else {
                failures += 1
                let status = result.status.map(String.init) ?? "not started"
                record(.failed, "\(command) failed (exit status \(status)): \(result.lastLine)", priority: 4,
                       fields: [("NUDGE_EXIT_STATUS", status), ("NUDGE_STDERR", result.lastLine),
                                ("NUDGE_FAILURES", String(failures))])
            }
            commandTimer.schedule(after: nextDelay)
            // What it brought is seen by inotify; a pass now also covers a folder not watched yet.
            schedulePass()
            if commandAgain {
                commandAgain = false
                runCommand()
            }
        }
    }

    /// The interval, doubled for each failure in a row (up to `longestBackoff`, or the
    /// interval when that is longer).
    var nextDelay: TimeInterval {
        let interval = environment.interval
        guard failures > 0 else { return interval }
        let backedOff = interval * pow(2, Double(min(failures, 30)))
        return min(backedOff, max(interval, Self.longestBackoff))
    }
}
