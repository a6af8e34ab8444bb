import Foundation
import NudgeCore
import NudgeInterchange
import NudgeStore

/// The `[hooks]` commands: run beside the service for what happens to todos, never in its
/// way. Only an `on_fire` hook's answer can change what the service does: `suppress` stops
/// that reminder's notification.
final class ServiceHooks {
    private let context: ServiceContext
    private let planning: PlanningState
    private let delivery: NotificationDelivery
    /// How far the on_add, on_done and on_snooze hooks have looked; nil without those hooks.
    private var changeMarks: ChangeMarks?

    init(context: ServiceContext, planning: PlanningState, delivery: NotificationDelivery) {
        self.context = context
        self.planning = planning
        self.delivery = delivery
    }

    private var config: NudgeConfig { context.config }
    private var now: Date { context.now }

    /// Whether any hook needs to know of adds, completions and snoozes.
    private var watchesChanges: Bool {
        [.add, .done, .snooze].contains { config.hooks.commands[$0] != nil }
    }

    /// After the config or the store was loaded: the change hooks look from here on.
    func startLooking() {
        changeMarks = watchesChanges ? try? context.store.changeMarks() : nil
    }

    /// With `suppress_wait`, the notifications of the todos in `alone` (a notification of
    /// their own, which `suppress` can stop; a grouped one it cannot) wait for their hook.
    func holdForFireHooks(_ fired: [ScheduledReminder], alone: Set<Int64>) {
        guard config.hooks.commands[.fire] != nil, config.hooks.suppressWait > 0 else { return }
        for todoID in fired.compactMap(\.todoID) where alone.contains(todoID) {
            planning.heldForHook[todoID] = now.addingTimeInterval(config.hooks.suppressWait)
        }
    }

    /// Runs `on_fire` for each reminder of a todo that fired; `todos`: those todos, as read
    /// after the firing.
    func runFireHooks(_ fired: [ScheduledReminder], alone: Set<Int64>, todos: [Todo]) {
        guard config.hooks.commands[.fire] != nil else { return }
        // A hook that plays a sound can keep the quiet hours as the notification does.
        let environment = context.environment
        let writer = NotificationWriter(now: now, zone: environment.zone(), config: config, style: context.dateStyle,
                                        home: environment.home)
        for reminder in fired {
            guard let todoID = reminder.todoID, let todo = todos.first(where: { $0.id == todoID }) else { continue }
            let stoppable = alone.contains(todoID)
            let quiet = writer.isQuiet(at: reminder.at, rule: reminder.rule.description, todo: todo)
            run(.fire, todo: todo, rule: reminder.rule.description, extra: ["NUDGE_QUIET": quiet ? "yes" : "no"]) { [weak self] suppress in
                self?.fireHookAnswered(todoID: todoID, suppress: suppress && stoppable, title: todo.title)
            }
        }
    }

    /// `on_add`, `on_done` and `on_snooze` for what happened since the last look, by any
    /// process; `finishedElsewhere`: todos a sync pass found completed on another machine.
    func runChangeHooks(finishedElsewhere: [String] = []) {
        guard watchesChanges else {
            changeMarks = nil
            return
        }
        do {
            guard let marks = changeMarks else {
                changeMarks = try context.store.changeMarks()
                return
            }
            let store = context.store
            let (changes, next) = try store.changes(since: marks)
            changeMarks = next
            var events: [(HookEvent, Int64, [String: String])] = changes.map { change in
                switch change {
                case .added(let id): (.add, id, [:])
                // A repeating todo has moved on to its next due; the hook is told the one done.
                case .completed(let id, let due): (.done, id, ["NUDGE_DUE": Self.hookText(due)])
                case .snoozed(let id, let until):
                    (.snooze, id, ["NUDGE_SNOOZED_UNTIL": WallClock(zone: context.environment.zone()).iso8601(until)])
                }
            }
            if !finishedElsewhere.isEmpty {
                let ids = try store.todoIDs(uuids: Set(finishedElsewhere))
                for todo in try store.existingTodos(ids: ids) where todo.isCompleted && !events.contains(where: { $0.1 == todo.id && $0.0 == .done }) {
                    events.append((.done, todo.id, [:]))
                }
            }
            let wanted = events.filter { config.hooks.commands[$0.0] != nil }
            guard !wanted.isEmpty else { return }
            let todos = try store.existingTodos(ids: Array(Set(wanted.map(\.1))))
            for (event, id, extra) in wanted {
                guard let todo = todos.first(where: { $0.id == id }) else { continue }
                run(event, todo: todo, rule: event == .snooze ? "snooze" : "", extra: extra)
            }
        } catch {
            context.record(.failed, "could not read what changed for the hooks: \(error)", priority: .error)
        }
    }

