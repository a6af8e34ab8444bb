import Foundation
import NudgeCore
import NudgeSQLite

/// Whose schedule answers a reader (`nudge upcoming` in another zone, or with another config).
enum ReaderSchedule {
    /// The stored one: its planner plans as the plan of record does.
    case stored
    /// Its own, planned for each question, only for the todos that may remind in its window.
    case own
    /// Its own, every todo planned into a temporary table of the connection.
    case ownInMemory
}

extension TodoStore {
    /// Whether what a reader asks of the schedule is planned by its own rules, the stored
    /// schedule being planned by others (another config, or a zone of other offsets). Found out
    /// when first asked: a command that shows no reminder plans nothing.
    func plansOwnSchedule() throws -> Bool {
        guard access == .read else { return false }
        if readerSchedule == nil { readerSchedule = try storedPlanIsOurs() ? .stored : .own }
        return readerSchedule == .own
    }

    /// For a question about every todo (the next reminder of all): a reader planning its own
    /// schedule plans them all, into a temporary table of this connection that hides the
    /// stored one and is never written to the file.
    func planInMemoryIfRulesDiffer() throws {
        guard try plansOwnSchedule() else { return }
        try db.execute("""
            CREATE TEMP TABLE schedule (
                todo_id INTEGER NOT NULL, at INTEGER NOT NULL, nominal INTEGER NOT NULL, rule TEXT NOT NULL,
                PRIMARY KEY (todo_id, at)
            ) WITHOUT ROWID;
            CREATE INDEX temp.schedule_by_time ON schedule(at);
            """)
        try planEveryPendingTodo()
        readerSchedule = .ownInMemory
    }

    /// What the reader's own planner fires from `first` through `last` (stamps), as the
    /// schedule would hold it: only the todos whose reminders may fall then are planned.
    func ownReminders(from first: Int64, through last: Int64, limit: Int?) throws -> [ScheduledReminder] {
        guard first <= last else { return [] }
        var reminders: [ScheduledReminder] = []
        try forEachSubject(where: Self.mayRemind(from: first, through: last, reach: planner.reach) + " AND \(plannableCondition)") { subject in
            var previous: Int64?
            for reminder in try pending(subject) {
                // Kept as the schedule keeps them: in whole seconds, one a second.
                let at = Self.stamp(reminder.at)
                guard at >= first, at <= last, at != previous else { continue }
                previous = at
                reminders.append(ScheduledReminder(todoID: subject.todo.id, title: subject.todo.title,
                                                   rule: reminder.rule.description, at: Self.date(fromStamp: at),
                                                   nominal: Self.date(fromStamp: Self.stamp(reminder.nominal))))
            }
        }
        reminders.sort { ($0.at, $0.todoID ?? 0) < ($1.at, $1.todoID ?? 0) }
        if let limit, limit >= 0, reminders.count > limit { reminders.removeLast(reminders.count - limit) }
        return reminders
    }

    /// The pending todos that may remind from `first` through `last`: those anchored within
    /// the rules' reach of it (an all-day due's anchor is a wall time on its day, so its day
    /// is taken with two days to spare), and those with reminders of their own or a snooze.
    static func mayRemind(from first: Int64, through last: Int64, reach: (before: TimeInterval, after: TimeInterval?)) -> String {
        let low = reach.after.map { Double(first) - $0 }
        let high = Double(last) + reach.before
        var timed = ["t.due_at IS NOT NULL"], allDay = ["t.due_day IS NOT NULL"]
        if let low {
            timed.append("t.due_at >= \(boundedStamp(low))")
            if let day = utcDay(low) { allDay.append("t.due_day >= '\(day.adding(days: -2))'") }
        }
        timed.append("t.due_at <= \(boundedStamp(high))")
        if let day = utcDay(high) { allDay.append("t.due_day <= '\(day.adding(days: 2))'") }
        return """
            t.completed_at IS NULL AND (t.snoozed_until IS NOT NULL
                OR t.id IN (SELECT todo_id FROM custom_reminders)
                OR (\(timed.joined(separator: " AND "))) OR (\(allDay.joined(separator: " AND "))))
            """
    }

    private static func boundedStamp(_ seconds: Double) -> Int64 {
        Int64(min(max(seconds, -1e15), 1e15))
    }

    /// The day in UTC of a moment in the years 0001-9999, with days to spare; nil outside.
    private static func utcDay(_ seconds: Double) -> LocalDate? {
        // 0001-01-08 and 9999-12-24.
        guard seconds >= -62_135_000_000, seconds <= 253_401_700_000 else { return nil }
        return WallClock(zone: TimeZone(secondsFromGMT: 0)!).day(of: Date(timeIntervalSince1970: seconds))
    }
}
