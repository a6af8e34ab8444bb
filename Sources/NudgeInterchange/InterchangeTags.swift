import NudgeCore

/// The words another program tags a todo with, sorted into Nudge's tags and the rest.
enum InterchangeTags {
    /// For each word, whether it is one of the todo's tags: a tag word (`Tag.validated`), not
    /// a second spelling of an earlier one (ignoring case), and within `Tag.maximumPerTodo`.
    /// The others are what a format keeps, so that nothing is lost.
    static func isTag(_ words: [String]) -> [Bool] {
        var seen = Set<String>()
        return words.map { word in
            seen.count < Tag.maximumPerTodo && (try? Tag.validated(word)) != nil && seen.insert(Tag.folded(word)).inserted
        }
    }

    /// The tags among `words` and the others, each in order.
    static func split(_ words: [String]) -> (tags: [String], others: [String]) {
        let tagged = isTag(words)
        return (zip(words, tagged).filter(\.1).map(\.0), zip(words, tagged).filter { !$0.1 }.map(\.0))
    }
}
