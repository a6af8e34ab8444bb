import Foundation
import NudgeCore
import Testing
@testable import NudgeTestSupport
@testable import NudgeStore

/// `importTodos`: matched by UUID, newer wins, one transaction, nothing written in a dry run.
struct StoreImportTests {
    let folder = TemporaryDirectory()
    let berlin = TimeZone(identifier: "Europe/Berlin")!
    let now = Date(timeIntervalSince1970: 1_796_126_400)

    func makeStore() throws -> TodoStore {
        try TodoStore(path: folder.file("nudge.db"), planner: ReminderPlanner(config: NudgeConfig(), zone: berlin), now: now)
    }

    func todo(_ uuid: String, _ title: String, updated: TimeInterval, category: String? = nil) -> TodoRecord {
        TodoRecord(uuid: uuid, title: title, due: .at(now.addingTimeInterval(86_400), zone: berlin),
             category: category,
             createdAt: Date(timeIntervalSince1970: 1_700_000_000), updatedAt: Date(timeIntervalSince1970: updated))
    }

    @Test func addsKeepingUUIDAndTimesThenUpdatesOnlyWhenNewer() throws {
        let store = try makeStore()
        let first = try store.importTodos([todo("a", "One", updated: 1_700_000_100, category: "Home"),
                                           todo("b", "Two", updated: 1_700_000_100, category: "home")], now: now)
        #expect(first.outcomes == [.added, .added])
        #expect(first.newCategories == ["Home"])
        let stored = try store.todos(matching: TodoQuery(state: .all)).sorted { $0.uuid < $1.uuid }
        #expect(stored.map(\.uuid) == ["a", "b"])
        #expect(stored[0].createdAt == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(stored[0].updatedAt == Date(timeIntervalSince1970: 1_700_000_100))
        #expect(stored.map { $0.category?.name } == ["Home", "Home"])

        let second = try store.importTodos([todo("a", "One again", updated: 1_700_000_100),
                                            todo("b", "Two older", updated: 1_700_000_000),
                                            todo("b", "Two newer", updated: 1_700_000_200)], now: now)
        #expect(second.outcomes == [.skipped, .skipped, .updated])
        let titles = try store.todos(matching: TodoQuery(state: .all)).map(\.title).sorted()
        #expect(titles == ["One", "Two newer"])
    }

    @Test func aDryRunWritesNothing() throws {
        let store = try makeStore()
        let summary = try store.importTodos([todo("a", "One", updated: 1, category: "New"), todo("a", "Again", updated: 2)],
                                            now: now, dryRun: true)
        #expect(summary.outcomes == [.added, .updated])
        #expect(summary.newCategories == ["New"])
        #expect(try store.count() == 0)
        #expect(try store.categories().isEmpty)
    }
}
