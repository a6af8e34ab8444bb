import Foundation
import Testing
@testable import NudgeTestSupport

/// `nudge export --format ics` and `nudge import` of iCalendar, through the binary.
struct ICalendarCommandTests {
    static let event = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//test//EN\r
        BEGIN:VEVENT\r
        UID:party\r
        SUMMARY:Party\r
        DTSTART:20261224T180000Z\r
        END:VEVENT\r
        BEGIN:VTODO\r
        UID:0f8fad5b-d9cb-469f-a165-70867728950e\r
        SUMMARY:Buy milk\r
        END:VTODO\r
        END:VCALENDAR\r

        """

    @Test func theSummaryCountsWhatIsNotKept() throws {
        let nudge = Nudge()
        let imported = try nudge("import", "-", input: Self.event)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout == "Imported 1: 1 added, 0 updated, 0 skipped as unchanged or older; not kept: 1 events (not todos)\n")
    }

    @Test func aBadTodoNamesItsNumberAndFieldAndImportsNothing() throws {
        let nudge = Nudge()
        let bad = Self.event.replacingOccurrences(of: "SUMMARY:Buy milk\r\n", with: "SUMMARY:Buy milk\r\nEND:VTODO\r\nBEGIN:VTODO\r\nUID:x\r\nDUE;VALUE=DATE:20261301\r\nSUMMARY:Bad\r\n")
        let imported = try nudge("import", "-", input: bad)
        #expect(imported.status == 1)
        #expect(imported.stderr == "nudge: todo 2: \"DUE\" is not a date: '20261301'; nothing was imported (--skip-bad imports the rest)\n")
        #expect(try nudge("export", "--all").array().isEmpty)
    }
}
