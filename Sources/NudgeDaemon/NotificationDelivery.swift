import Foundation
import NudgeCore
import NudgeStore
import NudgeSystem

/// Shows the queued notifications on the notification server, and records what it answers:
/// the server's capabilities, the ids it gives, its late answers, its failures (retried).
final class NotificationDelivery {
    let context: ServiceContext
    let planning: PlanningState
    private let ahead: FireAhead
    private var server: NotificationServer { context.environment.server }
    /// The unique bus name of the notification server, when there is one.
    private(set) var owner: String?
    /// Whether the current server reads bodies as markup; nil until it has said.
    private var markup: Bool?
    private var askingCapabilities = false
    /// A notification waits for the server's capabilities (not only asked ahead of need).
    private var waitingForCapabilities = false
    private var failureLogged = false
    /// What the server showed before this start, to show again in place once its
    /// capabilities are known (NotificationDelivery+Reclaim.swift).
    var toReclaim: [Delivery] = []
    /// Todos whose on_fire hook said `suppress` while their notification was on its way.
    var suppressOnArrival: Set<Int64> = []

    init(context: ServiceContext, planning: PlanningState, ahead: FireAhead) {
        self.context = context
        self.planning = planning
        self.ahead = ahead
    }

    /// At the start: the server that owns the name now, if any.
    func findServer() -> String? {
        owner = server.serverOwner()
        return owner
    }

    /// What `server` showed before this start is shown again in place, once its capabilities
    /// are known.
    func reclaim(from server: String) throws {
        toReclaim = try context.store.shownReminders(server: server)
        askCapabilities(of: server)
    }

    func serverChanged(to newOwner: String?) {
        guard newOwner != owner else { return }
        owner = newOwner
        markup = nil
        askingCapabilities = false
        waitingForCapabilities = false
        planning.inFlight.removeAll()
        toReclaim = []
        // Ids from a server that went away mean nothing to the next one.
        try? context.store.closeDeliveries(notShownBy: newOwner)
        if let newOwner {
            failureLogged = false
            askCapabilities(of: newOwner)
            deliverPending()
        }
    }

