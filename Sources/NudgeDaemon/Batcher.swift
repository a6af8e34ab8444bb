import Foundation
import NudgeCore
import NudgeStore

/// Decides how the reminders due at one moment reach the screen: one notification each, one
/// grouped notification when there are many, one digest of those missed while the service was
/// not running, or none for missed ones too old to matter.
struct Batcher {
    let groupAbove: Int
    let catchUp: CatchUp

    struct Plan: Equatable {
        var deliveries: [NewDelivery] = []
        /// Recorded as fired, never shown.
        var skipped: [ScheduledReminder] = []
    }

    /// `missedBefore`: reminders due before this moment were missed (the service started after
    /// them); nil when the service was running all along.
    func plan(_ due: [ScheduledReminder], now: Date, missedBefore: Date?) -> Plan {
        var plan = Plan()
        var current = due
        if let missedBefore {
            let missed = due.filter { $0.at < missedBefore }
            current = due.filter { $0.at >= missedBefore }
            switch catchUp {
            case .all:
                current = due
            case .digest:
                // A missed digest is simply the digest, late.
                current = missed.filter(\.isDigest) + current
                let todos = missed.filter { !$0.isDigest }
                if let latest = todos.map(\.at).max() {
                    plan.deliveries.append(NewDelivery(kind: .catchUp, todoIDs: todoIDs(todos), rule: "missed",
                                                       dueAt: latest))
                }
            case .skipOlderThan(let span):
                let oldest = now.addingTimeInterval(-TimeInterval(span.days * 86_400 + span.seconds))
                plan.skipped = missed.filter { $0.at < oldest }
                current = missed.filter { $0.at >= oldest } + current
            }
        }
        // The digest is one notification of its own; so is each todo, once, at its latest reminder.
        let digests = current.filter(\.isDigest)
        if let latest = digests.max(by: { $0.at < $1.at }) {
            plan.deliveries.append(NewDelivery(kind: .digest, todoIDs: [], rule: "digest", dueAt: latest.at))
        }
        var latestByTodo: [Int64: ScheduledReminder] = [:]
        for reminder in current {
            guard let id = reminder.todoID else { continue }  // the digest, planned above
            if let seen = latestByTodo[id], seen.at > reminder.at { continue }
            latestByTodo[id] = reminder
        }
        // todoID: non-nil, only todos' reminders are in latestByTodo.
        let reminders = latestByTodo.values.sorted { ($0.at, $0.todoID!) < ($1.at, $1.todoID!) }
        if reminders.count > groupAbove, let latest = reminders.map(\.at).max() {
            plan.deliveries.append(NewDelivery(kind: .group, todoIDs: reminders.map { $0.todoID! },
                                               rule: "\(reminders.count) reminders", dueAt: latest))
        } else {
            plan.deliveries += reminders.map {
                NewDelivery(kind: .reminder, todoIDs: [$0.todoID!], rule: $0.rule, dueAt: $0.at)
            }
        }
        return plan
    }

    private func todoIDs(_ reminders: [ScheduledReminder]) -> [Int64] {
        var seen = Set<Int64>()
        return reminders.compactMap(\.todoID).filter { seen.insert($0).inserted }
    }
}
