extension WhenParser {
    /// Every word the forms are made of.
    static let knownWords = Set(weekdays.keys).union(months.keys).union(SpanPiece.units.keys).union([
        "today", "tonight", "tomorrow", "tmrw", "tmr", "yesterday", "this", "next", "week", "month", "year",
        "noon", "midday", "midnight", "eod", "eow", "eom", "eoy", "end", "of", "the", "in", "at", "a", "an", "am", "pm",
    ])

    /// The words a misspelt one may be taken for: those of three letters or more, as "in", "at"
    /// and "m" are one edit from too much. Sorted, so that a suggestion never depends on a
    /// set's order.
    static let correctableWords = knownWords.filter { $0.count >= 3 }.sorted()

    /// The readings of `text` with each word that names nothing replaced by a date word near
    /// it ("tomorow 9am" is "tomorrow 9am"), lower-cased, in the order to try them: where
    /// two are equally near, the one of the word's length first ("dasy" is "days" before
    /// "day"). Empty when no word was replaced. Words with digits are left as they are: "9xm"
    /// is no slip of one letter.
    static func respellings(_ text: String) -> [String] {
        let words = tokens(text.lowercased())
        // The longest form has six words ("in 3 days at 9am" and the like).
        guard words.count <= 8 else { return [] }
        var readings = [[String]()], changed = false
        for word in words {
            var choices = [word]
            if !knownWords.contains(word), word.allSatisfy({ $0.isASCII && $0.isLetter }) {
                let corrections = Misspelling.corrections(of: word, among: correctableWords)
                if !corrections.isEmpty {
                    choices = corrections.filter { $0.count == word.count } + corrections.filter { $0.count != word.count }
                    changed = true
                }
            }
            // At most three words of three choices each: a text that far off is no slip.
            readings = readings.flatMap { reading in choices.map { reading + [$0] } }
            guard readings.count <= 27 else { return [] }
        }
        return changed ? readings.map { $0.joined(separator: " ") } : []
    }

    /// What a WHEN that cannot be read was likely meant to be: those of its respellings that
    /// read as a date, one for each date they read as (not "in 3 day" after "in 3 days"). Empty
    /// when more than three do: that is a guess.
    public func corrections(of text: String) -> [String] {
        var found: [(text: String, due: Due)] = []
        for respelling in WhenParser.respellings(text) {
            guard let reading = try? readAnyYear(respelling), reading.due.isWithinYears,
                  !found.contains(where: { $0.due == reading.due }) else { continue }
            found.append((respelling, reading.due))
        }
        return found.count <= 3 ? found.map(\.text) : []
    }
}
