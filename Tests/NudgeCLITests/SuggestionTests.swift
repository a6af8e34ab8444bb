import Foundation
import Testing
@testable import NudgeTestSupport

/// A word typed a key off gets one line naming what was likely meant, as git answers `git
/// comit`, and the usage status; a word near nothing gets the line it always had.
struct SuggestionTests {
    let nudge = Nudge()

    @Test(arguments: [
        (["ad", "milk"], "nudge: unknown command 'ad'; did you mean 'add'?\n"),
        (["lsit"], "nudge: unknown command 'lsit'; did you mean 'list'?\n"),
        (["Snoze", "1"], "nudge: unknown command 'Snoze'; did you mean 'snooze'?\n"),
        (["list", "--jsn"], "nudge: unknown option '--jsn' for 'list'; did you mean '--json'?\n"),
        (["list", "--jsno=1"], "nudge: unknown option '--jsno' for 'list'; did you mean '--json'?\n"),
        (["add", "x", "--prority", "high"], "nudge: unknown option '--prority' for 'add'; did you mean '--priority'?\n"),
        (["show", "1", "-json"], "nudge: unknown option '-json' for 'show'; did you mean '--json'?\n"),
        (["add", "x", "--due", "tomorow"], "nudge: can't read 'tomorow' as a date; did you mean 'tomorrow'?\n"),
        (["add", "x", "--due", "Tomorow 9am"], "nudge: can't read 'Tomorow 9am' as a date; did you mean 'tomorrow 9am'?\n"),
        (["add", "x", "--due", "nxt frday"], "nudge: can't read 'nxt frday' as a date; did you mean 'next friday'?\n"),
        (["snooze", "1", "--until", "tomorow 9am"], "nudge: can't read 'tomorow 9am' as a date; did you mean 'tomorrow 9am'?\n"),
        (["category", "ad", "home"], "nudge: unknown category command 'ad'; did you mean 'add'?\n"),
        (["config", "chek"], "nudge: unknown config command 'chek'; did you mean 'check'?\n"),
        (["help", "snoze"], "nudge: no command 'snoze'; did you mean 'snooze'?\n"),
    ] as [([String], String)])
    func aSlipGetsASuggestion(arguments: [String], line: String) throws {
        try nudge("add", "existing")
        let run = try nudge.run(arguments)
        #expect(run.status == 2)
        #expect(run.stderr == line)
        #expect(run.stdout == "")
        #expect(try nudge("list", "--json").array().map { $0["title"] as? String } == ["existing"])
    }

    @Test(arguments: [
        (["frobnicate"], "nudge: unknown command 'frobnicate'; commands are add, list,"),
        (["list", "--colour"], "nudge: unknown option '--colour' for 'list' (see 'nudge help list')\n"),
        (["show", "1", "-x"], "nudge: unknown option '-x' for 'show'; options are long, like --due (see 'nudge help show')\n"),
        (["add", "x", "--due", "someday"], "nudge: can't read 'someday' as a date; accepted: 2026-12-24"),
        (["category", "frob"], "nudge: unknown category command 'frob'; use add, list, rename or delete\n"),
    ] as [([String], String)])
    func nothingNearGetsNoSuggestion(arguments: [String], start: String) throws {
        let run = try nudge.run(arguments)
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix(start), "\(run.stderr)")
        #expect(!run.stderr.contains("did you mean"))
        #expect(run.stderr.filter { $0 == "\n" }.count == 1)
    }

    /// What is echoed from the command line is made visible; what is suggested is Nudge's own.
    @Test func theEchoedWordIsShownVisibly() throws {
        let run = try nudge("ad\u{1B}")
        #expect(run.status == 2)
        #expect(run.stderr == "nudge: unknown command 'ad^['; did you mean 'add'?\n")
    }
}
