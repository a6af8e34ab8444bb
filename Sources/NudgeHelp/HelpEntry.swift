/// One term of a list in help text and man pages: an option, a form of WHEN, a variable, a
/// signal, a journal field.
public struct HelpEntry: Hashable, Sendable {
    /// Shown in bold in a man page, e.g. `--due` or `NUDGE_DB`.
    public let term: String
    /// Shown in italics after the term, e.g. `WHEN` for `--due WHEN`; nil when there is none.
    public let argument: String?
    /// What the term means, in the format of help text (see `ManualPage.Block.text`).
    public let meaning: String

    public init(_ term: String, argument: String? = nil, _ meaning: String) {
        self.term = term
        self.argument = argument
        self.meaning = meaning
    }

    /// The term as a terminal shows it: `--due WHEN`.
    public var label: String {
        term + (argument.map { " " + $0 } ?? "")
    }
}

extension [HelpEntry] {
    /// Two columns for a terminal: the labels padded to one width, each meaning wrapped to
    /// `width` with its lines under the first. A label too long for the column gets the
    /// meaning on the next line.
    public func plainText(width: Int = 80) -> String {
        let column = Swift.min(map(\.label.count).max() ?? 0, 24)
        var lines: [String] = []
        for entry in self {
            let indent = String(repeating: " ", count: column + 4)
            let wrapped = PlainText.wrap(entry.meaning, width: Swift.max(width - indent.count, 30))
            var first = wrapped.first ?? ""
            if entry.label.count > column {
                lines.append("  " + entry.label)
                first = indent + first
            } else {
                first = "  " + entry.label + String(repeating: " ", count: column - entry.label.count) + "  " + first
            }
            lines.append(first)
            lines += wrapped.dropFirst().map { $0.isEmpty ? "" : indent + $0 }
        }
        return lines.joined(separator: "\n")
    }
}
