import Foundation
import Testing
@testable import NudgeTestSupport

/// `nudge __complete`, what the completion scripts ask the store: one line per candidate,
/// safe to show, read without writing anything.
struct CompleteCommandTests {
    let nudge = Nudge()

    @Test func idsComeWithTheirTitlesByIdAndByState() throws {
        for title in ["Pay rent", "Call mum", "Water plants"] { try nudge("add", title) }
        try nudge("done", "2")
        #expect(try nudge("__complete", "ids", "pending").stdout == "1\tPay rent\n3\tWater plants\n")
        #expect(try nudge("__complete", "ids", "completed").stdout == "2\tCall mum\n")
        #expect(try nudge("__complete", "ids", "all").stdout == "1\tPay rent\n2\tCall mum\n3\tWater plants\n")
    }

    @Test func onlyIdsStartingWithThePrefixAreListed() throws {
        for number in 1...12 { try nudge("add", "Todo \(number)") }
        let ids = try nudge("__complete", "ids", "all", "1").stdout.split(separator: "\n").map { $0.split(separator: "\t")[0] }
        #expect(ids == ["1", "10", "11", "12"])
        #expect(try nudge("__complete", "ids", "all", "%").stdout.isEmpty)
    }

    /// Past 2,000 nothing is offered: a shorter part of the list would let the shell insert a
    /// common prefix the others do not share.
    @Test func moreTodosThanAMenuHoldsAreOfferedOnceDigitsNarrowThem() throws {
        let file = nudge.folder.file("many.txt")
        try (1...2001).map { "Todo \($0)\n" }.joined().write(toFile: file, atomically: true, encoding: .utf8)
        try nudge("import", file, "--format", "todotxt")
        #expect(try nudge("__complete", "ids", "pending").stdout.isEmpty)
        #expect(try nudge("__complete", "ids", "pending", "2").stdout.split(separator: "\n").count == 113)
        try nudge("done", "2001")
        #expect(try nudge("__complete", "ids", "pending").stdout.split(separator: "\n").count == 2000)
    }

    @Test func titlesAreOneSafeLineCutToAMenusWidth() throws {
        try nudge("add", "Evil\ttitle\nwith\u{1B}]0;pwned\u{07}  escapes\u{202E}")
        try nudge("add", String(repeating: "long ", count: 30))
        let lines = try nudge("__complete", "ids", "pending").stdout.split(separator: "\n")
        #expect(lines[0] == "1\tEvil title with ]0;pwned escapes")
        #expect(lines[1] == "2\t" + String(repeating: "long ", count: 12).dropLast(1) + "…")
        #expect(lines[1].count == 2 + 60)
    }

    @Test func categoriesStartingWithThePrefixIgnoringCaseAndTakenLiterally() throws {
        for name in ["work", "Home office", "a_b", "axb", "tab\there"] { try nudge("category", "add", name) }
        #expect(try nudge("__complete", "categories").stdout == "a_b\naxb\nHome office\nwork\n")
        #expect(try nudge("__complete", "categories", "H").stdout == "Home office\n")
        #expect(try nudge("__complete", "categories", "a_").stdout == "a_b\n")
    }

    @Test func aMissingDatabaseOffersNothingAndIsNotCreated() throws {
        let run = try nudge("__complete", "ids", "pending")
        #expect(run.status == 0 && run.stdout.isEmpty && run.stderr.isEmpty)
        #expect(try nudge("__complete", "categories").stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: nudge.database))
    }

    @Test func completingWritesNothing() throws {
        try nudge("add", "Pay rent", "--due", "tomorrow")
        let files = {
            try [nudge.database, nudge.database + "-wal"].map {
                FileManager.default.fileExists(atPath: $0) ? try Data(contentsOf: URL(fileURLWithPath: $0)) : Data()
            }
        }
        let before = try files()
        try nudge("__complete", "ids", "all")
        try nudge("__complete", "categories")
        #expect(try files() == before)
    }

    @Test func aWrongQueryIsAUsageError() throws {
        let state = try nudge("__complete", "ids", "open")
        #expect(state.status == 2)
        #expect(state.stderr == "nudge: 'open' is not a todo state; use pending, completed or all\n")
        #expect(try nudge("__complete", "titles").status == 2)
        #expect(try nudge("completions", "tcsh").stderr == "nudge: no completions for 'tcsh'; use bash, zsh or fish\n")
    }
}
