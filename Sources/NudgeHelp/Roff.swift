import NudgePlatform

/// Writes roff source: every character of the text arrives as itself.
struct Roff {
    private(set) var text = ""
    /// Whether the next paragraph follows a heading, and so needs no paragraph break.
    private var atHeading = true

    mutating func request(_ name: String, _ arguments: String...) {
        text += "." + name + arguments.map { " \"" + Self.escape($0).replacingOccurrences(of: "\"", with: "\\(dq") + "\"" }.joined() + "\n"
        atHeading = name == "SH" || name == "SS" || name == "TP"
    }

    /// A line of text. A leading dot would make it a request; `\&` keeps it text.
    mutating func line(_ text: String) {
        raw(Self.escape(text))
    }

    /// A line already escaped; a request when `request` says so.
    mutating func raw(_ line: String, request: Bool = false) {
        text += (line.hasPrefix(".") && !request ? "\\&" : "") + line + "\n"
        atHeading = false
    }

    mutating func block(_ block: ManualPage.Block) {
        switch block {
        case .text(let help):
            for part in HelpText.blocks(help) { self.part(part, inEntry: false) }
        case .entries(let entries):
            for entry in entries {
                request("TP")
                raw("\\fB" + Self.escape(entry.term) + "\\fR" + (entry.argument.map { " \\fI" + Self.escape($0) + "\\fR" } ?? ""))
                for (index, part) in HelpText.blocks(entry.meaning).enumerated() {
                    self.part(part, inEntry: true, first: index == 0)
                }
            }
        case .usage(let command, let arguments):
            if !atHeading { request("PP") }
            raw("\\fB" + Self.escape(command) + "\\fR " + Self.escape(arguments))
        case .subsection(let heading):
            request("SS", heading)
        }
    }

    /// One part of help text. In an entry, text stays indented under the term: paragraphs
    /// after the first are `.IP`, and `.RS` moves bullets and examples to the entry's indent.
    private mutating func part(_ part: HelpText.Block, inEntry: Bool, first: Bool = false) {
        switch part {
        case .paragraph(let paragraph):
            if inEntry {
                if !first { request("IP") }
            } else if !atHeading {
                request("PP")
            }
            raw(Self.inline(paragraph))
        case .bullet(let item):
            if inEntry { request("RS") }
            raw(".IP \\(bu 2", request: true)
            raw(Self.inline(item))
            if inEntry { request("RE") }
        case .literal(let lines) where HelpText.table(lines) != nil:
            // A table as tagged paragraphs: man sets them to the reader's width, the meanings
            // beside terms of up to 16 characters and under longer ones.
            let entries = HelpText.table(lines) ?? []
            let width = min((entries.map(\.term.count).max() ?? 0) + 2, 18)
            if inEntry {
                request("RS")
            } else {
                if !atHeading { request("PP") }
                request("RS", "4")
            }
            for entry in entries {
                request("TP", "\(width)")
                raw("\\fB" + Self.escape(entry.term) + "\\fR")
                raw(Self.inline(entry.meaning))
            }
            request("RE")
        case .literal(let lines):
            if inEntry {
                request("RS")
            } else {
                if !atHeading { request("PP") }
                request("RS", "4")
            }
            request("EX")
            for line in lines { raw(Self.escape(line)) }
            request("EE")
            request("RE")
        }
        if case .literal = part { atHeading = false }
    }

    /// Prose: `code` spans in bold.
    static func inline(_ text: String) -> String {
        let pieces = text.split(separator: "`", omittingEmptySubsequences: false)
        guard pieces.count % 2 == 1 else { return escape(text) }
        return pieces.enumerated().map { index, piece in
            index % 2 == 1 ? "\\fB" + escape(String(piece)) + "\\fR" : escape(String(piece))
        }.joined()
    }

    /// Every character that roff would read as something else, written as an escape; outside
    /// ASCII as its code point, so the page needs no input encoding.
    static func escape(_ text: String) -> String {
        TextEscaping.escaped(text) { scalar in
            switch scalar {
            case "\\": "\\e"
            // Minus, not hyphen, so that options and commands can be copied from the page.
            case "-": "\\-"
            case "'": "\\(aq"
            case "`": "\\(ga"
            case "~": "\\(ti"
            case "^": "\\(ha"
            case "\t": " "
            case _ where scalar.isASCII: nil
            default: "\\[u" + hex(scalar) + "]"
            }
        }
    }

    private static func hex(_ scalar: Unicode.Scalar) -> String {
        let digits = String(scalar.value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
