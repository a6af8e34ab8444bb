import NudgeCore
import NudgeStore

enum AddCommand: Command {
    static let name = "add"
    static let abstract = "Add a todo"
    static let usage = "nudge add TITLE [--notes TEXT] [--due WHEN] [--priority low|medium|high] [--category NAME]"
    static let options: [Option] = [
        .value("notes", "TEXT", "Notes; may span several lines"),
        .value("due", "WHEN", "When it is due: 2026-12-24, tomorrow 9am, fri, in 2h, dec 24, ..."),
        .value("priority", "P", "low, medium (the default) or high"),
        .value("category", "NAME", "A category made with 'nudge category add'"),
        .flag("json", "Print the new todo as JSON"),
    ]
    static let discussion = """
        The words of the title may be given unquoted; they are joined with spaces.
        A due date without a time is an all-day due.

        Examples:
          nudge add "Buy milk" --due tomorrow
          nudge add Call the dentist --due "fri 10am" --priority high
          nudge add "Quarterly report" --category work --notes "Slides from Ana"
        """

    static func run(_ arguments: Arguments, context: Context) throws(CLIError) {
        let words = try arguments.positionals(min: 1, usage: usage)
        var new = NewTodo(title: try validated(title: words.joined(separator: " ")))
        new.notes = arguments.value("notes").flatMap(notes)
        if let when = arguments.value("due") { new.due = try due(when, context: context) }
        if let name = arguments.value("priority") { new.priority = try priority(name) }
        if let name = arguments.value("category") { new.categoryName = try categoryName(name) }
        let todo: Todo
        do { todo = try context.store().add(new, now: context.now) } catch { throw CLIError(error) }
        if arguments.has("json") {
            context.printJSON(context.json(todo))
        } else {
            context.print("Added " + context.summary(todo))
        }
    }
}

// The readers of field values shared by `add` and `edit`.
extension Command {
    static func validated(title: String) throws(CLIError) -> String {
        do { return try Todo.validatedTitle(title) } catch { throw CLIError(error) }
    }

    static func notes(_ text: String) -> String? {
        text.trimmingWhitespace().isEmpty ? nil : text
    }

    static func due(_ text: String, context: Context) throws(CLIError) -> Due {
        do { return try context.whenParser().parse(text) } catch { throw CLIError(error) }
    }

    static func priority(_ text: String) throws(CLIError) -> Priority {
        guard let priority = Priority(name: text) else {
            throw .usage("'\(text)' is not a priority; use low, medium or high")
        }
        return priority
    }

    static func categoryName(_ text: String) throws(CLIError) -> String {
        let name = text.trimmingWhitespace()
        guard !name.isEmpty else { throw .usage("the category name is empty; give a name like work") }
        guard name.count <= 100, !name.contains(where: \.isNewline) else {
            throw .usage("a category name is one line of at most 100 characters")
        }
        return name
    }
}
