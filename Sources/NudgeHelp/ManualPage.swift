/// A man page as data, typeset by `roff` with the man macros.
public struct ManualPage: Sendable {
    public enum Block: Sendable {
        /// Help text (see `HelpText`).
        case text(String)
        /// A list of terms, each with its meaning indented below it.
        case entries([HelpEntry])
        /// A command and its arguments, e.g. `nudge add` and `TITLE [--due WHEN]`.
        case usage(command: String, arguments: String)
        case subsection(String)
    }

    public struct Section: Sendable {
        public let heading: String
        public let blocks: [Block]

        public init(_ heading: String, _ blocks: [Block]) {
            self.heading = heading
            self.blocks = blocks
        }
    }

    /// `nudge`, `nudge.conf`.
    public let name: String
    /// 1, 5 or 8.
    public let section: Int
    /// Where it comes from, in the footer: `Nudge 0.1.0`.
    public let source: String
    /// The title of the manual, in the header: `User Commands`.
    public let manual: String
    /// What follows the name in the NAME section.
    public let summary: String
    /// After NAME.
    public let sections: [Section]

    public init(name: String, section: Int, source: String, manual: String, summary: String, sections: [Section]) {
        self.name = name
        self.section = section
        self.source = source
        self.manual = manual
        self.summary = summary
        self.sections = sections
    }

    /// The page's source text, for `man -l` and for installing as `NAME.SECTION`.
    public var roff: String {
        var out = Roff()
        // Paths, options and ids are long words: neither hyphenated (HY is the man macros'
        // hyphenation mode, which each paragraph sets again) nor spread out to the margin.
        out.raw(".nr HY 0", request: true)
        // No date: the page is made at build time, and a date would change every build.
        out.request("TH", name.uppercased(), String(section), "", source, manual)
        out.raw(".nh", request: true)
        out.raw(".ad l", request: true)
        out.request("SH", "NAME")
        out.line(name + " - " + summary)
        for section in sections {
            out.request("SH", section.heading)
            for block in section.blocks {
                out.block(block)
            }
        }
        return out.text
    }
}

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
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\e"
            // Minus, not hyphen, so that options and commands can be copied from the page.
            case "-": out += "\\-"
            case "'": out += "\\(aq"
            case "`": out += "\\(ga"
            case "~": out += "\\(ti"
            case "^": out += "\\(ha"
            case "\t": out += " "
            default:
                if scalar.isASCII {
                    out.unicodeScalars.append(scalar)
                } else {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    out += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
                }
            }
        }
        return out
    }
}
