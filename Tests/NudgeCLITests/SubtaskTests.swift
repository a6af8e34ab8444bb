import Foundation
import Testing
@testable import NudgeTestSupport

/// Subtasks: `add --parent`, `edit --parent | --no-parent`, refused parents in one line.
struct SubtaskTests {
    let nudge = Nudge()

    @Test func addAndEditSetAndClearTheParent() throws {
        try nudge("add", "Paint walls")
        let added = try nudge("add", "Buy paint", "--parent", "1")
        #expect(added.status == 0, "\(added.stderr)")
        let uuid = try nudge("show", "1", "--json").object()["uuid"] as? String
        #expect(try nudge("show", "2", "--json").object()["parent"] as? String == uuid)
        try nudge("add", "Tape")
        let moved = try nudge("edit", "3", "--parent", "#1")
        #expect(moved.stdout == "Updated 3: Tape\n  parent   none → 1\n", "\(moved.stderr)")
        let cleared = try nudge("edit", "2", "--no-parent")
        #expect(cleared.stdout == "Updated 2: Buy paint\n  parent   1 → none\n", "\(cleared.stderr)")
        #expect(try nudge("show", "2", "--json").object()["parent"] is NSNull)
    }

    @Test(arguments: [
        (["add", "x", "--parent", "9"], "there is no todo 9 to be the parent; 'nudge list --all' shows the ids"),
        (["add", "x", "--parent", "abc"], "'abc' is not a todo id"),
        (["edit", "1", "--parent", "1"], "todo 1 cannot be a subtask of itself"),
        (["edit", "1", "--parent", "2"], "todo 1 cannot be a subtask of 2, which is a subtask of it (2 → 1)"),
        (["edit", "2", "--parent", "1", "--no-parent"], "--parent and --no-parent"),
    ])
    func aBadParentIsOneLineAndStoresNothing(_ words: [String], message: String) throws {
        try nudge("add", "Top")
        try nudge("add", "Sub", "--parent", "1")
        let before = try nudge("export").stdout
        let run = try nudge.run(words)
        #expect(run.status != 0)
        #expect(run.stderr.hasPrefix("nudge: " + message), "\(run.stderr)")
        #expect(run.stderr.filter { $0 == "\n" }.count == 1)
        #expect(try nudge("export").stdout == before)
    }

    @Test func listShowsSubtasksUnderTheirParentWithItsProgress() throws {
        try nudge("add", "Paint walls", "--due", "fri")
        try nudge("add", "Buy paint", "--parent", "1", "--due", "yesterday")
        try nudge("add", "Tape", "--parent", "1")
        try nudge("add", "Brushes", "--parent", "3")
        try nudge("add", "Sand", "--parent", "1")
        try nudge("add", "Call mum", "--due", "today")
        try nudge("done", "5")
        let run = try nudge("list")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == """
            Today (1)
              [ ] 6  Call mum         Today      !!

            Upcoming (4)
              [ ] 1  Paint walls 1/3  Fri        !!
              [ ] 2    Buy paint      Yesterday  !!
              [ ] 3    Tape 0/1                  !!
              [ ] 4      Brushes                 !!

            """, "\(run.stdout)")
        let show = try nudge("show", "1").stdout
        #expect(show.contains("  Subtasks  1 of 3 done\n            [ ] 2: Buy paint\n            [ ] 3: Tape\n            [x] 5: Sand\n"), "\(show)")
        #expect(try nudge("show", "2").stdout.contains("  Parent    1: Paint walls\n"))
    }
}
