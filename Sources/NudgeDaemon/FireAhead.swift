import Foundation
import NudgeStore

/// Reminders recorded as fired a moment before they are due (`fireAhead`, 50 ms in nudged),
/// and their notifications written then too, so that at the due moment only the Notify calls
/// remain: recording them does not hold up the first call.
final class FireAhead {
    /// Reminders whose firing is recorded ahead of their moment: their notifications, journal
    /// lines and hooks wait for it. `fired` is nil when the firing failed (and was logged).
    struct Fired {
        let moment: Date
        let fired: (due: [ScheduledReminder], batch: Batcher.Plan)?
    }

    /// The notifications of what fired ahead, written for `server` at `moment`, by delivery id:
    /// shown as they are while the store's revision has not moved.
    private struct Written {
        let moment: Date
        let server: String
        let revision: TodoStore.Revision
        let notifications: [Int64: WrittenNotification]
    }

    private let context: ServiceContext
    /// How long before their moment reminders fire; 0: when due.
    let lead: TimeInterval
    private(set) var fired: Fired?
    private var written: Written?

    init(context: ServiceContext, lead: TimeInterval) {
        self.context = context
        self.lead = lead
    }

    /// Whether `moment` is still to come, and no further than `lead` (and the timer's leeway):
    /// a clock set back further than that shows what fired ahead at once.
    func isAhead(of moment: Date) -> Bool {
        let wait = moment.timeIntervalSince(context.now)
        return wait > 0 && wait <= lead + 0.001
    }

    /// Whether what fired ahead still waits for its moment: nothing is shown until then.
    var isWaiting: Bool {
        fired.map { isAhead(of: $0.moment) } ?? false
    }

    /// Whether the next reminders may fire ahead: nothing fired ahead waits yet.
    var mayFire: Bool { lead > 0 && fired == nil }

    func keep(_ fired: Fired) {
        self.fired = fired
    }

    /// What fired ahead, now to be announced.
    func takeFired() -> Fired? {
        defer { fired = nil }
        return fired
    }

    /// Keeps the notifications written for what fired ahead, as of the store's `revision`.
    func keep(_ notifications: [Int64: WrittenNotification], server: String, moment: Date, revision: TodoStore.Revision) {
        written = Written(moment: moment, server: server, revision: revision, notifications: notifications)
    }

    /// The notifications written ahead, when nothing they were read from has changed since and
    /// it is their moment (a clock set back shows them at once, written again).
    func takeWritten(server: String) -> [Int64: WrittenNotification] {
        guard let written else { return [:] }
        self.written = nil
        guard written.server == server, abs(context.now.timeIntervalSince(written.moment)) < 1,
              (try? context.store.revision()) == written.revision else { return [:] }
        return written.notifications
    }
}
