import Foundation
import Testing
@testable import NudgeTestSupport

/// A repeating todo imported with EXDATE and RDATE, through the binary: `done` and `explain`
/// follow the set they make with the RRULE, and an export writes them back as they came.
struct RepeatDatesCommandTests {
    /// The audit's todo: daily from Dec 10 for five days, without Dec 11, with Dec 20.
    static let series = [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN", "BEGIN:VTODO",
        "UID:0f8fad5b-d9cb-469f-a165-70867728950e", "SUMMARY:Water the plants",
        "DTSTART;TZID=Europe/Berlin:20261210T090000", "DUE;TZID=Europe/Berlin:20261210T090000",
        "RRULE:FREQ=DAILY;COUNT=5", "EXDATE;TZID=Europe/Berlin:20261211T090000", "RDATE;TZID=Europe/Berlin:20261220T090000",
        "LAST-MODIFIED:20261201T090000Z", "END:VTODO", "END:VCALENDAR",
    ].map { $0 + "\r\n" }.joined()

    /// What dateutil's rruleset gives for the series (RepeatRuleOracleTests checks the oracle
    /// says so): Dec 10, 12, 13, 14 and 20.
    static let dues = ["2026-12-10T09:00", "2026-12-12T09:00", "2026-12-13T09:00", "2026-12-14T09:00", "2026-12-20T09:00"]

    func due(_ nudge: Nudge) throws -> String? {
        (try nudge("show", "1", "--json").object()["due"] as? String).map { String($0.prefix(16)) }
    }

    @Test func doneWalksTheDuesOfTheRuleWithoutTheEXDATEAndWithTheRDATE() throws {
        var nudge = Nudge()
        nudge.now = "2026-12-01 10:00:00"
        #expect(try nudge("import", "-", input: Self.series).status == 0)
        #expect(try due(nudge) == Self.dues[0])
        for next in Self.dues.dropFirst() {
            nudge.now = "\(try #require(try due(nudge)).prefix(10)) 12:00:00"
            #expect(try nudge("done", "1").status == 0)
            #expect(try due(nudge) == next)
        }
        nudge.now = "2026-12-20 12:00:00"
        #expect(try nudge("done", "1").status == 0)
        #expect(try nudge("show", "1", "--json").object()["completed"] as? Bool == true)
    }

    @Test func explainPreviewsTheSameDues() throws {
        var nudge = Nudge()
        nudge.now = "2026-12-01 10:00:00"
        try nudge("import", "-", input: Self.series)
        let previewed = try #require(try nudge("explain", "1", "--json").object()["nextDues"] as? [String])
        #expect(previewed.map { String($0.prefix(16)) } == Array(Self.dues.dropFirst()))
    }

    @Test func anExportWritesTheDatesBackUnchangedAndTheyStillCountAfterARoundTrip() throws {
        var nudge = Nudge()
        nudge.now = "2026-12-01 10:00:00"
        try nudge("import", "-", input: Self.series)
        let ics = try nudge("export", "--format", "ics").stdout
        #expect(ics.contains("\r\nEXDATE;TZID=Europe/Berlin:20261211T090000\r\n"))
        #expect(ics.contains("\r\nRDATE;TZID=Europe/Berlin:20261220T090000\r\n"))
        let json = try nudge("export").stdout
        for text in [ics, json] {
            var other = Nudge()
            other.now = "2026-12-01 10:00:00"
            #expect(try other("import", "-", input: text).status == 0)
            let previewed = try #require(try other("explain", "1", "--json").object()["nextDues"] as? [String])
            #expect(previewed.map { String($0.prefix(16)) } == Array(Self.dues.dropFirst()))
        }
    }

    /// A series whose EXDATE came in Nudge JSON (`repeat.except`) was written to iCalendar
    /// without it: only EXDATE properties read from a file were given back.
    @Test func anEXDATEFromNudgeJSONGoesOutInICalendar() throws {
        var nudge = Nudge()
        nudge.now = "2026-12-01 10:00:00"
        let json = """
            [{"uuid": "0f8fad5b-d9cb-469f-a165-70867728950e", "title": "Water the plants", "due": "2026-12-10T09:00:00+01:00",
              "zone": "Europe/Berlin", "createdAt": "2026-12-01T09:00:00Z", "updatedAt": "2026-12-01T09:00:00Z",
              "repeat": {"rule": "FREQ=DAILY", "from": "due", "start": "2026-12-10T09:00", "except": ["2026-12-11T09:00"]}}]
            """
        #expect(try nudge("import", "-", input: json).status == 0)
        let ics = try nudge("export", "--format", "ics").stdout
        #expect(ics.components(separatedBy: "\r\nEXDATE;TZID=Europe/Berlin:20261211T090000\r\n").count == 2, "\(ics)")
    }
}

