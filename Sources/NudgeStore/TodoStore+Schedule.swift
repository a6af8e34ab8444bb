import Foundation
import NudgeCore
import NudgeSQLite

/// A reminder as the store keeps it: planned to fire, or fired.
public struct ScheduledReminder: Hashable, Sendable {
    /// Nil for the daily digest, which belongs to no todo.
    public let todoID: Int64?
    public let title: String?
    /// The rule's name, e.g. "before 10m", "due", "nag 2", "digest".
    public let rule: String
    /// When it fires.
    public let at: Date
    /// When its rule says; earlier than `at` when quiet hours held it.
    public let nominal: Date

    public init(todoID: Int64?, title: String?, rule: String, at: Date, nominal: Date) {
        self.todoID = todoID
        self.title = title
        self.rule = rule
        self.at = at
        self.nominal = nominal
    }

    public var isDigest: Bool { todoID == nil }
}

/// One firing recorded in the store.
public struct Firing: Hashable, Sendable {
    public let rule: String
    public let at: Date
    public let firedAt: Date
}

extension TodoStore {
    // MARK: - Planning

    static let fingerprintKey = "schedule_fingerprint"
    static let recordConfigKey = "schedule_config"
    static let recordZoneKey = "schedule_zone"
    static let digestThroughKey = "digest_through"

    /// A writer plans by the plan of record when its own rules differ and the record can be
    /// read back; otherwise (the service, a new database, a record from another version) its
    /// own rules plan every todo and become the record.
    func adoptPlanOfRecord() throws {
        if access == .write, let recording, let recorded = try recordedPlanner(recording) {
            planner = recorded
            return
        }
        try planAllIfRulesChanged()
    }

    private func recordedPlanner(_ recording: PlanRecording) throws -> ReminderPlanner? {
        guard let stored = try setting(Self.fingerprintKey), !planner.plansAlike(stored),
              let text = try setting(Self.recordConfigKey), let config = recording.read(text),
              let zone = try setting(Self.recordZoneKey).flatMap(TimeZone.init(identifier:)) else { return nil }
        let recorded = ReminderPlanner(config: config, zone: zone)
        return recorded.fingerprint == stored ? recorded : nil
    }

    /// Plans every todo again when the rules or the zone differ from those that planned them,
    /// and records them as the plan of record. The service calls it whenever the database
    /// changed, so that it takes the schedule back from anyone who planned it otherwise.
    /// Returns whether it planned.
    @discardableResult
    public func planAllIfRulesChanged() throws(StoreError) -> Bool {
        try perform {
            guard try !storedPlanIsOurs() else { return false }
            return try db.writeTransaction {
                guard try !storedPlanIsOurs() else { return false }
                try db.execute("DELETE FROM schedule")
                try planEveryPendingTodo()
                try setSetting(Self.fingerprintKey, planner.fingerprint)
                if let recording {
                    try setSetting(Self.recordConfigKey, recording.write(planner.config))
                    try setSetting(Self.recordZoneKey, planner.calendar.timeZone.identifier)
                }
                if try setting(Self.digestThroughKey) == nil {
                    try setSetting(Self.digestThroughKey, String(Self.stamp(openedAt)))
                }
                return true
            }
        }
    }

    /// Whether the stored schedule was planned as this store's planner plans.
    func storedPlanIsOurs() throws -> Bool {
        guard let stored = try setting(Self.fingerprintKey) else { return false }
        return planner.plansAlike(stored)
    }

    /// One todo at a time: planning 100,000 should not hold them all in memory.
    func planEveryPendingTodo() throws {
        let insert = try db.prepare("INSERT OR IGNORE INTO schedule (todo_id, at, nominal, rule) VALUES (?, ?, ?, ?)")
        try forEachSubject(where: "t.completed_at IS NULL AND \(plannableCondition)") { try insertPlan(for: $0, using: insert) }
    }

    /// Plans these todos again; called inside the transaction that changed them.
    func replan(ids: [Int64]) throws {
        let delete = try db.prepare("DELETE FROM schedule WHERE todo_id = ?")
        for id in ids {
            try delete.run([.integer(id)])
        }
        let list = ids.map(String.init).joined(separator: ",")
        try insertPlans(for: subjects(where: "t.id IN (\(list)) AND t.completed_at IS NULL AND \(plannableCondition)"))
    }

    private func insertPlans(for subjects: [ReminderSubject]) throws {
        let insert = try db.prepare("INSERT OR IGNORE INTO schedule (todo_id, at, nominal, rule) VALUES (?, ?, ?, ?)")
        for subject in subjects { try insertPlan(for: subject, using: insert) }
    }

