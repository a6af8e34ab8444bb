import Foundation
import Testing
@testable import NudgeTestSupport

/// Each bad input gets one line on stderr, the documented exit status, and changes nothing.
struct BadInputTests {
    let nudge = Nudge()

    @Test(arguments: [
        (["add", ""], 2, "the title is empty"),
        (["add", "   \t "], 2, "the title is empty"),
        (["add", String(repeating: "x", count: 1001)], 2, "at most 1000"),
        (["add", "x", "--due", "2026-02-30"], 2, "'2026-02-30' is not a date"),
        (["add", "x", "--due", "32/13"], 2, "'32/13'"),
        (["add", "x", "--due", "someday"], 2, "accepted: 2026-12-24"),
        (["add", "x", "--priority", "urgent"], 2, "use low, medium or high"),
        (["add", "x", "--category", "garden"], 1, "create it with: nudge category add garden"),
        (["add", "x", "--colour", "red"], 2, "unknown option '--colour'"),
        (["add", "x", "--due"], 2, "--due needs a value"),
        (["add"], 2, "missing argument"),
        (["show", "42"], 1, "there is no todo 42"),
        (["history", "42"], 1, "there is no todo 42"),
        (["show", "abc"], 2, "'abc' is not a todo id"),
        (["edit", "1"], 2, "nothing to change"),
        (["edit", "1", "--due", "fri", "--no-due"], 2, "cannot be used together"),
        (["edit", "42", "--title", "y"], 1, "there is no todo 42"),
        (["edit", "1", "--title", " "], 2, "the title is empty"),
        (["done", "42"], 1, "there is no todo 42"),
        (["postpone", "1", "soon"], 2, "10m, 2h, 1h30m, 3d, 1w"),
        (["postpone", "1", "1M"], 2, "'1M' is not a duration: M could mean minutes or months"),
        (["postpone", "1", "1h1h"], 2, "'1h1h' is not a duration: hours are given twice"),
        (["postpone", "1", "fri 9am"], 2, "'fri 9am' is a date, not a duration like 1d or 2h; to move the due to it: nudge edit 1 --due 'fri 9am'"),
        (["snooze", "1", "30M"], 2, "M could mean minutes or months"),
        (["add", "x", "--due", "in 1M"], 2, "can't read 'in 1M' as a date: M could mean minutes or months"),
        (["list", "--sort", "colour"], 2, "cannot sort by 'colour'"),
        (["list", "--all", "--completed"], 2, "cannot be used together"),
        (["edit", "1", "--no-category", "--category", "home"], 2, "nudge: --category and --no-category cannot be used together; choose one\n"),
        (["edit", "1", "--repeat", "daily", "--repeat-from", "due", "--no-repeat"], 2, "nudge: --repeat and --no-repeat cannot be used together"),
        (["status", "--json", "--format", "plain"], 2, "nudge: --format and --json cannot be used together; choose one\n"),
        (["frobnicate"], 2, "unknown command 'frobnicate'"),
        (["edit", "1", "--title", "Buy", "milk"], 2, "unexpected argument 'milk'; usage: nudge edit ID [+TAG | -TAG]... [--title T] [--notes T] [--due WHEN | --no-due] [--priority low|medium|high] [--category NAME | --no-category] [--tag NAME]... [--untag NAME]... [--parent ID | --no-parent] [--after ID]... [--not-after ID]... [--repeat RULE [--repeat-from due|completion] | --no-repeat] [--json] (quote a title with spaces)"),
        (["sync", "foo"], 2, "unexpected argument 'foo'; usage: nudge sync [--json]\n"),
        (["show"], 2, "nudge: missing argument; usage: nudge show ID [--json]\n"),
        (["show", "1", "2"], 2, "nudge: unexpected argument '2'; usage: nudge show ID [--json]\n"),
        (["done"], 2, "nudge: missing argument; usage: nudge done ID... [--with-subtasks | --keep-subtasks] [--json]\n"),
        (["postpone", "1"], 2, "nudge: missing argument; usage: nudge postpone ID DURATION [--json]\n"),
        (["help", "add", "list"], 2, "nudge: unexpected argument 'list'; usage: nudge help [COMMAND | TOPIC]\n"),
        (["snooze", "1", "2h", "--until", "tomorrow 9am"], 2, "nudge: WHEN and --until cannot be used together; choose one\n"),
        (["category"], 2, "nudge: missing argument; usage: nudge category add NAME [--icon ICON] | list | rename OLD NEW | delete NAME [--json]\n"),
        (["category", "add", "a", "b"], 2, "nudge: unexpected argument 'b'; usage: nudge category add NAME [--icon ICON] [--json]\n"),
        (["category", "ls", "x"], 2, "nudge: unexpected argument 'x'; usage: nudge category list [--json]\n"),
        (["category", "rm"], 2, "nudge: missing argument; usage: nudge category delete NAME [--json]\n"),
        (["category", "rename", "nope", "x"], 1, "there is no category 'nope'"),
        (["add", "x", "--due", "tomorrow", "--remind", "yesterday 9am"], 2, "'yesterday 9am' is November 28, 2026 at 09:00, which has already passed"),
        (["add", "x", "--remind", "today"], 2, "which has already passed; remind at a later moment"),
        (["remind", "1", "--add", "2020-01-01 10:00"], 2, "which has already passed"),
    ] as [([String], Int32, String)])
    func isRefusedClearly(arguments: [String], status: Int32, message: String) throws {
        try nudge("add", "existing")
        let before = try Data(contentsOf: URL(fileURLWithPath: nudge.database))
        let run = try nudge.run(arguments)
        #expect(run.status == status)
        #expect(run.stderr.hasPrefix("nudge: "))
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(run.stderr.filter { $0 == "\n" }.count == 1)
        #expect(run.stdout == "")
        #expect(try Data(contentsOf: URL(fileURLWithPath: nudge.database)) == before)
        #expect(try nudge("list", "--json").array().map { $0["title"] as? String } == ["existing"])
    }

