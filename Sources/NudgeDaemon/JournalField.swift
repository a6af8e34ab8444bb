/// The fields nudged writes to the journal besides MESSAGE, PRIORITY and SYSLOG_IDENTIFIER,
/// and what each holds: an event can only carry a field listed here, so nudged(8) lists
/// them all.
enum JournalField: String, CaseIterable {
    case event = "NUDGE_EVENT"
    case messageID = "MESSAGE_ID"
    case todoID = "NUDGE_TODO_ID"
    case todoUUID = "NUDGE_TODO_UUID"
    case databaseID = "NUDGE_DATABASE_ID"
    case rule = "NUDGE_RULE"
    case notificationID = "NUDGE_NOTIFICATION_ID"
    case latency = "NUDGE_LATENCY_MS"
    case syncImported = "NUDGE_SYNC_IMPORTED"
    case syncDeletedTodos = "NUDGE_SYNC_DELETED_TODOS"
    case syncWritten = "NUDGE_SYNC_WRITTEN"
    case syncDeletedFiles = "NUDGE_SYNC_DELETED_FILES"
    case syncConflicts = "NUDGE_SYNC_CONFLICTS"
    case syncMilliseconds = "NUDGE_SYNC_MS"
    case exitStatus = "NUDGE_EXIT_STATUS"
    case stderr = "NUDGE_STDERR"
    case stderrTail = "NUDGE_STDERR_TAIL"
    case failures = "NUDGE_FAILURES"
    case hook = "NUDGE_HOOK"
    case hookCommand = "NUDGE_HOOK_COMMAND"
    case hookStatus = "NUDGE_HOOK_STATUS"
    case hookSignal = "NUDGE_HOOK_SIGNAL"
    case hookStderr = "NUDGE_HOOK_STDERR"
    case hookSeconds = "NUDGE_HOOK_SECONDS"
    case hookSuppressed = "NUDGE_HOOK_SUPPRESSED"

    var meaning: String {
        switch self {
        case .event: "What happened, one of the events below."
        case .messageID: "A fixed id per event (below), the same on every machine."
        case .todoID: "The todo's id in its database, as `nudge list` shows it."
        case .todoUUID: "The todo's UUID, the same on every machine it is synced to."
        case .databaseID: "The database's own id: ids are unique only within one database, so `nudge history` matches NUDGE_TODO_UUID and this."
        case .rule: "The rule that made the reminder: due, all-day, before 10m, day-before, nag 2, remind 1h, snooze, digest, missed, or N reminders for a grouped notification."
        case .notificationID: "The id the notification server gave the notification."
        case .latency: "On delivered: milliseconds from the moment the reminder was due to the server's answer."
        case .syncImported: "On synced: todos added or changed from the vdir."
        case .syncDeletedTodos: "On synced: todos deleted here because their file was deleted."
        case .syncWritten: "On synced: files written to the vdir."
        case .syncDeletedFiles: "On synced: files deleted from the vdir."
        case .syncConflicts: "On synced: todos changed on both sides in the same field, kept as a second todo."
        case .syncMilliseconds: "On synced: how long the pass took, in milliseconds."
        case .exitStatus: "On command and failed: the exit status of `[sync] command`, or \"not started\"."
        case .stderr: "On failed: the last line the command wrote to stderr."
        case .stderrTail: "On failed: the last lines the command wrote to stderr."
        case .failures: "On failed: how many times in a row the command has failed."
        case .hook: "On hook: which hook ran (on_fire, on_done, on_snooze, on_add)."
        case .hookCommand: "On hook: its command line as configured."
        case .hookStatus: "On hook: its exit status (128 + the signal that ended it; 137 when killed after its timeout); absent when it could not start."
        case .hookSignal: "On hook: the signal that ended it (11 for a segmentation fault, 9 when killed after its timeout); absent when it exited."
        case .hookStderr: "On hook: the first line it wrote to stderr, or why it could not start."
        case .hookSeconds: "On hook: how long it ran, in seconds."
        case .hookSuppressed: "On hook: 1 when an on_fire hook's first line of output was suppress."
        }
    }
}

extension ServiceEvent.Kind {
    /// What an event of this kind records, for nudged(8).
    var meaning: String {
        switch self {
        case .started: "The service started; the message names the notification server."
        case .planned: "The next reminder was planned; the message is the STATUS= line."
        case .fired: "A reminder came due."
        case .delivered: "The notification server showed it."
        case .failed: "Something did not work; the message says what (priority 3 or 4)."
        case .action: "A button of a notification was pressed."
        case .snoozed: "A todo was snoozed from its notification."
        case .completed: "A todo was marked done from its notification."
        case .missed: "A reminder came due while the service was not running (see CATCH-UP)."
        case .reloaded: "The config file was read again, or the database reopened."
        case .closed: "A notification was dismissed, expired or closed."
        case .stopped: "The service is stopping."
        case .synced: "A pass with the vdir of `[sync] vdir` ran."
        case .command: "`[sync] command` ran and succeeded."
        case .withdrawn: "A notification was closed because its todo was completed, deleted, rescheduled or snoozed by another program or on another machine."
        case .conflict: "A sync pass found a todo changed here and elsewhere in the same field: the version here stays, the other became a todo titled \"... (conflict)\"."
        case .hook: "A [hooks] command ended: its status and first line of stderr (priority 4 when it failed, was killed or could not start)."
        case .suppressed: "An on_fire hook printed suppress: the reminder's notification was not shown, or was withdrawn."
        }
    }
}

extension JournalField {
    /// `value` with `digits` decimals, without `String(format:)`: its first use loads locale
    /// data, which the answers to the service's first notifications would wait behind.
    static func decimal(_ value: Double, digits: Int) -> String {
        let scale = (0..<digits).reduce(1) { power, _ in power * 10 }
        let scaled = (abs(value) * Double(scale)).rounded(.toNearestOrEven)
        guard scaled.isFinite, scaled < 1e15 else { return String(value) }
        let units = Int(scaled)
        let sign = value < 0 && units > 0 ? "-" : ""
        guard digits > 0 else { return sign + String(units) }
        let fraction = String(units % scale)
        return sign + String(units / scale) + "." + String(repeating: "0", count: digits - fraction.count) + fraction
    }
}
