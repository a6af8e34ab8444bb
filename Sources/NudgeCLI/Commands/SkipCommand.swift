import NudgeCore
import NudgeRecurrence
import NudgeStore

enum SkipCommand: Command {
    static let on = ValueOption("on", "WHEN", "Skip the due at this moment or on this day instead of the next", read: AddCommand.dueNamed)
    static let count = ValueOption("count", "N", "Skip N dues in a row (default 1, at most \(Skip.largestCount))", parse: skipCount)
    static let json = Flag("json", "Print {todo, skipped} as JSON afterwards")
    static let name = "skip"
    static let declaration = CommandDeclaration(name, "Skip the next due of a repeating todo", Operand("ID", .todo(.pending)), on, count, json)
    static let jsonOutput = """
        An object:
          todo      the todo as saved, with the keys of list --json
          skipped   the dues skipped, in order (ISO 8601, or a date when all-day)
        """
    static let discussion = """
        The todo moves to its next due after the skipped ones, and its reminders follow. Only
        that date is left out: the series goes on (RFC 5545 EXDATE, kept by export and sync).
        'nudge explain' shows the skipped dates among the next dues; 'nudge show' lists them.

        Examples:
          nudge skip 12
          nudge skip 12 --on "dec 24"
          nudge skip 12 --count 3
        """

    static func skipCount(_ text: String) throws(CLIError) -> Int {
        guard let number = Int(text), (1...Skip.largestCount).contains(number) else {
            throw .usage("--count takes a whole number from 1 to \(Skip.largestCount), not '\(text)'")
        }
        return number
    }

    static func run(_ arguments: Arguments, context: Context) throws(CLIError) {
        let id = try todoID(arguments.positionals[0])
        // Every skip reads a repeat rule.
        try openLibICal()
        let target = try arguments[Self.on]
        let count = try arguments[Self.count] ?? 1
        let store = try context.storeOfExisting()
        let text = context.dueText
        do {
            let todo = try store.todos(ids: [id])[0]
            let skip: Skip
            do {
                skip = try todo.skipping(count, on: target, now: context.now, localZone: context.zone)
            } catch {
                throw CLIError.failed(error.message(todoID: id) { shown($0, text: text) })
            }
            let saved = try store.update(skip.todo, now: context.now)
            if arguments[Self.json] {
                context.printJSON(.object([("todo", context.json(saved)), ("skipped", .array(skip.skipped.map(context.jsonDue)))]))
                return
            }
            context.print("Skipped \(saved.id): \(Terminal.visible(saved.title))")
            context.print("  skipped  " + skip.skipped.map { shown($0, text: text) }.joined(separator: ", "))
            let due = saved.due.map { shown($0, text: text) } ?? "none"
            context.print("  due      " + (todo.due == saved.due ? due : (todo.due.map { shown($0, text: text) } ?? "none") + " → " + due))
        } catch {
            throw CLIError(error)
        }
    }

    /// "Sat Dec 12 09:00", "Sat Dec 12": a due among others, as explain lists them.
    static func shown(_ due: Due, text: DueText) -> String {
        switch due {
        case .at(let instant, _): UpcomingCommand.whenText(instant, text: text).replacingOccurrences(of: "  ", with: " ")
        case .allDay(let day): UpcomingCommand.dayText(day, text: text).replacingOccurrences(of: "  ", with: " ")
        }
    }
}
