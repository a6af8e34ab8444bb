import Foundation
import NudgeCore
import NudgePlatform
import NudgeStore
import NudgeSystem

/// What the person does with a notification: its Done and Snooze buttons, and closing it.
struct ButtonActions {
    let context: ServiceContext
    let planning: PlanningState
    let delivery: NotificationDelivery
    let hooks: ServiceHooks

    func actionInvoked(id: UInt32, key: String, sender: String) {
        let store = context.store
        guard sender == delivery.owner, let shown = try? store.delivery(server: sender, notificationID: id),
              shown.kind == .reminder, let todoID = shown.todoIDs.first else { return }
        context.record(.action, "action \(key) on notification \(id)", todo: todoID, rule: shown.rule)
        let config = context.config
        let zone = context.environment.zone()
        do {
            if key == NotificationWriter.doneKey {
                let moment = context.now
                let (_, after) = try store.setCompleted(ids: [todoID], done: true, now: moment) { todo throws(LibraryLoadError) in
                    try todo.nextOccurrence(completedAt: moment, localZone: zone)
                }
                let todo = after[0]
                let next = todo.isCompleted ? "" : todo.due.map { "; next due " + DueText(now: moment, zone: zone, style: context.dateStyle).relative($0) } ?? ""
                context.record(.completed, "completed: \(todo.title)" + next, todo: todoID)
                // A resident notification stays after the click; its todo is done (or moved
                // on to the next occurrence, which a second Done must not complete), so it goes.
                if config.alerts(for: todo).resident {
                    try store.markClosed(shown.id)
                    context.environment.server.close(id: id)
                }
            } else if key.hasPrefix(NotificationWriter.snoozePrefix),
                      let index = Int(key.dropFirst(NotificationWriter.snoozePrefix.count)),
                      config.snooze.choices.indices.contains(index) {
                let until = snoozeEnd(config.snooze.choices[index])
                _ = try Due.at(until, zone: zone).checked("snoozing until \(WallClock(zone: zone).iso8601(until))")
                let todo = try store.snooze(todoID: todoID, until: until, now: context.now)
                context.record(.snoozed, "snoozed: \(todo.title) until \(WallClock(zone: zone).iso8601(until))", todo: todoID, rule: "snooze")
            }
        } catch {
            context.record(.failed, "could not handle \(key) on todo \(todoID): \(error)", todo: todoID, priority: .error)
        }
        context.environment.changed()
        hooks.runChangeHooks()
        planning.plan()
    }

    /// The end of the snooze `choice`; when it has passed since its button was offered
    /// ("tonight" pressed after 20:00), the `[snooze] default`, else 10 minutes.
    private func snoozeEnd(_ choice: SnoozeChoice) -> Date {
        let moment = context.now
        let config = context.config
        let ends = SnoozeEnd(now: moment, zone: context.environment.zone(), style: context.dateStyle,
                             allDayTime: config.reminders.allDayTime)
        return ends.end(of: choice) ?? ends.end(of: config.snooze.defaultChoice) ?? moment.addingTimeInterval(600)
    }

    /// Dismissed, expired or closed: either way the notification is gone, and the todo's next
    /// reminder comes as a new one. Dismissing is not completing: nagging goes on.
    func closed(id: UInt32, reason: CloseReason, sender: String) {
        guard sender == delivery.owner, let shown = try? context.store.delivery(server: sender, notificationID: id) else { return }
        try? context.store.markClosed(shown.id)
        let how = switch reason {
        case .expired: "expired"
        case .dismissed: "dismissed"
        case .closedByCall, .undefined: "closed"
        }
        context.record(.closed, "notification \(id) \(how)", todo: shown.kind == .reminder ? shown.todoIDs.first : nil, rule: shown.rule)
        context.environment.changed()
    }
}
