import Foundation
import Testing
@testable import NudgeTestSupport

/// `nudge status`: the counts a status bar shows, which must be those of `nudge list`.
struct StatusTests {
    /// Todos around the edges of today at 10:53 local time: just overdue, due at this very
    /// minute, at both ends of the day, all day, done, and without a due.
    func addTodosAroundToday(_ nudge: Nudge, today: String, yesterday: String, tomorrow: String) throws {
        let dues = [yesterday + " 23:59", today + " 00:00", today + " 10:52", today + " 10:53", today + " 10:54",
                    today + " 23:59", tomorrow + " 00:00", yesterday, today, tomorrow]
        for (index, due) in dues.enumerated() {
            #expect(try nudge("add", "Todo \(index)", "--due", due).status == 0)
        }
        try nudge("add", "Done today", "--due", today + " 12:00")
        try nudge("done", "\(dues.count + 1)")
        try nudge("add", "Someday")
    }

    /// What `nudge list --json` says: its overdue todos, those due today that are not, and
    /// the first of Today or else Upcoming.
    func listCounts(_ nudge: Nudge, today: String) throws -> (overdue: Int, today: Int, next: Int64?) {
        let todos = try nudge("list", "--json").array()
        let overdue = todos.filter { $0["overdue"] as? Bool == true }
        let later = todos.filter { $0["overdue"] as? Bool == false && $0["due"] is String }
        let dueToday = later.filter { ($0["due"] as? String)?.hasPrefix(today) == true }
        return (overdue.count, dueToday.count, (later.first?["id"] as? NSNumber)?.int64Value)
    }

    @Test(arguments: [
        // An ordinary day; the day summer time ends; the day it starts.
        ("Europe/Berlin", "2026-11-29", "2026-11-28", "2026-11-30"),
        ("Europe/Berlin", "2026-10-25", "2026-10-24", "2026-10-26"),
        ("America/Sao_Paulo", "2018-11-04", "2018-11-03", "2018-11-05"),
        ("Pacific/Kiritimati", "2026-03-01", "2026-02-28", "2026-03-02"),
    ])
    func countsAgreeWithTheListsSections(zone: String, today: String, yesterday: String, tomorrow: String) throws {
        var nudge = Nudge()
        nudge.zone = zone
        nudge.now = today + " 10:53:00"
        try addTodosAroundToday(nudge, today: today, yesterday: yesterday, tomorrow: tomorrow)
        let list = try listCounts(nudge, today: today)
        let status = try nudge("status", "--format", "json").object()
        #expect(status["overdue"] as? Int == list.overdue)
        #expect(status["today"] as? Int == list.today)
        let next = try #require(status["next"] as? [String: Any])
        #expect((next["id"] as? NSNumber)?.int64Value == list.next)
        // Yesterday's two and today's up to 10:52; today's from 10:53 on and all day.
        #expect(list.overdue == 4 && list.today == 4)
    }

    @Test func theFirstOfTodayInTheListsOrderIsNext() throws {
        let nudge = Nudge()
        try nudge("add", "Later today", "--due", "today 15:00", "--priority", "high")
        try nudge("add", "All day, low", "--due", "today", "--priority", "low")
        try nudge("add", "All day, high", "--due", "today", "--priority", "high")
        try nudge("add", "Tomorrow", "--due", "tomorrow 8:00")
        let next = try #require(try nudge("status", "--json").object()["next"] as? [String: Any])
        #expect(next["title"] as? String == "All day, high")
        #expect(next["due"] as? String == "2026-11-29")
        #expect(next["allDay"] as? Bool == true)
        // Then the title, ignoring case, as the list has it.
        try nudge("add", "all day, also high", "--due", "today", "--priority", "high")
        let first = try nudge("list", "--json").array().first?["title"] as? String
        #expect(first == "all day, also high")
        #expect((try nudge("status", "--json").object()["next"] as? [String: Any])?["title"] as? String == first)
    }

