import NudgeStore

/// A todo answered by another process (`nudge done`, `nudge snooze`, `nudge delete`, an
/// import) while its notification is on screen: the notification goes, as it does when its
/// own button is pressed. A high-priority one stays until answered (`timeout = never`), so
/// it would otherwise stay for good, offering buttons for a todo already done. So does one
/// whose todo was rescheduled (`nudge postpone`, `edit --due`): it tells of a due that is no
/// longer the todo's, and the new due reminds by its own rules.
extension ReminderService {
    /// Withdraws (CloseNotification) what this server shows of todos completed, deleted,
    /// rescheduled or snoozed since. A resident notification stays after a snooze, as after its
    /// Snooze button. `elsewhere` says where, in the journal.
    func withdrawAnswered(elsewhere: String = "by another program") {
        guard let owner else { return }
        do {
            let finished = try store.finishedReminders(server: owner)
            let rescheduled = try store.rescheduledReminders(server: owner)
            let snoozed = try store.snoozedReminders(server: owner, now: now).filter { !rescheduled.contains($0) }
            guard !finished.isEmpty || !rescheduled.isEmpty || !snoozed.isEmpty else { return }
            let todos = try store.existingTodos(ids: (finished + rescheduled + snoozed).compactMap(\.todoIDs.first))
            for delivery in finished + rescheduled + snoozed {
                guard let todoID = delivery.todoIDs.first, let id = delivery.notificationID else { continue }
                let todo = todos.first { $0.id == todoID }
                let wasSnoozed = snoozed.contains(delivery)
                if wasSnoozed, let todo, config.alerts(priority: todo.priority, category: todo.category?.name).resident {
                    continue
                }
                try store.markClosed(delivery.id)
                environment.server.close(id: id)
                let how = todo == nil ? "deleted" : wasSnoozed ? "snoozed" : rescheduled.contains(delivery) ? "rescheduled" : "completed"
                record(.withdrawn, "withdrawn: notification \(id)" + (todo.map { " (\($0.title))" } ?? "") + ", \(how) \(elsewhere)",
                       todo: todoID, rule: delivery.rule, fields: [(.notificationID, String(id))])
            }
        } catch {
            record(.failed, "could not withdraw notifications of todos answered elsewhere: \(error)", priority: .error)
        }
    }
}
