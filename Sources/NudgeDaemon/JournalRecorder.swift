import Dispatch
import NudgeSystem

/// Service events as structured journal entries (stderr lines without a journal), written on
/// a queue of their own: a journal line never holds up a notification or the reading of its
/// answer on the service's queue.
final class JournalRecorder: EventRecorder {
    /// Shared by every recorder, so that entries keep the order they were recorded in.
    private static let queue = DispatchQueue(label: "nudged.journal")
    private static let log = EventLog(identifier: "nudged")

    func record(_ event: ServiceEvent) {
        Self.queue.async { Self.write(event) }
    }

    /// Waits until every entry recorded so far is written: before nudged exits.
    static func flush() {
        queue.sync {}
    }

    private static func write(_ event: ServiceEvent) {
        var fields: [(JournalField, String)] = [(.event, event.kind.rawValue), (.messageID, event.kind.messageID)]
        if let id = event.todoID { fields.append((.todoID, String(id))) }
        if let uuid = event.todoUUID { fields.append((.todoUUID, uuid)) }
        if let database = event.databaseID { fields.append((.databaseID, database)) }
        if let rule = event.rule { fields.append((.rule, rule)) }
        fields += event.fields
        log.send(message: event.message, priority: event.priority, fields: fields.map { ($0.rawValue, $1) })
    }
}
