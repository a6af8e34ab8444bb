import NudgeCore
import NudgeStore

enum RemindCommand: Command {
    static let add = RepeatedOption("add", "OFFSET|WHEN", "Remind this long before the due (1h, 1d) or at this moment (fri 9am); repeatable", read: reminder(_:context:))
    static let clear = Flag("clear", "Remove the todo's own reminders first (the config file's rules stay)")
    static let list = Flag("list", "List the todo's own reminders (the default when nothing else is given)")
    static let json = Flag("json", "Print the todo's own reminders, after any change, as JSON")
    static let name = "remind"
    static let declaration = CommandDeclaration(name, "Add, clear or list a todo's own reminders", Operand("ID", .todo(.pending)), add, clear, list, json)
    static let jsonOutput = """
        An object:
          id                the todo's id
          title             its title
          defaultReminders  false when added with --no-default-reminders (then only its own fire)
          reminders         its own reminders, as in show --json: each {rule (its name in
                            upcoming and explain, e.g. "remind 1h"), before (an offset such as
                            1h, or null), at (ISO 8601, or null)}
        """
    static let discussion = """
        These come on top of the rules in the config file ('nudge explain ID' shows them all).

        Examples:
          nudge remind 12 --add 1d --add 2h
          nudge remind 12 --clear --add "fri 9am"
        """

    static func run(_ arguments: Arguments, context: Context) throws(CLIError) {
        let id = try todoID(arguments.positionals[0])
        let adding = try arguments[Self.add]
        let changing = !adding.isEmpty || arguments[Self.clear]
        let store = try changing ? context.storeOfExisting() : context.store(.read)
        do {
            var subject = try store.reminderSubject(id: id)
            if subject.todo.due == nil, adding.contains(where: { if case .before = $0 { true } else { false } }) {
                throw CLIError.failed("todo \(id) has no due date to count back from; set one with 'nudge edit \(id) --due WHEN', or remind at a moment (--add \"fri 9am\")")
            }
            if changing {
                subject = try store.changeReminders(todoID: id, adding: adding, clearing: arguments[Self.clear], now: context.now)
            }
            if arguments[Self.json] {
                context.printJSON(.object([
                    ("id", .int(subject.todo.id)), ("title", .string(subject.todo.title)),
                    ("defaultReminders", .bool(subject.usesDefaultRules)),
                    ("reminders", .array(subject.custom.map(context.json))),
                ]))
                return
            }
            if !subject.custom.isEmpty {
                context.print("Reminders of \(id): \(Terminal.visible(subject.todo.title))")
            } else {
                context.print("Todo \(id) has no reminders of its own" + (subject.usesDefaultRules ? "; the config file's rules apply ('nudge explain \(id)')." : "."))
            }
            let text = context.dueText
            for reminder in subject.custom {
                switch reminder {
                case .before(let span): context.print("  \(span) before the due")
                case .at(let date): context.print("  at " + text.relative(.at(date, zone: context.zone)))
                }
            }
        } catch {
            throw CLIError(error)
        }
    }
}
