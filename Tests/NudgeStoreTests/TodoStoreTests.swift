import Foundation
import NudgeCore
import Testing
@testable import NudgeTestSupport
@testable import NudgeStore

struct TodoStoreTests {
    let folder = TemporaryDirectory()
    let berlin = TimeZone(identifier: "Europe/Berlin")!
    /// 2026-12-01 12:00 UTC: these tests are about storage, not the clock.
    let now = Date(timeIntervalSince1970: 1_796_126_400)
    var planner: ReminderPlanner { ReminderPlanner(config: NudgeConfig(), zone: berlin) }

    func makeStore() throws -> TodoStore {
        try TodoStore(path: folder.file("data/nudge.db"), planner: planner, now: now)
    }

    @Test func createsAPrivateFileInAPrivateFolder() throws {
        _ = try makeStore()
        let folderMode = try FileManager.default.attributesOfItem(atPath: folder.file("data"))[.posixPermissions] as? Int
        let fileMode = try FileManager.default.attributesOfItem(atPath: folder.file("data/nudge.db"))[.posixPermissions] as? Int
        #expect(folderMode == 0o700)
        #expect(fileMode == 0o600)
    }

    /// Like ~/.local/share/nudge on a new account: the missing ~/.local and ~/.local/share
    /// belong to the whole desktop and get the usual mode; only Nudge's own folder is 0700.
    @Test func leavesMissingParentFoldersAtTheUsualMode() throws {
        // The umask is read, not set: it is the whole process's, and other tests run meanwhile.
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("Umask:") })
        let usual = 0o777 & ~(try #require(Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces), radix: 8)))
        _ = try TodoStore(path: folder.file("home/.local/share/nudge/nudge.db"), planner: planner, now: now)
        func mode(_ path: String) throws -> Int? {
            try FileManager.default.attributesOfItem(atPath: folder.file(path))[.posixPermissions] as? Int
        }
        #expect(try mode("home") == usual)
        #expect(try mode("home/.local") == usual)
        #expect(try mode("home/.local/share") == usual)
        #expect(try mode("home/.local/share/nudge") == 0o700)
    }

    @Test func keepsEveryFieldOfATodo() throws {
        let store = try makeStore()
        _ = try store.addCategory(name: "Work", icon: "briefcase", now: now)
        let instant = Date(timeIntervalSince1970: 1_798_099_200)
        let added = try store.add(NewTodo(title: "Report <b>&</b> 😀", notes: "line 1\nline 2",
                                          due: .at(instant, zone: berlin), priority: .high, categoryName: "work"), now: now)
        let read = try store.todos(ids: [added.id])[0]
        #expect(read == added)
        #expect(read.title == "Report <b>&</b> 😀")
        #expect(read.notes == "line 1\nline 2")
        #expect(read.due == .at(instant, zone: berlin))
        #expect(read.priority == .high)
        #expect(read.category?.name == "Work")
        #expect(read.category?.icon == "briefcase")
        #expect(!read.isCompleted)

        let allDay = try store.add(NewTodo(title: "Holiday", due: .allDay(LocalDate(year: 2026, month: 12, day: 24)!)), now: now)
        #expect(try store.todos(ids: [allDay.id])[0].due == .allDay(LocalDate(year: 2026, month: 12, day: 24)!))
    }

    @Test func neverReusesAnID() throws {
        let store = try makeStore()
        let first = try store.add(NewTodo(title: "a"), now: now)
        let second = try store.add(NewTodo(title: "b"), now: now)
        _ = try store.delete(ids: [second.id])
        let third = try store.add(NewTodo(title: "c"), now: now)
        #expect(first.id == 1)
        #expect(third.id == 3)
    }

    @Test func completingAndReopeningRecordTheTime() throws {
        let store = try makeStore()
        let todo = try store.add(NewTodo(title: "a"), now: now)
        let when = Date(timeIntervalSince1970: 1_800_000_000)
        let (before, after) = try store.setCompleted(ids: [todo.id], done: true, now: when)
        #expect(!before[0].isCompleted)
        #expect(after[0].completedAt == when)
        let reopened = try store.setCompleted(ids: [todo.id], done: false, now: now).after[0]
        #expect(reopened.completedAt == nil)
    }

    @Test func anUnknownIDChangesNothing() throws {
        let store = try makeStore()
        let todo = try store.add(NewTodo(title: "a"), now: now)
        #expect(throws: StoreError.noSuchTodos([99])) { try store.setCompleted(ids: [todo.id, 99], done: true, now: now) }
        #expect(throws: StoreError.noSuchTodos([98, 99])) { try store.delete(ids: [todo.id, 98, 99]) }
        #expect(try store.todos(ids: [todo.id])[0].completedAt == nil)
        #expect(try store.count() == 1)
    }

    @Test func filtersCombine() throws {
        let store = try makeStore()
        _ = try store.addCategory(name: "home", icon: nil, now: now)
        _ = try store.add(NewTodo(title: "Buy MILK", categoryName: "home"), now: now)
        _ = try store.add(NewTodo(title: "Call mum", notes: "about the milk", priority: .high), now: now)
        _ = try store.add(NewTodo(title: "Pay rent", priority: .high, categoryName: "home"), now: now)
        let done = try store.add(NewTodo(title: "Old milk"), now: now)
        _ = try store.setCompleted(ids: [done.id], done: true, now: now)

        func titles(_ query: TodoQuery) throws -> Set<String> { Set(try store.todos(matching: query).map(\.title)) }
        #expect(try titles(TodoQuery(search: "milk")) == ["Buy MILK", "Call mum"])
        #expect(try titles(TodoQuery(state: .all, search: "Milk")) == ["Buy MILK", "Call mum", "Old milk"])
        #expect(try titles(TodoQuery(state: .completed)) == ["Old milk"])
        #expect(try titles(TodoQuery(categoryName: "HOME", priority: .high)) == ["Pay rent"])
        #expect(throws: StoreError.noSuchCategory("garden")) { try store.todos(matching: TodoQuery(categoryName: "garden")) }
    }

    @Test func searchTreatsWildcardsAndAccentsLiterally() throws {
        let store = try makeStore()
        _ = try store.add(NewTodo(title: "100% done"), now: now)
        _ = try store.add(NewTodo(title: "1000 things"), now: now)
        _ = try store.add(NewTodo(title: "snake_case"), now: now)
        _ = try store.add(NewTodo(title: "snakeXcase"), now: now)
        _ = try store.add(NewTodo(title: "Crème BRÛLÉE"), now: now)
        #expect(try store.todos(matching: TodoQuery(search: "0%")).map(\.title) == ["100% done"])
        #expect(try store.todos(matching: TodoQuery(search: "e_c")).map(\.title) == ["snake_case"])
        #expect(try store.todos(matching: TodoQuery(search: "brûlée")).map(\.title) == ["Crème BRÛLÉE"])
    }

    @Test func categoryNamesAreUniqueIgnoringCase() throws {
        let store = try makeStore()
        _ = try store.addCategory(name: "Work", icon: nil, now: now)
        #expect(throws: StoreError.categoryExists("work")) { try store.addCategory(name: "work", icon: nil, now: now) }
        _ = try store.addCategory(name: "Home", icon: nil, now: now)
        #expect(throws: StoreError.categoryExists("HOME")) { try store.renameCategory("work", to: "HOME") }
        #expect(try store.renameCategory("work", to: "Office").name == "Office")
        #expect(try store.category(named: "office").icon == Category.defaultIcon)
    }

    @Test func deletingACategoryKeepsItsTodos() throws {
        let store = try makeStore()
        _ = try store.addCategory(name: "work", icon: nil, now: now)
        let todo = try store.add(NewTodo(title: "a", categoryName: "work"), now: now)
        #expect(try store.deleteCategory("work", now: now) == 1)
        #expect(try store.todos(ids: [todo.id])[0].category == nil)
        #expect(try store.categories().isEmpty)
    }

    @Test func reopensAnExistingDatabaseWithoutMigratingAgain() throws {
        let path = folder.file("nudge.db")
        _ = try TodoStore(path: path, planner: planner, now: now).add(NewTodo(title: "kept"), now: now)
        let store = try TodoStore(path: path, planner: planner, now: now)
        #expect(try store.todos(matching: TodoQuery()).map(\.title) == ["kept"])
        #expect(try store.db.scalar("SELECT count(*) FROM nudge_migrations")?.int64 == Int64(Schema.migrations.count))
        #expect(try store.db.scalar("PRAGMA journal_mode")?.string == "wal")
    }

    /// nudged calls it after planning every todo, which fills the cache up to its 2 MB.
    @Test func releasingMemoryEmptiesTheCacheAScanFilled() throws {
        let store = try makeStore()
        try store.db.execute("""
            CREATE TABLE filler (data BLOB);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000)
            INSERT INTO filler SELECT randomblob(1000) FROM n;
            """)
        #expect(try store.db.scalar("SELECT sum(length(data)) FROM filler")?.int64 == 1_000_000)
        let filled = store.db.cacheUsed
        #expect(filled > 1_000_000)
        store.releaseMemory()
        #expect(store.db.cacheUsed < filled / 4)
    }
}

