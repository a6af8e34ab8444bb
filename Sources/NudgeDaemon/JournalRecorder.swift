import NudgeSystem

/// Service events as structured journal entries (stderr lines without a journal).
final class JournalRecorder: EventRecorder {
    private let log = EventLog(identifier: "nudged")

    func record(_ event: ServiceEvent) {
        var fields: [(JournalField, String)] = [(.event, event.kind.rawValue), (.messageID, event.kind.messageID)]
        if let id = event.todoID { fields.append((.todoID, String(id))) }
        if let uuid = event.todoUUID { fields.append((.todoUUID, uuid)) }
        if let database = event.databaseID { fields.append((.databaseID, database)) }
        if let rule = event.rule { fields.append((.rule, rule)) }
        fields += event.fields
        log.send(message: event.message, priority: event.priority, fields: fields.map { ($0.rawValue, $1) })
    }
}
