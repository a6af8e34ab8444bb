import NudgeCore

/// The `+TAG` words a command takes among its others (`nudge add Call bank +money`), and with
/// `removing` the `-TAG` words (`nudge edit 12 -phone`, `nudge list -phone`). After `--` every
/// word is positional, so a title can start with `+`.
struct TagWords: SyntaxElement {
    let removing: Bool
    /// Every word that is not an option is a word of a filter (`nudge help filter`), kept in
    /// order, tags too, for `FilterParser`.
    var isFilter = false

    /// What a command that takes a filter declares.
    static let filter = TagWords(removing: true, isFilter: true)

    var syntax: Syntax { .tags(self) }

    /// The tag a `+TAG` or `-TAG` word (or a `--tag` value, with or without its `+`) names.
    static func tag(_ word: String) throws(CLIError) -> String {
        let name = word.hasPrefix("+") || word.hasPrefix("-") ? String(word.dropFirst()) : word
        do { return try Tag.validated(name, typed: word) } catch { throw .usage(error.message) }
    }
}

extension Command {
    /// The tags of `+TAG` words and of `option` (`--tag NAME`), in the order given, once each.
    static func tagsAdded(_ arguments: Arguments, option: RepeatedOption<String>) throws(CLIError) -> [String] {
        try Tag.unique(arguments.tagsAdded + arguments[option])
    }

    /// `tags` with `added` put after them and `removed` taken out, ignoring case; refused when
    /// a todo would hold more than `Tag.maximumPerTodo`.
    static func tags(_ tags: [String], adding added: [String], removing removed: [String]) throws(CLIError) -> [String] {
        let removedFolded = Set(removed.map(Tag.folded))
        let result = Tag.unique(tags + added).filter { !removedFolded.contains(Tag.folded($0)) }
        guard result.count <= Tag.maximumPerTodo else {
            throw .usage("a todo can have at most \(Tag.maximumPerTodo) tags; this one would have \(result.count)")
        }
        return result
    }

    static var tagOption: String { "A tag, as +NAME does: one word of letters, digits, - and _; repeatable" }
}

extension Context {
    /// "+money +phone", each tag made safe for the terminal.
    static func tagsText(_ tags: [String]) -> String {
        tags.map { "+" + Terminal.visible($0) }.joined(separator: " ")
    }
}
