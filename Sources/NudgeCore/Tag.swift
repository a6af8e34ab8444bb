import Foundation

/// A todo's tag: one word of letters (of any script, with their combining marks), digits, `-`
/// and `_`. Tags are matched without regard to case (`folded`) and shown as first typed.
public enum Tag {
    /// In Unicode code points: room for any word, and a bound on what a file can make a list carry.
    public static let maximumLength = 64
    /// Tags of one todo: more is a mistake, or a file out to make every list slow.
    public static let maximumPerTodo = 100

    /// The tag as it will be stored, or the one line that says why `text` is not one. `text`
    /// is the tag without its `+`; `typed` is how the user wrote it, for the message.
    public static func validated(_ text: String, typed: String? = nil) throws(InputError) -> String {
        let shown = typed ?? text
        guard let first = text.unicodeScalars.first else {
            throw InputError("'\(shown)' names no tag; a tag is one word, like +money")
        }
        guard text.unicodeScalars.count <= maximumLength else {
            throw InputError("a tag is at most \(maximumLength) characters; '\(shown.prefix(20))...' has \(text.unicodeScalars.count)")
        }
        if isMark(first) || first == "-" {
            throw InputError("'\(shown)' is not a tag: a tag starts with a letter, a digit or _")
        }
        if let bad = text.unicodeScalars.first(where: { !isAllowed($0) }) {
            let what = bad.properties.isWhitespace ? "a space" : bad.isASCII && bad.value >= 0x20 && bad.value < 0x7F
                ? "'\(Character(bad))'" : "U+" + String(bad.value, radix: 16, uppercase: true)
            throw InputError("'\(shown)' is not a tag: it holds \(what); a tag is one word of letters, digits, - and _")
        }
        return text
    }

    /// The form tags are compared by: composed, then lower case (Unicode's full mapping).
    public static func folded(_ tag: String) -> String {
        composed(tag).lowercased()
    }

    /// The tags with those that fold alike after the first removed, in order.
    public static func unique(_ tags: [String]) -> [String] {
        var seen = Set<String>()
        return tags.filter { seen.insert(folded($0)).inserted }
    }

    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        if scalar == "-" || scalar == "_" { return true }
        let properties = scalar.properties
        switch properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .decimalNumber:
            return true
        default:
            return isMark(scalar)
        }
    }

    private static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: true
        default: false
        }
    }

    private static func composed(_ text: String) -> String {
        // Swift compares Strings by canonical equivalence; SQLite compares bytes.
        text.precomposedStringWithCanonicalMapping
    }
}