    /// Shows every queued notification the server has not got yet.
    func deliverPending() {
        if ahead.isWaiting { return }
        let pending: [Delivery]
        do {
            pending = try context.store.pendingDeliveries().filter { !planning.inFlight.contains($0.id) && !planning.isHeld($0) }
        } catch {
            context.record(.failed, "could not read the outbox: \(error)", priority: .error)
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
        let written = ahead.takeWritten(server: owner)
        for delivery in pending {
            show(delivery, server: owner, markup: markup, written: written[delivery.id])
        }
    }

    /// Writes the notifications of what fired ahead for `moment`, so that then only the
    /// Notify calls remain.
    func writeAhead(for moment: Date) {
        guard let owner else { return }
        do {
            var notifications: [Int64: WrittenNotification] = [:]
            for delivery in try context.store.pendingDeliveries()
            where !planning.inFlight.contains(delivery.id) && !planning.isHeld(delivery) {
                guard let written = try write(delivery, server: owner, at: moment) else { continue }
                notifications[delivery.id] = written
            }
            ahead.keep(notifications, server: owner, moment: moment, revision: try context.store.revision())
        } catch {
            // Read again when they are due, where a failure is reported.
        }
    }

    /// Asked as soon as a server is known, so that the first reminder does not wait for this
    /// round trip; a failure matters only when a notification waits for the answer.
    private func askCapabilities(of server: String) {
        guard !askingCapabilities else { return }
        askingCapabilities = true
        self.server.capabilities { [unowned self] result in
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
        let environment = context.environment
        let config = context.config
        let todos = try self.todos(for: delivery, at: moment)
        if delivery.kind == .reminder, todos.first.map({ $0.isCompleted }) ?? true { return nil }
        var writer = NotificationWriter(now: moment, zone: environment.zone(), config: config, style: context.dateStyle,
                                        home: environment.home)
        if delivery.kind == .reminder, let todo = todos.first {
            writer.subtaskProgress = try? context.store.subtaskProgress(of: todo)
        }
        if delivery.kind == .digest, config.quote != .off {
            writer.quote = environment.quote(config.quote, moment, environment.zone())
        }
        let replacing = delivery.kind == .reminder
            ? ((try? context.store.shownNotificationID(todoID: delivery.todoIDs[0], server: server)) ?? nil) ?? 0 : 0
        return WrittenNotification(content: writer.content(for: delivery, todos: todos), replacing: replacing,
                                   todo: delivery.kind == .reminder ? todos.first : nil)
    }

    private func show(_ delivery: Delivery, server: String, markup: Bool, written: WrittenNotification?) {
        let store = context.store
        let notification: WrittenNotification
        do {
            guard let ready = try written ?? write(delivery, server: server, at: context.now) else {
                try? store.markClosed(delivery.id)
                return
            }
            notification = ready
        } catch {
            context.record(.failed, "could not read todos for a notification: \(error)", priority: .error)
            return
        }
        let (content, replacing, todo) = (notification.content, notification.replacing, notification.todo)
        planning.inFlight.insert(delivery.id)
        let late = { [unowned self] (id: UInt32) in
            shownLate(delivery, server: server, notificationID: id, replacing: replacing, summary: content.summary, todo: todo)
        }
        self.server.show(content, replacing: replacing, markup: markup, late: late) { [unowned self] result in
            // From the moment it was due to the server's answer: the fire latency.
            let answered = context.now
            planning.inFlight.remove(delivery.id)
            switch result {
            case .success(let id):
                failureLogged = false
                do {
                    try context.store.markShown(delivery.id, server: server, notificationID: id, at: answered)
                    context.environment.changed()
                } catch {
                    context.record(.failed, "could not record a shown notification: \(error)", priority: .error)
                }
                if let todo, suppressOnArrival.remove(todo.id) != nil {
                    withdrawSuppressed(todoID: todo.id, notificationID: id, deliveryID: delivery.id)
                }
                let latency = max(0, answered.timeIntervalSince(delivery.dueAt)) * 1000
                context.record(.delivered, "delivered: \(content.summary) (notification \(id))",
                               todo: todo?.id, uuid: todo?.uuid, rule: delivery.rule,
                               fields: [(.notificationID, String(id)), (.latency, JournalField.decimal(latency, digits: 1))])
            case .failure(let error):
                reportFailureOnce("could not show \"\(content.summary)\": \(error)", todo: delivery.todoIDs.first, rule: delivery.rule)
                retryLater()
            }
            planning.checkpointWhenQuiet()
        }
    }

    /// The server answered after the call had failed for want of an answer (it hung, then
    /// woke): the notification is on screen after all. It is taken as shown; if it was sent
    /// again meanwhile, or is no longer owed, this copy is closed instead of staying twice.
    private func shownLate(_ delivery: Delivery, server: String, notificationID id: UInt32, replacing: UInt32,
                           summary: String, todo: Todo?) {
        guard owner == server else { return }
        let store = context.store
        do {
            guard let current = try store.delivery(id: delivery.id) else { return }
            if current.state == .pending, !planning.inFlight.contains(delivery.id) {
                let now = context.now
                try store.markShown(delivery.id, server: server, notificationID: id, at: now)
                context.environment.changed()
                let latency = max(0, now.timeIntervalSince(delivery.dueAt)) * 1000
                context.record(.delivered, "delivered late: \(summary) (notification \(id))", todo: todo?.id, uuid: todo?.uuid,
                               rule: delivery.rule, fields: [(.notificationID, String(id)), (.latency, JournalField.decimal(latency, digits: 1))])
            } else if id != replacing, current.notificationID != id {
                // A copy sent again in place of the same one (replaces_id) is that one.
                self.server.close(id: id)
            }
        } catch {
            context.record(.failed, "could not record a late answer of the notification server: \(error)", priority: .error)
        }
    }

    private func todos(for delivery: Delivery, at moment: Date) throws -> [Todo] {
        if delivery.kind == .digest {
            let zone = context.environment.zone()
            let today = WallClock(zone: zone).day(of: moment)
            let endOfToday = today.adding(days: 1).start(in: .nudge(zone: zone))
            return try context.store.pendingTodos(dueBy: today, endingAt: endOfToday)
        }
        return try context.store.existingTodos(ids: delivery.todoIDs)
    }

    /// A failure is logged once until something is delivered again.
    private func reportFailureOnce(_ message: String, todo: Int64? = nil, rule: String? = nil) {
        guard !failureLogged else { return }
        failureLogged = true
        context.record(.failed, message, todo: todo, rule: rule, priority: .warning)
    }

    private func retryLater() {
        guard owner != nil else { return }
        let at = context.now.addingTimeInterval(ReminderService.retryDelay)
        if planning.deliveryRetryAt.map({ $0 > at }) ?? true { planning.deliveryRetryAt = at }
        planning.plan()
    }
}

/// A delivery's notification, ready for its Notify call.
struct WrittenNotification {
    let content: NotificationContent
    let replacing: UInt32
    /// The todo of a single reminder.
    let todo: Todo?
}
