import Foundation
import NudgeCore
import NudgePlatform
import NudgeRecurrence
import NudgeStore

enum DoneCommand: Command {
    static let json = Flag("json", "Print the todos as JSON afterwards")
    static let withSubtasks = Flag("with-subtasks", "Also mark its open subtasks done")
    static let keepSubtasks = Flag("keep-subtasks", "Leave its open subtasks open")
    static let name = "done"
    static let declaration = CommandDeclaration(name, "Mark todos as done", Operand("ID", .todo(.pending), .repeated),
                                                oneOf(withSubtasks, keepSubtasks), json)
    static let discussion = """
        A todo with open subtasks: on a terminal nudge asks whether to mark them done too;
        elsewhere (scripts, pipes) --with-subtasks or --keep-subtasks is required.
        """
    static let jsonOutput = """
        An array of the todos afterwards (a repeating todo pending at its next due), in the order given, each an object with the keys of
        list --json:
        \(JSON.todoKeys)
        """

    static func run(_ arguments: Arguments, context: Context) throws(CLIError) {
        try setCompleted(true, arguments: arguments, jsonFlag: json, subtasks: (withSubtasks, keepSubtasks), context: context)
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
    static func setCompleted(_ done: Bool, arguments: Arguments, jsonFlag: Flag, subtasks: (with: Flag, keep: Flag)? = nil,
                             context: Context) throws(CLIError) {
        var ids = try todoIDs(arguments.positionals)
        let store = try context.storeOfExisting()
        if let subtasks {
            guard let chosen = try openSubtasks(of: ids, with: subtasks.with, keep: subtasks.keep, deleting: false, arguments: arguments,
                                                store: store, context: context) else {
                context.print("Nothing changed.")
                return
            }
            ids = chosen + ids
        }
        let result: (before: [Todo], after: [Todo])
        do {
            result = try store.setCompleted(ids: ids, done: done, now: context.now) { todo throws(LibraryLoadError) in
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

extension Command {
    /// The open subtasks of `ids` that `done` or `delete` is to take with them: all of them
    /// with `--with-subtasks`, none with `--keep-subtasks`, on a terminal as answered, and nil
    /// when the person at the terminal cancels. Off a terminal one of the flags is required.
    static func openSubtasks(of ids: [Int64], with: Flag, keep: Flag, deleting: Bool, arguments: Arguments,
                             store: TodoStore, context: Context) throws(CLIError) -> [Int64]? {
        if arguments[keep] { return [] }
        let open: [Int64]
        do { open = try store.openSubtaskIDs(of: ids) } catch { throw CLIError(error) }
        if open.isEmpty || arguments[with] { return open }
        let named = open.count == 1 ? "an open subtask (\(open[0]))"
            : "\(open.count) open subtasks (\(open.prefix(10).map(String.init).joined(separator: ", "))\(open.count > 10 ? ", ..." : ""))"
        let whose = ids.count == 1 ? "todo \(ids[0]) has" : "these todos have"
        let action = deleting ? "delete them too" : "mark them done too"
        let other = deleting ? "keep them as todos of their own" : "leave them open"
        guard context.stdinIsTerminal else {
            throw .usage("\(whose) \(named): add --with-subtasks to \(action), or --keep-subtasks to \(other)")
        }
        switch context.answer("\(whose.prefix(1).uppercased() + whose.dropFirst()) \(named). a: \(action), k: \(other), c: cancel [a/k/C]") {
        case "a", "also": return open
        case "k", "keep": return []
        default: return nil
        }
    }
}
