import NudgeCore
import NudgeInterchange
import NudgeStore

enum ExportCommand: Command {
    static let name = "export"
    static let abstract = "Write todos out as JSON, for a backup or another machine"
    static let usage = "nudge export [--format json] [--all] [-o FILE]"
    static let options: [Option] = [
        .value("format", "FORMAT", "The file format: json (the default)"),
        .flag("all", "Include completed todos"),
        .value("output", "FILE", "Write to FILE (replaced whole, readable only by you) instead of the terminal", short: "o"),
    ]
    static let discussion = """
        The JSON is an array of todos with their uuid, title, notes, due (and its zone, so
        the wall time survives), priority, category, completion, times and repeat rule.
        'nudge import' reads it back.

        Examples:
          nudge export --all -o todos.json
          nudge export | jq '.[].title'
        """

    /// The formats that work, for `--format` and its error.
    static let formats = ["json"]

    static func run(_ arguments: Arguments, context: Context) throws(CLIError) {
        _ = try arguments.positionals(min: 0, max: 0, usage: usage)
        try checkFormat(arguments)
        let todos: [Todo]
        do {
            todos = try context.store(.read).todos(matching: TodoQuery(state: arguments.has("all") ? .all : .pending))
        } catch { throw CLIError(error) }
        let text = NudgeJSON.encode(todos.sorted { $0.id < $1.id }.map(TodoRecord.init))
        if let path = arguments.value("output") {
            try AtomicFile.write(text, to: path)
        } else {
            context.print(String(text.dropLast()))
        }
    }

    static func checkFormat(_ arguments: Arguments) throws(CLIError) {
        guard let format = arguments.value("format") else { return }
        guard formats.contains(format.lowercased()) else {
            throw .usage("'\(format)' is not a format nudge reads or writes; use " + formats.joined(separator: ", "))
        }
    }
}