    @Test func eachFormatSaysTheSame() throws {
        let nudge = Nudge()
        try nudge("add", "Pay rent", "--due", "yesterday")
        try nudge("add", "<b>Tom & Jerry</b>", "--due", "today 15:00")
        #expect(try nudge("status").stdout == "1 overdue, 1 today; next: <b>Tom & Jerry</b> (Today 15:00)\n")

        let json = try nudge("status", "--format", "json").object()
        #expect(json["overdue"] as? Int == 1 && json["today"] as? Int == 1)
        let next = try #require(json["next"] as? [String: Any])
        #expect(next["id"] as? Int == 2)
        #expect(next["title"] as? String == "<b>Tom & Jerry</b>")
        #expect(next["due"] as? String == "2026-11-29T15:00:00+01:00")
        #expect(next["allDay"] as? Bool == false)
        #expect(try nudge("status", "--json").stdout == (try nudge("status", "--format", "json")).stdout)

        let waybar = try nudge("status", "--format", "waybar")
        // waybar reads one JSON object per line.
        #expect(waybar.stdout.filter { $0 == "\n" }.count == 1 && waybar.stdout.hasSuffix("}\n"))
        let bar = try waybar.object()
        #expect(bar["text"] as? String == "1 overdue, 1 today")
        #expect(bar["tooltip"] as? String == "1 overdue, 1 today\nNext: &lt;b&gt;Tom &amp; Jerry&lt;/b&gt; (Today 15:00)")
        #expect(bar["class"] as? String == "overdue")
        #expect(bar["alt"] as? String == "overdue")

        #expect(try nudge("status", "--format", "i3blocks").stdout
            == "1 overdue, 1 today; next: <b>Tom & Jerry</b> (Today 15:00)\n1 overdue, 1 today\n#FF5555\n")
    }

    @Test func theClassFollowsWhatIsMostPressing() throws {
        let nudge = Nudge()
        #expect(try nudge("status", "--format", "waybar").object()["class"] as? String == "none")
        #expect(try nudge("status").stdout == "Nothing due today\n")
        #expect(try nudge("status", "--format", "i3blocks").stdout == "Nothing due today\nNothing due today\n\n")
        try nudge("add", "Tomorrow", "--due", "tomorrow 9am")
        let none = try nudge("status", "--format", "waybar").object()
        #expect(none["class"] as? String == "none")
        #expect(none["tooltip"] as? String == "Nothing due today\nNext: Tomorrow (Tomorrow 09:00)")
        try nudge("add", "Tonight", "--due", "today 21:00")
        #expect(try nudge("status", "--format", "waybar").object()["class"] as? String == "today")
        #expect(try nudge("status", "--format", "i3blocks").stdout.hasSuffix("\n1 today\n#FFB86C\n"))
        #expect(try nudge("status", "--json").object()["next"] is [String: Any])
    }

    @Test func titlesReachNoTerminalRaw() throws {
        let nudge = Nudge()
        try nudge("add", "Evil\u{1B}]0;owned\u{07}\nline", "--due", "today 15:00")
        #expect(try nudge("status").stdout == "1 today; next: Evil^[]0;owned^G^Jline (Today 15:00)\n")
        let lines = try nudge("status", "--format", "i3blocks").stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 4 && lines[3].isEmpty)
        let next = try #require(try nudge("status", "--json").object()["next"] as? [String: Any])
        #expect(next["title"] as? String == "Evil\u{1B}]0;owned\u{07}\nline")
    }

    @Test func anUnknownFormatIsRefused() throws {
        let nudge = Nudge()
        let run = try nudge("status", "--format", "xml")
        #expect(run.status == 2)
        #expect(run.stderr == "nudge: unknown status format 'xml'; use plain, json, waybar, i3blocks\n")
        #expect(try nudge("status", "--format", "waybar", "--json").status == 2)
    }

    @Test func nudgeAloneShowsTheListAndHelpStillHelps() throws {
        let nudge = Nudge()
        try nudge("add", "Buy milk", "--due", "tomorrow")
        let bare = try nudge.run([])
        #expect(bare.status == 0, "\(bare.stderr)")
        #expect(bare.stdout == (try nudge("list")).stdout)
        #expect(bare.stdout.contains("Buy milk"))
        for words in [["help"], ["--help"], ["-h"]] {
            #expect(try nudge.run(words).stdout.contains("Usage: nudge [--db PATH] [--config PATH] COMMAND"))
        }
    }
}
