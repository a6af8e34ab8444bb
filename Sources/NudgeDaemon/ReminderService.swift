import Foundation
import NudgeCore
import NudgeRecurrence
import NudgeStore
import NudgeSync
import NudgeSystem

/// The heart of `nudged`: fires what is due, shows it, handles the buttons, and says when it
/// next needs to wake up. It runs on one queue and never waits: the D-Bus calls complete later.
/// Each job is a part of its own, made here with the parts it uses; the service is the entry
/// point of every event, on its queue.
final class ReminderService {
    /// Everything the service needs from outside, so that tests can stand in for each part.
    struct Environment {
        var loadConfig: () throws -> NudgeConfig
        /// Opens the store with this planner at this moment.
        var openStore: (ReminderPlanner, Date) throws -> TodoStore
        var server: NotificationServer
        var events: EventRecorder
        /// The serial queue everything runs on (the main queue in nudged): every entry point
        /// checks that it is called there.
        var queue: DispatchQueue
        var now: () -> Date
        var zone: () -> TimeZone
        /// The locale's way with dates, read from nudged's environment at its start; the
        /// config's `[display]` keys go over it.
        var localeStyle: DateStyle
        /// Arms the one wall-clock timer; nil disarms it.
        var wake: (Date?) -> Void
        /// A line for systemd's STATUS=.
        var status: (String) -> Void = { _ in }
        /// Returns the heap's free memory to the system.
        var trimHeap: () -> Void = {}
        /// The quote of the day from this source, as of this moment in this zone, as one line;
        /// nil when there is none.
        var quote: (QuoteSource, Date, TimeZone) -> String? = { _, _, _ in nil }
        /// The store changed here (a commit by `nudge`, or by the service: fired, shown,
        /// answered, dismissed): with `[sync] vdir`, a pass carries it to the folder.
        var changed: () -> Void = {}
        /// Called once the store is open, before what came due while the service was not
        /// running is fired: the first sync pass, so that a reminder another machine showed
        /// meanwhile is not shown here too.
        var opened: () -> Void = {}
        /// Runs a `[hooks]` command beside the service (its outcome comes to `hookEnded`).
        var runHook: (HookJob, HookSettings) -> Void = { _, _ in }
        /// The home folder, for a `sound` file written `~/...`.
        var home = ""
        /// How long before reminders are due the service wakes to record their firing, so that
        /// at the due moment only their Notify calls remain to be made. 0: it wakes when due.
        var fireAhead: TimeInterval = 0
    }

    /// How long a failed notification, or a firing that could not be recorded, waits before
    /// it is tried again (a server that appears is tried at once).
    static let retryDelay: TimeInterval = 30

    let environment: Environment
    private let context: ServiceContext
    private let planning: PlanningState
    private let delivery: NotificationDelivery
    private let hooks: ServiceHooks
    private let withdrawals: Withdrawals
    private let firing: Firing
    private let actions: ButtonActions
    private var stopPoll: DispatchSourceTimer?
    /// Until start() has fired what was missed: a sync pass then only imports.
    private var starting = false
    /// When the service began loading: what came due before it was missed while the service
    /// was not running.
    private let began: Date

    /// Loads the config and the store; throws when either is unusable.
    init(_ environment: Environment) throws {
        self.environment = environment
        began = environment.now()
        let context = try ServiceContext(environment)
        let ahead = FireAhead(context: context, lead: environment.fireAhead)
        let planning = PlanningState(context: context, ahead: ahead)
        let delivery = NotificationDelivery(context: context, planning: planning, ahead: ahead)
        let hooks = ServiceHooks(context: context, planning: planning, delivery: delivery)
        self.context = context
        self.planning = planning
        self.delivery = delivery
        self.hooks = hooks
        withdrawals = Withdrawals(context: context, delivery: delivery)
        firing = Firing(context: context, planning: planning, ahead: ahead, delivery: delivery, hooks: hooks)
        actions = ButtonActions(context: context, planning: planning, delivery: delivery, hooks: hooks)
        hooks.startLooking()
        environment.server.onActionInvoked = { [unowned self] id, key, sender in actionInvoked(id: id, key: key, sender: sender) }
        environment.server.onClosed = { [unowned self] id, reason, sender in closed(id: id, reason: reason, sender: sender) }
        environment.server.onServerChanged = { [unowned self] newOwner in serverChanged(to: newOwner) }
    }

    var config: NudgeConfig { context.config }
    var store: TodoStore { context.store }
    /// Deliveries whose Notify call waits for the server's answer.
    var inFlight: Set<Int64> { planning.inFlight }

    func record(_ kind: ServiceEvent.Kind, _ message: String, priority: JournalPriority = .info) {
        context.record(kind, message, priority: priority)
    }

    // MARK: - Life cycle

    /// Handles what came due while the service was not running (by the catch-up policy), and
    /// plans. Throws when the store is unusable.
    func start() throws {
        dispatchPrecondition(condition: .onQueue(environment.queue))
        let owner = delivery.findServer()
        record(.started, "started; notification server: \(owner ?? "none yet")")
        if let owner {
            try store.closeDeliveries(notShownBy: owner)
            // Answered while the service was not running: withdrawn, not shown again.
            withdrawals.withdrawAnswered()
            try delivery.reclaim(from: owner)
        }
        starting = true
        environment.opened()
        starting = false
        firing.fireDue(missedBefore: began)
        delivery.deliverPending()
        planning.plan()
        context.releaseMemory()
    }

    /// Reads the config again (a changed file, SIGHUP, a new time zone). A broken file is
    /// reported and the old rules stay.
    func reload(_ why: String) {
        dispatchPrecondition(condition: .onQueue(environment.queue))
        do {
            try context.load()
            hooks.startLooking()
            record(.reloaded, "reloaded (\(why))")
        } catch {
            record(.failed, "not reloaded (\(why)): \(error)", priority: .error)
        }
        firing.fireDue(missedBefore: nil)
        planning.plan()
        context.releaseMemory()
    }

