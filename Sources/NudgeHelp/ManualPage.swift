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
