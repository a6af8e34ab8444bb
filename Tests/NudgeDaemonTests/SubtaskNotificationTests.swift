import Foundation
import NudgeCore
@testable import NudgeDaemon
@testable import NudgeStore
@testable import NudgeTestSupport
import Testing

/// A parent's reminder says how many of its subtasks are done, as the store counts them.
struct SubtaskNotificationTests {
    let folder = TemporaryDirectory()
    let zone = TimeZone(identifier: "Europe/Berlin")!
    /// Sunday 2026-11-29 10:53 in Berlin.
    let now = Date(timeIntervalSince1970: 1_795_945_980)

    @Test func aParentsReminderSaysHowManyOfItsSubtasksAreDone() throws {
        let store = try TodoStore(path: folder.file("nudge.db"), planner: ReminderPlanner(config: NudgeConfig(), zone: zone),
                                  now: now, access: .plan)
        let parent = try store.add(NewTodo(title: "Paint walls", due: .at(now, zone: zone)), now: now)
        var ids: [Int64] = []
        for title in ["Buy paint", "Tape", "Brushes", "Sand", "Prime"] {
            var new = NewTodo(title: title)
            new.parentID = parent.id
            ids.append(try store.add(new, now: now).id)
        }
        _ = try store.setCompleted(ids: Array(ids.prefix(2)), done: true, now: now)
        var writer = NotificationWriter(now: now, zone: zone, config: NudgeConfig(), style: .standard)
        writer.subtaskProgress = try store.subtaskProgress(of: parent)
        let delivery = Delivery(id: 1, kind: .reminder, todoIDs: [parent.id], rule: "due", dueAt: now, state: .pending,
                                server: nil, notificationID: nil)
        let body = writer.content(for: delivery, todos: [parent]).body
        #expect(body.components(separatedBy: "\n").dropFirst().first == "2 of 5 done", "\(body)")
        let alone = try store.add(NewTodo(title: "Alone"), now: now)
        writer.subtaskProgress = try store.subtaskProgress(of: alone)
        #expect(!writer.content(for: delivery, todos: [alone]).body.contains("done"))
    }
}
