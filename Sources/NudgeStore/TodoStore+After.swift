import Foundation
import NudgeCore
import NudgeSQLite

/// A todo another comes after (`nudge add --after`): while it is pending, the other is blocked.
public struct Blocker: Hashable, Sendable {
    public let id: Int64
    public let uuid: String
    public let title: String
    public let isDone: Bool
}

extension TodoStore {
    /// A todo's blockers' uuids, as one text separated by spaces, in the order of their ids.
    static let afterColumn = """
        (SELECT group_concat(b.uuid, ' ') FROM todo_after a JOIN todos b ON b.id = a.blocker_id
         WHERE a.todo_id = t.id) AS after_uuids
        """

    /// The pending blockers of every blocked todo, by todo, in the order of their ids: one read
    /// of the few rows of todo_after, for the list.
    public func openBlockersByTodo() throws(StoreError) -> [Int64: [Int64]] {
        try perform {
            var found: [Int64: [Int64]] = [:]
            let statement = try db.prepare("""
                SELECT a.todo_id, a.blocker_id FROM todo_after a JOIN todos b ON b.id = a.blocker_id
                WHERE b.completed_at IS NULL ORDER BY a.todo_id, a.blocker_id
                """)
            while try statement.step() {
                found[statement.row.int64("todo_id"), default: []].append(statement.row.int64("blocker_id"))
            }
            return found
        }
    }

    /// Whether the todo `t` waits for a pending blocker: one lookup by the primary key of
    /// todo_after for each of its blockers.
    static let blockedCondition = """
        EXISTS (SELECT 1 FROM todo_after a JOIN todos b ON b.id = a.blocker_id
                WHERE a.todo_id = t.id AND b.completed_at IS NULL)
        """

    /// The condition a todo meets when the planner may plan it: not blocked while the config
    /// holds blocked todos' reminders.
    var plannableCondition: String {
        planner.config.holdBlocked ? "NOT " + Self.blockedCondition : "1"
    }

    /// Whether the todo's reminders are held: it is blocked, and the config holds blocked todos.
    func isHeld(_ id: Int64) throws -> Bool {
        guard planner.config.holdBlocked else { return false }
        return try db.scalar("SELECT 1 FROM todos t WHERE t.id = ? AND \(Self.blockedCondition)", [.integer(id)]) != nil
    }

    /// The pending todos whose reminders are held now: what the service compares with the
    /// next time it fires, to tell the todos released meanwhile.
    public func heldTodoIDs() throws(StoreError) -> Set<Int64> {
        try perform {
            guard planner.config.holdBlocked else { return [] }
            return Set(try db.query("""
                SELECT DISTINCT a.todo_id FROM todo_after a JOIN todos b ON b.id = a.blocker_id
                JOIN todos t ON t.id = a.todo_id WHERE b.completed_at IS NULL AND t.completed_at IS NULL
                """) { $0.int64("todo_id") })
        }
    }

    /// Each todo's blockers, done or not, in the order of their ids; a todo without any is absent.
    public func blockers(of ids: [Int64]) throws(StoreError) -> [Int64: [Blocker]] {
        try perform { try blockerRows(of: ids) }
    }

    func blockerRows(of ids: [Int64]) throws -> [Int64: [Blocker]] {
        let statement = try db.prepare("""
            SELECT b.id, b.uuid, b.title, b.completed_at IS NOT NULL AS done FROM todo_after a
            JOIN todos b ON b.id = a.blocker_id WHERE a.todo_id = ? ORDER BY b.id
            """)
        var found: [Int64: [Blocker]] = [:]
        for id in ids {
            try statement.bind([.integer(id)])
            while try statement.step() {
                let row = statement.row
                found[id, default: []].append(Blocker(id: row.int64("id"), uuid: row.text("uuid") ?? "",
                                                      title: row.text("title") ?? "", isDone: row.int64("done") != 0))
            }
            statement.reset()
        }
        return found
    }

