/// Help text as the commands write it for a terminal, read back into its parts so that it can
/// be wrapped or typeset: paragraphs of hard-wrapped lines, "- " bullets, and indented lines
/// (examples, small tables) kept as they are. Blank lines separate the parts.
public enum HelpText {
    public enum Block: Equatable, Sendable {
        /// One paragraph, its lines joined with spaces.
        case paragraph(String)
        /// One "- " item, its continuation lines joined.
        case bullet(String)
        /// Indented lines, without their common indentation.
        case literal([String])
    }

    public static func blocks(_ text: String) -> [Block] {
        var blocks: [Block] = []
        /// The indentation of the bullet being continued.
        var bulletIndent: Int?
        var lastWasBlank = true
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = rawLine.trimmingTrailingSpaces()
            let trimmed = line.drop { $0 == " " }
            let indent = line.count - trimmed.count
            defer { lastWasBlank = trimmed.isEmpty }
            if trimmed.isEmpty {
                bulletIndent = nil
                continue
            }
            if trimmed.hasPrefix("- ") {
                blocks.append(.bullet(String(trimmed.dropFirst(2))))
                bulletIndent = indent
                continue
            }
            if let bullet = bulletIndent, indent > bullet, case .bullet(let item)? = blocks.last {
                blocks[blocks.count - 1] = .bullet(item + " " + trimmed)
                continue
            }
            bulletIndent = nil
            if indent == 0 {
                if !lastWasBlank, case .paragraph(let paragraph)? = blocks.last {
                    blocks[blocks.count - 1] = .paragraph(paragraph + " " + trimmed)
                } else {
                    blocks.append(.paragraph(String(trimmed)))
                }
            } else if !lastWasBlank, case .literal(let lines)? = blocks.last {
                blocks[blocks.count - 1] = .literal(lines + [String(line)])
            } else {
                blocks.append(.literal([String(line)]))
            }
        }
        return blocks.map { block in
            guard case .literal(let lines) = block else { return block }
            let indent = lines.map { $0.prefix { $0 == " " }.count }.min() ?? 0
            return .literal(lines.map { String($0.dropFirst(indent)) })
        }
    }
}

extension HelpText {
    /// `text` laid out for a terminal `width` columns wide: see `PlainText.wrap`.
    public static func plainText(_ text: String, width: Int = 80) -> String {
        PlainText.wrap(text, width: width).joined(separator: "\n")
    }

    /// A synopsis such as `nudge add TITLE [--due WHEN] ...` in lines of at most `width`,
    /// the later lines indented by `indent` columns. It breaks only before a bracket or an
    /// alternative after `|`, so that `[--due WHEN]` and `rename OLD NEW` stay whole.
    public static func synopsis(_ text: String, width: Int = 80, indent: Int) -> [String] {
        var tokens: [String] = []
        var depth = 0
        var token = ""
        for character in text {
            if character == " ", depth == 0 {
                if !token.isEmpty { tokens.append(token) }
                token = ""
                continue
            }
            if character == "[" { depth += 1 }
            if character == "]" { depth = Swift.max(depth - 1, 0) }
            token.append(character)
        }
        if !token.isEmpty { tokens.append(token) }
        var words: [String] = []
        for token in tokens {
            if let last = words.last, token == "|" || !(token.hasPrefix("[") || last.hasSuffix("]") || last.hasSuffix("|")) {
                words[words.count - 1] = last + " " + token
            } else {
                words.append(token)
            }
        }
        var lines: [String] = []
        var line = ""
        for word in words {
            let margin = lines.isEmpty ? 0 : indent
            if line.isEmpty || margin + line.count + 1 + word.count <= width {
                line += (line.isEmpty ? "" : " ") + word
            } else {
                lines.append(line)
                line = word
            }
        }
        lines.append(line)
        return lines.enumerated().map { $0.offset == 0 ? $0.element : String(repeating: " ", count: indent) + $0.element }
    }
}

/// Text laid out for a terminal.
enum PlainText {
    /// `text` (help text) in lines of at most `width` characters where words allow: paragraphs
    /// and bullets are filled, literal lines kept, parts separated by empty lines.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        for block in HelpText.blocks(text) {
            if !lines.isEmpty { lines.append("") }
            switch block {
            case .paragraph(let paragraph):
                lines += fill(paragraph, width: width)
            case .bullet(let item):
                let filled = fill(item, width: width - 2)
                lines += filled.enumerated().map { ($0.offset == 0 ? "- " : "  ") + $0.element }
            case .literal(let literal):
                lines += literal.map { "  " + $0 }
            }
        }
        return lines
    }

    static func fill(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if line.isEmpty {
                line = String(word)
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}

extension Substring {
    func trimmingTrailingSpaces() -> Substring {
        var result = self
        while result.last == " " { result = result.dropLast() }
        return result
    }
}

extension HelpText {
    /// Literal lines that are a two-column table (a term, two spaces or more, its meaning,
    /// and the meaning's further lines under its start) as entries, so that a page can set
    /// them to its width; nil for other lines (examples, code).
    static func table(_ lines: [String]) -> [HelpEntry]? {
        guard let first = lines.first, let column = meaningColumn(first) else { return nil }
        var entries: [(term: String, meaning: String)] = []
        for line in lines {
            let indent = line.prefix { $0 == " " }.count
            if indent == column, let last = entries.last {
                entries[entries.count - 1].meaning = last.meaning + " " + line.dropFirst(column)
            } else if indent == 0, meaningColumn(line) == column {
                entries.append((String(line.prefix(column).trimmingTrailingSpaces()), String(line.dropFirst(column))))
            } else {
                return nil
            }
        }
        return entries.map { HelpEntry($0.term, $0.meaning) }
    }

    /// Where the meaning starts in a table row: after the first run of two spaces or more.
    private static func meaningColumn(_ line: String) -> Int? {
        let characters = Array(line)
        guard characters.first.map({ $0 != " " }) == true else { return nil }
        var index = 0
        while index + 1 < characters.count {
            if characters[index] == " ", characters[index + 1] == " " {
                var end = index
                while end < characters.count, characters[end] == " " { end += 1 }
                return end < characters.count ? end : nil
            }
            index += 1
        }
        return nil
    }
}
