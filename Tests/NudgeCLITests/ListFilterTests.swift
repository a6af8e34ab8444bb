import Foundation
import Testing
@testable import NudgeTestSupport

/// `nudge list FILTER`: the terms of `nudge help filter` with the options list had before them.
struct ListFilterTests {
    let nudge = Nudge()

    func titles(_ words: String...) throws -> [String] {
        let run = try nudge.run(["list", "--json"] + words)
        try #require(run.status == 0, "\(run.stderr)")
        return try run.array().compactMap { $0["title"] as? String }
    }

    @Test func termsCombineWithTheOptionsListHadBefore() throws {
        try nudge("category", "add", "work")
        try nudge("add", "Buy oat milk", "+shop", "--due", "2026-11-28")
        try nudge("add", "Call bank", "+phone", "--category", "work", "--priority", "high", "--due", "tomorrow 9am")
        try nudge("add", "Pay rent", "--notes", "the milk man too", "--repeat", "monthly", "--due", "2026-12-01")
        try nudge("add", "Old", "+shop")
        try nudge("done", "4")
        #expect(try titles("overdue") == ["Buy oat milk"])
        #expect(try titles("milk") == ["Buy oat milk", "Pay rent"])
        #expect(try titles("oat milk") == ["Buy oat milk"])
        #expect(try titles("+shop", "or", "priority:high") == ["Buy oat milk", "Call bank"])
        #expect(try titles("(+shop", "or", "+phone)", "due:tomorrow") == ["Call bank"])
        #expect(try titles("repeating") == ["Pay rent"])
        #expect(try titles("2-3", "1", "-phone") == ["Buy oat milk", "Pay rent"])
        #expect(try titles("status:all", "+shop") == ["Buy oat milk", "Old"])
        #expect(try titles("--completed", "+shop") == ["Old"])
        #expect(try titles("due.before:2026-12-01", "--category", "work") == ["Call bank"])
        #expect(try titles("milk", "--priority", "medium", "--search", "rent") == ["Pay rent"])
        #expect(try titles("--tag", "shop", "-phone") == ["Buy oat milk"])
        #expect(try nudge("list", "+shop", "or", "priority:low").stdout.contains("Buy oat milk"))
        #expect(try nudge("list", "due:none", "priority:low").stdout == "No todos match.\n")
    }

    /// A filter that finds most todos is listed from the list-order indexes, one that finds
    /// few is sorted: either way in the order and sections of the list without it.
    @Test func aFilterFindingMostOrFewListsInTheUnfilteredOrder() throws {
        try nudge("add", "Call bank", "+phone", "--due", "yesterday 9am")
        try nudge("add", "Buy milk", "--due", "yesterday 8am", "--priority", "high")
        try nudge("add", "Pay rent", "--due", "tomorrow")
        try nudge("add", "Water plants", "--due", "today 23:00", "+home")
        try nudge("add", "Read book")
        try nudge("add", "Fix bike", "--due", "in 3 days", "--priority", "low", "+home")
        let all = try nudge("list").stdout.split(separator: "\n", omittingEmptySubsequences: false)
        func rows(_ titles: [String]) -> [String] {
            all.filter { line in titles.contains { line.contains($0) } }.map { String($0) }
        }
        let most = try nudge("list", "-phone").stdout.split(separator: "\n").map(String.init)
        #expect(most.filter { $0.hasPrefix("  [") } == rows(["Buy milk", "Pay rent", "Water plants", "Read book", "Fix bike"]))
        #expect(most.contains("Overdue (1)") && most.contains("Upcoming (2)"), "\(most)")
        let few = try nudge("list", "+home", "or", "priority:high").stdout.split(separator: "\n").map(String.init)
        #expect(few.filter { $0.hasPrefix("  [") } == rows(["Buy milk", "Water plants", "Fix bike"]))
    }

