import NudgeCore

extension Context {
    /// A todo as `--json` prints it: exactly the data, with null for what is absent.
    func json(_ todo: Todo) -> JSON {
        let clock = WallClock(zone: zone)
        let due: JSON = switch todo.due {
        case nil: .null
        case .allDay(let day)?: .string(day.description)
        case .at(let instant, _)?: .string(clock.iso8601(instant))
        }
        return .object([
            ("id", .int(todo.id)),
            ("uuid", .string(todo.uuid)),
            ("title", .string(todo.title)),
            ("notes", .string(todo.notes)),
            ("due", due),
            ("allDay", .bool(todo.due?.isAllDay ?? false)),
            ("priority", .string(todo.priority.description)),
            ("category", .string(todo.category?.name)),
            ("completed", .bool(todo.isCompleted)),
            ("completedAt", .string(todo.completedAt.map(clock.iso8601))),
            ("createdAt", .string(clock.iso8601(todo.createdAt))),
            ("updatedAt", .string(clock.iso8601(todo.updatedAt))),
            ("overdue", .bool(agenda.isOverdue(todo))),
        ])
    }

    func printJSON(_ value: JSON) {
        print(value.text)
    }
}
