import Foundation

extension ReminderPlanner {
    /// The nags that will follow the one at `nag`, through `end`. The schedule holds only a
    /// todo's next nag and plans each one when the one before fires, so `nudge upcoming`, which
    /// lists everything that will fire, asks for the rest here. Each is found as the service
    /// will find it when the one before has fired: the first nag after that moment, held by
    /// quiet hours, within `nag_limit`, restarted by a snooze. (Another reminder of the todo at
    /// the same moment fires in a nag's place; the caller, which has the schedule, drops those.)
    /// `limit` bounds the work when nagging has no limit.
    public func nags(following nag: Date, of subject: ReminderSubject, through end: Date, limit: Int? = nil) -> [Reminder] {
        let todo = subject.todo
        guard subject.usesDefaultRules, !todo.isCompleted, let due = todo.due, due.isWithinYears else { return [] }
        let rules = rules(for: todo)
        guard let every = rules.nagEvery else { return [] }
        var handled = nag
        var found: [Reminder] = []
        while found.count < limit ?? .max,
              let (rule, nominal) = nags(due: due, rules: rules, every: every, snoozedUntil: subject.snoozedUntil,
                                         after: handled, count: 1).first {
            let at = releaseTime(nominal, priority: todo.priority)
            guard at <= end, at > handled, clock.isWithinYears(at), clock.isWithinYears(nominal) else { break }
            found.append(Reminder(todoID: todo.id, rule: rule, nominal: nominal, at: at))
            handled = at
        }
        return found
    }
}
