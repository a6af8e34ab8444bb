import Foundation
import NudgeCore
import NudgePlatform
import NudgeRecurrence
import NudgeStore

enum DoneCommand: Command {
    static let json = Flag("json", "Print the todos as JSON afterwards")
    static let name = "done"
    static let declaration = CommandDeclaration(name, "Mark todos as done", Operand("ID", .todo(.pending), .repeated), json)
    static let jsonOutput = """
        An array of the todos afterwards (a repeating todo pending at its next due), in the order given, each an object with the keys of
        list --json:
        \(JSON.todoKeys)
        """

    static func run(_ arguments: Arguments, context: Context) throws(CLIError) {
        try setCompleted(true, arguments: arguments, jsonFlag: json, context: context)
    }
}

enum UndoCommand: Command {
    static let json = Flag("json", "Print the todos as JSON afterwards")
    static let name = "undo"
    static let declaration = CommandDeclaration(name, "Mark done todos as not done again", Operand("ID", .todo(.completed), .repeated), json)
    static let jsonOutput = """
        An array of the todos afterwards, in the order given, each an object with the keys of
        list --json:
        \(JSON.todoKeys)
        """

    static func run(_ arguments: Arguments, context: Context) throws(CLIError) {
        try setCompleted(false, arguments: arguments, jsonFlag: json, context: context)
    }
}

extension Command {
    /// Nothing changes unless every id exists; todos already in the asked-for state are named.
    static func setCompleted(_ done: Bool, arguments: Arguments, jsonFlag: Flag, context: Context) throws(CLIError) {
        let ids = try todoIDs(arguments.positionals)
        let result: (before: [Todo], after: [Todo])
        do {
            result = try context.storeOfExisting().setCompleted(ids: ids, done: done, now: context.now) { todo throws(LibraryLoadError) in
                try todo.nextOccurrence(completedAt: context.now, localZone: context.zone)
            }
        } catch {
            throw CLIError(error)
        }
        if arguments[jsonFlag] {
            context.printJSON(.array(result.after.map(context.json)))
            return
        }
        for (before, after) in zip(result.before, result.after) {
            if before.isCompleted == done {
                context.print("\(after.id) was \(done ? "already done" : "not done"): \(Terminal.visible(after.title))")
            } else if done, !after.isCompleted, let due = after.due {
                context.print("Completed \(after.id): \(Terminal.visible(after.title)); it repeats, next due \(context.dueText.relative(due))")
            } else {
                context.print((done ? "Completed " : "Reopened ") + context.summary(after))
            }
        }
    }
}

