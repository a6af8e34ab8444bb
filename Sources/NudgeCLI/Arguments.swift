import NudgeCore

/// An option a command accepts. Options are long (`--due WHEN` or `--due=WHEN`); `-h` is `--help`.
struct Option: Sendable {
    let name: String
    /// The placeholder shown in help for an option that takes a value; nil for a flag.
    let value: String?
    let help: String
    var repeatable = false
    /// A one-letter form, e.g. `o` for `-o FILE`, where a tool's users expect one.
    var short: Character?
    /// The values an option takes when they are a fixed list (`--format json|ics`), for usage
    /// and completion; empty when any text will do.
    var choices: [String] = []
    /// What completion offers for a value besides a fixed list: a category, a todo id, or
    /// examples of open-ended text (`--repeat weekly`); see `valueKind`.
    var completes: WordKind?

    /// How it may be written: `--output`, and `-o` when it has a short form.
    var spellings: [String] {
        ["--" + name] + (short.map { ["-\($0)"] } ?? [])
    }

    /// `--help` or `-h`, which every command takes.
    static let help = Flag.help.option

    /// A command's declared options in the order its help lists them.
    static func list(_ declarations: any OptionDeclaration...) -> [Option] {
        declarations.map(\.option)
    }
}

/// An option as a command declares it (`static let json = Flag("json", ...)`) and reads it back
/// from its `Arguments` (`arguments[json]`): the declaration is the key, so that a command can only
/// ask for what it declared, and gets the type the option has.
protocol OptionDeclaration: SyntaxElement {
    var option: Option { get }
}

/// An option without a value: given or not.
struct Flag: OptionDeclaration {
    let option: Option

    init(_ name: String, _ help: String, short: Character? = nil) {
        option = Option(name: name, value: nil, help: help, short: short)
    }

    static let help = Flag("help", "Show this help", short: "h")
}

/// An option with a value, given at most once. `arguments[option]` is the value read from the
/// text given, by `read`, which throws the one line that says why the text names no value.
struct ValueOption<Value>: OptionDeclaration {
    let option: Option
    let read: @Sendable (String, Context) throws(CLIError) -> Value

    /// An option whose value is read with the context: a WHEN, read in the zone and locale.
    init(_ name: String, _ placeholder: String, _ help: String, short: Character? = nil, choices: [String] = [],
         completes: WordKind? = nil, read: @escaping @Sendable (String, Context) throws(CLIError) -> Value) {
        option = Option(name: name, value: placeholder, help: help, short: short, choices: choices, completes: completes)
        self.read = read
    }

    /// An option whose value is read from its text alone.
    init(_ name: String, _ placeholder: String, _ help: String, short: Character? = nil, choices: [String] = [],
         completes: WordKind? = nil, parse: @escaping @Sendable (String) throws(CLIError) -> Value) {
        self.init(name, placeholder, help, short: short, choices: choices, completes: completes) { text, _ throws(CLIError) in
            try parse(text)
        }
    }
}

extension ValueOption where Value == String {
    /// An option whose value is any text, taken as given.
    init(_ name: String, _ placeholder: String, _ help: String, short: Character? = nil, completes: WordKind? = nil) {
        self.init(name, placeholder, help, short: short, completes: completes) { text, _ in text }
    }
}

/// An option with a value that may be given again and again, each value read (as
/// `ValueOption` reads it) and kept in order.
struct RepeatedOption<Value>: OptionDeclaration {
    let option: Option
    let read: @Sendable (String, Context) throws(CLIError) -> Value

    init(_ name: String, _ placeholder: String, _ help: String, completes: WordKind? = nil,
         read: @escaping @Sendable (String, Context) throws(CLIError) -> Value) {
        option = Option(name: name, value: placeholder, help: help, repeatable: true, completes: completes)
        self.read = read
    }
}

/// A command line split into positional arguments and the options given.
struct Arguments {
    /// The words that are not options, as many as the declaration takes (checked).
    private(set) var positionals: [String] = []
    /// The `+TAG` and `-TAG` words, for a command that declares `TagWords`; checked tags.
    private(set) var tagsAdded: [String] = [], tagsRemoved: [String] = []
    /// For a command that takes a filter, its words in order, not checked.
    private(set) var filterWords: [String] = []
    private var values: [String: [String]] = [:]
    /// The names of the options the command declared, for the check that it asks only for these.
    private let declared: Set<String>

    /// What values are read with (the clock, the zone, the config).
    private let context: Context