    private func run(_ event: HookEvent, todo: Todo, rule: String, extra: [String: String] = [:],
                     answered: ((Bool) -> Void)? = nil) {
        guard let command = config.hooks.commands[event] else { return }
        var variables = [
            "NUDGE_EVENT": event.rawValue, "NUDGE_TODO_ID": String(todo.id), "NUDGE_TODO_UUID": todo.uuid,
            "NUDGE_TITLE": todo.title, "NUDGE_DUE": Self.hookText(todo.due), "NUDGE_PRIORITY": todo.priority.description,
            "NUDGE_CATEGORY": todo.category?.name ?? "", "NUDGE_RULE": rule,
        ]
        variables.merge(extra) { _, added in added }
        let json = JSON.object([("event", .string(event.rawValue)), ("rule", .string(rule)), ("id", .int(todo.id)),
                                ("todo", NudgeJSON.value(TodoRecord(todo)))])
        let input = json.text(.line) + "\n"
        let environment = ProcessInfo.processInfo.environment.merging(variables) { _, hook in hook }
        context.environment.runHook(HookJob(event: event, todoID: todo.id, command: command.text,
                                            arguments: command.arguments(environment: environment),
                                            variables: variables, input: input, answered: answered), config.hooks)
    }

    /// `NUDGE_DUE`: ISO 8601, a date for an all-day due, empty for none.
    static func hookText(_ due: Due?) -> String {
        switch due {
        case .allDay(let day)?: day.description
        case .at(let instant, let zone)?: WallClock(zone: zone).iso8601(instant)
        case nil: ""
        }
    }

    /// A hook ended: its outcome goes to the journal; nothing else depends on it.
    func hookEnded(_ job: HookJob, _ outcome: HookOutcome) {
        let how: String
        if outcome.status == nil {
            how = "could not start: " + outcome.firstErrorLine
        } else if outcome.killed {
            how = "killed after its timeout of " + String(format: "%gs", config.hooks.timeout)
        } else if let signal = outcome.signal {
            how = "killed by signal \(signal) (\(String(cString: strsignal(signal))))"
                + (outcome.firstErrorLine.isEmpty ? "" : ": " + outcome.firstErrorLine)
        } else {
            // status: non-nil, nil is the first case.
            how = "exited with status \(outcome.status!)" + (outcome.firstErrorLine.isEmpty ? "" : ": " + outcome.firstErrorLine)
        }
        var fields: [(JournalField, String)] = [(.hook, job.event.key), (.hookCommand, job.command),
                                                (.hookSeconds, JournalField.decimal(outcome.seconds, digits: 3))]
        if let status = outcome.status { fields.append((.hookStatus, String(status))) }
        if let signal = outcome.signal { fields.append((.hookSignal, String(signal))) }
        if !outcome.firstErrorLine.isEmpty { fields.append((.hookStderr, outcome.firstErrorLine)) }
        if outcome.suppressed { fields.append((.hookSuppressed, "1")) }
        context.record(.hook, "hook \(job.event.key) for todo \(job.todoID) " + how, todo: job.todoID,
               uuid: job.variables["NUDGE_TODO_UUID"], priority: outcome.status == 0 ? .info : .warning, fields: fields)
    }

    /// Too many hooks waiting: the newest are not run.
    func hooksOverflowed(_ waiting: Int) {
        context.record(.failed, "\(waiting) hooks are waiting to run; more are dropped until some have run", priority: .warning)
    }

    // MARK: - Holding for on_fire

    /// Notifications whose hook has not answered in `suppress_wait` are shown.
    func releaseHolds(through moment: Date) {
        let expired = planning.heldForHook.filter { $0.value <= moment }.map(\.key)
        guard !expired.isEmpty else { return }
        for id in expired { planning.heldForHook[id] = nil }
        delivery.deliverPending()
    }

    private func fireHookAnswered(todoID: Int64, suppress: Bool, title: String) {
        dispatchPrecondition(condition: .onQueue(context.environment.queue))
        let wasHeld = planning.heldForHook.removeValue(forKey: todoID) != nil
        if suppress { delivery.suppress(todoID: todoID, title: title) }
        if wasHeld { delivery.deliverPending() }
    }
}