    /// On a machine with no database yet, a command that fails makes none: "there is no todo
    /// 1" or a usage error leaves no file behind.
    @Test(arguments: [
        (["done", "1"], 1), (["undo", "1"], 1), (["edit", "1", "--title", "y"], 1), (["delete", "1", "--yes"], 1),
        (["postpone", "1", "1d"], 1), (["snooze", "1"], 1), (["remind", "1", "--add", "1h"], 1),
        (["remind", "1", "--clear"], 1), (["category", "rename", "a", "b"], 1), (["category", "delete", "a"], 1),
        (["category", "frob"], 2), (["category", "add"], 2), (["category", "add", "x", "--icon", "a/b"], 2),
        (["add", "x", "--category", "work"], 1),
    ] as [([String], Int32)])
    func aFailedCommandMakesNoDatabase(arguments: [String], status: Int32) throws {
        let run = try nudge.run(arguments)
        #expect(run.status == status, "\(run.stderr)")
        #expect(run.stderr.hasPrefix("nudge: "))
        #expect(!FileManager.default.fileExists(atPath: nudge.database))
    }

    @Test func invalidUTF8IsRefused() throws {
        let run = try nudge.shell("\"$NUDGE\" add \"$(printf 'caf\\xe9')\"")
        #expect(run.status == 2)
        #expect(run.stderr == "nudge: argument 2 is not valid UTF-8 text; Nudge keeps text as UTF-8\n")
        #expect(try nudge("list").stdout.hasPrefix("No todos yet"))
    }

    @Test func aFileThatIsNotADatabaseIsLeftUntouched() throws {
        let path = nudge.folder.file("notes.txt")
        let text = Data("my precious notes\n".utf8)
        try text.write(to: URL(fileURLWithPath: path))
        let run = try nudge("list", environment: ["NUDGE_DB": path])
        #expect(run.status == 1)
        #expect(run.stderr == "nudge: \(path) is not a Nudge database; it was left untouched (choose another file with --db or NUDGE_DB)\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == text)
        #expect(try nudge("--db", path, "add", "x").status == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == text)
    }

    @Test func helpAndVersion() throws {
        #expect(try nudge("--version").stdout == "nudge 0.1.0\n")
        let overview = try nudge("help")
        #expect(overview.status == 0)
        #expect(overview.stdout.contains("Usage: nudge [--db PATH] [--config PATH] COMMAND"))
        for command in ["add", "list", "show", "edit", "done", "undo", "delete", "postpone", "snooze", "remind",
                        "upcoming", "explain", "history", "config", "category"] {
            #expect(overview.stdout.contains("\n  \(command) "))
            let help = try nudge("help", command)
            #expect(help.stdout == (try nudge(command, "--help")).stdout)
            #expect(help.stdout.contains("Usage: nudge \(command)"))
        }
    }

    @Test func dbFlagChoosesTheFile() throws {
        let other = nudge.folder.file("sub/dir/other.db")
        #expect(try nudge("--db", other, "add", "elsewhere").status == 0)
        #expect(try nudge("list", "--db", other, "--json").array().count == 1)
        #expect(try nudge("list", "--json").array().isEmpty)
    }
}
