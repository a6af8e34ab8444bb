import Foundation
import Testing
@testable import NudgeTestSupport

struct ListTests {
    let nudge = Nudge()

    /// One todo for each section, added at Sunday 2026-11-29 10:53 in Berlin.
    func addOneOfEach() throws {
        try nudge("category", "add", "home")
        try nudge("add", "Pay rent", "--due", "yesterday", "--category", "home", "--priority", "high")
        try nudge("add", "Water plants", "--due", "today")
        try nudge("add", "Call mum", "--due", "17:30", "--notes", "about the MILK", "--priority", "high")
        try nudge("add", "Buy milk", "--due", "fri 14:00", "--priority", "low", "--category", "home")
        try nudge("add", "Learn Swift")
        try nudge("add", "Old thing", "--due", "2026-11-01")
        try nudge("done", "6")
    }

    @Test func printsSectionsInOrderWithCounts() throws {
        try addOneOfEach()
        let run = try nudge("list")
        #expect(run.status == 0)
        #expect(run.stdout == """
            Overdue (1)
              [ ] 1  Pay rent      Yesterday    !!!  home

            Today (2)
              [ ] 2  Water plants  Today        !!
              [ ] 3  Call mum      Today 17:30  !!!

            Upcoming (1)
              [ ] 4  Buy milk      Fri 14:00    !    home

            Unscheduled (1)
              [ ] 5  Learn Swift                !!

            """)
    }

    @Test func completedSectionOnlyWithAllOrCompleted() throws {
        try addOneOfEach()
        #expect(!(try nudge("list").stdout.contains("Completed")))
        let all = try nudge("list", "--all").stdout
        #expect(all.hasSuffix("Completed (1)\n  [x] 6  Old thing     Nov 1        !!\n"))
        #expect(try nudge("list", "--completed").stdout == "Completed (1)\n  [x] 6  Old thing  Nov 1  !!\n")
    }

    @Test func filtersCombine() throws {
        try addOneOfEach()
        func ids(_ arguments: String...) throws -> [Int] {
            try nudge.run(["list", "--json"] + arguments).array().map { $0["id"] as! Int }
        }
        #expect(try ids() == [1, 2, 3, 4, 5])
        #expect(try ids("--category", "HOME") == [1, 4])
        #expect(try ids("--category", "home", "--priority", "low") == [4])
        #expect(try ids("--search", "milk") == [3, 4])
        #expect(try ids("--search", "milk", "--priority", "low") == [4])
        #expect(try ids("--priority", "high") == [1, 3])
        #expect(try ids("--all", "--search", "THING") == [6])
        #expect(try ids("--completed") == [6])
        #expect(try ids("--sort", "title") == [1, 3, 2, 4, 5])
        #expect(try ids("--sort", "priority") == [1, 3, 2, 4, 5])
        #expect(try ids("--sort", "created") == [1, 2, 3, 4, 5])
    }

    @Test func jsonListIsAnArrayOfTodos() throws {
        try addOneOfEach()
        let todos = try nudge("list", "--all", "--json").array()
        #expect(todos.count == 6)
        #expect(todos.map { $0["overdue"] as? Bool } == [true, false, false, false, false, false])
        #expect(todos.last?["completed"] as? Bool == true)
        #expect(todos.last?["completedAt"] as? String == "2026-11-29T10:53:00+01:00")
        #expect(try nudge("list", "--json", "--search", "nothing like this").stdout == "[]\n")
    }

    @Test func saysHowToAddTheFirstTodo() throws {
        let run = try nudge("list")
        #expect(run.status == 0)
        #expect(run.stdout == "No todos yet. Add one with: nudge add \"Buy milk\" --due tomorrow\n")
        try nudge("add", "x")
        #expect(try nudge("list", "--search", "y").stdout == "No todos match.\n")
    }

    @Test func colourOnlyOnATerminalWithoutNoColor() throws {
        try nudge("add", "late", "--due", "yesterday")
        #expect(!(try nudge("list").stdout.contains("\u{1B}[")))
        // `script` gives nudge a pseudo-terminal as stdout.
        let colored = try nudge.onATerminal("list")
        #expect(colored.stdout.contains("\u{1B}[31mYesterday"))
        let plain = try nudge.onATerminal("list", environment: ["NO_COLOR": "1"])
        #expect(plain.stdout.contains("Yesterday") && !plain.stdout.contains("\u{1B}["))
    }

    @Test func aTitleWiderThanItsColumnIsCutAtATerminalAndWholeElsewhere() throws {
        let long = String(repeating: "a", count: 70), wide = String(repeating: "日本語", count: 10)
        try nudge("add", long, "--due", "2026-12-21")
        try nudge("add", "short", "--due", "2026-12-22")
        try nudge("add", wide, "--due", "2026-12-23")
        // Whole on a pipe, two spaces before the due.
        let piped = try nudge("list").stdout.split(separator: "\n").map(String.init)
        #expect(piped.contains("  [ ] 1  " + long + "  Dec 21  !!"))
        #expect(piped.contains("  [ ] 3  " + wide + "  Dec 23  !!"))
        // Cut with an ellipsis at a terminal, the dues lined up.
        let shown = try nudge.onATerminal("list", environment: ["NO_COLOR": "1"]).stdout
            .components(separatedBy: "\r\n")
        #expect(shown.contains("  [ ] 1  " + String(repeating: "a", count: 47) + "…  Dec 21  !!"), "\(shown)")
        #expect(shown.contains("  [ ] 2  short" + String(repeating: " ", count: 43) + "  Dec 22  !!"), "\(shown)")
        #expect(shown.contains("  [ ] 3  " + String(repeating: "日本語", count: 7) + "日本…   Dec 23  !!"), "\(shown)")
    }
}

func shellQuote(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}
