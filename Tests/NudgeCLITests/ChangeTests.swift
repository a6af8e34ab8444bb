import Foundation
import Testing
@testable import NudgeTestSupport

struct ChangeTests {
    let nudge = Nudge()

    /// iCalendar (as libical writes it) cannot carry a comma in a category: "a,b" would sync
    /// and export as two categories, "a" and "b". Refused when a name is made or given.
    @Test func aNewCategoryNameWithACommaIsRefused() throws {
        let added = try nudge("category", "add", "home,work")
        #expect(added.status == 2)
        #expect(added.stderr == "nudge: a category name cannot hold a comma: iCalendar files (sync, export) would read it as two categories\n")
        try nudge("category", "add", "home")
        let renamed = try nudge("category", "rename", "home", "home,work")
        #expect(renamed.status == 2)
        #expect(renamed.stderr == added.stderr)
        #expect(try nudge("category", "list").stdout == "  home  0 todos  icon task-due\n")
    }

    @Test func editSaysWhatChanged() throws {
        try nudge("category", "add", "work")
        try nudge("add", "Buy milk", "--due", "tomorrow")
        let run = try nudge("edit", "1", "--title", "Buy oat milk", "--due", "fri 9am", "--priority", "high", "--category", "work")
        #expect(run.status == 0)
        #expect(run.stdout == """
            Updated 1: Buy oat milk
              title    Buy milk → Buy oat milk
              due      Tomorrow → Fri 09:00
              priority medium → high
              category none → work

            """)
        let cleared = try nudge("edit", "1", "--no-due", "--no-category", "--json").object()
        #expect(cleared["due"] is NSNull)
        #expect(cleared["category"] is NSNull)
        #expect(cleared["title"] as? String == "Buy oat milk")
    }

    @Test func doneAndUndo() throws {
        try nudge("add", "a")
        try nudge("add", "b")
        #expect(try nudge("done", "1", "2").stdout == "Completed 1: a\nCompleted 2: b\n")
        #expect(try nudge("done", "1").stdout == "1 was already done: a\n")
        #expect(try nudge("show", "1", "--json").object()["completed"] as? Bool == true)
        #expect(try nudge("undo", "1").stdout == "Reopened 1: a\n")
        #expect(try nudge("show", "1", "--json").object()["completedAt"] is NSNull)
    }

    @Test func anUnknownIDAmongSeveralChangesNothing() throws {
        try nudge("add", "a")
        let run = try nudge("done", "1", "7")
        #expect(run.status == 1)
        #expect(run.stderr == "nudge: there is no todo 7; 'nudge list --all' shows the ids\n")
        #expect(try nudge("show", "1", "--json").object()["completed"] as? Bool == false)
    }

    @Test func deleteAsksOnATerminalAndNeedsYesElsewhere() throws {
        try nudge("add", "a")
        try nudge("add", "b")
        let refused = try nudge("delete", "1")
        #expect(refused.status == 2)
        #expect(refused.stderr.hasPrefix("nudge: delete needs --yes"))
        #expect(try nudge("delete", "1", "--yes").stdout == "Deleted 1: a\n")
        // On a terminal it asks, and anything but yes keeps the todo.
        let declined = try nudge.onATerminal("delete", "2", input: "n\n")
        #expect(declined.stdout.contains("This cannot be undone. [y/N]"))
        #expect(try nudge("show", "2").status == 0)
        _ = try nudge.onATerminal("delete", "2", input: "y\n")
        #expect(try nudge("show", "2").status == 1)
        // Ids are never reused.
        #expect(try nudge("add", "c").stdout == "Added 3: c\n")
    }

    @Test func postponeMovesTheDueDate() throws {
        try nudge("add", "timed", "--due", "2026-12-01 09:00")
        try nudge("add", "all day", "--due", "2026-12-01")
        try nudge("add", "no date")
        #expect(try nudge("postpone", "1", "1d").stdout == "Postponed 1: timed\n  due      Tue 09:00 → Wed 09:00\n")
        #expect(try nudge("postpone", "1", "1h30m").status == 0)
        #expect(try nudge("show", "1", "--json").object()["due"] as? String == "2026-12-02T10:30:00+01:00")
        #expect(try nudge("postpone", "2", "1w").status == 0)
        #expect(try nudge("show", "2", "--json").object()["due"] as? String == "2026-12-08")
        let hours = try nudge("postpone", "2", "2h")
        #expect(hours.status == 2)
        #expect(hours.stderr.contains("all-day"))
        let undated = try nudge("postpone", "3", "1d")
        #expect(undated.status == 1)
        #expect(undated.stderr == "nudge: todo 3 has no due date to move; set one with: nudge edit 3 --due WHEN\n")
    }

    @Test func categories() throws {
        #expect(try nudge("category", "add", "Work", "--icon", "briefcase").stdout == "Added category Work (icon briefcase)\n")
        try nudge("category", "add", "home")
        try nudge("add", "x", "--category", "work")
        let duplicate = try nudge("category", "add", "WORK")
        #expect(duplicate.status == 1)
        #expect(duplicate.stderr == "nudge: a category named 'WORK' already exists (names ignore case)\n")
        let listed = try nudge("category", "list", "--json").array()
        #expect(listed.map { $0["name"] as? String } == ["home", "Work"])
        #expect(listed.map { $0["todos"] as? Int } == [0, 1])
        #expect(listed.map { $0["icon"] as? String } == ["task-due", "briefcase"])
        #expect(try nudge("category", "list").stdout == "  home  0 todos  icon task-due\n  Work  1 todo   icon briefcase\n")
        #expect(try nudge("category", "rename", "work", "Office").status == 0)
        #expect(try nudge("show", "1", "--json").object()["category"] as? String == "Office")
        #expect(try nudge("category", "delete", "office").stdout == "Deleted category office; 1 todo no longer has a category\n")
        #expect(try nudge("show", "1", "--json").object()["category"] is NSNull)
    }

    @Test func eightProcessesAddingAtOnceAllSucceed() throws {
        var live = nudge
        live.now = nil
        try live("list")
        let script = """
            for p in 1 2 3 4 5 6 7 8; do
              ( for i in $(seq 1 200); do "$NUDGE" add "p$p todo $i" >/dev/null || echo "failed p$p $i" >&2; done ) &
            done
            wait
            """
        let run = try live.shell(script)
        #expect(run.stderr == "")
        let todos = try live("list", "--json").array()
        #expect(todos.count == 1600)
        #expect(Set(todos.map { $0["id"] as! Int }).count == 1600)
    }
}

/// `--json` on the commands that change todos.
struct ChangeJSONTests {
    let nudge = Nudge()

    @Test func changingCommandsPrintTheTodosAsJSON() throws {
        try nudge("add", "a", "--due", "tomorrow 9am")
        try nudge("add", "b")
        #expect(try nudge("done", "1", "2", "--json").array().map { $0["completed"] as? Bool } == [true, true])
        #expect(try nudge("undo", "1", "--json").array().map { $0["completed"] as? Bool } == [false])
        #expect(try nudge("postpone", "1", "1d", "--json").object()["due"] as? String == "2026-12-01T09:00:00+01:00")
        let snoozed = try nudge("snooze", "1", "1h", "--json").object()
        #expect(snoozed["todo"] as? Int == 1)
        #expect(snoozed["until"] as? String == "2026-11-29T11:53:00+01:00")
        #expect(try nudge("delete", "2", "--yes", "--json").array().map { $0["title"] as? String } == ["b"])
    }
}
