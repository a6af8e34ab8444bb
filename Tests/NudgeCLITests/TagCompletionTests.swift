import Foundation
import Testing
@testable import NudgeTestSupport

/// A `+` on the line of a command that takes tags, and the value of `--tag`, complete with the
/// tags in use, in bash, zsh and fish; a `+TAG` word does not count as an operand.
struct TagCompletionTests {
    let nudge = Nudge()
    let shells: ShellHarness

    init() throws {
        shells = try ShellHarness(nudge)
        try nudge("add", "Call bank", "+money", "+Phone")
        try nudge("add", "Pay rent", "+MONEY", "+mortgage")
    }

    @Test func bashCompletesTagsAfterAPlusAndForTagOptions() throws {
        #expect(try shells.bash("nudge", "list", "+") == ["+money", "+mortgage", "+Phone"])
        #expect(try shells.bash("nudge", "add", "Call", "+mo") == ["+money", "+mortgage"])
        #expect(try shells.bash("nudge", "edit", "1", "+money", "+P") == ["+Phone"])
        #expect(try shells.bash("nudge", "edit", "1", "--untag", "ph") == ["Phone"])
        // After a +TAG word the next operand is still the todo id.
        #expect(try shells.bash("nudge", "edit", "+money", "") == ["1", "2"])
        #expect(try nudge("__complete", "tags", "MO").stdout == "money\nmortgage\n")
    }

    @Test func zshAndFishCompleteTagsAfterAPlus() throws {
        #expect(try shells.zsh("nudge list +mo") == ["+money", "+mortgage"])
        #expect(try shells.fish("nudge list +mo") == ["+money", "+mortgage"])
        #expect(try shells.fish("nudge add x --tag ") == ["money", "mortgage", "Phone"])
    }

    @Test func aDatabaseFromBeforeTagsOffersNone() throws {
        let old = Nudge()
        try old("add", "x")
        let dropped = try old.shell("sqlite3 \"$NUDGE_DB\" 'DROP TABLE todo_tags'")
        try #require(dropped.status == 0, "\(dropped.stderr)")
        let run = try old("__complete", "tags", "")
        #expect(run.status == 0 && run.stdout == "" && run.stderr == "", "\(run.stderr)")
    }
}
