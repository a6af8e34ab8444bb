import Foundation
import NudgeStore

/// Records the reminders that came due as fired, shows their notifications, then writes their
/// journal lines and runs their hooks.
struct Firing {
    let context: ServiceContext
    let planning: PlanningState
    let ahead: FireAhead
    let delivery: NotificationDelivery
    let hooks: ServiceHooks

    /// Fires what is due now; `missedBefore`: reminders due before it came while the service
    /// was not running, and are handled by the catch-up policy.
    func fireDue(missedBefore: Date?) {
        if let fired = ahead.fired, !ahead.isAhead(of: fired.moment) { showFiredAhead() }
        if let (due, batch) = fire(at: context.now, missedBefore: missedBefore) {
            announce(due, batch, missedBefore: missedBefore)
        }
        fireAheadWhenDueSoon()
    }

    /// Records the reminders due by `moment` as fired at it and queues their notifications.
    private func fire(at moment: Date, missedBefore: Date?) -> ([ScheduledReminder], Batcher.Plan)? {
        if let fireRetryAt = planning.fireRetryAt, moment < fireRetryAt { return nil }
        let store = context.store
        var due: [ScheduledReminder] = []
        do {
            due = try store.dueReminders(through: moment)
            // Taken at every firing, with nothing due too: a todo released long before its
            // reminder then reminds as any other.
            let held = try store.heldTodoIDs()
            guard !due.isEmpty else {
                planning.heldBlocked = held
                return nil
            }
            let released = planning.heldBlocked?.subtracting(held) ?? []
            let config = context.config
            let batch = Batcher(groupAbove: config.groupAbove, catchUp: config.catchUp)
                .plan(due, now: moment, missedBefore: missedBefore, released: released)
            try store.fire(due, queueing: batch.deliveries, at: moment)
            planning.fireRetryAt = nil
            planning.heldBlocked = held
            return (due, batch)
        } catch {
            let delay = ReminderService.retryDelay
            planning.fireRetryAt = moment.addingTimeInterval(delay)
            // Named when every reminder it could not fire is one todo's, for journalctl NUDGE_TODO_ID=.
            let todos = Set(due.map(\.todoID))
            context.record(.failed, "could not fire reminders: \(error); trying again in \(Int(delay)) s",
                           todo: todos.count == 1 ? todos.first ?? nil : nil, priority: .error)
            delivery.deliverPending()
            return nil
        }
    }

    /// Fires the next reminders now when they are due within `fireAhead`, and writes their
    /// notifications. They wait for the moment they are due, when the timer wakes the service
    /// again.
    private func fireAheadWhenDueSoon() {
        guard ahead.mayFire, let next = try? context.store.nextReminderTime(), ahead.isAhead(of: next) else { return }
        ahead.keep(FireAhead.Fired(moment: next, fired: fire(at: next, missedBefore: nil)))
        delivery.writeAhead(for: next)
    }

    /// Announces what fired ahead: at its moment, or a few milliseconds early when the service
    /// stops.
    func showFiredAhead() {
        guard let fired = ahead.takeFired() else { return }
        if let (due, batch) = fired.fired { announce(due, batch, missedBefore: nil) }
    }

    /// Shows the fired reminders' notifications, then writes their journal lines and runs
    /// their hooks.
    private func announce(_ due: [ScheduledReminder], _ batch: Batcher.Plan, missedBefore: Date?) {
        let missed = { (reminder: ScheduledReminder) in
            batch.skipped.contains(reminder) || (missedBefore.map { reminder.at < $0 } ?? false)
        }
        let hooked = due.filter { !missed($0) }
        let alone = Set(batch.deliveries.filter { $0.kind == .reminder }.compactMap(\.todoIDs.first))
        hooks.holdForFireHooks(hooked, alone: alone)
        // The notifications leave first; the journal, the sync and the hooks come after them.
        delivery.deliverPending()
        context.environment.changed()
        let todos = (try? context.store.existingTodos(ids: due.compactMap(\.todoID))) ?? []
        let uuids = Dictionary(todos.map { ($0.id, $0.uuid) }, uniquingKeysWith: { first, _ in first })
        for reminder in due {
            let kind: ServiceEvent.Kind = missed(reminder) ? .missed : .fired
            let skipped = batch.skipped.contains(reminder) ? ", too old to show" : ""
            context.record(kind, kind.rawValue + ": \(reminder.title ?? "daily digest") (\(reminder.rule))" + skipped,
                           todo: reminder.todoID, uuid: reminder.todoID.flatMap { uuids[$0] }, rule: reminder.rule)
        }
        hooks.runFireHooks(hooked, alone: alone, todos: todos)
    }
}
