/// What a command is, in one place: its name, its one-line abstract and what it takes (options
/// and operands in the order its usage line shows them). Usage, help, the man page, the option
/// table `Arguments` parses by and the completion scripts are all read from it.
struct CommandDeclaration: Sendable {
    let name: String
    let abstract: String
    let syntax: [Syntax]
    /// The words that select what the command does (`nudge category add`), each with what it
    /// takes; `syntax` then holds what all of them take.
    let subcommands: [Subcommand]

    init(_ name: String, _ abstract: String, _ elements: any SyntaxElement..., subcommands: [Subcommand] = []) {
        self.name = name
        self.abstract = abstract
        syntax = elements.map(\.syntax)
        self.subcommands = subcommands
    }

    /// What follows `nudge NAME` in the usage line, e.g. `ID [--json]`.
    var synopsis: String {
        let shared = Syntax.line(syntax)
        guard !subcommands.isEmpty else { return shared }
        return [subcommands.map(\.synopsis).joined(separator: " | "), shared].filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// `nudge NAME` and its synopsis, as errors and help show it.
    var usage: String { usage(of: nil) }

    /// The usage of one subcommand, with what every subcommand takes: `nudge category add NAME [--icon ICON] [--json]`.
    func usage(of subcommand: String?) -> String {
        let words = subcommands.first { $0.name == subcommand }.map { [$0.synopsis, Syntax.line(syntax)] } ?? [synopsis]
        return (["nudge", name] + words).filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// Every option, the subcommands' first, in the order help lists them.
    var options: [Option] {
        (subcommands.flatMap(\.syntax) + syntax).flatMap(\.options)
    }

    var operands: Operands { Operands(syntax) }

    /// The subcommand `word` selects, by its name or an alias.
    func subcommand(_ word: String) -> Subcommand? {
        subcommands.first { $0.name == word || $0.aliases.contains(word) }
    }

    /// The `+TAG` (and `-TAG`) words the command takes, if any.
    var tagWords: TagWords? {
        for piece in syntax { if case .tags(let words) = piece { return words } }
        return nil
    }
}

/// A word a command takes besides its options, as usage names it and completion offers it.
struct Operand: SyntaxElement {
    enum Count: Sendable {
        case one, optional
        /// One or more, each a value of its own (`ID...`).
        case repeated
        /// The rest of the words, joined with spaces into one value (an unquoted title).
        case words
    }

    /// As usage shows it: `ID`, `TITLE`, `COMMAND | TOPIC`.
    let name: String
    let kind: WordKind
    var count = Count.one

    init(_ name: String, _ kind: WordKind, _ count: Count = .one) {
        self.name = name
        self.kind = kind
        self.count = count
    }

    /// One of a fixed list, shown as the list: `bash|zsh|fish`.
    init(choices: [String]) {
        self.init(choices.joined(separator: "|"), .choices(choices))
    }

    var syntax: Syntax { .operand(self) }
}

/// One piece of a usage line. A case's pointers must not share bits with the case number:
/// LeakSanitizer does not take such a tagged pointer for one, and would report what it holds
/// (the pieces of every declaration) as leaked. So not `indirect` (the arrays hold the nested
/// pieces, and a box would be tagged), and each array is first in its case: the case number
/// goes only in bits that every case spares, and there an Option and an Operand start with a
/// String's count, which spares none.
enum Syntax: SyntaxElement {
    case operand(Operand)
    case option(Option)
    /// At most one of these: `[--due WHEN | --no-due]`.
    case oneOf([Syntax])
    /// An option and those that only go with it: `[--repeat RULE [--repeat-from FROM]]`.
    case with([Syntax], Option)
    /// `+TAG` words, and with `removing` `-TAG` words, anywhere among the others.
    case tags(TagWords)

    var syntax: Syntax { self }

    /// The pieces as a usage line shows them, each optional one in brackets.
    static func line(_ pieces: [Syntax]) -> String {
        pieces.map(\.standalone).joined(separator: " ")
    }

    private var standalone: String {
        switch self {
        case .operand(let operand):
            switch operand.count {
            case .one, .words: operand.name
            case .optional: "[" + operand.name + "]"
            case .repeated: operand.name + "..."
            }
        case .option(let option): "[" + bare + "]" + (option.repeatable ? "..." : "")
        case .oneOf, .with: "[" + bare + "]"
        case .tags: "[" + bare + "]..."
        }
    }

    /// Without the brackets of an optional piece, as it stands inside a group.
    private var bare: String {
        switch self {
        case .operand(let operand): operand.name
        case .option(let option): option.synopsis
        case .oneOf(let pieces): pieces.map(\.bare).joined(separator: " | ")
        case .with(let pieces, let option): ([option.synopsis] + pieces.map(\.standalone)).joined(separator: " ")
        case .tags(let words): words.isFilter ? "FILTER" : words.removing ? "+TAG | -TAG" : "+TAG"
        }
    }

    var options: [Option] {
        switch self {
        case .operand, .tags: []
        case .option(let option): [option]
        case .oneOf(let pieces): pieces.flatMap(\.options)
        case .with(let pieces, let option): [option] + pieces.flatMap(\.options)
        }
    }

    /// How many operands `pieces` take: those in a group are optional, as usage shows them.
    static func operandRange(_ pieces: [Syntax]) -> (least: Int, most: Int?) {
        var least = 0, most: Int? = 0
        for piece in pieces {
            for operand in piece.operands {
                if case .operand = piece, operand.count != .optional { least += 1 }
                if operand.count == .repeated || operand.count == .words { most = nil } else { most? += 1 }
            }
        }
        return (least, most)
    }

    /// Each `oneOf` among these pieces, with its alternatives.
    var exclusiveGroups: [[Syntax]] {
        switch self {
        case .operand, .option, .tags: []
        case .oneOf(let pieces): [pieces] + pieces.flatMap(\.exclusiveGroups)
        case .with(let pieces, _): pieces.flatMap(\.exclusiveGroups)
        }
    }

    var operands: [Operand] {
        switch self {
        case .operand(let operand): [operand]
        case .option, .tags: []
        case .oneOf(let pieces), .with(let pieces, _): pieces.flatMap(\.operands)
        }
    }
}

/// What a command's declaration lists: an option, an operand or a group of them.
protocol SyntaxElement: Sendable {
    var syntax: Syntax { get }
}

/// At most one of these may be given (`[--due WHEN | --no-due]`).
func oneOf(_ elements: any SyntaxElement...) -> Syntax {
    .oneOf(elements.map(\.syntax))
}

extension OptionDeclaration {
    var syntax: Syntax { .option(option) }

    /// This option and those that only go with it (`--repeat RULE [--repeat-from FROM]`).
    func with(_ elements: any SyntaxElement...) -> Syntax {
        .with(elements.map(\.syntax), option)
    }
}

extension Option {
    /// As usage shows it: `--due WHEN`, `--priority low|medium|high`, `-o FILE`, `--json`.
    var synopsis: String {
        let spelling = short.map { "-\($0)" } ?? "--" + name
        guard let value else { return spelling }
        return spelling + " " + (choices.isEmpty ? value : choices.joined(separator: "|"))
    }
}