    /// The reminders still to fire for this todo, as the schedule would hold them (`nudge show`
    /// names the first).
    public func pendingReminders(_ subject: ReminderSubject) throws(StoreError) -> [Reminder] {
        try perform { try isHeld(subject.todo.id) ? [] : try pending(subject) }
    }

    func pending(_ subject: ReminderSubject) throws -> [Reminder] {
        try planner.pending(subject, hasFired: { try hasFired($0, through: subject.remindedThrough) })
    }

    private func insertPlan(for subject: ReminderSubject, using insert: Statement) throws {
        for reminder in try pending(subject) {
            try insert.run([.integer(subject.todo.id), .integer(Self.stamp(reminder.at)),
                            .integer(Self.stamp(reminder.nominal)), .text(reminder.rule.description)])
        }
    }

    /// Whether `reminder` fired between its rule's moment and `floor`: asked only of one that
    /// quiet hours now hold past the todo's `reminded_through`, so rarely. Its rule fired at
    /// or after its moment (later when other quiet hours held it then).
    private func hasFired(_ reminder: Reminder, through floor: Date?) throws -> Bool {
        guard let todoID = reminder.todoID, let floor else { return false }
        // Written as the index firings_once is, so that it is one lookup.
        return try db.scalar("""
            SELECT 1 FROM firings WHERE coalesce(todo_id, 0) = ? AND rule = ? AND at BETWEEN ? AND ? LIMIT 1
            """, [.integer(todoID), .text(reminder.rule.description),
                  .integer(Self.stamp(reminder.nominal)), .integer(Self.stamp(floor))]) != nil
    }

    /// The todos matching `condition` with what the planner needs to know about them.
    func subjects(where condition: String) throws -> [ReminderSubject] {
        var subjects: [ReminderSubject] = []
        try forEachSubject(where: condition) { subjects.append($0) }
        return subjects
    }

    /// Calls `body` with each todo matching `condition`, read one row at a time. Without
    /// `custom`, the subjects come without the todos' own reminders (nags do not need them).
    func forEachSubject(where condition: String, custom readsCustom: Bool = true, _ body: (ReminderSubject) throws -> Void) throws {
        var custom: [Int64: [CustomReminder]] = [:]
        let customRows = try db.prepare("""
            SELECT r.todo_id, r.before_days, r.before_seconds, r.at FROM custom_reminders r
            JOIN todos t ON t.id = r.todo_id WHERE \(condition) ORDER BY r.id
            """)
        while try readsCustom && customRows.step() {
            let row = customRows.row
            custom[row.int64("todo_id"), default: []].append(Self.customReminder(from: row))
        }
        var zones = ZoneCache(fallback: planner.calendar.timeZone)
        let rows = try db.prepare("""
            SELECT \(Self.todoColumnList), t.default_reminders, t.snoozed_until,
                coalesce(t.reminded_through, t.updated_at) AS reminded_through
            \(Self.todoTables)
            WHERE \(condition)
            """)
        let columns = TodoColumns(rows)
        let (usesDefaultRules, snoozedUntil, remindedThrough) =
            (rows.column("default_reminders"), rows.column("snoozed_until"), rows.column("reminded_through"))
        while try rows.step() {
            let row = rows.row
            let todo = Self.todo(from: row, columns: columns, zones: &zones)
            let state = ReminderState(custom: custom[todo.id] ?? [], usesDefaultRules: row.int64(usesDefaultRules) != 0,
                                      snoozedUntil: row.optionalInt64(snoozedUntil).map(Self.date(fromStamp:)),
                                      remindedThrough: Self.date(fromStamp: row.int64(remindedThrough)))
            try body(ReminderSubject(todo: todo, reminderState: state))
        }
    }

    /// From a row with the columns `before_days`, `before_seconds` and `at` of `custom_reminders`.
    static func customReminder(from row: Row) -> CustomReminder {
        if let at = row.optionalInt64("at") { return .at(date(fromStamp: at)) }
        return .before(TimeSpan(days: Int(row.int64("before_days")), seconds: Int(row.int64("before_seconds"))))
    }

