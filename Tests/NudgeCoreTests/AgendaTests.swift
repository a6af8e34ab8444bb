import Foundation
import Testing
@testable import NudgeCore

struct AgendaTests {
    let berlin = TimeZone(identifier: "Europe/Berlin")!
    /// Sunday 2026-11-29 10:53 in Berlin.
    var now: Date { Calendar.nudge(zone: berlin).date(from: DateComponents(year: 2026, month: 11, day: 29, hour: 10, minute: 53))! }

    func at(_ day: Int, _ hour: Int, _ minute: Int = 0, month: Int = 11) -> Due {
        let date = Calendar.nudge(zone: berlin).date(from: DateComponents(year: 2026, month: month, day: day, hour: hour, minute: minute))!
        return .at(date, zone: berlin)
    }

    func todo(_ id: Int64, _ title: String, due: Due? = nil, priority: Priority = .medium, done: Bool = false) -> Todo {
        Todo(id: id, title: title, due: due, priority: priority, completedAt: done ? now : nil,
             createdAt: now.addingTimeInterval(Double(id)), updatedAt: now)
    }

    @Test func sortsTodosIntoSectionsRelativeToNow() {
        let agenda = Agenda(now: now, zone: berlin)
        let todos = [
            todo(1, "earlier today", due: at(29, 9)),
            todo(2, "later today", due: at(29, 18)),
            todo(3, "all day today", due: .allDay(LocalDate(year: 2026, month: 11, day: 29)!)),
            todo(4, "all day yesterday", due: .allDay(LocalDate(year: 2026, month: 11, day: 28)!)),
            todo(5, "tomorrow", due: at(30, 9)),
            todo(6, "no date"),
            todo(7, "done", due: at(20, 9), done: true),
            todo(8, "just before midnight", due: at(29, 23, 59)),
        ]
        let sections = agenda.sections(todos)
        #expect(sections.map(\.section) == [.overdue, .today, .upcoming, .unscheduled, .completed])
        #expect(sections.map { $0.todos.map(\.id) } == [[4, 1], [3, 2, 8], [5], [6], [7]])
    }

    @Test func leavesOutEmptySections() {
        let sections = Agenda(now: now, zone: berlin).sections([todo(1, "a")])
        #expect(sections.map(\.section) == [.unscheduled])
    }

    @Test func ordersBySameDueThenPriorityThenTitle() {
        let due = at(30, 9)
        let todos = [todo(1, "b", due: due), todo(2, "a", due: due), todo(3, "c", due: due, priority: .high),
                     todo(4, "z", due: at(30, 8), priority: .low)]
        let ids = Agenda(now: now, zone: berlin).sections(todos).first?.todos.map(\.id)
        #expect(ids == [4, 3, 2, 1])
    }

    @Test(arguments: [
        (TodoOrder.priority, [Int64](arrayLiteral: 3, 1, 2)),
        (.title, [2, 3, 1]),
        (.created, [1, 2, 3]),
        (.due, [2, 3, 1]),
    ])
    func sortFlagOverridesTheOrder(order: TodoOrder, expected: [Int64]) {
        let todos = [todo(1, "Zebra", due: at(30, 12)), todo(2, "apple", due: at(30, 8), priority: .low),
                     todo(3, "Mango", due: at(30, 10), priority: .high)]
        #expect(Agenda(now: now, zone: berlin).sections(todos, order: order).first?.todos.map(\.id) == expected)
    }

    @Test func allDayTodoIsOverdueOnlyFromTheNextDay() {
        let today = todo(1, "x", due: .allDay(LocalDate(year: 2026, month: 11, day: 29)!))
        let lateEvening = Calendar.nudge(zone: berlin).date(from: DateComponents(year: 2026, month: 11, day: 29, hour: 23, minute: 59))!
        #expect(!Agenda(now: lateEvening, zone: berlin).isOverdue(today))
        #expect(Agenda(now: lateEvening.addingTimeInterval(120), zone: berlin).isOverdue(today))
    }

    @Test func completedTodoIsNeverOverdue() {
        #expect(!Agenda(now: now, zone: berlin).isOverdue(todo(1, "x", due: at(1, 9), done: true)))
    }

    @Test func sectionsFollowTheViewersZone() {
        // 23:30 UTC on the 29th is already the 30th in Berlin.
        let instant = Date(timeIntervalSince1970: 1_796_081_400) // 2026-11-29T23:30:00Z
        let todo = todo(1, "x", due: .at(instant, zone: TimeZone(identifier: "UTC")!))
        let evening = Date(timeIntervalSince1970: 1_796_076_000) // 2026-11-29T22:00:00Z
        #expect(Agenda(now: evening, zone: TimeZone(identifier: "UTC")!).section(of: todo) == .today)
        #expect(Agenda(now: evening, zone: berlin).section(of: todo) == .upcoming)
    }
}
