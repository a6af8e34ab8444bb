import Foundation
import Testing
@testable import NudgeTestSupport

/// Titles, notes and names reach a terminal shown, not obeyed: control characters in caret
/// notation or as <U+XXXX>, each todo on one row; `--json` keeps the exact text.
struct TerminalTextTests {
    let nudge = Nudge()

    /// Text that would act on a terminal, and how nudge shows it.
    static let hostile: [(text: String, shown: String)] = [
        ("Clear\u{1B}[2Jscreen", "Clear^[[2Jscreen"),
        ("Link \u{1B}]8;;https://evil.example/\u{1B}\\here\u{1B}]8;;\u{1B}\\", "Link ^[]8;;https://evil.example/^[\\here^[]8;;^[\\"),
        ("Window \u{1B}]0;owned\u{07}", "Window ^[]0;owned^G"),
        ("Clipboard \u{1B}]52;c;cm0gLXJmIH4=\u{07}", "Clipboard ^[]52;c;cm0gLXJmIH4=^G"),
        ("two\nlines", "two^Jlines"),
        ("tab\there", "tab^Ihere"),
        ("del\u{7F}ete", "del^?ete"),
        ("c1 \u{9B}2J", "c1 <U+009B>2J"),
        ("bidi \u{202E}gnp.exe", "bidi <U+202E>gnp.exe"),
        ("isolate \u{2067}x\u{2069}", "isolate <U+2067>x<U+2069>"),
    ]

    static let category = (text: "work\u{1B}]0;owned\u{07}", shown: "work^[]0;owned^G")

    func addAllHostile() throws {
        for (text, _) in Self.hostile {
            let run = try nudge("add", text, "--due", "tomorrow 9am")
            try #require(run.status == 0, "\(run.stderr)")
        }
    }

    @Test func listShowsEveryTitleVisiblyOnARowOfItsOwn() throws {
        try addAllHostile()
        let run = try nudge("list")
        #expect(run.status == 0)
        #expect(isInert(run.stdout), "\(run.stdout)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 1 + Self.hostile.count)
        #expect(lines.first == "Upcoming (\(Self.hostile.count))")
        for (_, shown) in Self.hostile {
            #expect(lines.filter { $0.hasPrefix("  [ ] ") && $0.contains(shown) }.count == 1, "\(shown)")
        }
    }

