import Foundation
import Testing
@testable import NudgeHelp
@testable import NudgeTestSupport

/// Pages typeset by the real groff: what roff would read as requests or escapes arrives as
/// text, and groff has nothing to warn about.
struct ManualPageTests {
    static let awkward = """
        .starts with a dot, 'starts with a quote
        a\\backslash, --option and -o, `code`, ~/path, a^b, "quoted", \\fBnot bold\\fR
        non-ASCII: café, 9°, → and 😀
        """

    @Test func textArrivesAsTyped() throws {
        let page = ManualPage(name: "demo", section: 1, source: "Demo 1", manual: "Tests", summary: "a demo", sections: [
            .init("DESCRIPTION", [.text(Self.awkward)]),
            .init("OPTIONS", [.entries([HelpEntry("--due", argument: "WHEN", ".a meaning\n\n  'example\n\nAnd more.")])]),
        ])
        let output = try typeset(page.roff)
        #expect(output.warnings == "")
        let words = output.text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        // Backquotes mark code, shown in bold instead.
        let expected = Self.awkward.replacingOccurrences(of: "`", with: "").split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains(expected))
        #expect(words.contains("--due WHEN .a meaning 'example And more."))
        #expect(words.contains("demo - a demo"))
    }

    @Test func aDocumentedConfigGivesEverySectionAndKeyWithItsDefault() throws {
        let config = """
            # demo.conf: what the demo does.
            #
            # The format:
            #   - keys are case-insensitive.

            [display]
            # How wide a column is.
            width = 80    # characters

            # A colour, or off.
            #   red     like this
            #   blue    like that
            color =

            # [display.narrow]: the same keys for small terminals, e.g.
            #
            # [display.narrow]
            # width = 40
            """
        let page = ManualPage(documentedConfig: config, section: 5, source: "Demo 1", manual: "File Formats", seeAlso: "demo(1)")
        #expect(page.name == "demo.conf")
        #expect(page.summary == "what the demo does")
        let output = try typeset(page.roff)
        #expect(output.warnings == "")
        let lines = output.text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        for expected in ["demo.conf - what the demo does", "[display]", "width  How wide a column is.", "Default: 80.",
                         "Default: empty.", "red   like this", "[display.narrow]", "width = 40", "demo(1)"] {
            #expect(lines.contains { $0.contains(expected) }, "\(expected) in \(output.text)")
        }
        #expect(page.sections.map(\.heading) == ["DESCRIPTION", "SECTIONS", "SEE ALSO"])
    }

    @Test func proseThatALineBreakStartsWithAKeyIsNotAnExample() {
        #expect(ManualPage.looksLikeConfig("width = 40"))
        #expect(ManualPage.looksLikeConfig("before = 1h, 10m"))
        #expect(!ManualPage.looksLikeConfig("repeat_sound = yes. Quiet hours silence everything"))
        #expect(!ManualPage.looksLikeConfig("width = 40."))
    }

    /// The page as `groff -man -Tutf8 -ww` typesets it (no formatting), and what it warned about.
    func typeset(_ roff: String) throws -> (text: String, warnings: String) {
        let folder = TemporaryDirectory()
        let path = folder.file("page.man")
        try roff.write(toFile: path, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/groff")
        // -c: no overstriking or colour, so the text reads as it is.
        process.arguments = ["-man", "-Tutf8", "-ww", "-P", "-c", "-r", "LL=200n", path]
        let run = try Run.launch(process)
        #expect(run.status == 0)
        // groff -c still marks bold and italics with backspaces.
        var text = ""
        for scalar in run.stdout.unicodeScalars {
            if scalar == "\u{8}" { _ = text.unicodeScalars.popLast() } else { text.unicodeScalars.append(scalar) }
        }
        return (text, run.stderr)
    }
}
