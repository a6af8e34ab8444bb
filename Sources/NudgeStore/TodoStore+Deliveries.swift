import Foundation
import NudgeCore
import NudgeSQLite

/// A notification the service owes or has shown, kept in the store's outbox.
public struct Delivery: Hashable, Sendable {
    public enum Kind: String, Sendable {
        /// One todo's reminder.
        case reminder
        /// Several todos' reminders due at once, as one notification.
        case group
        /// The daily digest.
        case digest
        /// Reminders that came due while the service was not running, as one notification.
        case catchUp = "catch-up"
    }

    public enum State: String, Sendable { case pending, shown, closed }

    public let id: Int64
    public let kind: Kind
    public let todoIDs: [Int64]
    /// The rule of a single reminder; for the others, what they gather ("3 reminders").
    public let rule: String
    public let dueAt: Date
    public let state: State
    /// The unique bus name of the server that showed it.
    public let server: String?
    public let notificationID: UInt32?
}

/// A notification to queue: what it is about.
public struct NewDelivery: Hashable, Sendable {
    public let kind: Delivery.Kind
    public let todoIDs: [Int64]
    public let rule: String
    public let dueAt: Date

    public init(kind: Delivery.Kind, todoIDs: [Int64], rule: String, dueAt: Date) {
        self.kind = kind
        self.todoIDs = todoIDs
        self.rule = rule
        self.dueAt = dueAt
    }
}

extension TodoStore {
    static let deliveryColumns = "id, kind, todo_ids, rule, due_at, state, server, notification_id FROM deliveries"

    /// Records the reminders as fired and queues their notifications, in one transaction: after
    /// a crash at any moment, each is either still due or queued, never lost and never both.
    @discardableResult
    public func fire(_ reminders: [ScheduledReminder], queueing deliveries: [NewDelivery], at now: Date) throws(StoreError) -> [Delivery] {
        try write {
            try recordFiredRows(reminders, firedAt: now)
            let insert = try db.prepare("""
                INSERT INTO deliveries (kind, todo_ids, rule, due_at, created_at, todo_due) VALUES (?1, ?2, ?3, ?4, ?5,
                    (SELECT \(Self.dueText("todos")) FROM todos WHERE ?1 = 'reminder' AND id = CAST(?2 AS INTEGER)))
                """)
            var ids: [Int64] = []
            for delivery in deliveries {
                try insert.run([.text(delivery.kind.rawValue), .text(delivery.todoIDs.map(String.init).joined(separator: ",")),
                                .text(delivery.rule), .integer(Self.stamp(delivery.dueAt)), .integer(Self.stamp(now))])
                ids.append(db.lastInsertRowID)
            }
            return try selectDeliveries("WHERE id IN (\(ids.map(String.init).joined(separator: ","))) ORDER BY id")
        }
    }

    /// Notifications not shown yet, oldest first.
    public func pendingDeliveries() throws(StoreError) -> [Delivery] {
        try perform { try selectDeliveries("WHERE state = 'pending' ORDER BY id") }
    }

    public func delivery(id: Int64) throws(StoreError) -> Delivery? {
        try perform { try selectDeliveries("WHERE id = ?", [.integer(id)]).first }
    }

    /// The shown notification a server knows by this id.
    public func delivery(server: String, notificationID: UInt32) throws(StoreError) -> Delivery? {
        try perform {
            try selectDeliveries("WHERE state = 'shown' AND server = ? AND notification_id = ? ORDER BY id DESC LIMIT 1",
                                 [.text(server), .integer(Int64(notificationID))]).first
        }
    }

    /// The notification id of the todo's reminder this server shows now, for `replaces_id`.
    public func shownNotificationID(todoID: Int64, server: String) throws(StoreError) -> UInt32? {
        try perform {
            try selectDeliveries("WHERE state = 'shown' AND kind = 'reminder' AND todo_ids = ? AND server = ? ORDER BY id DESC LIMIT 1",
                                 [.text(String(todoID)), .text(server)]).first?.notificationID
        }
    }

    public func markShown(_ deliveryID: Int64, server: String, notificationID: UInt32, at now: Date) throws(StoreError) {
        try write {
            // A notification that replaced another takes over its id.
            try db.run("UPDATE deliveries SET state = 'closed' WHERE state = 'shown' AND server = ? AND notification_id = ?",
                       [.text(server), .integer(Int64(notificationID))])
            try db.run("UPDATE deliveries SET state = 'shown', server = ?, notification_id = ?, shown_at = ? WHERE id = ?",
                       [.text(server), .integer(Int64(notificationID)), .integer(Self.stamp(now)), .integer(deliveryID)])
        }
    }

    public func markClosed(_ deliveryID: Int64) throws(StoreError) {
        try write { try db.run("UPDATE deliveries SET state = 'closed' WHERE id = ?", [.integer(deliveryID)]) }
    }

