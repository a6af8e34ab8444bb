import Foundation
import NudgeCore
import Testing
@testable import NudgeTestSupport
@testable import NudgeStore
import NudgeSQLite

/// Tags in the store (migration 013): kept in order, matched by their folded form, found for
/// `list +tag` and `-tag` through the index, and gone with their todo.
struct TagStoreTests {
    let folder = TemporaryDirectory()
    var path: String { folder.file("nudge.db") }
    let zone = TimeZone(identifier: "Europe/Berlin")!
    let now = Date(timeIntervalSince1970: 1_796_126_400)

    func open(_ access: StoreAccess = .plan) throws -> TodoStore {
        try TodoStore(path: path, planner: ReminderPlanner(config: NudgeConfig(), zone: zone), now: now, access: access)
    }

    func lines(_ store: TodoStore, _ query: TodoQuery) throws -> [AgendaLine] {
        var lines: [AgendaLine] = []
        try store.forEachAgendaLine(matching: query, agenda: Agenda(now: now, zone: zone), order: .due) { lines.append($1) }
        return lines
    }

    @Test func aFileFromBeforeTagsIsUpgradedAndItsTodosCanBeTagged() throws {
        let old = try Connection(path: path, create: true)
        try old.execute("CREATE TABLE nudge_migrations (name TEXT PRIMARY KEY, applied_at INTEGER NOT NULL); PRAGMA application_id = \(Schema.applicationID)")
        try old.defineFunction("nudge_title_key", argumentCount: 1) { .text(TodoStore.titleKey($0.text(0) ?? "")) }
        for migration in Schema.migrations.prefix(while: { $0.name < "013" }) {
            try old.execute(migration.sql)
            try old.run("INSERT INTO nudge_migrations VALUES (?, 0)", [.text(migration.name)])
        }
        try old.run("INSERT INTO todos (uuid, title, priority, created_at, updated_at) VALUES ('u-1', 'Old', 1, 0, 0)")
        // A reader upgrades a copy in memory and sees no tags; the writer after it, the file.
        #expect(try open(.read).todos(ids: [1]).first?.tags == [])
        let store = try open()
        #expect(try store.db.scalar("SELECT count(*) FROM nudge_migrations WHERE name = '013-tags'")?.int64 == 1)
        var todo = try store.todos(ids: [1])[0]
        #expect(todo.tags == [])
        todo.tags = ["money", "Phone"]
        #expect(try store.update(todo, now: now).tags == ["money", "Phone"])
        #expect(try store.todos(matching: TodoQuery(state: .all)).first?.tags == ["money", "Phone"])
    }

    @Test func tagsKeepTheirOrderAndTheFirstSpellingAndMatchIgnoringCase() throws {
        let store = try open()
        let bank = try store.add(NewTodo(title: "Call bank", tags: ["Money", "phone", "MONEY"]), now: now)
        #expect(bank.tags == ["Money", "phone"])
        let rent = try store.add(NewTodo(title: "Pay rent", tags: ["money", "Straße"]), now: now)
        #expect(rent.tags == ["Money", "Straße"])
        _ = try store.add(NewTodo(title: "Call mum", tags: ["PHONE"]), now: now)
        _ = try store.add(NewTodo(title: "Nothing"), now: now)
        func titles(_ tags: [String], without excluded: [String] = []) throws -> [String] {
            var query = TodoQuery()
            query.tags = tags
            query.excludedTags = excluded
            let listed = try lines(store, query).map(\.title)
            // The sorted path (another order) finds the same todos.
            var sorted: [String] = []
            try store.forEachAgendaTodo(matching: query, agenda: Agenda(now: now, zone: zone), order: .title) { sorted.append($1.title) }
            #expect(Set(sorted) == Set(listed))
            return listed
        }
        #expect(try titles(["money"]) == ["Call bank", "Pay rent"])
        #expect(try titles(["STRASSE"]) == [])
        #expect(try titles(["STRAßE"]) == ["Pay rent"])
        #expect(try titles(["money"], without: ["Phone"]) == ["Pay rent"])
        #expect(try titles([], without: ["money"]) == ["Call mum", "Nothing"])
        #expect(try lines(store, TodoQuery()).first { $0.title == "Call bank" }?.tags == ["Money", "phone"])
        var tagged = TodoQuery()
        tagged.tags = ["phone"]
        #expect(try lines(store, tagged).map(\.tags) == [["Money", "phone"], ["phone"]])
        #expect(try store.tagNames() == ["Money", "phone", "Straße"])
    }

    @Test func aDeletedTodoTakesItsTagsAndAChangedTagRaisesTheSyncVersion() throws {
        let store = try open()
        var todo = try store.add(NewTodo(title: "Call bank", tags: ["money"]), now: now)
        let version = { try store.db.scalar("SELECT sync_version FROM todos WHERE id = ?", [.integer(todo.id)])?.int64 }
        let before = try version()
        todo.tags = ["money", "phone"]
        todo = try store.update(todo, now: now)
        #expect(try version() ?? 0 > before ?? 0)
        _ = try store.delete(ids: [todo.id])
        #expect(try store.db.scalar("SELECT count(*) FROM todo_tags")?.int64 == 0)
    }

    @Test func listByTagReadsTheTagIndexOnceIntoATableOfIds() throws {
        let store = try open()
        _ = try store.add(NewTodo(title: "Call bank", tags: ["money"]), now: now)
        _ = try store.add(NewTodo(title: "Call mum", tags: ["phone"]), now: now)
        var query = TodoQuery()
        query.tags = ["MONEY"]
        query.excludedTags = ["phone"]
        let filter = try store.todoFilter(query)
        #expect(filter.conditions.suffix(2) == ["t.id IN temp.nudge_tagged_0", "t.id NOT IN temp.nudge_tagged_1"])
        #expect(try store.db.query("SELECT id FROM temp.nudge_tagged_0") { $0.int64("id") } == [1])
        let plan = try store.db.query("EXPLAIN QUERY PLAN SELECT todo_id FROM todo_tags WHERE folded = ?", [.text("money")]) {
            $0.text("detail") ?? ""
        }
        #expect(plan.contains { $0.contains("todo_tags_by_tag") }, "\(plan)")
    }
}