    /// Splits `words` by the options `declaration` lists, refusing unknown options, missing
    /// values and options of one `oneOf` group given together. Everything after `--` is
    /// positional, so titles that start with a dash can be given.
    init(_ words: [String], declaration: CommandDeclaration, context: Context) throws(CLIError) {
        let options = declaration.options, command = declaration.name, tagWords = declaration.tagWords
        self.context = context
        let byName = Dictionary(uniqueKeysWithValues: (options + [.help]).map { ($0.name, $0) })
        declared = Set(byName.keys)
        var index = 0
        var onlyPositionals = false
        while index < words.count {
            let word = words[index]
            index += 1
            if tagWords?.isFilter == true, onlyPositionals
                || (!word.hasPrefix("--") && word != "-h" && !options.contains { $0.short.map { "-\($0)" } == word }) {
                filterWords.append(word)
                continue
            }
            if !onlyPositionals, tagWords != nil, word.hasPrefix("+") {
                tagsAdded.append(try TagWords.tag(word))
                continue
            }
            if onlyPositionals || word == "-" || !word.hasPrefix("-") {
                positionals.append(word)
                continue
            }
            if word == "--" { onlyPositionals = true; continue }
            if word == "-h" { values["help", default: []].append(""); continue }
            let shortForm = options.first { $0.short.map { "-\($0)" } == word }
            if tagWords?.removing == true, shortForm == nil, !word.hasPrefix("--") {
                tagsRemoved.append(try TagWords.tag(word))
                continue
            }
            guard word.hasPrefix("--") || shortForm != nil else {
                // "-json": one dash short of an option.
                let advice = Self.question(String(word.dropFirst()), among: byName.keys) ?? "options are long, like --due (see 'nudge help \(command)')"
                throw .usage("unknown option '\(word)' for '\(command)'; " + advice)
            }
            var name = shortForm?.name ?? String(word.dropFirst(2))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard let option = byName[name] else {
                if let question = Self.question(name, among: byName.keys) {
                    throw .usage("unknown option '--\(name)' for '\(command)'; \(question)")
                }
                throw .usage("unknown option '--\(name)' for '\(command)' (see 'nudge help \(command)')")
            }
            if let placeholder = option.value {
                guard let value = inlineValue ?? (index < words.count ? words[index] : nil) else {
                    throw .usage("--\(name) needs a value: --\(name) \(placeholder)")
                }
                if inlineValue == nil { index += 1 }
                if values[name] != nil && !option.repeatable {
                    throw .usage("--\(name) was given twice; give it once")
                }
                values[name, default: []].append(value)
            } else {
                guard inlineValue == nil else { throw .usage("--\(name) takes no value") }
                values[name, default: []].append("")
            }
        }
        // Help is shown whatever else was given.
        guard values["help"] == nil else { return }
        try check(declaration)
    }

    /// Refuses fewer or more operands than the declaration takes, then alternatives of one
    /// `oneOf` group given together. With subcommands, the first operand selects one, whose
    /// operands come next; a word that names none is left for the command to refuse.
    private func check(_ declaration: CommandDeclaration) throws(CLIError) {
        var syntax = declaration.syntax, usage = declaration.usage, operands = positionals[...]
        if !declaration.subcommands.isEmpty {
            guard let first = operands.popFirst() else { throw .usage("missing argument; usage: \(usage)") }
            guard let subcommand = declaration.subcommand(first) else { return }
            syntax = subcommand.syntax + syntax
            usage = declaration.usage(of: subcommand.name)
        }
        let range = Syntax.operandRange(syntax)
        if operands.count < range.least {
            throw .usage("missing argument; usage: \(usage)")
        }
        if let most = range.most, operands.count > most {
            // A title's second word is the likely extra where the command takes one.
            let hint = usage.contains("TITLE") || usage.contains("--title") ? " (quote a title with spaces)" : ""
            throw .usage("unexpected argument '\(operands.dropFirst(most).first ?? "")'; usage: \(usage)" + hint)
        }
        let places = syntax.flatMap(\.operands).map(\.name)
        for group in syntax.flatMap(\.exclusiveGroups) {
            let together = group.compactMap { given($0, operands: operands.count, places: places) }
            if together.count > 1 {
                throw .usage(together.joined(separator: " and ") + " cannot be used together; choose one")
            }
        }
    }

    /// "did you mean '--json'?" for an option `name` misspells, among the `names` declared.
    private static func question(_ name: String, among names: Dictionary<String, Option>.Keys) -> String? {
        Misspelling.question(Misspelling.corrections(of: name, among: names.sorted()).map { "--" + $0 })
    }

    subscript(flag: Flag) -> Bool { given(flag) }
    subscript<Value>(option: ValueOption<Value>) -> Value? {
        get throws(CLIError) {
            guard let text = values[checked(option)]?.last else { return nil }
            return try option.read(text, context)
        }
    }

    subscript<Value>(option: RepeatedOption<Value>) -> [Value] {
        get throws(CLIError) {
            var read: [Value] = []
            for text in values[checked(option)] ?? [] { read.append(try option.read(text, context)) }
            return read
        }
    }

    /// Whether the option was on the command line, whatever its value.
    func given(_ option: some OptionDeclaration) -> Bool { values[checked(option)] != nil }

    /// How the error names an alternative of a `oneOf` group that was given, nil when it was
    /// not: an operand is given when the `operands` given reach its place among `places`.
    /// What only goes with an option (`--repeat-from` with `--repeat`) is checked where it is read.
    private func given(_ alternative: Syntax, operands: Int, places: [String]) -> String? {
        switch alternative {
        case .option(let option), .with(_, let option): values[option.name] == nil ? nil : "--" + option.name
        case .operand(let operand): places.firstIndex(of: operand.name).map { operands > $0 } == true ? operand.name : nil
        case .oneOf, .tags: nil
        }
    }

    /// The option's name, once sure the command declared it: asking for another is a
    /// programming error that would otherwise read as "not given".
    private func checked(_ declaration: some OptionDeclaration) -> String {
        let name = declaration.option.name
        assert(declared.contains(name), "--\(name) is read but not declared")
        return name
    }
}
