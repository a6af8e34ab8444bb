import Foundation
import Testing
@testable import NudgeTestSupport

/// `--after`: a todo blocked by others, named in list, show, explain and `--json`; unknown ids
/// and cycles refused in one line with nothing stored.
struct AfterTests {
    let nudge = Nudge()

    @Test func addAfterBlocksTheTodoAndListShowAndJSONSayBy() throws {
        try nudge("add", "Write tests")
        try nudge("add", "Review")
        let added = try nudge("add", "Deploy", "--after", "1", "--after", "#2", "--due", "tomorrow 9am")
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.hasSuffix("After: 1 (Write tests), 2 (Review)\n"), "\(added.stdout)")
        let deploy = try nudge("show", "3", "--json").object()
        let first = try nudge("show", "1", "--json").object(), second = try nudge("show", "2", "--json").object()
        #expect(deploy["after"] as? [String] == [first["uuid"] as? String ?? "", second["uuid"] as? String ?? ""])
        #expect(first["after"] as? [String] == [])
        // A held todo has no next reminder while it waits.
        #expect(deploy["nextReminder"] is NSNull)
        #expect(try nudge("list").stdout.contains("!!   after 1,2\n"))
        try nudge("done", "1")
        #expect(try nudge("list").stdout.contains("!!   after 2\n"))
        let show = try nudge("show", "3").stdout
        #expect(show.contains("  After     1 (Write tests, done), 2 (Review)\n"), "\(show)")
        let explain = try nudge("explain", "3").stdout
        #expect(explain.contains("  Blocked   held: after 2 (Review)\n"), "\(explain)")
        try nudge("done", "2")
        #expect(!(try nudge("list").stdout.contains("after")))
        #expect(!(try nudge("show", "3", "--json").object()["nextReminder"] is NSNull))
    }

    @Test func unknownIdsAndCyclesAreRefusedInOneLineWithNothingStored() throws {
        try nudge("add", "Write tests")
        try nudge("add", "Deploy", "--after", "1")
        let unknown = try nudge("add", "Announce", "--after", "9")
        #expect(unknown.status != 0)
        #expect(unknown.stderr == "nudge: there is no todo 9; 'nudge list --all' shows the ids\n")
        #expect(try nudge("list", "--all", "--json").array().count == 2)
        let word = try nudge("add", "Announce", "--after", "soon")
        #expect(word.status == 2)
        #expect(word.stderr.components(separatedBy: "\n").count == 2, "\(word.stderr)")
        let cycle = try nudge("edit", "1", "--after", "2", "--title", "Write more tests")
        #expect(cycle.status != 0)
        #expect(cycle.stderr == "nudge: todo 1 cannot come after 2: that makes a cycle, 1 (Write tests) after 2 (Deploy) after 1 (Write tests)\n")
        // The title given with it was not saved either.
        #expect(try nudge("show", "1", "--json").object()["title"] as? String == "Write tests")
        #expect(try nudge("show", "1", "--json").object()["after"] as? [String] == [])
    }

    @Test func editPutsATodoAfterAnotherAndTakesItOut() throws {
        try nudge("add", "Write tests")
        try nudge("add", "Deploy")
        let edited = try nudge("edit", "2", "--after", "1")
        #expect(edited.status == 0, "\(edited.stderr)")
        #expect(edited.stdout == "Updated 2: Deploy\n  after    none → 1 (Write tests)\n")
        let removed = try nudge("edit", "2", "--not-after", "1")
        #expect(removed.stdout == "Updated 2: Deploy\n  after    1 (Write tests) → none\n")
        #expect(try nudge("show", "2", "--json").object()["after"] as? [String] == [])
    }

    /// Renamed and taken out from after its blocker in one edit, past its due: the reminders
    /// that fell due while it was held are still due, for the service to catch up.
    @Test func anEditThatReleasesAHeldTodoKeepsWhatFellDueMeanwhile() throws {
        var nudge = self.nudge
        try nudge("add", "Write tests")
        try nudge("add", "Deploy", "--after", "1", "--due", "2026-11-29 12:00")
        nudge.now = "2026-11-29 12:30:00"
        let edited = try nudge("edit", "2", "--title", "Deploy to production", "--not-after", "1")
        #expect(edited.stdout == "Updated 2: Deploy to production\n  title    Deploy → Deploy to production\n"
            + "  after    1 (Write tests) → none\n", "\(edited.stderr)")
        let reminders = try #require(try nudge("explain", "2", "--json").object()["reminders"] as? [[String: Any]])
        #expect(reminders.prefix(2).map { "\($0["rule"] ?? "") \($0["status"] ?? "")" } == ["before 10m due", "due due"])
    }

    @Test func nudgeJSONCarriesBlockersBothWaysWhateverTheirOrderInTheFile() throws {
        try nudge("add", "Write tests")
        try nudge("add", "Deploy", "--after", "1")
        let exported = try nudge("export").stdout
        let items = try nudge("export").array()
        #expect(items[1]["after"] as? [String] == [items[0]["uuid"] as? String ?? ""])
        #expect(items[0]["after"] as? [String] == [])
        // The blocked todo first: its blocker comes later in the file.
        let reversed = String(decoding: try JSONSerialization.data(withJSONObject: Array(items.reversed())), as: UTF8.self)
        let other = Nudge()
        #expect(try other("import", "-", input: reversed).status == 0)
        #expect(try other("list").stdout.contains("after 2\n"))
        #expect(try other("show", "1", "--json").object()["after"] as? [String] == [items[0]["uuid"] as? String ?? ""])
        let again = Nudge()
        #expect(try again("import", "-", input: exported).status == 0)
        #expect(try again("export").stdout == exported)
        // A blocker that is no UUID is refused, naming the field.
        var item = items[1]
        item["after"] = ["14"]
        item["updatedAt"] = "2026-12-01T09:00:00+00:00"
        let bad = try again("import", "-", input: String(decoding: try JSONSerialization.data(withJSONObject: [item]), as: UTF8.self))
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("after"), "\(bad.stderr)")
    }
}
