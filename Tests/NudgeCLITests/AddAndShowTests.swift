import Foundation
import Testing
@testable import NudgeTestSupport

struct AddAndShowTests {
    let nudge = Nudge()

    @Test func addPrintsTheNewIDAndASummary() throws {
        let run = try nudge("add", "Buy milk", "--due", "tomorrow 9am", "--priority", "high")
        #expect(run.status == 0)
        #expect(run.stdout == "Added 1: Buy milk (due Tomorrow 09:00, high priority)\n")
        #expect(try nudge("add", "Call", "mum").stdout == "Added 2: Call mum\n")
    }

    @Test func showJSONHasExactlyTheDocumentedKeys() throws {
        try nudge("category", "add", "work")
        try nudge("add", "Report", "--due", "2026-12-24 09:30", "--category", "work", "--notes", "slides\nand numbers")
        let todo = try nudge("show", "1", "--json").object()
        #expect(Set(todo.keys) == ["id", "uuid", "title", "notes", "due", "allDay", "priority", "category", "tags", "parent",
                                   "after", "completed", "completedAt", "createdAt", "updatedAt", "overdue",
                                   "repeat", "reminders", "defaultReminders", "snoozedUntil", "nextReminder"])
        #expect(todo["id"] as? Int == 1)
        #expect(UUID(uuidString: try #require(todo["uuid"] as? String)) != nil)
        #expect(todo["title"] as? String == "Report")
        #expect(todo["notes"] as? String == "slides\nand numbers")
        #expect(todo["due"] as? String == "2026-12-24T09:30:00+01:00")
        #expect(todo["allDay"] as? Bool == false)
        #expect(todo["priority"] as? String == "medium")
        #expect(todo["category"] as? String == "work")
        #expect(todo["completed"] as? Bool == false)
        #expect(todo["completedAt"] is NSNull)
        #expect(todo["createdAt"] as? String == "2026-11-29T10:53:00+01:00")
        #expect(todo["updatedAt"] as? String == "2026-11-29T10:53:00+01:00")
        #expect(todo["overdue"] as? Bool == false)
    }

    @Test func allDayDueIsADateAndAbsentValuesAreNull() throws {
        try nudge("add", "Holiday", "--due", "dec 24")
        try nudge("add", "Someday")
        let holiday = try nudge("show", "1", "--json").object()
        #expect(holiday["due"] as? String == "2026-12-24")
        #expect(holiday["allDay"] as? Bool == true)
        let someday = try nudge("show", "2", "--json").object()
        #expect(someday["due"] is NSNull)
        #expect(someday["notes"] is NSNull)
        #expect(someday["category"] is NSNull)
    }

    @Test func showPrintsEveryField() throws {
        try nudge("add", "Pay rent", "--due", "yesterday", "--notes", "IBAN on the fridge", "--priority", "low")
        let run = try nudge("show", "1")
        #expect(run.status == 0)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "Todo 1: Pay rent")
        #expect(lines.contains("  Status    overdue"))
        #expect(lines.contains("  Due       Yesterday (Saturday, November 28, 2026)"))
        #expect(lines.contains("  Priority  low"))
        #expect(lines.contains("  Category  none"))
        #expect(lines.contains("  Notes     IBAN on the fridge"))
        #expect(lines.contains("  Created   November 29, 2026 at 10:53"))
        #expect(lines.contains { $0.hasPrefix("  UUID      ") })
    }

    @Test func showSaysUntilWhenATodoIsSnoozed() throws {
        try nudge("add", "Pay rent", "--due", "today 11:00")
        #expect(!(try nudge("show", "1").stdout.contains("Snoozed")))
        try nudge("snooze", "1", "1h")
        let lines = try nudge("show", "1").stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("  Snoozed   until November 29, 2026 at 11:53"))
    }

    @Test(arguments: [
        "<b>Tom & Jerry</b> <3",
        "She said \"hi\" and 'bye'",
        "Emoji 😀👍🏽 and ünïcödé",
        "Two\nlines",
        "$(rm -rf /) `backticks` \\ back\\slash",
    ])
    func titlesAreStoredExactlyAndShownOnOneLine(title: String) throws {
        #expect(try nudge("add", title).status == 0)
        #expect(try nudge("show", "1", "--json").object()["title"] as? String == title)
        // A newline shows as ^J (TerminalTextTests has the other control characters).
        let shown = title.replacingOccurrences(of: "\n", with: "^J")
        #expect(try nudge("show", "1").stdout.hasPrefix("Todo 1: \(shown)\n"))
        #expect(try nudge("list").stdout.contains(shown))
    }

    @Test func dueTimesAreReadInTheLocalZoneAndKeepTheirInstant() throws {
        var tokyo = nudge
        tokyo.zone = "Asia/Tokyo"
        try tokyo("add", "Standup", "--due", "2026-12-01 09:00")
        // Read back from Berlin: the same instant, shown in Berlin's time.
        #expect(try nudge("show", "1", "--json").object()["due"] as? String == "2026-12-01T01:00:00+01:00")
        #expect(try tokyo("show", "1", "--json").object()["due"] as? String == "2026-12-01T09:00:00+09:00")
    }
}