/// What the service's hooks learn of: adds, completions and snoozes since a mark.
struct ChangeMarksTests {
    let folder = TemporaryDirectory()
    let zone = TimeZone(identifier: "Europe/Berlin")!
    let now = Date(timeIntervalSince1970: 1_796_126_400)

    @Test func changesSinceAMarkAreReportedOnceEach() throws {
        let store = try TodoStore(path: folder.file("a.db"), planner: ReminderPlanner(config: NudgeConfig(), zone: zone), now: now)
        let before = try store.add(NewTodo(title: "before", due: nil), now: now)
        _ = try store.snooze(todoID: before.id, until: now.addingTimeInterval(600), now: now)
        let marks = try store.changeMarks()
        #expect(try store.changes(since: marks).changes.isEmpty)
        let added = try store.add(NewTodo(title: "added", due: nil), now: now)
        _ = try store.setCompleted(ids: [before.id], done: true, now: now) { _ in nil }
        _ = try store.snooze(todoID: added.id, until: now.addingTimeInterval(3600), now: now)
        let (changes, next) = try store.changes(since: marks)
        #expect(changes == [.added(todoID: added.id), .completed(todoID: before.id, due: nil),
                            .snoozed(todoID: added.id, until: now.addingTimeInterval(3600))])
        #expect(try store.changes(since: next).changes.isEmpty)
        // Snoozed again to another time: a new snooze.
        _ = try store.snooze(todoID: added.id, until: now.addingTimeInterval(7200), now: now)
        #expect(try store.changes(since: next).changes == [.snoozed(todoID: added.id, until: now.addingTimeInterval(7200))])
        #expect(try store.todoIDs(uuids: [added.uuid, "no-such-uuid"]) == [added.id])
    }
}
