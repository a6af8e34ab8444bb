import Foundation
import NudgeCore
import Testing
@testable import NudgeTestSupport
@testable import NudgeStore

/// `deferCheckpoints`: the write-ahead log grows past SQLite's 1,000 pages without a commit
/// checkpointing it, until `checkpointLog` copies it into the database file.
struct LogCheckpointTests {
    let folder = TemporaryDirectory()
    let now = Date(timeIntervalSince1970: 1_796_126_400)
    let notes = String(repeating: "n", count: 3_000)

    func makeStore(_ name: String) throws -> TodoStore {
        try TodoStore(path: folder.file(name), planner: ReminderPlanner(config: NudgeConfig(), zone: .gmt), now: now)
    }

    func size(_ name: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: folder.file(name))[.size] as? Int)
    }

    @Test func commitsLeaveTheCheckpointToTheOwner() throws {
        let store = try makeStore("deferred.db")
        store.deferCheckpoints()
        let empty = try size("deferred.db")
        var added = 0
        while store.logPages < 1_200 && added < 5_000 {
            _ = try store.add(NewTodo(title: "Todo \(added)", notes: notes), now: now)
            added += 1
        }
        #expect(store.logPages >= 1_200)
        #expect(try size("deferred.db") == empty)

        try store.checkpointLog()
        #expect(store.logPages == 0)
        #expect(try size("deferred.db") > empty + added * notes.utf8.count)
        _ = try store.add(NewTodo(title: "One more"), now: now)
        #expect(store.logPages < 20, "the log starts again from its beginning")
        #expect(try store.todos(matching: TodoQuery(state: .all)).count == added + 1)

        // The same commits without deferring: SQLite checkpoints in one of them.
        let other = try makeStore("automatic.db")
        let otherEmpty = try size("automatic.db")
        for index in 0..<added {
            _ = try other.add(NewTodo(title: "Todo \(index)", notes: notes), now: now)
        }
        #expect(try size("automatic.db") > otherEmpty)
        #expect(other.logPages == 0)
    }
}
