import Foundation
import NudgeSystem

/// Something the service did, for the journal.
struct ServiceEvent: Equatable {
    enum Kind: String, CaseIterable {
        case started, planned, fired, delivered, failed, action, snoozed, completed, missed, reloaded, closed, stopped
        /// A two-way pass with the vdir; `[sync] command` ran; a notification was closed because
        /// its todo was finished on another machine.
        case synced, command, withdrawn
        /// A todo was changed here and elsewhere in the same field: both versions were kept.
        case conflict
        /// A `[hooks]` command ended; an `on_fire` hook stopped a notification.
        case hook, suppressed

        /// A fixed MESSAGE_ID per kind (journalctl MESSAGE_ID=... finds every event of a kind).
        var messageID: String {
            switch self {
            case .started: "5f0b2f1e8c2a4d7e9b1a3c5d7e9f0a01"
            case .planned: "5f0b2f1e8c2a4d7e9b1a3c5d7e9f0a02"
            case .fired: "5f0b2f1e8c2a4d7e9b1a3c5d7e9f0a03"
            case .delivered: "5f0b2f1e8c2a4d7e9b1a3c5d7e9f0a04"
            case .failed: "5f0b2f1e8c2a4d7e9b1a3c5d7e9f0a05"
            case .action: "5f0b2f1e8c2a4d7e9b1a3c5d7e9f0a06"
            case .snoozed: "5f0b2f1e8c2a4d7e9b1a3c5d7e9f0a07"
            case .completed: "5f0b2f1e8c2a4d7e9b1a3c5d7e9f0a08"
            case .missed: "5f0b2f1e8c2a4d7e9b1a3c5d7e9f0a09"
            case .reloaded: "5f0b2f1e8c2a4d7e9b1a3c5d7e9f0a0a"
            case .closed: "5f0b2f1e8c2a4d7e9b1a3c5d7e9f0a0b"
            case .stopped: "5f0b2f1e8c2a4d7e9b1a3c5d7e9f0a0c"
            case .synced: "5f0b2f1e8c2a4d7e9b1a3c5d7e9f0a0d"
            case .command: "5f0b2f1e8c2a4d7e9b1a3c5d7e9f0a0e"
            case .withdrawn: "5f0b2f1e8c2a4d7e9b1a3c5d7e9f0a0f"
            case .hook: "5f0b2f1e8c2a4d7e9b1a3c5d7e9f0a10"
            case .suppressed: "5f0b2f1e8c2a4d7e9b1a3c5d7e9f0a11"
            case .conflict: "5f0b2f1e8c2a4d7e9b1a3c5d7e9f0a12"
            }
        }
    }

    let kind: Kind
    let message: String
    var todoID: Int64?
    /// The todo's UUID and the database's id: what `nudge history` matches, since ids are
    /// only unique within one database.
    var todoUUID: String?
    var databaseID: String?
    var rule: String?
    var priority: JournalPriority = .info
    /// More journal fields, e.g. NUDGE_LATENCY_MS on "delivered".
    var fields: [(JournalField, String)] = []

    static func == (a: ServiceEvent, b: ServiceEvent) -> Bool {
        (a.kind, a.message, a.todoID, a.rule, a.priority) == (b.kind, b.message, b.todoID, b.rule, b.priority)
            && a.fields.elementsEqual(b.fields) { $0 == $1 }
    }
}

/// Where events go: the journal in production, a list in tests.
protocol EventRecorder: AnyObject {
    func record(_ event: ServiceEvent)
}
