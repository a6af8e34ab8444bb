import Foundation
import NudgeCore
import NudgeStore

/// What the service waits for and when it wakes next: the next reminder, a retry, a hook's
/// answer, the server's answers to Notify calls; and the write-ahead log's checkpoint, made
/// when none of them is near.
final class PlanningState {
    /// The write-ahead log's pages past which the service checkpoints it, as SQLite would.
    static let checkpointPages = 1_000

    private let context: ServiceContext
    private let ahead: FireAhead
    /// Deliveries whose Notify call waits for the server's answer.
    var inFlight: Set<Int64> = []
    /// After a notification failed while a server owns the name: when the queued ones are
    /// tried again.
    var deliveryRetryAt: Date?
    /// After reminders that could not be recorded as fired (a full disk): the moment to try
    /// again, rather than at once and for ever.
    var fireRetryAt: Date?
    /// Reminders whose notification waits for their on_fire hook's answer (`suppress_wait`),
    /// by todo id: until when at most.
    var heldForHook: [Int64: Date] = [:]
    /// The todos whose reminders were held (blocked) when the service last fired: one of them
    /// due now was released meanwhile. Nil until the first firing.
    var heldBlocked: Set<Int64>?
    /// When the timer is armed for (the next reminder, retry or hook hold).
    private var nextWake: Date?
    private var lastPlanned: String?

    init(context: ServiceContext, ahead: FireAhead) {
        self.context = context
        self.ahead = ahead
    }

    func isHeld(_ delivery: Delivery) -> Bool {
        delivery.kind == .reminder && delivery.todoIDs.first.map { heldForHook[$0] != nil } == true
    }

    /// Arms the timer for the next reminder (or the next retry) and says what it is.
    func plan() {
        let environment = context.environment
        var next: Date?
        do { next = try context.store.nextReminderTime() } catch {
            context.record(.failed, "could not plan: \(error)", priority: .error)
        }
        next = next.map { $0.addingTimeInterval(-ahead.lead) }
        if let fireRetryAt, let planned = next { next = max(planned, fireRetryAt) }
        // Whatever comes due meanwhile fires once what fired ahead is shown.
        if let moment = ahead.fired?.moment { next = moment }
        if let deliveryRetryAt { next = next.map { min($0, deliveryRetryAt) } ?? deliveryRetryAt }
        if let hold = heldForHook.values.min() { next = next.map { min($0, hold) } ?? hold }
        environment.wake(next)
        nextWake = next
        checkpointWhenQuiet()
        // Until what fired ahead is announced, the store already counts it as fired: the status
        // would say "Nothing to remind" just before its "fired" lines. It is said after them.
        guard ahead.fired == nil else { return }
        let upcoming = (try? context.store.upcoming(from: .distantPast, through: .distantFuture, limit: 1))?.first
        let status: String
        if let upcoming {
            let zone = environment.zone()
            let when = DueText(now: context.now, zone: zone, style: context.dateStyle).relative(.at(upcoming.at, zone: zone))
            status = "Next: \(upcoming.title ?? "daily digest") (\(upcoming.rule)) at \(when)"
        } else {
            status = "Nothing to remind"
        }
        environment.status(status)
        if status != lastPlanned {
            lastPlanned = status
            context.record(.planned, status, todo: upcoming?.todoID, rule: upcoming?.rule)
        }
    }

    /// SQLite would checkpoint inside the commit that takes the log past 1,000 pages, which can
    /// be a firing's, and so delay its notifications. The service does it once no notification
    /// waits for its answer and nothing is due within a quarter second, or anyway when the log
    /// has grown four times as large.
    func checkpointWhenQuiet() {
        let store = context.store
        let pages = store.logPages
        guard pages >= Self.checkpointPages else { return }
        let busy = !inFlight.isEmpty || (nextWake.map { $0.timeIntervalSince(context.now) < 0.25 } ?? false)
        guard !busy || pages >= 4 * Self.checkpointPages else { return }
        // Fails only while another process checkpoints: the next quiet moment tries again.
        try? store.checkpointLog()
    }
}
