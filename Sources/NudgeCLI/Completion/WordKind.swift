import NudgeCore
import NudgeStore

/// What a word on the command line names, so that a shell can offer candidates for it.
enum WordKind: Sendable, Equatable {
    /// Free text (a title, a date, a duration): nothing to offer.
    case text
    /// One of a fixed list, e.g. `low`, `medium`, `high`.
    case choices([String])
    case file
    /// A todo id, offered with its title; which todos depends on the command.
    case todo(TodoQuery.State)
    case category
    /// A tag in use (`--tag NAME`); the `+NAME` words are completed from the same list.
    case tag
    /// A command name.
    case command
    /// A command name or a help topic, as `nudge help` takes.
    case helpSubject
}

/// The words a command takes besides its options, for completion: the i-th names `kinds[i]`;
/// with `repeatsLast`, every later one names what the last does (`nudge done ID...`).
struct Operands: Sendable {
    var kinds: [WordKind] = []
    var repeatsLast = false

    init(_ syntax: [Syntax]) {
        let operands = syntax.flatMap(\.operands)
        kinds = operands.map(\.kind)
        repeatsLast = operands.last.map { $0.count == .repeated || $0.count == .words } ?? false
    }

    /// What the operand at `index` (from 0) names, or nil when the command takes no more.
    func kind(at index: Int) -> WordKind? {
        if index < kinds.count { return kinds[index] }
        return repeatsLast ? kinds.last : nil
    }
}

/// A word that selects what a command does (`nudge category add`), with what it takes after it.
struct Subcommand: Sendable {
    let name: String
    let abstract: String
    let syntax: [Syntax]
    /// Other words that select it (`ls` for `list`).
    private(set) var aliases: [String] = []

    init(_ name: String, _ abstract: String, _ elements: any SyntaxElement...) {
        self.name = name
        self.abstract = abstract
        syntax = elements.map(\.syntax)
    }

    /// The same subcommand, selected by these words too.
    func aliased(_ words: String...) -> Subcommand {
        var subcommand = self
        subcommand.aliases += words
        return subcommand
    }

    var operands: Operands { Operands(syntax) }

    /// `add NAME [--icon ICON]`.
    var synopsis: String { ([name] + (syntax.isEmpty ? [] : [Syntax.line(syntax)])).joined(separator: " ") }
}

extension Option {
    /// What the option's value names: its choices when it has them, else its `completes`,
    /// else a file for a FILE or PATH placeholder; nil for a flag.
    var valueKind: WordKind? {
        guard let value else { return nil }
        if !choices.isEmpty { return .choices(choices) }
        if let completes { return completes }
        return ["FILE", "PATH"].contains(value) ? .file : .text
    }
}

extension Command {
    /// The error for a word that names no subcommand: what it was likely meant to be, else
    /// what there is.
    static func unknownSubcommand(_ word: String) -> CLIError {
        let words = subcommands.flatMap { [$0.name] + $0.aliases }
        let advice = Misspelling.question(Misspelling.corrections(of: word, among: words)) ?? "use " + subcommandNames
        return .usage("unknown \(name) command '\(word)'; " + advice)
    }

    /// "add, list, rename or delete", for the error about an unknown subcommand.
    static var subcommandNames: String {
        let names = subcommands.map(\.name)
        // last: non-nil, there are two names or more there.
        return names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + names.last!
    }
}