/// A VTODO with RECURRENCE-ID overrides one occurrence of a series. Nudge keeps one todo per
/// series, so the override is kept with it as it came, said so in the summary, and written back.
struct RecurrenceOverrideCommandTests {
    static let override = [
        "BEGIN:VTODO", "UID:0f8fad5b-d9cb-469f-a165-70867728950e", "SUMMARY:Water the plants (the big ones)",
        "RECURRENCE-ID;TZID=Europe/Berlin:20261212T090000", "DUE;TZID=Europe/Berlin:20261212T180000",
        "LAST-MODIFIED:20261201T100000Z", "END:VTODO",
    ].map { $0 + "\r\n" }.joined()

    static let file = RepeatDatesCommandTests.series.replacingOccurrences(of: "END:VCALENDAR\r\n", with: override + "END:VCALENDAR\r\n")

    @Test func theOverrideIsCountedAsKeptNotAsSkipped() throws {
        let nudge = Nudge()
        let imported = try nudge("import", "-", input: Self.file)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout == "Imported 1: 1 added, 0 updated, 0 skipped as unchanged or older; 1 override of a repeating todo kept as it was\n")
        #expect(try nudge("list", "--json").array().count == 1)
    }

    @Test func anExportGivesTheOverrideBackBesideItsSeries() throws {
        let nudge = Nudge()
        try nudge("import", "-", input: Self.file)
        let ics = try nudge("export", "--format", "ics").stdout
        #expect(ics.components(separatedBy: "BEGIN:VTODO\r\n").count == 3)
        #expect(ics.contains("\r\nRECURRENCE-ID;TZID=Europe/Berlin:20261212T090000\r\n"))
        #expect(ics.contains("\r\nSUMMARY:Water the plants (the big ones)\r\n"))
        #expect(ics.contains("\r\nDUE;TZID=Europe/Berlin:20261212T180000\r\n"))
        // Read back elsewhere (and through Nudge's JSON), it is kept again.
        for text in [ics, try nudge("export").stdout] {
            let other = Nudge()
            let imported = try other("import", "-", input: text)
            #expect(imported.stdout.hasSuffix("; 1 override of a repeating todo kept as it was\n") || !text.hasPrefix("BEGIN"))
            #expect(try other("export", "--format", "ics").stdout.contains("\r\nRECURRENCE-ID;TZID=Europe/Berlin:20261212T090000\r\n"))
        }
    }

    @Test func anOverrideWithoutItsSeriesIsCountedAsNotKept() throws {
        let nudge = Nudge()
        let alone = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n" + Self.override + "END:VCALENDAR\r\n"
        let imported = try nudge("import", "-", input: alone)
        #expect(imported.stdout == "Imported 0: 0 added, 0 updated, 0 skipped as unchanged or older; not kept: 1 overrides of a repeating todo that is not in the file\n")
    }
}

/// A floating DUE (no TZID, no Z: that wall-clock time wherever the user is) is read in the
/// local zone and written back floating, not pinned to the zone it was read in.
struct FloatingDueCommandTests {
    static let file = [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN", "BEGIN:VTODO",
        "UID:0f8fad5b-d9cb-469f-a165-70867728950e", "SUMMARY:Call Ann", "DUE:20261215T090000",
        "END:VTODO", "END:VCALENDAR",
    ].map { $0 + "\r\n" }.joined()

    @Test(arguments: ["Europe/Berlin", "UTC"])
    func aFloatingDueIsWrittenBackFloating(zone: String) throws {
        var nudge = Nudge()
        nudge.zone = zone
        #expect(try nudge("import", "-", input: Self.file).status == 0)
        #expect(try nudge("show", "1", "--json").object()["due"] as? String == (zone == "UTC" ? "2026-12-15T09:00:00+00:00" : "2026-12-15T09:00:00+01:00"))
        let ics = try nudge("export", "--format", "ics").stdout
        #expect(ics.contains("\r\nDUE:20261215T090000\r\n"), "\(ics)")
        #expect(!ics.contains("X-NUDGE-FLOATING"))
        // Postponed here, it stays floating.
        #expect(try nudge("postpone", "1", "1d").status == 0)
        #expect(try nudge("export", "--format", "ics").stdout.contains("\r\nDUE:20261216T090000\r\n"))
    }

    @Test func aDueWithTZIDOrInUTCIsNotMadeFloating() throws {
        let nudge = Nudge()
        let zoned = Self.file.replacingOccurrences(of: "DUE:20261215T090000", with: "DUE;TZID=Europe/Berlin:20261215T090000")
        try nudge("import", "-", input: zoned)
        #expect(try nudge("export", "--format", "ics").stdout.contains("\r\nDUE;TZID=Europe/Berlin:20261215T090000\r\n"))
        let other = Nudge()
        try other("import", "-", input: Self.file.replacingOccurrences(of: "DUE:20261215T090000", with: "DUE:20261215T090000Z"))
        #expect(try other("export", "--format", "ics").stdout.contains("\r\nDUE:20261215T090000Z\r\n"))
    }
}
