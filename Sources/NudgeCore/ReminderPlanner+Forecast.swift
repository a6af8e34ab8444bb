import Foundation

extension ReminderPlanner {
    /// The nags that will follow the one at `nag`, through `end`. The schedule holds only a
    /// todo's next nag and plans each one when the one before fires, so `nudge upcoming`, which
    /// lists everything that will fire, asks for the rest here. Each reminder is taken as fired
    /// in turn, as the service will fire it, so that quiet hours, a snooze and `nag_limit`
    /// thin the nags out exactly as they will.
    /// `limit` bounds the work when nagging has no limit.
    public func nags(following nag: Date, of subject: ReminderSubject, through end: Date, limit: Int? = nil) -> [Reminder] {
        var subject = subject
        var handled = nag
        var found: [Reminder] = []
        while found.count < limit ?? .max {
            subject.remindedThrough = handled
            guard let next = pending(subject).first, next.at <= end else { break }
            if case .nag = next.rule { found.append(next) }
            handled = next.at
        }
        return found
    }
}