    func insertCustomReminders(_ reminders: [CustomReminder], todoID: Int64) throws {
        guard !reminders.isEmpty else { return }
        let insert = try db.prepare("INSERT INTO custom_reminders (todo_id, before_days, before_seconds, at) VALUES (?, ?, ?, ?)")
        for reminder in reminders {
            switch reminder {
            case .before(let span):
                try insert.run([.integer(todoID), .integer(Int64(span.days)), .integer(Int64(span.seconds)), .null])
            case .at(let date):
                try insert.run([.integer(todoID), .null, .null, .integer(Self.stamp(date))])
            }
        }
    }

    static func stamp(_ date: Date) -> Int64 {
        Int64(date.timeIntervalSince1970.rounded(.down))
    }

    // MARK: - Settings

    /// A random name given to this database when it was made, for the journal entries about it.
    public func databaseID() throws(StoreError) -> String {
        try perform { try setting("database_id") ?? "" }
    }

    func setting(_ key: String) throws -> String? {
        try db.scalar("SELECT value FROM settings WHERE key = ?", [.text(key)])?.string
    }

    func setSetting(_ key: String, _ value: String) throws {
        try db.run("INSERT INTO settings (key, value) VALUES (?1, ?2) ON CONFLICT (key) DO UPDATE SET value = ?2",
                   [.text(key), .text(value)])
    }

    // MARK: - Asking the schedule

    /// What fires from `start` through `end`, in order, the digest included.
    public func upcoming(from start: Date, through end: Date, limit: Int? = nil) throws(StoreError) -> [ScheduledReminder] {
        try perform {
            // As the schedule keeps them: whole seconds.
            let first = Self.stamp(start.addingTimeInterval(0.999)), last = Self.stamp(end)
            var reminders = try plansOwnSchedule() ? try ownReminders(from: first, through: last, limit: limit)
                                                   : try storedReminders(from: first, through: last, limit: limit)
            for digest in try digests(after: max(start.addingTimeInterval(-1), try digestThrough()), through: end, limit: limit) {
                reminders.append(ScheduledReminder(todoID: nil, title: nil, rule: ReminderRule.digest.description, at: digest, nominal: digest))
            }
            reminders.sort { ($0.at, $0.todoID ?? 0) < ($1.at, $1.todoID ?? 0) }
            if let limit, reminders.count > limit { reminders.removeLast(reminders.count - limit) }
            return reminders
        }
    }

    private func storedReminders(from first: Int64, through last: Int64, limit: Int?) throws -> [ScheduledReminder] {
        try db.query("""
            SELECT s.todo_id, t.title, s.rule, s.at, s.nominal FROM schedule s JOIN todos t ON t.id = s.todo_id
            WHERE s.at >= ? AND s.at <= ? ORDER BY s.at, s.todo_id LIMIT ?
            """, [.integer(first), .integer(last), .integer(Int64(limit ?? -1))]) {
            ScheduledReminder(todoID: $0.int64("todo_id"), title: $0.text("title"), rule: $0.text("rule") ?? "",
                              at: Self.date(fromStamp: $0.int64("at")), nominal: Self.date(fromStamp: $0.int64("nominal")))
        }
    }

    /// The digests after `after` through `end`, at most `limit` of them: only the first `limit`
    /// can be among the first `limit` reminders. Unbounded, asking through `.distantFuture` (as
    /// the service does for its status line) made one for every day until the year 4001.
    func digests(after: Date, through end: Date, limit: Int?) throws -> [Date] {
        let earliest = try earliestPendingDay()
        var digests: [Date] = []
        var after = after
        while digests.count < limit ?? .max, let digest = planner.nextDigest(after: after, earliestDue: earliest), digest <= end {
            digests.append(digest)
            after = digest
        }
        return digests
    }

    /// The moment the next reminder fires, fired or missed ones not yet recorded included: what
    /// the service sleeps until.
    public func nextReminderTime() throws(StoreError) -> Date? {
        try perform {
            try planInMemoryIfRulesDiffer()
            let planned = try db.scalar("SELECT min(at) FROM schedule")?.int64.map(Self.date(fromStamp:))
            let digest = planner.nextDigest(after: try digestThrough(), earliestDue: try earliestPendingDay())
            return [planned, digest].compactMap { $0 }.min()
        }
    }

    /// Every reminder due at or before `end` that has not fired: what the service fires now.
    public func dueReminders(through end: Date) throws(StoreError) -> [ScheduledReminder] {
        try upcoming(from: .distantPast, through: end).filter { $0.at <= end }
    }

    /// Records that these reminders fired, so that no question asked afterwards returns them
    /// again, and plans what follows them (the next nag, the next digest).
    public func recordFired(_ reminders: [ScheduledReminder], firedAt: Date) throws(StoreError) {
        try write { try recordFiredRows(reminders, firedAt: firedAt) }
    }

