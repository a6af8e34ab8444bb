import NudgeCore

enum ShowCommand: Command {
    static let name = "show"
    static let abstract = "Show every field of a todo"
    static let usage = "nudge show ID [--json]"
    static let operands = Operands.one(.todo(.all))
    static let options: [Option] = [.flag("json", "Print the todo as a JSON object")]

    static func run(_ arguments: Arguments, context: Context) throws(CLIError) {
        let id = try todoID(arguments.positionals(min: 1, max: 1, usage: usage)[0])
        let todo: Todo
        do { todo = try context.store(.read).todos(ids: [id])[0] } catch { throw CLIError(error) }
        if arguments.has("json") {
            context.printJSON(context.json(todo))
            return
        }
        let text = context.dueText
        var fields: [(String, String)] = []
        let state = if let completedAt = todo.completedAt {
            "done (completed " + text.long(completedAt) + ")"
        } else if context.agenda.isOverdue(todo) {
            context.styled("overdue", .red)
        } else {
            "pending"
        }
        fields.append(("Status", state))
        fields.append(("Due", todo.due.map { text.relative($0) + " (" + text.full($0) + ")" } ?? "none"))
        if todo.repetition != nil { fields.append(("Repeats", Terminal.visible(EditCommand.repeatText(todo.repetition)))) }
        fields.append(("Priority", todo.priority.description))
        fields.append(("Category", todo.category.map { Terminal.visible("\($0.name) (icon \($0.icon))") } ?? "none"))
        fields.append(("Notes", todo.notes.map { Terminal.visibleLines($0).joined(separator: "\n") } ?? "none"))
        fields.append(("Created", text.long(todo.createdAt)))
        fields.append(("Updated", text.long(todo.updatedAt)))
        fields.append(("UUID", todo.uuid))
        context.print(context.styled("Todo \(todo.id): ", .bold) + Terminal.visible(todo.title))
        for (label, value) in fields {
            let indent = "\n" + String(repeating: " ", count: 12)
            context.print("  " + label.padding(to: 10) + value.split(separator: "\n", omittingEmptySubsequences: false)
                .joined(separator: indent))
        }
    }
}
