import NudgeCore
import NudgeStore

enum PostponeCommand: Command {
    static let json = Flag("json", "Print the todo as JSON afterwards")
    static let name = "postpone"
    static let declaration = CommandDeclaration(name, "Move a todo's due date later", Operand("ID", .todo(.pending)), Operand("DURATION", .text), json)
    static let jsonOutput = """
        The todo as saved, with its new due, an object with the keys of list --json:
        \(JSON.todoKeys)
        """
    static let discussion = """
        DURATION is like 10m, 2h, 1h30m, 3d or 1w. An all-day todo moves by whole days.
        Moving by days keeps the time of day, also across daylight saving changes.

        Example:
          nudge postpone 12 1d
        """

    static func run(_ arguments: Arguments, context: Context) throws(CLIError) {
        let words = arguments.positionals
        let id = try todoID(words[0])
        let span: TimeSpan
        do { span = try TimeSpan(parsing: words[1]) } catch {
            // "postpone 12 tomorrow": a day to move to, which edit --due sets.
            if (try? context.whenParser().parse(words[1])) != nil {
                throw .usage("'\(words[1])' is a date, not a duration like 1d or 2h; to move the due to it: nudge edit \(id) --due '\(words[1])'")
            }
            throw CLIError(error)
        }
        let store = try context.storeOfExisting()
        do {
            var todo = try store.todos(ids: [id])[0]
            guard let old = todo.due else {
                throw CLIError.failed("todo \(id) has no due date to move; set one with: nudge edit \(id) --due WHEN")
            }
            // The time typed, also when a DST gap moved the due off it: a day later it is back.
            let wallTime = todo.repetition?.start?.time ?? old.wallTime(keeping: todo.dueWallTime)
            let moved = try span.added(to: old, calendar: context.calendar, wallTime: wallTime)
            todo.setDue(moved, meantFor: span.seconds == 0 ? wallTime : nil)
            let saved = try store.update(todo, now: context.now)
            if arguments[Self.json] {
                context.printJSON(context.json(saved))
                return
            }
            let text = context.dueText
            context.print("Postponed \(saved.id): \(Terminal.visible(saved.title))")
            context.print("  due      " + text.relative(old) + " → " + (saved.due.map(text.relative) ?? "none"))
        } catch {
            throw CLIError(error)
        }
    }
}