    @Test func listColumnsCountTheVisibleForm() throws {
        try nudge("category", "add", Self.category.text)
        try nudge("add", "a\u{1B}b\u{9B}", "--due", "tomorrow 9am", "--category", Self.category.text)
        try nudge("add", "abcdefghij", "--due", "tomorrow 10am", "--category", Self.category.text)
        #expect(try nudge("list").stdout == """
            Upcoming (2)
              [ ] 1  a^[b<U+009B>  Tomorrow 09:00  !!   \(Self.category.shown)
              [ ] 2  abcdefghij    Tomorrow 10:00  !!   \(Self.category.shown)

            """)
    }

    @Test func showMakesTitleNotesAndCategoryVisibleAndKeepsTheNotesLines() throws {
        try nudge("category", "add", Self.category.text)
        let notes = "first line\n\u{1B}]8;;https://evil.example/\u{1B}\\link\u{1B}]8;;\u{1B}\\\tand\u{7F}\r\nlast"
        try nudge("add", "Clear\u{1B}[2Jscreen", "--notes", notes, "--category", Self.category.text)
        let run = try nudge("show", "1")
        #expect(isInert(run.stdout), "\(run.stdout)")
        #expect(run.stdout.hasPrefix("Todo 1: Clear^[[2Jscreen\n"))
        #expect(run.stdout.contains("  Category  work^[]0;owned^G (icon task-due)\n"))
        #expect(run.stdout.contains("""
              Notes     first line
                        ^[]8;;https://evil.example/^[\\link^[]8;;^[\\^Iand^?^M
                        last

            """))
    }

    @Test(arguments: [
        ["list"], ["list", "--all"], ["show", "1"], ["upcoming"], ["explain", "1"], ["remind", "1", "--add", "1h"],
        ["snooze", "1", "1h"], ["postpone", "1", "1d"], ["edit", "1", "--priority", "high"], ["done", "1"],
        ["undo", "1"], ["delete", "1", "--yes"],
    ])
    func everyCommandShowsTheTitleVisibly(arguments: [String]) throws {
        let title = Self.hostile.map(\.text).joined(separator: " ")
        let shown = Self.hostile.map(\.shown).joined(separator: " ")
        try nudge("add", title, "--due", "tomorrow 9am")
        if arguments == ["undo", "1"] { try nudge("done", "1") }
        let run = try nudge.run(arguments)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(isInert(run.stdout), "\(run.stdout)")
        #expect(run.stdout.contains(shown), "\(run.stdout)")
    }

    @Test func editShowsTheOldAndNewTitleAndCategoryVisibly() throws {
        try nudge("category", "add", Self.category.text)
        try nudge("add", "plain")
        let run = try nudge("edit", "1", "--title", "new\u{1B}[2J\u{2028}x", "--category", Self.category.text)
        #expect(run.stdout == """
            Updated 1: new^[[2J<U+2028>x
              title    plain → new^[[2J<U+2028>x
              category none → \(Self.category.shown)

            """)
    }

    @Test func categoryCommandsShowTheNameVisibly() throws {
        let added = try nudge("category", "add", Self.category.text)
        #expect(added.stdout == "Added category \(Self.category.shown) (icon task-due)\n")
        #expect(try nudge("category", "list").stdout == "  \(Self.category.shown)  0 todos  icon task-due\n")
        let renamed = try nudge("category", "rename", Self.category.text, "home\u{1B}[2J")
        #expect(renamed.stdout == "Renamed category \(Self.category.shown) to home^[[2J\n")
        #expect(try nudge("category", "delete", "home\u{1B}[2J").stdout == "Deleted category home^[[2J\n")
    }

    @Test func jsonGivesTheExactTextBack() throws {
        try nudge("category", "add", Self.category.text)
        try addAllHostile()
        let notes = Self.hostile.map(\.text).joined(separator: "\n")
        try nudge("edit", "1", "--notes", notes, "--category", Self.category.text)
        let list = try nudge("list", "--json")
        // DEL, C1 and bidi controls are \u escapes too, so the JSON is safe on a terminal.
        #expect(isInert(list.stdout), "\(list.stdout)")
        #expect(list.stdout.contains("Clear\\u001b[2Jscreen"))
        let todos = try list.array()
        #expect(Set(todos.compactMap { $0["title"] as? String }) == Set(Self.hostile.map(\.text)))
        let first = try #require(todos.first { $0["id"] as? Int == 1 })
        #expect(first["notes"] as? String == notes)
        #expect(first["category"] as? String == Self.category.text)
        #expect(try nudge("show", "1", "--json").object()["notes"] as? String == notes)
        let categories = try nudge("category", "list", "--json").array()
        #expect(categories.map { $0["name"] as? String } == [Self.category.text])
    }

    @Test(arguments: [
        (["add", "--due", "fri\nday", "x"], "'fri^Jday'"),
        (["show", "1\n2"], "'1^J2' is not a todo id"),
        (["\u{1B}[2J"], "unknown command '^[[2J'"),
        (["add", "x", "--priority", "\u{1B}]0;owned\u{07}"], "'^[]0;owned^G' is not a priority"),
        (["list", "--sort", "due\r\n\u{9B}31m"], "cannot sort by 'due^M^J<U+009B>31m'"),
        (["help", "add\u{202E}"], "no command 'add<U+202E>'"),
    ] as [([String], String)])
    func errorsQuoteInputVisiblyOnOneLine(arguments: [String], quoted: String) throws {
        let run = try nudge.run(arguments)
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("nudge: ") && run.stderr.hasSuffix("\n"))
        #expect(run.stderr.filter { $0 == "\n" }.count == 1, "\(run.stderr)")
        #expect(isInert(run.stderr), "\(run.stderr)")
        #expect(run.stderr.contains(quoted), "\(run.stderr)")
    }

    @Test func theDeletePromptShowsTheTitleVisibly() throws {
        try nudge("add", "Clear\u{1B}[2Jscreen")
        // `script` gives nudge a terminal, so that it asks.
        let run = try nudge.shell("printf 'n\\n' | script -qec \(shellQuote("\"$NUDGE\" delete 1")) /dev/null")
        #expect(run.stdout.contains("Delete 1: Clear^[[2Jscreen? This cannot be undone. [y/N] "), "\(run.stdout)")
        #expect(!run.stdout.contains("\u{1B}"))
        #expect(try nudge("list", "--json").array().count == 1)
    }
}

/// Whether `text` holds nothing a terminal would act on: no C0 control but the newline ending
/// a line, no DEL, no C1 control, no bidi control, no line or paragraph separator.
func isInert(_ text: String) -> Bool {
    text.unicodeScalars.allSatisfy { scalar in
        switch scalar.value {
        case 0x0A: true
        case 0..<0x20, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029: false
        default: true
        }
    }
}
