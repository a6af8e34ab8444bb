import Foundation
import NudgeCore
import NudgeStore

/// Decides how the reminders due at one moment reach the screen: one notification each, one
/// grouped notification when there are many, one digest of those missed while the service was
/// not running, or none for missed ones too old to matter.
struct Batcher {
    let groupAbove: Int
    let catchUp: CatchUp
    /// The rule of a catch-up delivery: what came due while the service was not running, or
    /// while the todos' reminders were held.
    static let missedRule = "missed", heldRule = "held"

    struct Plan: Equatable {
        var deliveries: [NewDelivery] = []
        /// Recorded as fired, never shown.
        var skipped: [ScheduledReminder] = []
    }

    /// `missedBefore`: reminders due before this moment were missed (the service started after
    /// them); nil when the service was running all along. `released`: todos that were blocked
    /// when the service last fired, and are not now: what of theirs is due fell due while their
    /// reminders were held, and is caught up as missed ones are.
    func plan(_ due: [ScheduledReminder], now: Date, missedBefore: Date?, released: Set<Int64> = []) -> Plan {
        var plan = Plan()
        let isMissed = { (reminder: ScheduledReminder) in missedBefore.map { reminder.at < $0 } ?? false }
        let isReleased = { (reminder: ScheduledReminder) in !isMissed(reminder) && reminder.todoID.map(released.contains) == true }
        let missed = due.filter(isMissed), held = due.filter(isReleased)
        var current = due.filter { !isMissed($0) && !isReleased($0) }
        if !missed.isEmpty || !held.isEmpty {
            switch catchUp {
            case .all:
                current = due
            case .digest:
                // A missed digest is simply the digest, late.
                current = missed.filter(\.isDigest) + current
                for (reminders, rule) in [(missed.filter { !$0.isDigest }, Self.missedRule), (held, Self.heldRule)] {
                    if let latest = reminders.map(\.at).max() {
                        plan.deliveries.append(NewDelivery(kind: .catchUp, todoIDs: todoIDs(reminders), rule: rule, dueAt: latest))
                    }
                }
            case .skipOlderThan(let span):
                let oldest = now.addingTimeInterval(-TimeInterval(span.days * 86_400 + span.seconds))
                plan.skipped = (missed + held).filter { $0.at < oldest }
                current = (missed + held).filter { $0.at >= oldest } + current
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
