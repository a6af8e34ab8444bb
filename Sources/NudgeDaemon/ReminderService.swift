import Foundation
import NudgeCore
import NudgeRecurrence
import NudgeStore
import NudgeSync
import NudgeSystem

/// The heart of `nudged`: fires what is due, shows it, handles the buttons, and says when it
/// next needs to wake up. It runs on one queue and never waits: the D-Bus calls complete later.
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

    /// Reminders whose firing is recorded ahead of their moment: their notifications, journal
    /// lines and hooks wait for it. `fired` is nil when the firing failed (and was logged).
    private struct FiredAhead {
        let moment: Date
        let fired: (due: [ScheduledReminder], batch: Batcher.Plan)?
    }

    /// The notifications of what fired ahead, written for `server` at `moment`, by delivery id:
    /// shown as they are while the store's revision has not moved.
    private struct WrittenAhead {
        let moment: Date
        let server: String
        let revision: TodoStore.Revision
        let notifications: [Int64: WrittenNotification]
    }

    /// A delivery's notification, ready for its Notify call.
    struct WrittenNotification {
        let content: NotificationContent
        let replacing: UInt32
        /// The todo of a single reminder.
        let todo: Todo?
    }

    /// How long a failed notification waits before it is tried again while a server owns the
    /// name (a server that appears is tried at once).
    static let retryDelay: TimeInterval = 30

    let environment: Environment
    private(set) var config = NudgeConfig()
    /// Opened by start() before any event; nil only inside reopenReplacedDatabase, whose failure
    /// stops the daemon.
    private(set) var store: TodoStore!
    private var databaseID: String?
    /// The unique bus name of the notification server, when there is one.
    private(set) var owner: String?
    /// Whether the current server reads bodies as markup; nil until it has said.
    private var markup: Bool?
    private var askingCapabilities = false
    /// A notification waits for the server's capabilities (not only asked ahead of need).
    private var waitingForCapabilities = false
    private(set) var inFlight: Set<Int64> = []
    private var failureLogged = false
    private var retryAt: Date?
    /// After reminders that could not be recorded as fired (a full disk): the moment to try
    /// again, rather than at once and for ever.
    private var fireRetryAt: Date?
    /// When the timer is armed for (the next reminder, retry or hook hold).
    private var nextWake: Date?
    private var firedAhead: FiredAhead?
    private var writtenAhead: WrittenAhead?
    private var lastPlanned: String?
    private var stopPoll: DispatchSourceTimer?
    /// Until start() has fired what was missed: a sync pass then only imports.
    private var starting = false
    /// How far the on_add, on_done and on_snooze hooks have looked; nil without those hooks.
    var changeMarks: ChangeMarks?
    /// Reminders whose notification waits for their on_fire hook's answer (`suppress_wait`),
    /// by todo id: until when at most.
    var heldForHook: [Int64: Date] = [:]
    /// Todos whose on_fire hook said `suppress` while their notification was on its way.
    var suppressOnArrival: Set<Int64> = []
    /// What the server showed before this start, to show again in place once its
    /// capabilities are known (ReminderService+Reclaim.swift).
    var toReclaim: [Delivery] = []

    init(_ environment: Environment) {
        self.environment = environment
        environment.server.onActionInvoked = { [unowned self] id, key, sender in actionInvoked(id: id, key: key, sender: sender) }
        environment.server.onClosed = { [unowned self] id, reason, sender in closed(id: id, reason: reason, sender: sender) }
        environment.server.onServerChanged = { [unowned self] newOwner in serverChanged(to: newOwner) }
    }

    var now: Date { environment.now() }

    /// How notifications and journal lines write dates, and how snooze choices are read.
    var dateStyle: DateStyle { environment.localeStyle.overridden(by: config.display) }

    /// `uuid`: the todo's, when the caller has it at hand; otherwise it is read from the store.
    func record(_ kind: ServiceEvent.Kind, _ message: String, todo: Int64? = nil, uuid known: String? = nil,
                rule: String? = nil, priority: JournalPriority = .info, fields: [(JournalField, String)] = []) {
        let uuid = known ?? todo.flatMap { id in (try? store?.existingTodos(ids: [id]))?.first?.uuid }
        environment.events.record(ServiceEvent(kind: kind, message: message, todoID: todo, todoUUID: uuid,
                                               databaseID: databaseID, rule: rule, priority: priority, fields: fields))
    }

    // MARK: - Life cycle

    /// Loads the config and the store, handles what came due while the service was not running
    /// (by the catch-up policy), and plans. Throws when the config or the store is unusable.
    func start() throws {
        dispatchPrecondition(condition: .onQueue(environment.queue))
        let started = now
        try load()
        owner = environment.server.serverOwner()
        record(.started, "started; notification server: \(owner ?? "none yet")")
        if let owner {
            try store.closeDeliveries(notShownBy: owner)
            // Answered while the service was not running: withdrawn, not shown again.
            withdrawAnswered()
            toReclaim = try store.shownReminders(server: owner)
            askCapabilities(of: owner)
        }
        starting = true
        environment.opened()
        starting = false
        fireDue(missedBefore: started)
        deliverPending()
        plan()
        releaseMemory()
    }

    private func load() throws {
        let config = try environment.loadConfig()
        let planner = ReminderPlanner(config: config, zone: environment.zone())
        store = try environment.openStore(planner, now)
        store.deferCheckpoints()
        databaseID = try store.databaseID()
        self.config = config
        _ = try? store.changedElsewhere()
        changeMarks = watchesChanges ? try? store.changeMarks() : nil
    }

    /// Reads the config again (a changed file, SIGHUP, a new time zone). A broken file is
    /// reported and the old rules stay.
    func reload(_ why: String) {
        dispatchPrecondition(condition: .onQueue(environment.queue))
        do {
            try load()
            record(.reloaded, "reloaded (\(why))")
        } catch {
            record(.failed, "not reloaded (\(why)): \(error)", priority: .error)
        }
        fireDue(missedBefore: nil)
        plan()
        releaseMemory()
    }

    /// After work that may have read every todo (opening the store, planning them all): what it
    /// left in SQLite's cache and the heap would otherwise stay while the service sleeps.
    private func releaseMemory() {
        store.releaseMemory()
        environment.trimHeap()
    }

    /// The timer fired, or something changed: fire what is due now and plan again.
    func wake() {
        dispatchPrecondition(condition: .onQueue(environment.queue))
        if let retryAt, retryAt <= now {
            self.retryAt = nil
            deliverPending()
        }
        releaseHolds(through: now)
        fireDue(missedBefore: nil)
        plan()
    }

    /// The file at the database's path is not the one open (moved or restored over it, or
    /// deleted): lets go of the old one and opens what is there now. Throws when that cannot
    /// be opened; the service has no store then.
    func reopenReplacedDatabase() throws {
        dispatchPrecondition(condition: .onQueue(environment.queue))
        let wasWaiting = store.access.isReadOnly
        do { try store.releaseReplacedFile() } catch {
            record(.failed, "could not release the replaced database file: \(error)", priority: .warning)
        }
        store = nil
        do {
            try load()
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
        fireDue(missedBefore: nil)
        plan()
        releaseMemory()
    }

    /// The database files changed; only other processes' commits matter.
    func databaseMayHaveChanged() {
        dispatchPrecondition(condition: .onQueue(environment.queue))
        guard (try? store.changedElsewhere()) == true else { return }
        environment.changed()
        runChangeHooks()
        withdrawAnswered()
        var plannedAll = false
        do { plannedAll = try store.planAllIfRulesChanged() } catch {
            record(.failed, "could not plan the schedule again: \(error)", priority: .error)
        }
        fireDue(missedBefore: nil)
        plan()
        if plannedAll { releaseMemory() }
    }

    /// Waits (up to a second) for notifications being shown to be answered, so that their ids
    /// are recorded, then calls `done`. Unanswered ones stay queued and are shown after a restart.
    func stop(_ done: @escaping () -> Void) {
        dispatchPrecondition(condition: .onQueue(environment.queue))
        // A few milliseconds early rather than after the next start.
        showFiredAhead()
        record(.stopped, "stopping")
        guard !inFlight.isEmpty else { return done() }
        let deadline = now.addingTimeInterval(1)
        let poll = DispatchSource.makeTimerSource(queue: environment.queue)
        poll.schedule(deadline: .now(), repeating: .milliseconds(20))
        poll.setEventHandler { [unowned self] in
            if inFlight.isEmpty || now >= deadline { done() }
        }
        poll.resume()
        stopPoll = poll
    }

    // MARK: - Firing

    private func fireDue(missedBefore: Date?) {
        if let firedAhead, !isAhead(of: firedAhead.moment) { showFiredAhead() }
        if let (due, batch) = fire(at: now, missedBefore: missedBefore) {
            announce(due, batch, missedBefore: missedBefore)
        }
        fireAheadWhenDueSoon()
    }

    /// Records the reminders due by `moment` as fired at it and queues their notifications.
    private func fire(at moment: Date, missedBefore: Date?) -> ([ScheduledReminder], Batcher.Plan)? {
        if let fireRetryAt, moment < fireRetryAt { return nil }
        do {
            let due = try store.dueReminders(through: moment)
            guard !due.isEmpty else { return nil }
            let batch = Batcher(groupAbove: config.groupAbove, catchUp: config.catchUp)
                .plan(due, now: moment, missedBefore: missedBefore)
            try store.fire(due, queueing: batch.deliveries, at: moment)
            fireRetryAt = nil
            return (due, batch)
        } catch {
            fireRetryAt = moment.addingTimeInterval(Self.retryDelay)
            record(.failed, "could not fire reminders: \(error); trying again in \(Int(Self.retryDelay)) s", priority: .error)
            deliverPending()
            return nil
        }
    }

    /// Fires the next reminders now when they are due within `fireAhead`, so that recording
    /// them does not hold up their first Notify call. Their notifications wait for the moment
    /// they are due, when the timer wakes the service again.
    private func fireAheadWhenDueSoon() {
        guard environment.fireAhead > 0, firedAhead == nil,
              let next = try? store.nextReminderTime(), isAhead(of: next) else { return }
        firedAhead = FiredAhead(moment: next, fired: fire(at: next, missedBefore: nil))
        writeFiredAhead()
    }

    /// Reads and writes the notifications that fired ahead, so that at their moment only the
    /// Notify calls remain.
    private func writeFiredAhead() {
        guard let moment = firedAhead?.moment, let owner else { return }
        do {
            var notifications: [Int64: WrittenNotification] = [:]
            for delivery in try store.pendingDeliveries() where !inFlight.contains(delivery.id) && !isHeld(delivery) {
                guard let written = try write(delivery, server: owner, at: moment) else { continue }
                notifications[delivery.id] = written
            }
            writtenAhead = WrittenAhead(moment: moment, server: owner, revision: try store.revision(),
                                        notifications: notifications)
        } catch {
            // Read again when they are due, where a failure is reported.
        }
    }

    /// The notifications written ahead, when nothing they were read from has changed since and
    /// it is their moment (a clock set back shows them at once, written again).
    private func takeWrittenAhead(server: String) -> [Int64: WrittenNotification] {
        guard let written = writtenAhead else { return [:] }
        writtenAhead = nil
        guard written.server == server, abs(now.timeIntervalSince(written.moment)) < 1,
              (try? store.revision()) == written.revision else { return [:] }
        return written.notifications
    }

    private func showFiredAhead() {
        guard let firedAhead else { return }
        self.firedAhead = nil
        if let (due, batch) = firedAhead.fired { announce(due, batch, missedBefore: nil) }
    }

    /// Whether `moment` is still to come, and no further than `fireAhead` (and the timer's
    /// leeway): a clock set back further than that shows what fired ahead at once.
    private func isAhead(of moment: Date) -> Bool {
        let wait = moment.timeIntervalSince(now)
        return wait > 0 && wait <= environment.fireAhead + 0.001
    }

    /// Shows the fired reminders' notifications, then writes their journal lines and runs
    /// their hooks.
    private func announce(_ due: [ScheduledReminder], _ batch: Batcher.Plan, missedBefore: Date?) {
        let missed = { (reminder: ScheduledReminder) in
            batch.skipped.contains(reminder) || (missedBefore.map { reminder.at < $0 } ?? false)
        }
        let hooked = due.filter { !missed($0) }
        let alone = Set(batch.deliveries.filter { $0.kind == .reminder }.compactMap(\.todoIDs.first))
        holdForFireHooks(hooked, alone: alone)
        // The notifications leave first; the journal, the sync and the hooks come after them.
        deliverPending()
        environment.changed()
        let todos = (try? store.existingTodos(ids: due.compactMap(\.todoID))) ?? []
        let uuids = Dictionary(todos.map { ($0.id, $0.uuid) }, uniquingKeysWith: { first, _ in first })
        for reminder in due {
            let kind: ServiceEvent.Kind = missed(reminder) ? .missed : .fired
            let skipped = batch.skipped.contains(reminder) ? ", too old to show" : ""
            record(kind, kind.rawValue + ": \(reminder.title ?? "daily digest") (\(reminder.rule))" + skipped,
                   todo: reminder.todoID, uuid: reminder.todoID.flatMap { uuids[$0] }, rule: reminder.rule)
        }
        runFireHooks(hooked, alone: alone, todos: todos)
    }

    /// Shows every queued notification the server has not got yet.
    func deliverPending() {
        dispatchPrecondition(condition: .onQueue(environment.queue))
        if let firedAhead, isAhead(of: firedAhead.moment) { return }
        let pending: [Delivery]
        do { pending = try store.pendingDeliveries().filter { !inFlight.contains($0.id) && !isHeld($0) } } catch {
            record(.failed, "could not read the outbox: \(error)", priority: .error)
            return
        }
        guard !pending.isEmpty || !toReclaim.isEmpty else { return }
        guard let owner else {
            reportFailureOnce("no notification server owns org.freedesktop.Notifications; reminders wait for one")
            return
        }
        guard let markup else {
            waitingForCapabilities = true
            askCapabilities(of: owner)
            return
        }
        reclaimShown(server: owner, markup: markup)
        let written = takeWrittenAhead(server: owner)
        for delivery in pending {
            show(delivery, server: owner, markup: markup, written: written[delivery.id])
        }
    }

    /// Asked as soon as a server is known, so that the first reminder does not wait for this
    /// round trip; a failure matters only when a notification waits for the answer.
    private func askCapabilities(of server: String) {
        guard !askingCapabilities else { return }
        askingCapabilities = true
        environment.server.capabilities { [unowned self] result in
            askingCapabilities = false
            guard owner == server else { return }
            let needed = waitingForCapabilities
            waitingForCapabilities = false
            switch result {
            case .success(let capabilities):
                markup = capabilities.contains("body-markup")
                if needed { deliverPending() }
            case .failure(let error):
                guard needed else { return }
                reportFailureOnce("the notification server did not answer: \(error)")
                retryLater()
            }
        }
    }

    /// The notification for `delivery` as of `moment`; nil when a todo completed or deleted
    /// after its reminder fired needs none.
    func write(_ delivery: Delivery, server: String, at moment: Date) throws -> WrittenNotification? {
        let todos = try self.todos(for: delivery, at: moment)
        if delivery.kind == .reminder, todos.first.map({ $0.isCompleted }) ?? true { return nil }
        var writer = NotificationWriter(now: moment, zone: environment.zone(), config: config, style: dateStyle, home: environment.home)
        if delivery.kind == .digest, config.quote != .off {
            writer.quote = environment.quote(config.quote, moment, environment.zone())
        }
        let replacing = delivery.kind == .reminder
            ? ((try? store.shownNotificationID(todoID: delivery.todoIDs[0], server: server)) ?? nil) ?? 0 : 0
        return WrittenNotification(content: writer.content(for: delivery, todos: todos), replacing: replacing,
                                   todo: delivery.kind == .reminder ? todos.first : nil)
    }

    private func show(_ delivery: Delivery, server: String, markup: Bool, written: WrittenNotification?) {
        let notification: WrittenNotification
        do {
            guard let ready = try written ?? write(delivery, server: server, at: now) else {
                try? store.markClosed(delivery.id)
                return
            }
            notification = ready
        } catch {
            record(.failed, "could not read todos for a notification: \(error)", priority: .error)
            return
        }
        let (content, replacing, todo) = (notification.content, notification.replacing, notification.todo)
        inFlight.insert(delivery.id)
        let late = { [unowned self] (id: UInt32) in
            shownLate(delivery, server: server, notificationID: id, replacing: replacing, summary: content.summary, todo: todo)
        }
        environment.server.show(content, replacing: replacing, markup: markup, late: late) { [unowned self] result in
            // From the moment it was due to the server's answer: the fire latency.
            let answered = now
            inFlight.remove(delivery.id)
            switch result {
            case .success(let id):
                failureLogged = false
                do {
                    try store.markShown(delivery.id, server: server, notificationID: id, at: answered)
                    environment.changed()
                } catch {
                    record(.failed, "could not record a shown notification: \(error)", priority: .error)
                }
                if let todo, suppressOnArrival.remove(todo.id) != nil {
                    withdrawSuppressed(todoID: todo.id, notificationID: id, deliveryID: delivery.id)
                }
                let latency = max(0, answered.timeIntervalSince(delivery.dueAt)) * 1000
                record(.delivered, "delivered: \(content.summary) (notification \(id))",
                       todo: todo?.id, uuid: todo?.uuid, rule: delivery.rule,
                       fields: [(.notificationID, String(id)), (.latency, JournalField.decimal(latency, digits: 1))])
            case .failure(let error):
                reportFailureOnce("could not show \"\(content.summary)\": \(error)", todo: delivery.todoIDs.first, rule: delivery.rule)
                retryLater()
            }
            checkpointWhenQuiet()
        }
    }

    /// The server answered after the call had failed for want of an answer (it hung, then
    /// woke): the notification is on screen after all. It is taken as shown; if it was sent
    /// again meanwhile, or is no longer owed, this copy is closed instead of staying twice.
    private func shownLate(_ delivery: Delivery, server: String, notificationID id: UInt32, replacing: UInt32,
                           summary: String, todo: Todo?) {
        guard owner == server else { return }
        do {
            guard let current = try store.delivery(id: delivery.id) else { return }
            if current.state == .pending, !inFlight.contains(delivery.id) {
                try store.markShown(delivery.id, server: server, notificationID: id, at: now)
                environment.changed()
                let latency = max(0, now.timeIntervalSince(delivery.dueAt)) * 1000
                record(.delivered, "delivered late: \(summary) (notification \(id))", todo: todo?.id, uuid: todo?.uuid,
                       rule: delivery.rule, fields: [(.notificationID, String(id)), (.latency, JournalField.decimal(latency, digits: 1))])
            } else if id != replacing, current.notificationID != id {
                // A copy sent again in place of the same one (replaces_id) is that one.
                environment.server.close(id: id)
            }
        } catch {
            record(.failed, "could not record a late answer of the notification server: \(error)", priority: .error)
        }
    }

    private func todos(for delivery: Delivery, at moment: Date) throws -> [Todo] {
        if delivery.kind == .digest {
            let clock = WallClock(zone: environment.zone())
            let today = clock.day(of: moment)
            let endOfToday = today.adding(days: 1).start(in: .nudge(zone: environment.zone()))
            return try store.pendingTodos(dueBy: today, endingAt: endOfToday)
        }
        return try store.existingTodos(ids: delivery.todoIDs)
    }

    /// A failure is logged once until something is delivered again.
    private func reportFailureOnce(_ message: String, todo: Int64? = nil, rule: String? = nil) {
        guard !failureLogged else { return }
        failureLogged = true
        record(.failed, message, todo: todo, rule: rule, priority: .warning)
    }

    private func retryLater() {
        guard owner != nil else { return }
        let at = now.addingTimeInterval(Self.retryDelay)
        if retryAt.map({ $0 > at }) ?? true { retryAt = at }
        plan()
    }

    // MARK: - The server's signals

    func serverChanged(to newOwner: String?) {
        dispatchPrecondition(condition: .onQueue(environment.queue))
        guard newOwner != owner else { return }
        owner = newOwner
        markup = nil
        askingCapabilities = false
        waitingForCapabilities = false
        inFlight.removeAll()
        toReclaim = []
        // Ids from a server that went away mean nothing to the next one.
        try? store.closeDeliveries(notShownBy: newOwner)
        if let newOwner {
            failureLogged = false
            askCapabilities(of: newOwner)
            deliverPending()
        }
    }

    func actionInvoked(id: UInt32, key: String, sender: String) {
        dispatchPrecondition(condition: .onQueue(environment.queue))
        guard sender == owner, let delivery = try? store.delivery(server: sender, notificationID: id),
              delivery.kind == .reminder, let todoID = delivery.todoIDs.first else { return }
        record(.action, "action \(key) on notification \(id)", todo: todoID, rule: delivery.rule)
        do {
            if key == NotificationWriter.doneKey {
                let moment = now
                let (_, after) = try store.setCompleted(ids: [todoID], done: true, now: moment) { $0.nextOccurrence(completedAt: moment, localZone: environment.zone()) }
                let todo = after[0]
                let next = todo.isCompleted ? "" : todo.due.map { "; next due " + DueText(now: moment, zone: environment.zone(), style: dateStyle).relative($0) } ?? ""
                record(.completed, "completed: \(todo.title)" + next, todo: todoID)
                // A resident notification stays after the click; its todo is done (or moved
                // on to the next occurrence, which a second Done must not complete), so it goes.
                if config.alerts(priority: todo.priority, category: todo.category?.name).resident {
                    try store.markClosed(delivery.id)
                    environment.server.close(id: id)
                }
            } else if key.hasPrefix(NotificationWriter.snoozePrefix),
                      let index = Int(key.dropFirst(NotificationWriter.snoozePrefix.count)),
                      config.snooze.choices.indices.contains(index) {
                let until = snoozeEnd(config.snooze.choices[index])
                let todo = try store.snooze(todoID: todoID, until: until, now: now)
                record(.snoozed, "snoozed: \(todo.title) until \(WallClock(zone: environment.zone()).iso8601(until))", todo: todoID, rule: "snooze")
            }
        } catch {
            record(.failed, "could not handle \(key) on todo \(todoID): \(error)", todo: todoID, priority: .error)
        }
        environment.changed()
        runChangeHooks()
        plan()
    }

    /// The end of the snooze `choice`; when it has passed since its button was offered
    /// ("tonight" pressed after 20:00), the `[snooze] default`, else 10 minutes.
    private func snoozeEnd(_ choice: SnoozeChoice) -> Date {
        let moment = now
        let ends = SnoozeEnd(now: moment, zone: environment.zone(), style: dateStyle, allDayTime: config.reminders.allDayTime)
        return ends.end(of: choice) ?? ends.end(of: config.snooze.defaultChoice) ?? moment.addingTimeInterval(600)
    }

    /// Dismissed, expired or closed: either way the notification is gone, and the todo's next
    /// reminder comes as a new one. Dismissing is not completing: nagging goes on.
    func closed(id: UInt32, reason: UInt32, sender: String) {
        dispatchPrecondition(condition: .onQueue(environment.queue))
        guard sender == owner, let delivery = try? store.delivery(server: sender, notificationID: id) else { return }
        try? store.markClosed(delivery.id)
        let how = [1: "expired", 2: "dismissed", 3: "closed"][reason] ?? "closed"
        record(.closed, "notification \(id) \(how)", todo: delivery.kind == .reminder ? delivery.todoIDs.first : nil, rule: delivery.rule)
        environment.changed()
    }

    // MARK: - Sync

    /// A pass with the vdir ran: what it imported is planned (the store replanned those
    /// todos), what came due is fired, and a notification still on screen for a todo that was
    /// completed or deleted on another machine is withdrawn (CloseNotification).
    func syncPassed(_ report: SyncReport) {
        dispatchPrecondition(condition: .onQueue(environment.queue))
        for conflict in report.conflicted { recordConflict(conflict) }
        if !report.finishedElsewhere.isEmpty || report.deletedTodos > 0 { withdrawFinished(report) }
        // Rescheduled or snoozed there.
        if !report.changedNothing { withdrawAnswered(elsewhere: "on another machine") }
        if !report.changedNothing { runChangeHooks(finishedElsewhere: report.finishedElsewhere) }
        guard !starting, !report.changedNothing || !report.acknowledgedElsewhere.isEmpty else { return }
        fireDue(missedBefore: nil)
        plan()
    }

    /// Under the todo's own id and UUID, so that `nudge history ID` shows it.
    private func recordConflict(_ conflict: SyncConflict) {
        let id = (try? store?.todoIDs(uuids: [conflict.uuid]))?.first
        record(.conflict, conflict.message, todo: id, uuid: conflict.uuid, priority: .notice)
    }

    private func withdrawFinished(_ report: SyncReport) {
        guard let owner else { return }
        do {
            let shown = try store.shownReminders(server: owner)
            guard !shown.isEmpty else { return }
            let todos = try store.existingTodos(ids: shown.compactMap(\.todoIDs.first))
            // Completed or deleted there; a repeating todo done there has moved on to its next
            // occurrence, and this notification is of the one before.
            let finished = Set(report.finishedElsewhere)
            let open = Set(todos.filter { !$0.isCompleted && !finished.contains($0.uuid) }.map(\.id))
            for delivery in shown {
                guard let todoID = delivery.todoIDs.first, !open.contains(todoID), let id = delivery.notificationID else { continue }
                try store.markClosed(delivery.id)
                environment.server.close(id: id)
                let title = todos.first { $0.id == todoID }?.title
                let how = title == nil ? "deleted" : "completed"
                record(.withdrawn, "withdrawn: notification \(id)" + (title.map { " (\($0))" } ?? "") + ", \(how) on another machine",
                       todo: todoID, rule: delivery.rule, fields: [(.notificationID, String(id))])
            }
        } catch {
            record(.failed, "could not withdraw notifications of todos finished elsewhere: \(error)", priority: .error)
        }
    }

    // MARK: - The log's checkpoint

    /// The write-ahead log's pages past which the service checkpoints it, as SQLite would.
    static let checkpointPages = 1_000

    /// SQLite would checkpoint inside the commit that takes the log past 1,000 pages, which can
    /// be a firing's, and so delay its notifications. The service does it once no notification
    /// waits for its answer and nothing is due within a quarter second, or anyway when the log
    /// has grown four times as large.
    private func checkpointWhenQuiet() {
        guard let store else { return }
        let pages = store.logPages
        guard pages >= Self.checkpointPages else { return }
        let busy = !inFlight.isEmpty || (nextWake.map { $0.timeIntervalSince(now) < 0.25 } ?? false)
        guard !busy || pages >= 4 * Self.checkpointPages else { return }
        // Fails only while another process checkpoints: the next quiet moment tries again.
        try? store.checkpointLog()
    }

    // MARK: - Planning

    /// Arms the timer for the next reminder (or the next retry) and says what it is.
    func plan() {
        dispatchPrecondition(condition: .onQueue(environment.queue))
        var next: Date?
        do { next = try store.nextReminderTime() } catch {
            record(.failed, "could not plan: \(error)", priority: .error)
        }
        next = next.map { $0.addingTimeInterval(-environment.fireAhead) }
        if let fireRetryAt, let planned = next { next = max(planned, fireRetryAt) }
        // Whatever comes due meanwhile fires once what fired ahead is shown.
        if let moment = firedAhead?.moment { next = moment }
        if let retryAt { next = next.map { min($0, retryAt) } ?? retryAt }
        if let hold = heldForHook.values.min() { next = next.map { min($0, hold) } ?? hold }
        environment.wake(next)
        nextWake = next
        checkpointWhenQuiet()
        // Until what fired ahead is announced, the store already counts it as fired: the status
        // would say "Nothing to remind" just before its "fired" lines. It is said after them.
        guard firedAhead == nil else { return }
        let upcoming = (try? store.upcoming(from: .distantPast, through: .distantFuture, limit: 1))?.first
        let status: String
        if let upcoming {
            let when = DueText(now: now, zone: environment.zone(), style: dateStyle).relative(.at(upcoming.at, zone: environment.zone()))
            status = "Next: \(upcoming.title ?? "daily digest") (\(upcoming.rule)) at \(when)"
        } else {
            status = "Nothing to remind"
        }
        environment.status(status)
        if status != lastPlanned {
            lastPlanned = status
            record(.planned, status, todo: upcoming?.todoID, rule: upcoming?.rule)
        }
    }
}
