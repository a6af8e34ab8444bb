import NudgeStore

/// `nudge __complete`: what the completion scripts ask the store while a line is typed. Read
/// with one query on the file, without planning or loading todos (see CompletionCandidates).
enum CompleteCommand: Command {
    static let name = "__complete"
    static let declaration = CommandDeclaration(name, "List todo ids with titles, category names or tags, for the completion scripts", subcommands: [
        Subcommand("ids", "Todo ids with their titles", Operand(choices: states.map(\.name)), Operand("PREFIX", .text, .optional)),
        Subcommand("categories", "Category names", Operand("PREFIX", .text, .optional)),
        Subcommand("tags", "The tags in use", Operand("PREFIX", .text, .optional)),
    ])
    /// Long titles are cut to this many characters: a completion menu shows one line each.
    static let titleWidth = 60
    /// More todos than this are not offered at all: a menu that long helps no one, and a
    /// shorter part of it would let the shell insert a common prefix the rest do not share.
    /// A digit or two narrows them (at 100,000 todos, two digits leave about 1,100).
    static let todoLimit = 2_000

    static func run(_ arguments: Arguments, context: Context) throws(CLIError) {
        let words = arguments.positionals
        do {
            switch (words[0], words.count) {
            case ("ids", 2...):
                guard let state = todoState(words[1]) else {
                    throw CLIError.usage("'\(Terminal.visible(words[1]))' is not a todo state; use pending, completed or all")
                }
                guard let candidates = try CompletionCandidates(path: context.databasePath) else { return }
                // Built as bytes, as this runs at each Tab.
                var lines: [UInt8] = []
                var count = 0
                try candidates.forEachTodo(state, idPrefix: words.count > 2 ? words[2] : "", limit: todoLimit + 1) { id, title in
                    count += 1
                    lines.append(contentsOf: String(id).utf8)
                    lines.append(UInt8(ascii: "\t"))
                    if isOneShortLine(title) {
                        lines.append(contentsOf: title)
                    } else {
                        lines.append(contentsOf: oneLine(String(decoding: title, as: UTF8.self)).utf8)
                    }
                    lines.append(UInt8(ascii: "\n"))
                }
                if count <= todoLimit && !lines.isEmpty { context.print(String(decoding: lines.dropLast(), as: UTF8.self)) }
            case ("categories", ...2):
                guard let candidates = try CompletionCandidates(path: context.databasePath) else { return }
                // A name with a control character could not be typed as it is shown: left out.
                for name in try candidates.categoryNames(prefix: words.count > 1 ? words[1] : "")
                where !name.unicodeScalars.contains(where: Terminal.isShownAsCode) {
                    context.print(name)
                }
            case ("tags", ...2):
                guard let candidates = try CompletionCandidates(path: context.databasePath) else { return }
                for name in try candidates.tagNames(prefix: words.count > 1 ? words[1] : "")
                where !name.unicodeScalars.contains(where: Terminal.isShownAsCode) {
                    context.print(name)
                }
            default:
                throw CLIError.usage("usage: \(usage)")
            }
        } catch {
            throw CLIError(error)
        }
    }

    /// The todo states by the names the scripts give them.
    static let states: [(name: String, state: TodoQuery.State)] = [("pending", .pending), ("completed", .completed), ("all", .all)]

    static func todoState(_ name: String) -> TodoQuery.State? {
        states.first { $0.name == name }?.state
    }

    static func name(of state: TodoQuery.State) -> String {
        states.first { $0.state == state }!.name  // `states` names every state
    }

    /// Most titles: short printable ASCII, no space at either end or twice in a row. Checked
    /// byte by byte, as this runs for every todo at each Tab.
    static func isOneShortLine(_ title: some Collection<UInt8>) -> Bool {
        guard title.count <= titleWidth else { return false }
        var previous: UInt8 = 0x20
        for byte in title {
            if byte < 0x20 || byte > 0x7E || (byte == 0x20 && previous == 0x20) { return false }
            previous = byte
        }
        return previous != 0x20
    }

    /// A title as one short line a shell shows safely: controls (tabs and newlines too) become
    /// spaces, runs of spaces one, and a long title is cut with an ellipsis.
    static func oneLine(_ title: String) -> String {
        if isOneShortLine(title.utf8) { return title }
        let words = CompletionTable.oneLine(title).split(separator: " ", omittingEmptySubsequences: true)
        let line = words.joined(separator: " ")
        return line.count <= titleWidth ? line : String(line.prefix(titleWidth - 1)) + "…"
    }
}