    /// `recordFired` inside a transaction the caller holds.
    func recordFiredRows(_ reminders: [ScheduledReminder], firedAt: Date) throws {
        let record = try db.prepare("INSERT OR IGNORE INTO firings (todo_id, rule, at, fired_at) VALUES (?, ?, ?, ?)")
        let advance = try db.prepare("UPDATE todos SET reminded_through = max(coalesce(reminded_through, 0), ?) WHERE id = ?")
        var todos: Set<Int64> = []
        for reminder in reminders {
            try record.run([reminder.todoID.sqlValue, .text(reminder.rule), .integer(Self.stamp(reminder.at)),
                            .integer(Self.stamp(firedAt))])
            if let id = reminder.todoID {
                // Everything of this todo up to the firing is handled: after a long sleep or a
                // clock jump, the nags in between are not sent one after another.
                try advance.run([.integer(Self.stamp(max(reminder.at, firedAt))), .integer(id)])
                todos.insert(id)
            } else if reminder.at > (try digestThrough()) {
                try setSetting(Self.digestThroughKey, String(Self.stamp(reminder.at)))
            }
        }
        try replan(ids: todos.sorted())
    }

    /// What fired for one todo, oldest first.
    public func firings(todoID: Int64) throws(StoreError) -> [Firing] {
        try perform {
            try db.query("SELECT rule, at, fired_at FROM firings WHERE todo_id = ? ORDER BY at, id", [.integer(todoID)]) {
                Firing(rule: $0.text("rule") ?? "", at: Self.date(fromStamp: $0.int64("at")), firedAt: Self.date(fromStamp: $0.int64("fired_at")))
            }
        }
    }

    /// The digest's reminders fired up to this moment.
    func digestThrough() throws -> Date {
        Self.date(fromStamp: Int64(try setting(Self.digestThroughKey) ?? "") ?? Self.stamp(openedAt))
    }

    /// The local day of the earliest pending due, if any todo is pending with a due date.
    func earliestPendingDay() throws -> LocalDate? {
        let timed = try db.scalar("SELECT min(due_at) FROM todos WHERE completed_at IS NULL")?.int64
            .map { WallClock(zone: planner.calendar.timeZone).day(of: Self.date(fromStamp: $0)) }
        let allDay = try db.scalar("SELECT min(due_day) FROM todos WHERE completed_at IS NULL")?.string
            .flatMap { LocalDate(iso: $0) }
        return [timed, allDay].compactMap { $0 }.min()
    }

    // MARK: - Per-todo reminders and snoozing

    /// What the planner knows about one todo: for `nudge explain`.
    public func reminderSubject(id: Int64) throws(StoreError) -> ReminderSubject {
        try perform {
            guard let subject = try subjects(where: "t.id = \(id)").first else { throw StoreError.noSuchTodos([id]) }
            return subject
        }
    }

    /// Adds reminders to a todo, after removing its old ones when `clearing`.
    public func changeReminders(todoID: Int64, adding: [CustomReminder], clearing: Bool, now: Date) throws(StoreError) -> ReminderSubject {
        try write {
            _ = try fetch(ids: [todoID])
            if clearing { try db.run("DELETE FROM custom_reminders WHERE todo_id = ?", [.integer(todoID)]) }
            try insertCustomReminders(adding, todoID: todoID)
            try db.run("UPDATE todos SET updated_at = ?1, reminded_through = max(coalesce(reminded_through, ?1 - 1), ?1 - 1) WHERE id = ?2",
                       [.integer(Self.stamp(now)), .integer(todoID)])
            try replan(ids: [todoID])
            guard let subject = try subjects(where: "t.id = \(todoID)").first else { throw StoreError.noSuchTodos([todoID]) }
            return subject
        }
    }

    /// Holds a pending todo's reminders until `until`, when one reminder fires in their place.
    public func snooze(todoID: Int64, until: Date, now: Date) throws(StoreError) -> Todo {
        try write {
            let todo = try fetch(ids: [todoID])[0]
            guard !todo.isCompleted else { throw StoreError.alreadyDone(todoID) }
            try db.run("UPDATE todos SET snoozed_until = ?1, reminded_through = max(coalesce(reminded_through, ?2 - 1), ?2 - 1) WHERE id = ?3",
                       [.integer(Self.stamp(until)), .integer(Self.stamp(now)), .integer(todoID)])
            try replan(ids: [todoID])
            return todo
        }
    }
}