    @Test func aFilteredListPlacesSubtasksAndCountsEveryOneOfAParent() throws {
        try nudge("add", "Trip", "+trip")
        try nudge("add", "Pack bag", "--parent", "1", "+trip")
        try nudge("add", "Book train", "--parent", "1")
        try nudge("add", "Socks", "--parent", "2", "+trip")
        try nudge("add", "Other", "+trip")
        try nudge("done", "3")
        #expect(try nudge("list", "+trip").stdout == """
            Unscheduled (4)
              [ ] 5  Other             !!   +trip
              [ ] 1  Trip 1/2          !!   +trip
              [ ] 2    Pack bag 0/1    !!   +trip
              [ ] 4      Socks         !!   +trip

            """)
        #expect(try nudge("list", "socks").stdout == "Unscheduled (1)\n  [ ] 4  Socks    !!   +trip\n")
    }

    @Test func exportWritesWhatTheFilterMatches() throws {
        try nudge("add", "Pack", "+trip")
        try nudge("add", "Book hotel", "+trip", "--priority", "high")
        try nudge("add", "Rent")
        try nudge("done", "1")
        func titles(_ words: String...) throws -> [String] {
            let run = try nudge.run(["export"] + words)
            try #require(run.status == 0, "\(run.stderr)")
            return try run.array().compactMap { $0["title"] as? String }
        }
        #expect(try titles("+trip") == ["Book hotel"])
        #expect(try titles("+trip", "--all") == ["Pack", "Book hotel"])
        #expect(try titles("status:all", "+trip", "or", "rent") == ["Pack", "Book hotel", "Rent"])
        #expect(try titles() == ["Book hotel", "Rent"])
        let lines = try nudge("export", "+trip", "--format", "todotxt").stdout.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("Book hotel @trip"), "\(lines)")
    }

    @Test func statusCountsWhatTheFilterMatches() throws {
        try nudge("add", "Late work", "+work", "--due", "2026-11-28")
        try nudge("add", "Work today", "+work", "--due", "today 18:00")
        try nudge("add", "Late home", "--due", "2026-11-27")
        try nudge("add", "Work later", "+work", "--due", "2026-12-02", "--priority", "high")
        #expect(try nudge("status", "--json").object()["overdue"] as? Int == 2)
        let work = try nudge("status", "+work", "--json").object()
        #expect(work["overdue"] as? Int == 1 && work["today"] as? Int == 1)
        #expect((work["next"] as? [String: Any])?["title"] as? String == "Work today")
        let high = try nudge("status", "priority:high", "--json").object()
        #expect(high["overdue"] as? Int == 0 && high["today"] as? Int == 0)
        #expect((high["next"] as? [String: Any])?["title"] as? String == "Work later")
    }

    @Test func upcomingListsTheRemindersOfWhatTheFilterMatches() throws {
        try nudge("add", "Work call", "+work", "--due", "tomorrow 9am")
        try nudge("add", "Dentist", "--due", "tomorrow 10am")
        try nudge("add", "Report", "+work", "--due", "2026-12-01 15:00")
        func todos(_ words: String...) throws -> [Int?] {
            let run = try nudge.run(["upcoming", "--json"] + words)
            try #require(run.status == 0, "\(run.stderr)")
            return try run.array().map { $0["todo"] as? Int }
        }
        let all = try todos()
        #expect(Set(all.compactMap { $0 }) == [1, 2, 3])
        let work = try todos("+work")
        #expect(!work.isEmpty && work == all.filter { $0 == 1 || $0 == 3 })
        #expect(try todos("+work", "--limit", "1") == Array(work.prefix(1)))
        #expect(try todos("due:tomorrow", "-work") == all.filter { $0 == 2 })
    }

    @Test("a wrong term is one line naming it, and exit 2", arguments: [
        (["priorty:high"], "nudge: 'priorty:high' is not a filter term; use ids (3 5-8), +TAG, -TAG, category:NAME, "
            + "priority:high|medium|low, due:today|tomorrow|none|WHEN, due.before:WHEN, due.after:WHEN, overdue, blocked, "
            + "repeating, parent:ID, status:pending|completed|all, words to search, or, ( )\n"),
        (["(+a", "or"], "nudge: 'or' in the filter needs a term after it\n"),
        (["--all", "status:pending"], "nudge: --all and status:pending cannot be used together; choose one\n"),
        (["due.before:\u{1b}[31m"], "nudge: 'due.before:^[[31m' names no date or time; use a WHEN as --due takes: "
            + "2026-12-24, 2026-12-24 09:30, today, tonight, tomorrow 9am, tomorrow at 9, fri, next fri, next week, next month, "
            + "9am, 17:30, in 2h, in 3 days, +45m, eod, eow, eom, dec 24\n"),
    ])
    func aWrongTermIsOneLine(words: [String], message: String) throws {
        try nudge("add", "Kept")
        let run = try nudge.run(["list"] + words)
        #expect(run.status == 2)
        #expect(run.stderr == message)
        #expect(run.stdout.isEmpty)
    }
}
