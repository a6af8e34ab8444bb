import NudgeCore

extension Context {
    /// A todo as `--json` prints it: exactly the data, with null for what is absent.
    func json(_ todo: Todo) -> JSON {
        let clock = WallClock(zone: zone)
        return .object([
            ("id", .int(todo.id)),
            ("uuid", .string(todo.uuid)),
            ("title", .string(todo.title)),
            ("notes", .string(todo.notes)),
            ("due", jsonDue(todo.due)),
            ("allDay", .bool(todo.due?.isAllDay ?? false)),
            ("priority", .string(todo.priority.description)),
            ("category", .string(todo.category?.name)),
            ("tags", .array(todo.tags.map { .string($0) })),
            ("parent", .string(todo.parentUUID)),
            ("after", .array(todo.after.map { .string($0) })),
            ("completed", .bool(todo.isCompleted)),
            ("completedAt", .string(todo.completedAt.map(clock.iso8601))),
            ("createdAt", .string(clock.iso8601(todo.createdAt))),
            ("updatedAt", .string(clock.iso8601(todo.updatedAt))),
            ("overdue", .bool(agenda.isOverdue(todo))),
        ])
    }

    /// A due as JSON: `YYYY-MM-DD` for a whole day, ISO 8601 with the offset for a time.
    func jsonDue(_ due: Due?) -> JSON {
        switch due {
        case nil: .null
        case .allDay(let day)?: .string(day.description)
        case .at(let instant, _)?: .string(WallClock(zone: zone).iso8601(instant))
        }
    }

    func printJSON(_ value: JSON) {
        print(value.text)
    }
}

extension JSON {
    /// The keys of a todo object, as `list --json` and the commands that change todos print
    /// it: for their `jsonOutput`.
    static let todoKeys = """
          id, uuid, title, notes      as stored; notes is null when there are none
          due                         ISO 8601 with the offset (2026-12-24T09:00:00+01:00), or
                                      YYYY-MM-DD for an all-day todo, or null
          allDay, completed, overdue  true or false
          priority                    low, medium or high
          category                    its name, or null
          tags                        an array of its tags, as first typed, without the +
          parent                      the uuid of the todo it is a subtask of, or null
          after                       an array of the uuids of the todos it comes after
          createdAt, updatedAt        ISO 8601
          completedAt                 ISO 8601, or null while pending
        """
}
