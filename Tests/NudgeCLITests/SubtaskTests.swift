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

    @Test func aSubtaskKeepsItsParentThroughTodoTxtMarkedDoneThere() throws {
        try nudge("add", "Paint walls")
        try nudge("add", "Buy paint", "--parent", "1")
        let parent = try nudge("show", "1", "--json").object()["uuid"] as? String
        let file = nudge.folder.file("todo.txt")
        try nudge("export", "--format", "todotxt", "-o", file)
        let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
        let line = try #require(lines.first { $0.contains("Buy paint") })
        #expect(line.contains(" parent:\(parent ?? "") "), "\(line)")
        // Marked done in another todo.txt program, on a later day.
        try (lines.map { $0 == line ? "x 2099-01-01 " + $0 : $0 }.joined(separator: "\n") + "\n")
            .write(toFile: file, atomically: true, encoding: .utf8)
        let imported = try nudge("import", file)
        #expect(imported.stdout.hasPrefix("Imported 1: 0 added, 1 updated, 1 skipped"), "\(imported.stdout)\(imported.stderr)")
        let back = try nudge("show", "2", "--json").object()
        #expect(back["completed"] as? Bool == true)
        #expect(back["parent"] as? String == parent)
    }

    /// A subtask whose parent is not here is listed at the top level until its parent comes.
    @Test func aSubtaskImportedWithoutItsParentJoinsItWhenItComes() throws {
        let source = Nudge()
        try source("add", "Paint walls")
        try source("add", "Buy paint", "--parent", "1")
        let todos = try source("export").array()
        let titled = { (title: String) in todos.filter { $0["title"] as? String == title } }
        for (index, todo) in (titled("Buy paint") + titled("Paint walls")).enumerated() {
            let file = nudge.folder.file("part\(index).json")
            try JSONSerialization.data(withJSONObject: [todo]).write(to: URL(fileURLWithPath: file))
            try #require(try nudge("import", file).status == 0)
            let list = try nudge("list").stdout
            if index == 0 {
                #expect(list.contains(/\[ \] 1  Buy paint/), "\(list)")
            } else {
                #expect(list.contains(/\[ \] 2  Paint walls 0\/1[^\n]*\n *\[ \] 1    Buy paint/), "\(list)")
            }
        }
    }

    func parentWithTwoSubtasks() throws {
        try nudge("add", "Paint walls")
        try nudge("add", "Buy paint", "--parent", "1")
        try nudge("add", "Tape", "--parent", "1")
    }

    func doneIDs() throws -> [Int] {
        try nudge("list", "--completed", "--json").array().compactMap { $0["id"] as? Int }.sorted()
    }

    @Test(arguments: [["done", "1"], ["delete", "1", "--yes"]])
    func offATerminalAParentWithOpenSubtasksNeedsAFlagAndNothingChanges(_ words: [String]) throws {
        try parentWithTwoSubtasks()
        let before = try nudge("export").stdout
        let run = try nudge.run(words)
        #expect(run.status == 2)
        let other = words[0] == "done" ? "leave them open" : "keep them as todos of their own"
        let action = words[0] == "done" ? "mark them done too" : "delete them too"
        #expect(run.stderr == "nudge: todo 1 has 2 open subtasks (2, 3): add --with-subtasks to \(action), or --keep-subtasks to \(other)\n")
        #expect(try nudge("export").stdout == before)
    }

    @Test func doneWithSubtasksCompletesThemAndKeepSubtasksLeavesThemOpen() throws {
        try parentWithTwoSubtasks()
        try nudge("add", "Clean up")
        try nudge("add", "Mop", "--parent", "4")
        let with = try nudge("done", "1", "--with-subtasks")
        #expect(with.stdout.contains("Completed 2: Buy paint") && with.stdout.contains("Completed 1: Paint walls"), "\(with.stderr)")
        #expect(try doneIDs() == [1, 2, 3])
        #expect(try nudge("done", "4", "--keep-subtasks").status == 0)
        #expect(try doneIDs() == [1, 2, 3, 4])
        // With its parent done, the open subtask is listed in its own place.
        #expect(try nudge("list").stdout.contains("  [ ] 5  Mop"))
    }

    @Test func onATerminalDoneAsksWhatToDoWithTheOpenSubtasks() throws {
        try parentWithTwoSubtasks()
        let cancelled = try nudge.onATerminal("done", "1", input: "\n")
        #expect(cancelled.stdout.contains("Todo 1 has 2 open subtasks (2, 3). a: mark them done too, k: leave them open, c: cancel [a/k/C]"),
                "\(cancelled.stdout)")
        #expect(cancelled.stdout.contains("Nothing changed."))
        #expect(try doneIDs() == [])
        _ = try nudge.onATerminal("done", "1", input: "k\n")
        #expect(try doneIDs() == [1])
        _ = try nudge.onATerminal("undo", "1")
        _ = try nudge.onATerminal("done", "1", input: "a\n")
        #expect(try doneIDs() == [1, 2, 3])
    }

    @Test func deleteWithSubtasksDeletesThemAndKeptOnesBecomeTodosOfTheirOwn() throws {
        try parentWithTwoSubtasks()
        try nudge("add", "Clean up")
        try nudge("add", "Mop", "--parent", "4")
        #expect(try nudge("delete", "1", "--yes", "--with-subtasks").status == 0)
        #expect(try nudge("list", "--json").array().compactMap { $0["id"] as? Int } == [4, 5])
        #expect(try nudge("delete", "4", "--yes", "--keep-subtasks").status == 0)
        #expect(try nudge("show", "5", "--json").object()["parent"] is NSNull)
        let declined = try nudge.onATerminal("delete", "5", input: "n\n")
        #expect(declined.stdout.contains("Nothing deleted."))
    }
}
