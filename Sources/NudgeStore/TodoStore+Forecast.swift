import Foundation
import NudgeCore

extension TodoStore {
    /// Everything that will fire from `start` through `end`, in order: what `nudge upcoming`
    /// lists. The stored schedule (`upcoming`, what the service fires from) holds only each
    /// todo's next nag, because the service plans the one after it when it fires; the nags
    /// after it are worked out here, for the todos whose next nag falls in the window.
    public func forecast(from start: Date, through end: Date, limit: Int? = nil) throws(StoreError) -> [ScheduledReminder] {
        var reminders = try upcoming(from: start, through: end, limit: limit)
        var nextNag: [Int64: ScheduledReminder] = [:]
        for reminder in reminders where reminder.rule.hasPrefix("nag ") {
            if let id = reminder.todoID, nextNag[id] == nil { nextNag[id] = reminder }
        }
        guard !nextNag.isEmpty else { return reminders }
        // The moments these todos already remind at, where a nag would not fire again.
        var stored: [Int64: [Date]] = [:]
        for reminder in reminders {
            if let id = reminder.todoID, nextNag[id] != nil { stored[id, default: []].append(reminder.at) }
        }
        let list = nextNag.keys.sorted().map(String.init).joined(separator: ",")
        try perform {
            try forEachSubject(where: "t.id IN (\(list)) AND t.completed_at IS NULL", custom: false) { subject in
                guard let first = nextNag[subject.todo.id] else { return }
                let taken = stored[subject.todo.id] ?? []
                for nag in planner.nags(following: first.at, of: subject, through: end, limit: limit)
                where !taken.contains(nag.at) {
                    reminders.append(ScheduledReminder(todoID: subject.todo.id, title: first.title,
                                                       rule: nag.rule.description, at: nag.at, nominal: nag.nominal))
                }
            }
        }
        reminders.sort { ($0.at, $0.todoID ?? 0) < ($1.at, $1.todoID ?? 0) }
        if let limit, reminders.count > limit { reminders.removeLast(reminders.count - limit) }
        return reminders
    }
}
