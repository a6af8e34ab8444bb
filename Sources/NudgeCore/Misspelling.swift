/// What a word typed wrong was likely meant to be, as git suggests `add` for `ad`: the known
/// words nearest to it by Damerau-Levenshtein distance (an insertion, a deletion, a change or
/// two neighbours swapped is one edit), when one is near enough to be a slip of the keys.
public enum Misspelling {
    /// Words longer than this are not compared: no known word is that long, and the distance
    /// table of a long word typed by a script would cost for nothing.
    static let longestWord = 40

    /// The known words nearest to `word`, in their order in `known`: at most one edit away for
    /// a word of up to four letters, two for a longer one. Empty when none is that near, when
    /// `word` has fewer than two letters (anything is one edit from it), and when more than
    /// three are equally near, which is no suggestion but a guess. Case is ignored.
    public static func corrections(of word: String, among known: [String]) -> [String] {
        let typed = Array(word.lowercased())
        guard (2...longestWord).contains(typed.count) else { return [] }
        var nearest: [String] = [], best = typed.count <= 4 ? 1 : 2
        for candidate in known {
            let letters = Array(candidate.lowercased())
            guard abs(letters.count - typed.count) <= best, letters.count <= longestWord else { continue }
            let distance = editDistance(typed, letters)
            if distance < best {
                best = distance
                nearest = [candidate]
            } else if distance == best, !nearest.contains(candidate) {
                nearest.append(candidate)
            }
        }
        return nearest.count <= 3 ? nearest : []
    }

    /// "did you mean 'add'?", "did you mean 'sat' or 'sun'?"; nil for no corrections.
    public static func question(_ corrections: [String]) -> String? {
        guard let last = corrections.last else { return nil }
        let quoted = corrections.map { "'\($0)'" }
        let list = corrections.count == 1 ? quoted[0] : quoted.dropLast().joined(separator: ", ") + " or '\(last)'"
        return "did you mean \(list)?"
    }

    /// The optimal string alignment distance: edits, with a swap of neighbours counted as one
    /// (`tomorow`, `teh`), each letter edited at most once.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let change = a[i - 1] == b[j - 1] ? 0 : 1
                var distance = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + change)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    distance = min(distance, beforePrevious[j - 2] + 1)
                }
                current[j] = distance
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }
}
