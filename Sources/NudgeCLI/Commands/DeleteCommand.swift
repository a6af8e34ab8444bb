import NudgeCore
import NudgeStore

enum DeleteCommand: Command {
    static let yes = Flag("yes", "Delete without asking")
    static let json = Flag("json", "Print the deleted todos as JSON")
    static let withSubtasks = Flag("with-subtasks", "Also delete its open subtasks")
    static let keepSubtasks = Flag("keep-subtasks", "Keep its open subtasks, as todos of their own")
    static let name = "delete"
    static let declaration = CommandDeclaration(name, "Delete todos for good", Operand("ID", .todo(.all), .repeated), yes,
                                                oneOf(withSubtasks, keepSubtasks), json)
    static let jsonOutput = """
        An array of the todos deleted, as they were, in the order given, each an object with the keys of
        list --json:
        \(JSON.todoKeys)
        """
    static let discussion = """
        On a terminal, nudge asks before deleting. Elsewhere (scripts, pipes) --yes is required.
        To keep a todo's record, mark it done instead: nudge done ID.
        A todo with open subtasks: on a terminal nudge asks whether to delete them too;
        elsewhere --with-subtasks or --keep-subtasks is required. Subtasks kept, and done
        ones, become todos of their own.
        """

    static func run(_ arguments: Arguments, context: Context) throws(CLIError) {
        var ids = try todoIDs(arguments.positionals)
        let store = try context.storeOfExisting()
        guard let subtasks = try openSubtasks(of: ids, with: withSubtasks, keep: keepSubtasks, deleting: true, arguments: arguments,
                                              store: store, context: context) else {
            context.print("Nothing deleted.")
            return
        }
        ids = subtasks + ids
        if !arguments[Self.yes] {
            guard context.stdinIsTerminal else {
                throw .usage("delete needs --yes when not run from a terminal, since it cannot be undone")
            }
            let todos: [Todo]
            do { todos = try store.todos(ids: ids) } catch { throw CLIError(error) }
            let what = todos.count == 1 ? "\(todos[0].id): \(Terminal.visible(todos[0].title))" : "\(todos.count) todos (\(ids.map(String.init).joined(separator: ", ")))"
            guard context.confirm("Delete \(what)? This cannot be undone.") else {
                context.print("Nothing deleted.")
                return
            }
        }
        let deleted: [Todo]
        do { deleted = try store.delete(ids: ids) } catch { throw CLIError(error) }
        if arguments[Self.json] {
            context.printJSON(.array(deleted.map(context.json)))
            return
        }
        for todo in deleted {
            context.print("Deleted \(todo.id): \(Terminal.visible(todo.title))")
        }
    }
}
