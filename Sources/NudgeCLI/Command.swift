import NudgeStore

/// One `nudge` subcommand: its declaration, its help and what it does.
protocol Command: SendableMetatype {
    /// Name, abstract, options and operands, from which usage, help, the man page and
    /// completion come.
    static var declaration: CommandDeclaration { get }
    /// Examples and details after the options in `nudge help NAME`.
    static var discussion: String { get }
    /// What `--json` prints, for the man page: the keys and what they hold. Keys are only
    /// ever added.
    static var jsonOutput: String { get }
    /// Whether the command may reach libical (repeat rules of stored todos, iCalendar files):
    /// it is opened before the command runs, so that a missing library fails the command
    /// first, not one of its todos quietly (a repeat ended, a file not read).
    static var usesLibICal: Bool { get }
    static func run(_ arguments: Arguments, context: Context) throws(CLIError)
}

extension Command {
    static var discussion: String { "" }
    static var jsonOutput: String { "" }

    static var name: String { declaration.name }
    /// One line for the command list.
    static var abstract: String { declaration.abstract }
    /// The synopsis, e.g. `nudge show ID [--json]`.
    static var usage: String { "nudge " + name + (declaration.synopsis.isEmpty ? "" : " " + declaration.synopsis) }
    static var options: [Option] { declaration.options }
    /// What the words besides options name, for shell completion.
    static var operands: Operands { declaration.operands }
    static var subcommands: [Subcommand] { declaration.subcommands }
    static var usesLibICal: Bool { false }

    /// Parses an id the way the user typed it, e.g. `12` or `#12`.
    static func todoID(_ text: String) throws(CLIError) -> Int64 {
        let digits = text.hasPrefix("#") ? String(text.dropFirst()) : text
        guard let id = Int64(digits), id > 0 else {
            throw .usage("'\(text)' is not a todo id; ids are whole numbers like 12 ('nudge list' shows them)")
        }
        return id
    }


    static func todoIDs(_ texts: [String]) throws(CLIError) -> [Int64] {
        var ids: [Int64] = []
        for text in texts {
            let id = try todoID(text)
            if !ids.contains(id) { ids.append(id) }
        }
        return ids
    }
}
