import NudgeStore

/// One `nudge` subcommand: its help and what it does.
protocol Command: SendableMetatype {
    static var name: String { get }
    /// One line for the command list.
    static var abstract: String { get }
    /// The synopsis, e.g. `nudge show ID [--json]`.
    static var usage: String { get }
    /// Examples and details after the options in `nudge help NAME`.
    static var discussion: String { get }
    static var options: [Option] { get }
    /// What `--json` prints, for the man page: the keys and what they hold. Keys are only
    /// ever added.
    static var jsonOutput: String { get }
    /// What the words besides options name, for shell completion.
    static var operands: Operands { get }
    /// The words that select what the command does, when it has them (`nudge category add`):
    /// they come first, before the subcommand's own operands.
    static var subcommands: [Subcommand] { get }
    static func run(_ arguments: Arguments, context: Context) throws(CLIError)
}

extension Command {
    static var discussion: String { "" }
    static var jsonOutput: String { "" }
    static var operands: Operands { .none }
    static var subcommands: [Subcommand] { [] }

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
