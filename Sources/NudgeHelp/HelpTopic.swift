/// A part of the help that is no one command's, such as the forms a WHEN takes or the
/// environment: `nudge help NAME` prints it, and the man page gives it a section.
public struct HelpTopic: Sendable {
    /// What `nudge help` takes: `when`.
    public let name: String
    /// The man page's section heading: `DATES AND TIMES (WHEN)`.
    public let heading: String
    /// One line for the list of topics.
    public let abstract: String
    /// Help text before the entries.
    public let text: String
    public let entries: [HelpEntry]
    /// Help text after the entries.
    public let notes: String

    public init(name: String, heading: String, abstract: String, text: String, entries: [HelpEntry] = [], notes: String = "") {
        self.name = name
        self.heading = heading
        self.abstract = abstract
        self.text = text
        self.entries = entries
        self.notes = notes
    }

    /// What `nudge help NAME` prints.
    public var plainText: String {
        var parts = [abstract.hasSuffix(".") ? abstract : abstract + ".", PlainText.wrap(text, width: 80).joined(separator: "\n")]
        if !entries.isEmpty { parts.append(entries.plainText()) }
        if !notes.isEmpty { parts.append(PlainText.wrap(notes, width: 80).joined(separator: "\n")) }
        return parts.filter { !$0.isEmpty }.joined(separator: "\n\n")
    }

    /// The blocks of its man page section.
    public var blocks: [ManualPage.Block] {
        var blocks: [ManualPage.Block] = [.text(text)]
        if !entries.isEmpty { blocks.append(.entries(entries)) }
        if !notes.isEmpty { blocks.append(.text(notes)) }
        return blocks
    }
}