    /// The timer fired, or something changed: fire what is due now and plan again.
    func wake() {
        dispatchPrecondition(condition: .onQueue(environment.queue))
        if let retryAt = planning.deliveryRetryAt, retryAt <= context.now {
            planning.deliveryRetryAt = nil
            delivery.deliverPending()
        }
        hooks.releaseHolds(through: context.now)
        firing.fireDue(missedBefore: nil)
        planning.plan()
        // The statements a wake prepared (some 600 KiB after the first notifications) would
        // otherwise stay while the service sleeps until the next one; preparing them again
        // costs far less than a notification.
        store.releaseMemory()
    }

    /// The file at the database's path is not the one open (moved or restored over it, or
    /// deleted): lets go of the old one and opens what is there now. Throws when that cannot
    /// be opened; the service has no store then.
    func reopenReplacedDatabase() throws {
        dispatchPrecondition(condition: .onQueue(environment.queue))
        let wasWaiting = store.access.isReadOnly
        do {
            try context.reopen()
            hooks.startLooking()
        } catch {
            record(.failed, "the database file was replaced, and the new one cannot be used: \(error)", priority: .error)
            throw error
        }
        // Without a file (deleted, or its folder moved away) the store is empty, in memory.
        if store.access.isReadOnly {
            if !wasWaiting {
                record(.reloaded, "the database file is gone: nothing reminds until one is made at \(store.path)"
                       + " (nudge add, an import or a sync)", priority: .warning)
            }
        } else {
            record(.reloaded, "reopened the database: " + (wasWaiting ? "a file is at its path again" : "the file was replaced"))
        }
        firing.fireDue(missedBefore: nil)
        planning.plan()
        context.releaseMemory()
    }

    /// The database files changed; only other processes' commits matter.
    func databaseMayHaveChanged() {
        dispatchPrecondition(condition: .onQueue(environment.queue))
        guard (try? store.changedElsewhere()) == true else { return }
        environment.changed()
        hooks.runChangeHooks()
        withdrawals.withdrawAnswered()
        var plannedAll = false
        do { plannedAll = try store.planAllIfRulesChanged() } catch {
            record(.failed, "could not plan the schedule again: \(error)", priority: .error)
        }
        firing.fireDue(missedBefore: nil)
        planning.plan()
        if plannedAll { context.releaseMemory() }
    }

    /// Waits (up to a second) for notifications being shown to be answered, so that their ids
    /// are recorded, then calls `done`. Unanswered ones stay queued and are shown after a restart.
    func stop(_ done: @escaping () -> Void) {
        dispatchPrecondition(condition: .onQueue(environment.queue))
        // A few milliseconds early rather than after the next start.
        firing.showFiredAhead()
        record(.stopped, "stopping")
        guard !planning.inFlight.isEmpty else { return done() }
        let deadline = context.now.addingTimeInterval(1)
        let poll = DispatchSource.makeTimerSource(queue: environment.queue)
        poll.schedule(deadline: .now(), repeating: .milliseconds(20))
        poll.setEventHandler { [unowned self] in
            if planning.inFlight.isEmpty || context.now >= deadline { done() }
        }
        poll.resume()
        stopPoll = poll
    }

    // MARK: - The server's signals

    func serverChanged(to newOwner: String?) {
        dispatchPrecondition(condition: .onQueue(environment.queue))
        delivery.serverChanged(to: newOwner)
    }

    func actionInvoked(id: UInt32, key: String, sender: String) {
        dispatchPrecondition(condition: .onQueue(environment.queue))
        actions.actionInvoked(id: id, key: key, sender: sender)
    }

    func closed(id: UInt32, reason: CloseReason, sender: String) {
        dispatchPrecondition(condition: .onQueue(environment.queue))
        actions.closed(id: id, reason: reason, sender: sender)
    }

    // MARK: - Hooks

    /// A hook ended: its outcome goes to the journal; nothing else depends on it.
    func hookEnded(_ job: HookJob, _ outcome: HookOutcome) {
        dispatchPrecondition(condition: .onQueue(environment.queue))
        hooks.hookEnded(job, outcome)
    }

    /// Too many hooks waiting: the newest are not run.
    func hooksOverflowed(_ waiting: Int) {
        hooks.hooksOverflowed(waiting)
    }

    // MARK: - Sync

    /// A pass with the vdir ran: what it imported is planned (the store replanned those
    /// todos), what came due is fired, and a notification still on screen for a todo that was
    /// completed or deleted on another machine is withdrawn (CloseNotification).
    func syncPassed(_ report: SyncReport) {
        dispatchPrecondition(condition: .onQueue(environment.queue))
        for conflict in report.conflicted {
            // Under the todo's own id and UUID, so that `nudge history ID` shows it.
            let id = (try? store.todoIDs(uuids: [conflict.uuid]))?.first
            context.record(.conflict, conflict.message, todo: id, uuid: conflict.uuid, priority: .notice)
        }
        if !report.finishedElsewhere.isEmpty || report.deletedTodos > 0 { withdrawals.withdrawFinished(report) }
        // Rescheduled or snoozed there.
        if !report.changedNothing { withdrawals.withdrawAnswered(elsewhere: "on another machine") }
        if !report.changedNothing { hooks.runChangeHooks(finishedElsewhere: report.finishedElsewhere) }
        guard !starting, !report.changedNothing || !report.acknowledgedElsewhere.isEmpty else { return }
        firing.fireDue(missedBefore: nil)
        planning.plan()
    }
}
