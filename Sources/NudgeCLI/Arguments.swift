/// An option a command accepts. Options are long (`--due WHEN` or `--due=WHEN`); `-h` is `--help`.
struct Option: Sendable {
    let name: String
    /// The placeholder shown in help for an option that takes a value; nil for a flag.
    let value: String?
    let help: String
    var repeatable = false
    /// A one-letter form, e.g. `o` for `-o FILE`, where a tool's users expect one.
    var short: Character?
    /// The values an option takes when they are a fixed list (`--format json|ics`), for
    /// completion; empty when any text will do.
    var choices: [String] = []
    /// What a value names when it comes from the store rather than a fixed list (a category,
    /// a todo id), for completion; see `valueKind`.
    var completes: WordKind?

    /// `--help` or `-h`, which every command takes.
    static let help = Option(name: "help", value: nil, help: "Show this help", short: "h")

    static func flag(_ name: String, _ help: String) -> Option {
        Option(name: name, value: nil, help: help)
    }

    static func value(_ name: String, _ placeholder: String, _ help: String, repeatable: Bool = false,
                      short: Character? = nil, choices: [String] = [], completes: WordKind? = nil) -> Option {
        Option(name: name, value: placeholder, help: help, repeatable: repeatable, short: short, choices: choices,
               completes: completes)
    }
}

/// A command line split into positional arguments and the options given.
struct Arguments {
    private(set) var positionals: [String] = []
    private var values: [String: [String]] = [:]

    /// Splits `words` by `options`, refusing unknown options and missing values. Everything after
    /// `--` is positional, so titles that start with a dash can be given.
    init(_ words: [String], options: [Option], command: String) throws(CLIError) {
        let byName = Dictionary(uniqueKeysWithValues: (options + [.help]).map { ($0.name, $0) })
        var index = 0
        var onlyPositionals = false
        while index < words.count {
            let word = words[index]
            index += 1
            if onlyPositionals || word == "-" || !word.hasPrefix("-") {
                positionals.append(word)
                continue
            }
            if word == "--" { onlyPositionals = true; continue }
            if word == "-h" { values["help", default: []].append(""); continue }
            let shortForm = options.first { $0.short.map { "-\($0)" } == word }
            guard word.hasPrefix("--") || shortForm != nil else {
                throw .usage("unknown option '\(word)' for '\(command)'; options are long, like --due (see 'nudge help \(command)')")
            }
            var name = shortForm?.name ?? String(word.dropFirst(2))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard let option = byName[name] else {
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
    }

    func has(_ name: String) -> Bool { values[name] != nil }
    func value(_ name: String) -> String? { values[name]?.last }
    func all(_ name: String) -> [String] { values[name] ?? [] }

    /// Refuses options that cannot be combined, such as `--due` with `--no-due`.
    func exclusive(_ names: String...) throws(CLIError) {
        let given = names.filter(has)
        if given.count > 1 {
            throw .usage(given.map { "--" + $0 }.joined(separator: " and ") + " cannot be used together; choose one")
        }
    }

    func positionals(min: Int, max: Int? = nil, usage: String) throws(CLIError) -> [String] {
        if positionals.count < min {
            throw .usage("missing argument; usage: \(usage)")
        }
        if let max, positionals.count > max {
            let extra = positionals[max]
            // A title's second word is the likely extra where the command takes one.
            let hint = usage.contains("TITLE") || usage.contains("--title") ? " (quote a title with spaces)" : ""
            throw .usage("unexpected argument '\(extra)'; usage: \(usage)" + hint)
        }
        return positionals
    }
}
