import NudgeSystem

/// Service events as structured journal entries (stderr lines without a journal).
final class JournalRecorder: EventRecorder {
    private let log = EventLog(identifier: "nudged")

    func record(_ event: ServiceEvent) {
        var fields = [("NUDGE_EVENT", event.kind.rawValue), ("MESSAGE_ID", event.kind.messageID)]
        if let id = event.todoID { fields.append(("NUDGE_TODO_ID", String(id))) }
        if let uuid = event.todoUUID { fields.append(("NUDGE_TODO_UUID", uuid)) }
        if let database = event.databaseID { fields.append(("NUDGE_DATABASE_ID", database)) }
        if let rule = event.rule { fields.append(("NUDGE_RULE", rule)) }
        fields += event.fields
        log.send(message: event.message, priority: event.priority, fields: fields)
    }
}
