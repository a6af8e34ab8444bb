import NudgeStore

/// An `on_fire` hook's `suppress`: the reminder's notification is stopped wherever it is.
extension NotificationDelivery {
    /// Not shown yet, it never is; on its way, it is closed as it arrives; on screen, it is
    /// withdrawn.
    func suppress(todoID: Int64, title: String) {
        let store = context.store
        do {
            if let pending = try store.pendingDeliveries().first(where: { $0.kind == .reminder && $0.todoIDs.first == todoID }) {
                if planning.inFlight.contains(pending.id) {
                    suppressOnArrival.insert(todoID)
                } else {
                    try store.markClosed(pending.id)
                    context.record(.suppressed, "suppressed by the on_fire hook: \(title)", todo: todoID, rule: pending.rule)
                }
                return
            }
            guard let owner else { return }
            if let shown = try store.shownReminders(server: owner).first(where: { $0.todoIDs.first == todoID }),
               let id = shown.notificationID {
                withdrawSuppressed(todoID: todoID, notificationID: id, deliveryID: shown.id)
            }
        } catch {
            context.record(.failed, "could not suppress the notification of todo \(todoID): \(error)", todo: todoID, priority: .error)
        }
    }

    func withdrawSuppressed(todoID: Int64, notificationID: UInt32, deliveryID: Int64) {
        try? context.store.markClosed(deliveryID)
        context.environment.server.close(id: notificationID)
        context.record(.suppressed, "withdrawn by the on_fire hook: notification \(notificationID)", todo: todoID,
                       fields: [(.notificationID, String(notificationID))])
    }
}
