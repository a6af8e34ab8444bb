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