    /// Every notification shown by servers other than `current` is gone: a server that
    /// restarted does not know its old ids.
    public func closeDeliveries(notShownBy current: String?) throws(StoreError) {
        try write {
            try db.run("UPDATE deliveries SET state = 'closed' WHERE state = 'shown' AND (? IS NULL OR server != ?)",
                       [current.sqlValue, current.sqlValue])
        }
    }

    func selectDeliveries(_ condition: String, _ arguments: [SQLValue] = []) throws -> [Delivery] {
        try db.query("SELECT \(Self.deliveryColumns) \(condition)", arguments) { row in
            Delivery(id: row.int64("id"),
                     kind: Delivery.Kind(rawValue: row.text("kind") ?? "") ?? .reminder,
                     todoIDs: (row.text("todo_ids") ?? "").split(separator: ",").compactMap { Int64($0) },
                     rule: row.text("rule") ?? "",
                     dueAt: Self.date(fromStamp: row.int64("due_at")),
                     state: Delivery.State(rawValue: row.text("state") ?? "") ?? .pending,
                     server: row.text("server"),
                     notificationID: row.optionalInt64("notification_id").map { UInt32(truncatingIfNeeded: $0) })
        }
    }

    /// Whether another process changed the database since the last call (`PRAGMA data_version`
    /// moves on commits by other connections only).
    public func changedElsewhere() throws(StoreError) -> Bool {
        try perform {
            let version = try db.scalar("PRAGMA data_version")?.int64 ?? 0
            defer { lastDataVersion = version }
            return lastDataVersion != nil && lastDataVersion != version
        }
    }

    /// A value that moves with every change to the database, made here or elsewhere: what was
    /// read while it had one value still holds while it has it.
    public func revision() throws(StoreError) -> Revision {
        try perform { Revision(here: db.totalChanges, elsewhere: try db.scalar("PRAGMA data_version")?.int64 ?? 0) }
    }

    public struct Revision: Equatable, Sendable {
        let here: Int64
        let elsewhere: Int64
    }
}

extension TodoStore {
    /// The single-todo notifications this server shows now, oldest first: those whose todo was
    /// finished on another machine are withdrawn after a sync.
    public func shownReminders(server: String) throws(StoreError) -> [Delivery] {
        try perform {
            try selectDeliveries("WHERE state = 'shown' AND kind = 'reminder' AND server = ? ORDER BY id", [.text(server)])
        }
    }

    /// The single-todo notifications this server shows whose todo was completed or deleted
    /// since they were queued (a repeating todo has moved on, so its completions tell).
    public func finishedReminders(server: String) throws(StoreError) -> [Delivery] {
        try perform {
            try selectDeliveries("""
                WHERE state = 'shown' AND kind = 'reminder' AND server = ?1 AND (
                    NOT EXISTS (SELECT 1 FROM todos t WHERE t.id = CAST(todo_ids AS INTEGER) AND t.completed_at IS NULL)
                    OR EXISTS (SELECT 1 FROM completions c WHERE c.todo_id = CAST(todo_ids AS INTEGER)
                               AND c.completed_at >= created_at))
                ORDER BY id
                """, [.text(server)])
        }
    }

    /// A todo's due as `deliveries.todo_due` keeps it, for SQL on the todos table `table`.
    static func dueText(_ table: String) -> String {
        "COALESCE(CAST(\(table).due_at AS TEXT), \(table).due_day, '')"
    }

    /// The single-todo notifications this server shows whose todo's due has changed since its
    /// reminder fired (postponed, edited, removed), and not among `finishedReminders`.
    public func rescheduledReminders(server: String) throws(StoreError) -> [Delivery] {
        try perform {
            try selectDeliveries("""
                WHERE state = 'shown' AND kind = 'reminder' AND server = ?1 AND todo_due IS NOT NULL
                    AND EXISTS (SELECT 1 FROM todos t WHERE t.id = CAST(todo_ids AS INTEGER)
                                AND t.completed_at IS NULL AND \(Self.dueText("t")) != todo_due)
                    AND NOT EXISTS (SELECT 1 FROM completions c WHERE c.todo_id = CAST(todo_ids AS INTEGER)
                                    AND c.completed_at >= created_at)
                ORDER BY id
                """, [.text(server)])
        }
    }

    /// The single-todo notifications this server shows whose todo is snoozed past `now`, and
    /// not among `finishedReminders`.
    public func snoozedReminders(server: String, now: Date) throws(StoreError) -> [Delivery] {
        try perform {
            try selectDeliveries("""
                WHERE state = 'shown' AND kind = 'reminder' AND server = ?1
                    AND EXISTS (SELECT 1 FROM todos t WHERE t.id = CAST(todo_ids AS INTEGER)
                                AND t.completed_at IS NULL AND t.snoozed_until > ?2)
                    AND NOT EXISTS (SELECT 1 FROM completions c WHERE c.todo_id = CAST(todo_ids AS INTEGER)
                                    AND c.completed_at >= created_at)
                ORDER BY id
                """, [.text(server), .integer(Self.stamp(now))])
        }
    }
}
