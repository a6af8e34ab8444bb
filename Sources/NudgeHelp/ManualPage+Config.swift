import Foundation

extension ManualPage {
    /// The page of a documented config file such as `config/nudge.conf`: its opening comment
    /// (`# NAME: summary.` then the description), then each `[section]` with its keys, each
    /// key with the comment above it and its value as the default. A comment followed by an
    /// empty line belongs to no key and is kept where it stands; commented-out `[section]`
    /// and `key = value` lines in it are shown as examples.
    public init(documentedConfig text: String, section: Int, source: String, manual: String,
                seeAlso: String) {
        var summary = ""
        var name = ""
        var description: [String] = []
        var sections: [Section] = []
        var heading: String?
        var blocks: [Block] = []
        var comment: [String] = []

        func endComment() {
            let text = comment.joined(separator: "\n")
            comment = []
            guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return }
            if heading == nil { description.append(text) } else { blocks.append(.text(text)) }
        }
        func endSection() {
            endComment()
            if let heading { sections.append(Section("[" + heading + "]", blocks)) }
            blocks = []
        }

        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("#") || line.hasPrefix(";") {
                var content = line.dropFirst()
                if content.hasPrefix(" ") { content = content.dropFirst() }
                if index == 0, let colon = content.firstIndex(of: ":") {
                    name = String(content[..<colon])
                    summary = content[content.index(after: colon)...].trimmingCharacters(in: CharacterSet(charactersIn: " ."))
                    continue
                }
                comment.append(Self.looksLikeConfig(content) ? "  " + content : String(content))
            } else if line.isEmpty {
                endComment()
            } else if line.hasPrefix("[") && line.hasSuffix("]") {
                endSection()
                heading = line.dropFirst().dropLast().trimmingCharacters(in: .whitespaces)
            } else if let equals = line.firstIndex(of: "=") {
                let key = line[..<equals].trimmingCharacters(in: .whitespaces)
                var value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
                // A comment after white space ends the value, as nudge reads it.
                if let comment = value.range(of: #"\s[#;]"#, options: .regularExpression) {
                    value = value[..<comment.lowerBound].trimmingCharacters(in: .whitespaces)
                }
                let meaning = comment.joined(separator: "\n")
                comment = []
                let fallback = value.isEmpty ? "Default: empty." : "Default: `" + value + "`."
                blocks.append(.entries([HelpEntry(key, meaning.isEmpty ? fallback : meaning + "\n\n" + fallback)]))
            }
        }
        endSection()

        self.init(name: name, section: section, source: source, manual: manual, summary: summary, sections: [
            Section("DESCRIPTION", description.map { .text($0) }),
            Section("SECTIONS", sections.flatMap { [.subsection($0.heading)] + $0.blocks }),
            Section("SEE ALSO", [.text(seeAlso)]),
        ])
    }

    /// A commented-out `[section]` header or `key = value` line; not prose that a line break
    /// left starting with one ("repeat_sound = yes. Quiet hours silence ...").
    static func looksLikeConfig(_ line: Substring) -> Bool {
        if line.hasPrefix("[") && line.hasSuffix("]") && !line.contains(" ") { return true }
        guard let equals = line.range(of: " = ") else { return false }
        let value = line[equals.upperBound...]
        if value.hasSuffix(".") || value.contains(". ") { return false }
        return line[..<equals.lowerBound].allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
    }
}
