import NudgeStore
import NudgeSync

/// A todo answered by another process (`nudge done`, `nudge snooze`, `nudge delete`, an
/// import) while its notification is on screen: the notification goes, as it does when its
/// own button is pressed. A high-priority one stays until answered (`timeout = never`), so
/// it would otherwise stay for good, offering buttons for a todo already done. So does one
/// whose todo was rescheduled (`nudge postpone`, `edit --due`): it tells of a due that is no
/// longer the todo's, and the new due reminds by its own rules. A sync pass brings the same
/// news from another machine.
struct Withdrawals {
    let context: ServiceContext
    let delivery: NotificationDelivery

    /// Withdraws (CloseNotification) what this server shows of todos completed, deleted,
    /// rescheduled or snoozed since. A resident notification stays after a snooze, as after its
    /// Snooze button. `elsewhere` says where, in the journal.
    func withdrawAnswered(elsewhere: String = "by another program") {
        guard let owner = delivery.owner else { return }
        let store = context.store
        do {
            let finished = try store.finishedReminders(server: owner)
            let rescheduled = try store.rescheduledReminders(server: owner)
            let snoozed = try store.snoozedReminders(server: owner, now: context.now).filter { !rescheduled.contains($0) }
            guard !finished.isEmpty || !rescheduled.isEmpty || !snoozed.isEmpty else { return }
            let todos = try store.existingTodos(ids: (finished + rescheduled + snoozed).compactMap(\.todoIDs.first))
            for delivery in finished + rescheduled + snoozed {
                guard let todoID = delivery.todoIDs.first, let id = delivery.notificationID else { continue }
                let todo = todos.first { $0.id == todoID }
                let wasSnoozed = snoozed.contains(delivery)
                if wasSnoozed, let todo, context.config.alerts(for: todo).resident {
                    continue
                }
                try store.markClosed(delivery.id)
                context.environment.server.close(id: id)
                let how = todo == nil ? "deleted" : wasSnoozed ? "snoozed" : rescheduled.contains(delivery) ? "rescheduled" : "completed"
                context.record(.withdrawn, "withdrawn: notification \(id)" + (todo.map { " (\($0.title))" } ?? "") + ", \(how) \(elsewhere)",
                               todo: todoID, rule: delivery.rule, fields: [(.notificationID, String(id))])
            }
        } catch {
            context.record(.failed, "could not withdraw notifications of todos answered elsewhere: \(error)", priority: .error)
        }
    }

    /// What this server shows of todos a sync pass found completed or deleted on another
    /// machine.
    func withdrawFinished(_ report: SyncReport) {
        guard let owner = delivery.owner else { return }
        let store = context.store
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
                context.environment.server.close(id: id)
                let title = todos.first { $0.id == todoID }?.title
                let how = title == nil ? "deleted" : "completed"
                context.record(.withdrawn, "withdrawn: notification \(id)" + (title.map { " (\($0))" } ?? "") + ", \(how) on another machine",
                               todo: todoID, rule: delivery.rule, fields: [(.notificationID, String(id))])
            }
        } catch {
            context.record(.failed, "could not withdraw notifications of todos finished elsewhere: \(error)", priority: .error)
        }
    }
}
