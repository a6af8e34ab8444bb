import Foundation
import NudgeCore
import Testing
@testable import NudgeTestSupport
@testable import NudgeStore

struct TodoStoreTests {
    let folder = TemporaryDirectory()
    let berlin = TimeZone(identifier: "Europe/Berlin")!

    func makeStore() throws -> TodoStore {
        try TodoStore(path: folder.file("data/nudge.db"))
    }

    @Test func createsAPrivateFileInAPrivateFolder() throws {
        _ = try makeStore()
        let folderMode = try FileManager.default.attributesOfItem(atPath: folder.file("data"))[.posixPermissions] as? Int
        let fileMode = try FileManager.default.attributesOfItem(atPath: folder.file("data/nudge.db"))[.posixPermissions] as? Int
        #expect(folderMode == 0o700)
        #expect(fileMode == 0o600)
    }

    @Test func keepsEveryFieldOfATodo() throws {
        let store = try makeStore()
        _ = try store.addCategory(name: "Work", icon: "briefcase")
        let instant = Date(timeIntervalSince1970: 1_798_099_200)
        let added = try store.add(NewTodo(title: "Report <b>&</b> 😀", notes: "line 1\nline 2",
                                          due: .at(instant, zone: berlin), priority: .high, categoryName: "work"))
        let read = try store.todos(ids: [added.id])[0]
        #expect(read == added)
        #expect(read.title == "Report <b>&</b> 😀")
        #expect(read.notes == "line 1\nline 2")
        #expect(read.due == .at(instant, zone: berlin))
        #expect(read.priority == .high)
        #expect(read.category?.name == "Work")
        #expect(read.category?.icon == "briefcase")
        #expect(!read.isCompleted)

        let allDay = try store.add(NewTodo(title: "Holiday", due: .allDay(LocalDate(year: 2026, month: 12, day: 24)!)))
        #expect(try store.todos(ids: [allDay.id])[0].due == .allDay(LocalDate(year: 2026, month: 12, day: 24)!))
    }

    @Test func neverReusesAnID() throws {
        let store = try makeStore()
        let first = try store.add(NewTodo(title: "a"))
        let second = try store.add(NewTodo(title: "b"))
        _ = try store.delete(ids: [second.id])
        let third = try store.add(NewTodo(title: "c"))
        #expect(first.id == 1)
        #expect(third.id == 3)
    }

    @Test func completingAndReopeningRecordTheTime() throws {
        let store = try makeStore()
        let todo = try store.add(NewTodo(title: "a"))
        let when = Date(timeIntervalSince1970: 1_800_000_000)
        let (before, after) = try store.setCompleted(ids: [todo.id], done: true, now: when)
        #expect(!before[0].isCompleted)
        #expect(after[0].completedAt == when)
        let reopened = try store.setCompleted(ids: [todo.id], done: false).after[0]
        #expect(reopened.completedAt == nil)
    }

    @Test func anUnknownIDChangesNothing() throws {
        let store = try makeStore()
        let todo = try store.add(NewTodo(title: "a"))
        #expect(throws: StoreError.noSuchTodos([99])) { try store.setCompleted(ids: [todo.id, 99], done: true) }
        #expect(throws: StoreError.noSuchTodos([98, 99])) { try store.delete(ids: [todo.id, 98, 99]) }
        #expect(try store.todos(ids: [todo.id])[0].completedAt == nil)
        #expect(try store.count() == 1)
    }

    @Test func filtersCombine() throws {
        let store = try makeStore()
        _ = try store.addCategory(name: "home", icon: nil)
        _ = try store.add(NewTodo(title: "Buy MILK", categoryName: "home"))
        _ = try store.add(NewTodo(title: "Call mum", notes: "about the milk", priority: .high))
        _ = try store.add(NewTodo(title: "Pay rent", priority: .high, categoryName: "home"))
        let done = try store.add(NewTodo(title: "Old milk"))
        _ = try store.setCompleted(ids: [done.id], done: true)

        func titles(_ query: TodoQuery) throws -> Set<String> { Set(try store.todos(matching: query).map(\.title)) }
        #expect(try titles(TodoQuery(search: "milk")) == ["Buy MILK", "Call mum"])
        #expect(try titles(TodoQuery(state: .all, search: "Milk")) == ["Buy MILK", "Call mum", "Old milk"])
        #expect(try titles(TodoQuery(state: .completed)) == ["Old milk"])
        #expect(try titles(TodoQuery(categoryName: "HOME", priority: .high)) == ["Pay rent"])
        #expect(throws: StoreError.noSuchCategory("garden")) { try store.todos(matching: TodoQuery(categoryName: "garden")) }
    }

    @Test func searchTreatsWildcardsAndAccentsLiterally() throws {
        let store = try makeStore()
        _ = try store.add(NewTodo(title: "100% done"))
        _ = try store.add(NewTodo(title: "1000 things"))
        _ = try store.add(NewTodo(title: "snake_case"))
        _ = try store.add(NewTodo(title: "snakeXcase"))
        _ = try store.add(NewTodo(title: "Crème BRÛLÉE"))
        #expect(try store.todos(matching: TodoQuery(search: "0%")).map(\.title) == ["100% done"])
        #expect(try store.todos(matching: TodoQuery(search: "e_c")).map(\.title) == ["snake_case"])
        #expect(try store.todos(matching: TodoQuery(search: "brûlée")).map(\.title) == ["Crème BRÛLÉE"])
    }

    @Test func categoryNamesAreUniqueIgnoringCase() throws {
        let store = try makeStore()
        _ = try store.addCategory(name: "Work", icon: nil)
        #expect(throws: StoreError.categoryExists("work")) { try store.addCategory(name: "work", icon: nil) }
        _ = try store.addCategory(name: "Home", icon: nil)
        #expect(throws: StoreError.categoryExists("HOME")) { try store.renameCategory("work", to: "HOME") }
        #expect(try store.renameCategory("work", to: "Office").name == "Office")
        #expect(try store.category(named: "office").icon == Category.defaultIcon)
    }

    @Test func deletingACategoryKeepsItsTodos() throws {
        let store = try makeStore()
        _ = try store.addCategory(name: "work", icon: nil)
        let todo = try store.add(NewTodo(title: "a", categoryName: "work"))
        #expect(try store.deleteCategory("work") == 1)
        #expect(try store.todos(ids: [todo.id])[0].category == nil)
        #expect(try store.categories().isEmpty)
    }

    @Test func reopensAnExistingDatabaseWithoutMigratingAgain() throws {
        let path = folder.file("nudge.db")
        _ = try TodoStore(path: path).add(NewTodo(title: "kept"))
        let store = try TodoStore(path: path)
        #expect(try store.todos(matching: TodoQuery()).map(\.title) == ["kept"])
        #expect(try store.db.scalar("SELECT count(*) FROM nudge_migrations")?.int64 == Int64(Schema.migrations.count))
        #expect(try store.db.scalar("PRAGMA journal_mode")?.string == "wal")
    }
}
