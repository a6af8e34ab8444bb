import Foundation
import NudgeCore
import Testing
@testable import NudgeTestSupport
@testable import NudgeStore
import NudgeSQLite

/// Subtasks in the store (migration 014): a parent by uuid, cycles and too deep a tree
/// refused naming the todos, a subtask whose parent is not (yet) stored kept as it is.
struct SubtaskStoreTests {
    let folder = TemporaryDirectory()
    var path: String { folder.file("nudge.db") }
    let zone = TimeZone(identifier: "Europe/Berlin")!
    let now = Date(timeIntervalSince1970: 1_796_126_400)

    func open() throws -> TodoStore {
        try TodoStore(path: path, planner: ReminderPlanner(config: NudgeConfig(), zone: zone), now: now, access: .plan)
    }

    func refusal(_ body: () throws -> Void) -> String? {
        do { try body() } catch { return "\(error)" }
        return nil
    }

    @Test func aSubtaskKeepsItsParentsUUIDAndIsListedAmongItsSubtasks() throws {
        let store = try open()
        let walls = try store.add(NewTodo(title: "Paint walls"), now: now)
        var new = NewTodo(title: "Buy paint")
        new.parentID = walls.id
        let paint = try store.add(new, now: now)
        #expect(paint.parentUUID == walls.uuid)
        #expect(try store.subtasks(of: walls).map(\.id) == [paint.id])
        #expect(try store.parent(of: paint)?.id == walls.id)
        #expect(try store.subtaskLinks()[paint.id]?.parent == walls.id)
        var moved = paint
        moved.parentUUID = nil
        #expect(try store.update(moved, now: now).parentUUID == nil)
        #expect(try store.subtasks(of: walls).isEmpty)
    }

    @Test func aParentThatDoesNotExistIsRefusedAndNothingIsStored() throws {
        let store = try open()
        var new = NewTodo(title: "Orphan")
        new.parentID = 99
        #expect(refusal { _ = try store.add(new, now: now) } == "there is no todo 99 to be the parent; 'nudge list --all' shows the ids")
        #expect(try store.count() == 0)
    }

    @Test func aCycleIsRefusedNamingTheTodosOnIt() throws {
        let store = try open()
        let a = try store.add(NewTodo(title: "A"), now: now)
        var new = NewTodo(title: "B")
        new.parentID = a.id
        let b = try store.add(new, now: now)
        new = NewTodo(title: "C")
        new.parentID = b.id
        let c = try store.add(new, now: now)
        #expect(refusal { _ = try store.parentUUID(c.id, forTodo: a.id) }
                == "todo 1 cannot be a subtask of 3, which is a subtask of it (3 → 2 → 1)")
        #expect(refusal { _ = try store.parentUUID(a.id, forTodo: a.id) } == "todo 1 cannot be a subtask of itself")
        var looped = a
        looped.parentUUID = c.uuid
        #expect(refusal { _ = try store.update(looped, now: now) } != nil)
        #expect(try store.todos(ids: [a.id])[0].parentUUID == nil)
    }

    @Test func treesGoNoDeeperThanTheLimit() throws {
        let store = try open()
        var parent: Int64?
        for level in 1...Todo.maximumSubtaskLevels {
            var new = NewTodo(title: "Level \(level)")
            new.parentID = parent
            parent = try store.add(new, now: now).id
        }
        var tooDeep = NewTodo(title: "Too deep")
        tooDeep.parentID = parent
        #expect(refusal { _ = try store.add(tooDeep, now: now) }
                == "a new todo cannot be a subtask of 8 (1 → 2 → 3 → 4 → 5 → 6 → 7 → 8): subtasks go at most 8 levels deep")
        // A todo with a subtask of its own counts its levels too.
        let top = try store.add(NewTodo(title: "Top"), now: now)
        var child = NewTodo(title: "Child")
        child.parentID = top.id
        _ = try store.add(child, now: now)
        #expect(refusal { _ = try store.parentUUID(7, forTodo: top.id) }?.hasPrefix("todo 9 cannot be a subtask of 7") == true)
        #expect(try store.parentUUID(6, forTodo: top.id) == store.todos(ids: [6])[0].uuid)
    }

    @Test func aSubtaskImportedBeforeItsParentJoinsItWhenItArrives() throws {
        let store = try open()
        let child = TodoRecord(uuid: "child-1", title: "Buy paint", createdAt: now, updatedAt: now, parentUUID: "parent-1")
        _ = try store.importTodos([child], now: now)
        let stored = try store.todos(matching: TodoQuery(state: .all))[0]
        #expect(stored.parentUUID == "parent-1")
        #expect(try store.subtaskLinks().isEmpty)
        let parent = TodoRecord(uuid: "parent-1", title: "Paint walls", createdAt: now, updatedAt: now)
        _ = try store.importTodos([parent], now: now)
        let parentID = try #require(try store.todos(matching: TodoQuery(state: .all)).first { $0.uuid == "parent-1" }?.id)
        #expect(try store.subtaskLinks()[stored.id]?.parent == parentID)
    }

    @Test func openSubtasksAreFoundDeepestFirst() throws {
        let store = try open()
        let a = try store.add(NewTodo(title: "A"), now: now)
        var new = NewTodo(title: "B")
        new.parentID = a.id
        let b = try store.add(new, now: now)
        new = NewTodo(title: "C")
        new.parentID = b.id
        let c = try store.add(new, now: now)
        new = NewTodo(title: "D")
        new.parentID = a.id
        let d = try store.add(new, now: now)
        _ = try store.setCompleted(ids: [d.id], done: true, now: now)
        #expect(try store.openSubtaskIDs(of: [a.id]) == [c.id, b.id])
        #expect(try store.openSubtaskIDs(of: [c.id]) == [])
    }
}
