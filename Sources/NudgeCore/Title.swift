extension Todo {
    public static let maximumTitleLength = 1000

    /// The title as it will be stored: trimmed of surrounding white space, never empty, at most
    /// `maximumTitleLength` characters, without a NUL. Inner text (markup, quotes, newlines) is
    /// kept exactly.
    public static func validatedTitle(_ raw: String) throws(InputError) -> String {
        let title = raw.trimmingWhitespace()
        if title.isEmpty {
            throw InputError("the title is empty; give the todo a few words, e.g. nudge add \"Buy milk\"")
        }
        if title.unicodeScalars.contains("\u{0}") {
            // C strings (SQLite's text, libical's, the terminal's) end at a NUL: refused, not cut.
            throw InputError("the title contains a NUL character (U+0000)")
        }
        if title.count > maximumTitleLength {
            throw InputError("the title is \(title.count) characters long; at most \(maximumTitleLength) are allowed (put the rest in --notes)")
        }
        return title
    }
}

extension StringProtocol {
    public func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        var result = String.UnicodeScalarView()
        result.append(contentsOf: scalars[first...last])
        return String(result)
    }
}