    /// Puts the todo after each of `adding` and no longer after each of `removing`, and plans
    /// it again (it may be held or released). Nothing changes unless every id exists and no
    /// todo would come, through others, after itself.
    public func changeBlockers(todoID: Int64, adding: [Int64], removing: [Int64], now: Date) throws(StoreError) -> [Blocker] {
        try write {
            _ = try fetch(ids: [todoID])
            try applyBlockerChange(todoID: todoID, adding: adding, removing: removing)
            try replan(ids: [todoID])
            return try blockerRows(of: [todoID])[todoID] ?? []
        }
    }

    /// `changeBlockers` without planning, inside the caller's transaction.
    func applyBlockerChange(todoID: Int64, adding: [Int64], removing: [Int64]) throws {
        let remove = try db.prepare("DELETE FROM todo_after WHERE todo_id = ? AND blocker_id = ?")
        for id in removing { try remove.run([.integer(todoID), .integer(id)]) }
        try insertBlockers(adding, todoID: todoID)
    }

    /// Puts the todo after each of `blockers`; fails naming the ids that do not exist, or the
    /// todos a cycle would go through.
    func insertBlockers(_ blockers: [Int64], todoID: Int64) throws {
        guard !blockers.isEmpty else { return }
        let missing = try lookUp(ids: blockers).missing
        guard missing.isEmpty else { throw StoreError.noSuchTodos(missing) }
        let insert = try db.prepare("INSERT OR IGNORE INTO todo_after (todo_id, blocker_id) VALUES (?, ?)")
        for blocker in blockers {
            if let cycle = try cycle(todoID: todoID, after: blocker) { throw StoreError.cycle(ids: cycle.map(\.id), titles: cycle.map(\.title)) }
            try insert.run([.integer(todoID), .integer(blocker)])
        }
    }

    /// The todos, from `todoID` through `blocker` and back to `todoID`, that putting `todoID`
    /// after `blocker` would make a cycle of; nil when it makes none. The stored blockers have
    /// no cycle, so the search from `blocker` through its blockers ends, each todo seen once.
    private func cycle(todoID: Int64, after blocker: Int64) throws -> [(id: Int64, title: String)]? {
        let next = try db.prepare("SELECT blocker_id FROM todo_after WHERE todo_id = ?")
        // Each todo reached, with the one it was reached from: the shortest chain back.
        var reachedFrom: [Int64: Int64] = [blocker: blocker]
        var frontier = [blocker]
        while !frontier.isEmpty, reachedFrom[todoID] == nil {
            var following: [Int64] = []
            for id in frontier {
                try next.bind([.integer(id)])
                while try next.step() {
                    let found = next.row.int64("blocker_id")
                    if reachedFrom[found] == nil {
                        reachedFrom[found] = id
                        following.append(found)
                    }
                }
                next.reset()
            }
            frontier = following
        }
        guard reachedFrom[todoID] != nil else { return nil }
        var back = [todoID]
        while let last = back.last, last != blocker, let from = reachedFrom[last] { back.append(from) }
        // Read as: todoID after blocker after ... after todoID.
        let chain = [todoID] + back.reversed()
        let titles = Dictionary(try lookUp(ids: Array(Set(chain))).found.map { ($0.id, $0.title) },
                                uniquingKeysWith: { first, _ in first })
        return chain.map { ($0, titles[$0] ?? "") }
    }

