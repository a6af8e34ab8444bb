import Dispatch
import Foundation
import NudgeSync
import NudgeSystem

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
/// - a two-way pass ~200 ms after the folder changed (inotify), at most one at a time (passes
///   run on the queue, so they never overlap), and never while the command runs (it follows
///   the command instead);
/// - without a command, a pass ~200 ms after the store changed here;
/// - with a command, a local change runs the command first (it brings what changed elsewhere
///   while the folder still holds the agreed version, so that the pass merges both changes
///   field by field instead of vdirsyncer finding both sides changed), then the pass that
///   writes the change, then the command again when that pass wrote anything (to upload it);
/// - the command also at start and every `interval`; while it fails, the interval doubles each
///   time, up to `longestBackoff`; a local change still runs it. One command at a time: a
///   change during a run runs it once more afterwards. Every run is followed by a pass.
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
    private let passTimer: OneShotTimer
    private let commandTimer: OneShotTimer
    /// Gathers local changes before the command runs for them.
    private let localTimer: OneShotTimer
    private var passScheduled = false
    private var localScheduled = false
    private var commandRunning = false
    private var commandAgain = false
    /// Runs started only because the pass after a run wrote something: a pass that kept
    /// rewriting a file would otherwise run the command forever.
    private var uploadsInARow = 0
    static let mostUploadsInARow = 3
    /// Failed runs in a row.
    private(set) var failures = 0
    private var passFailed = false
    /// What the last pass's standing warnings were about: a link named .ics is said once,
    /// not at every change in the folder.
    private var standingSaid: Set<String> = []

    init(_ environment: Environment) {
        self.environment = environment
        // The timers are made before `self` may be captured; their handlers reach it through
        // this, set once every field is.
        weak var scheduler: SyncScheduler?
        passTimer = environment.makeTimer { scheduler?.passTimerFired() }
        commandTimer = environment.makeTimer { scheduler?.commandTimerFired() }
        localTimer = environment.makeTimer { scheduler?.localTimerFired() }
        scheduler = self
    }

    private func passTimerFired() {
        passScheduled = false
        // The run's end passes anyway, once vdirsyncer has finished writing.
        if !commandRunning { passNow() }
    }

    private func commandTimerFired() {
        uploadsInARow = 0
        runCommand()
    }

    private func localTimerFired() {
        localScheduled = false
        uploadsInARow = 0
        runCommand()
    }

    private func record(_ kind: ServiceEvent.Kind, _ message: String, priority: JournalPriority = .info, fields: [(JournalField, String)] = []) {
        environment.events.record(ServiceEvent(kind: kind, message: message, priority: priority, fields: fields))
    }

    /// A first pass for what changed while nudged was not running (at once, and offline too:
    /// the service catches up on missed reminders after it), then the command.
    func start() {
        dispatchPrecondition(condition: .onQueue(environment.queue))
        passNow()
        if environment.command != nil && !commandRunning { runCommand() }
    }

    /// Something in the vdir was written, moved or deleted.
    func folderChanged() {
        dispatchPrecondition(condition: .onQueue(environment.queue))
        schedulePass()
    }

    /// The store changed here (`nudge` or the service itself): the change goes to the folder,
    /// and with the command to the server.
    func localChange() {
        dispatchPrecondition(condition: .onQueue(environment.queue))
        guard environment.command != nil else { return schedulePass() }
        guard !localScheduled else { return }
        localScheduled = true
        localTimer.schedule(after: Self.debounce)
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
            if !passFailed { record(.failed, "sync pass failed: \(error)", priority: .warning) }
            passFailed = true
            return
        }
        passFailed = false
        let milliseconds = max(0, environment.now().timeIntervalSince(started)) * 1000
        let fields: [(JournalField, String)] = [
            (.syncImported, String(report.imported)), (.syncDeletedTodos, String(report.deletedTodos)),
            (.syncWritten, String(report.written)), (.syncDeletedFiles, String(report.deletedFiles)),
            (.syncConflicts, String(report.conflicts)), (.syncMilliseconds, JournalField.decimal(milliseconds, digits: 1))]
        let summary = "synced: \(report.imported) imported, \(report.deletedTodos) deleted here, \(report.written) written, "
            + "\(report.deletedFiles) files deleted, \(report.conflicts) conflicts"
        // A pass that found nothing is routine (every write of its own comes back through inotify).
        record(.synced, report.changedNothing ? "synced: nothing changed" : summary,
               priority: report.changedNothing ? .debug : .info, fields: fields)
        let said = standingSaid
        standingSaid = Set(report.standingWarnings.values)
        for warning in report.warnings where !(report.standingWarnings[warning].map(said.contains) ?? false) {
            record(.failed, "sync: \(warning)", priority: .warning)
        }
        environment.passed(report)
        // What the pass wrote goes to the server now.
        guard environment.command != nil, report.written > 0 || report.deletedFiles > 0 else { return }
        guard uploadsInARow < Self.mostUploadsInARow else {
            record(.failed, "sync: every pass after \(environment.command ?? "") writes files again; "
                   + "not running it again until the next change or interval", priority: .warning)
            return
        }
        uploadsInARow += 1
        runCommand()
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
            let seconds = JournalField.decimal(max(0, environment.now().timeIntervalSince(started)), digits: 1)
            if result.succeeded {
                failures = 0
                record(.command, "\(command): done in \(seconds) s", fields: [(.exitStatus, "0")])
            } else {
                failures += 1
                let status = result.status.map(String.init) ?? "not started"
                record(.failed, "\(command) failed (exit status \(status)): \(result.lastLine)", priority: .warning,
                       fields: [(.exitStatus, status), (.stderr, result.lastLine),
                                (.stderrTail, result.tail.joined(separator: "\n")), (.failures, String(failures))])
            }
            commandTimer.schedule(after: nextDelay)
            if commandAgain {
                // The pass follows that run.
                commandAgain = false
                return runCommand()
            }
            // What it brought, and the local changes waiting for it; this pass covers the
            // folder events its writes caused.
            if passScheduled {
                passScheduled = false
                passTimer.schedule(after: nil)
            }
            passNow()
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
