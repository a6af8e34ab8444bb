/// What happened to a todo that a `[hooks]` command can be run for.
public enum HookEvent: String, CaseIterable, Hashable, Sendable {
    /// A reminder of the todo fired (shown, or about to be).
    case fire
    /// The todo was completed (a repeating one: an occurrence of it).
    case done
    /// The todo was snoozed.
    case snooze
    /// The todo was added.
    case add

    /// The key in `[hooks]`, e.g. `on_fire`.
    public var key: String { "on_" + rawValue }
}

/// `[hooks]`: commands `nudged` runs when something happens to a todo.
public struct HookSettings: Hashable, Sendable {
    /// `on_fire`, `on_done`, `on_snooze`, `on_add`; an event without a command runs nothing.
    public var commands: [HookEvent: HookCommand] = [:]
    /// `max_running`: the most hooks running at once; the others wait their turn.
    public var maxRunning = 4
    /// `timeout`: a hook still running after this many seconds is killed.
    public var timeout: Double = 10
    /// `suppress_wait`: how long, in seconds, a reminder's notification waits for its `on_fire`
    /// hook to say `suppress` or not; 0 shows it at once (and a later `suppress` withdraws it).
    public var suppressWait: Double = 0

    public init() {}
}

/// A hook's command line, split into words as systemd splits `ExecStart=` and run without a
/// shell: words are separated by spaces; single or double quotes keep spaces in a word;
/// backslash escapes `\\`, `\"`, `\'`, `\n`, `\t`, `\s` (a space) and `\ `; `${NAME}` is the
/// environment variable NAME when the hook runs (empty when unset), `$$` a dollar sign, and
/// `$NAME` as a word of its own is NAME's value split at white space into words (none when
/// unset or empty). Unlike systemd, `%` is an ordinary character: there are no specifiers.
public struct HookCommand: Hashable, Sendable, CustomStringConvertible {
    /// The words, with `${NAME}` still in them; a word `$NAME` is to be split.
    public let words: [String]
    /// As written in the config file.
    public let text: String

    public init(parsing text: String) throws(InputError) {
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        var characters = Array(text)[...]
        while let character = characters.popFirst() {
            if character == "\\" {
                guard let escaped = characters.popFirst() else {
                    throw InputError("a hook command ends in a backslash: \(text)")
                }
                guard let meaning = Self.escapes[escaped] else {
                    throw InputError("unknown escape '\\\(escaped)' in hook command: \(text); known: \\\\ \\\" \\' \\n \\t \\s \\$ and '\\ '")
                }
                // A dollar sign is kept as $$, so that only ${NAME} is replaced.
                word += meaning == "$" ? "$$" : String(meaning)
                inWord = true
            } else if let open = quote {
                if character == open {
                    quote = nil
                } else if character == "$" {
                    try Self.variable(in: &characters, into: &word, text: text)
                } else {
                    word.append(character)
                }
            } else if character == "\"" || character == "'" {
                quote = character
                inWord = true
            } else if character == " " || character == "\t" {
                if inWord { words.append(word) }
                word = ""
                inWord = false
            } else if character == "$", !inWord, let name = Self.splitVariable(in: &characters, text: text) {
                words.append("$" + name)
            } else if character == "$" {
                try Self.variable(in: &characters, into: &word, text: text)
                inWord = true
            } else {
                word.append(character)
                inWord = true
            }
        }
        if let quote { throw InputError("a quote (\(quote)) is not closed in hook command: \(text)") }
        if inWord { words.append(word) }
        guard !words.isEmpty else { throw InputError("a hook command needs at least a program to run") }
        self.words = words
        self.text = text
    }

    /// The arguments to run, `${NAME}` replaced from `environment`; the first is the program,
    /// found on PATH when it has no slash.
    public func arguments(environment: [String: String]) -> [String] {
        words.flatMap { word -> [String] in
            guard word.contains("$") else { return [word] }
            if Self.isVariableName(String(word.dropFirst())) {
                return (environment[String(word.dropFirst())] ?? "").split(whereSeparator: \.isWhitespace).map(String.init)
            }
            var out = ""
            var rest = word[...]
            while let dollar = rest.firstIndex(of: "$") {
                out += rest[..<dollar]
                rest = rest[dollar...].dropFirst()
                if rest.first == "$" {
                    out += "$"
                    rest = rest.dropFirst()
                } else if let end = rest.firstIndex(of: "}") {
                    out += environment[String(rest.dropFirst()[..<end])] ?? ""
                    rest = rest[rest.index(after: end)...]
                }
            }
            return [out + rest]
        }
    }

    public var description: String { text }

    private static let escapes: [Character: Character] = [
        "\\": "\\", "\"": "\"", "'": "'", "n": "\n", "t": "\t", "s": " ", " ": " ", "$": "$",
    ]

    /// After a `$` that starts a word: the NAME of `$NAME` when the word ends there, taken
    /// from `characters`; nil for `$$` and `${`, which `variable` reads.
    private static func splitVariable(in characters: inout ArraySlice<Character>, text: String) -> String? {
        let name = characters.prefix { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
        let after = characters.dropFirst(name.count).first
        guard isVariableName(String(name)), after == nil || after == " " || after == "\t" else { return nil }
        characters = characters.dropFirst(name.count)
        return String(name)
    }

    /// After a `$`: `$$` or `${NAME}`, kept as written for `arguments(environment:)`.
    private static func variable(in characters: inout ArraySlice<Character>, into word: inout String,
                                 text: String) throws(InputError) {
        guard let next = characters.first, next == "{" || next == "$" else {
            throw InputError("'$' in a hook command starts ${NAME}, $NAME as a word of its own, or $$ for a dollar sign: \(text)")
        }
        if next == "$" {
            characters.removeFirst()
            word += "$$"
            return
        }
        guard let end = characters.firstIndex(of: "}") else {
            throw InputError("'${' without its '}' in hook command: \(text)")
        }
        let name = String(characters[characters.index(after: characters.startIndex)..<end])
        guard isVariableName(name) else {
            throw InputError("'${\(name)}' is not a variable name (letters, digits, _) in hook command: \(text)")
        }
        word += "${" + name + "}"
        characters = characters[characters.index(after: end)...]
    }

    private static func isVariableName(_ name: String) -> Bool {
        guard let first = name.first, first == "_" || (first.isASCII && first.isLetter) else { return false }
        return name.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
    }
}