    /// Gives each record's todo the blockers its `after` names, once every record is stored (a
    /// blocker may come later in the file). A uuid that would make a cycle is left out: the file
    /// is outside data, and the rest of it still comes in. One of no stored todo is left out
    /// too, unless `keepingWaiting` (a sync pass): then it waits in todo_after_waiting, and
    /// `linkArrivedBlockers` links it when its todo comes.
    func importBlockers(_ records: [TodoRecord], keepingWaiting: Bool = false) throws {
        let find = try db.prepare("SELECT id FROM todos WHERE uuid = ?")
        func id(_ uuid: String) throws -> Int64? {
            try find.bind([.text(uuid)])
            defer { find.reset() }
            return try find.step() ? find.row.int64("id") : nil
        }
        let waitingOf = try db.prepare("SELECT blocker_uuid FROM todo_after_waiting WHERE todo_id = ?")
        let remove = try db.prepare("DELETE FROM todo_after WHERE todo_id = ? AND blocker_id = ?")
        let insert = try db.prepare("INSERT OR IGNORE INTO todo_after (todo_id, blocker_id) VALUES (?, ?)")
        let forget = try db.prepare("DELETE FROM todo_after_waiting WHERE todo_id = ?")
        let wait = try db.prepare("INSERT OR IGNORE INTO todo_after_waiting (todo_id, blocker_uuid) VALUES (?, ?)")
        for record in records {
            guard let after = record.after, let todoID = try id(record.uuid) else { continue }
            var wanted: [Int64] = [], absent: [String] = []
            for uuid in after {
                if let blocker = try id(uuid) { wanted.append(blocker) } else { absent.append(uuid) }
            }
            try waitingOf.bind([.integer(todoID)])
            var waiting: Set<String> = []
            while try waitingOf.step() { waiting.insert(waitingOf.row.text("blocker_uuid") ?? "") }
            waitingOf.reset()
            // An import that names a waiting blocker keeps it waiting; one that does not, forgets it.
            let stillWaiting = Set(keepingWaiting ? absent : absent.filter(waiting.contains))
            if stillWaiting != waiting {
                try forget.run([.integer(todoID)])
                for uuid in stillWaiting.sorted() { try wait.run([.integer(todoID), .text(uuid)]) }
            }
            let stored = try blockerRows(of: [todoID])[todoID]?.map(\.id) ?? []
            guard Set(wanted) != Set(stored) else { continue }
            for blocker in stored where !wanted.contains(blocker) { try remove.run([.integer(todoID), .integer(blocker)]) }
            for blocker in wanted where !stored.contains(blocker) {
                if try cycle(todoID: todoID, after: blocker) == nil { try insert.run([.integer(todoID), .integer(blocker)]) }
            }
            try replan(ids: [todoID])
        }
    }

    /// Links each waiting blocker whose todo is stored now (unless that would make a cycle) and
    /// plans its todo again.
    func linkArrivedBlockers() throws {
        let arrived = try db.query("""
            SELECT w.todo_id, w.blocker_uuid, b.id AS blocker_id FROM todo_after_waiting w
            JOIN todos b ON b.uuid = w.blocker_uuid ORDER BY w.todo_id, b.id
            """) { ($0.int64("todo_id"), $0.text("blocker_uuid") ?? "", $0.int64("blocker_id")) }
        guard !arrived.isEmpty else { return }
        let forget = try db.prepare("DELETE FROM todo_after_waiting WHERE todo_id = ? AND blocker_uuid = ?")
        let insert = try db.prepare("INSERT OR IGNORE INTO todo_after (todo_id, blocker_id) VALUES (?, ?)")
        for (todoID, uuid, blocker) in arrived {
            try forget.run([.integer(todoID), .text(uuid)])
            if try cycle(todoID: todoID, after: blocker) == nil { try insert.run([.integer(todoID), .integer(blocker)]) }
        }
        try replan(ids: Array(Set(arrived.map(\.0))).sorted())
    }

    /// The blockers waiting for their todos, by the uuid of the todo that comes after them.
    func waitingBlockers() throws -> [String: [String]] {
        let rows = try db.query("""
            SELECT t.uuid, w.blocker_uuid FROM todo_after_waiting w JOIN todos t ON t.id = w.todo_id
            ORDER BY w.todo_id, w.blocker_uuid
            """) { ($0.text("uuid") ?? "", $0.text("blocker_uuid") ?? "") }
        return Dictionary(grouping: rows, by: \.0).mapValues { $0.map(\.1) }
    }

    /// Plans again the todos that come after any of `ids`: a blocker done, reopened or gone
    /// releases or holds them. Called inside the transaction that changed the blockers.
    func replanDependents(of ids: [Int64]) throws {
        let dependents = try dependents(of: ids)
        if !dependents.isEmpty { try replan(ids: dependents) }
    }

    /// The todos that come after any of `ids`.
    func dependents(of ids: [Int64]) throws -> [Int64] {
        guard !ids.isEmpty else { return [] }
        let list = ids.map(String.init).joined(separator: ",")
        return try db.query("SELECT DISTINCT todo_id FROM todo_after WHERE blocker_id IN (\(list)) ORDER BY todo_id") { $0.int64("todo_id") }
    }
}
