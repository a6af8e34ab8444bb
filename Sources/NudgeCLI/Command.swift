import NudgePlatform
import NudgeRecurrence
import NudgeStore

/// One `nudge` subcommand: its declaration, its help and what it does.
protocol Command: SendableMetatype {
    /// The word that selects it (`nudge add`), apart from the declaration so that finding the
    /// command run builds no other command's declaration.
    static var name: String { get }
    /// Name, abstract, options and operands, from which usage, help, the man page and
    /// completion come.
    static var declaration: CommandDeclaration { get }
    /// Examples and details after the options in `nudge help NAME`.
    static var discussion: String { get }
    /// What `--json` prints, for the man page: the keys and what they hold. Keys are only
    /// ever added.
    static var jsonOutput: String { get }
    static func run(_ arguments: Arguments, context: Context) throws(CLIError)
}

extension Command {
    static var discussion: String { "" }
    static var jsonOutput: String { "" }

    /// One line for the command list.
    static var abstract: String { declaration.abstract }
    /// The synopsis, e.g. `nudge show ID [--json]`.
    static var usage: String { declaration.usage }
    static var options: [Option] { declaration.options }
    /// What the words besides options name, for shell completion.
    static var operands: Operands { declaration.operands }
    static var subcommands: [Subcommand] { declaration.subcommands }

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

    /// Opens libical before a use of it that cannot fail (an iCalendar file written, a vdir
    /// synced), so that a missing libical fails the command in one line.
    static func openLibICal() throws(CLIError) {
        do throws(LibraryLoadError) { try LibICalLibrary.open() } catch { throw .failed(error.description) }
    }
}
