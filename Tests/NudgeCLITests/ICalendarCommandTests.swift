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

    /// RFC 9073 components and a misspelt VTODO crashed the import (SIGILL): counted instead.
    @Test(arguments: ["VLOCATION", "PARTICIPANT", "VRESOURCE", "VODO"])
    func aComponentOfAnotherKindIsCountedAsNotKept(name: String) throws {
        let nudge = Nudge()
        let run = try nudge("import", "-", input: "BEGIN:VCALENDAR\nBEGIN:\(name)\nEND:\(name)\nEND:VCALENDAR\n")
        #expect(run.status == 0)
        #expect(run.stderr == "")
        #expect(run.stdout == "Imported 0: 0 added, 0 updated, 0 skipped as unchanged or older; not kept: 1 \(name) components\n")
    }

    /// libical wrote "icalparser.c:786: Encountered END before BEGIN" to stderr.
    @Test func anEndWithoutABeginIsCountedAndLibicalSaysNothing() throws {
        let nudge = Nudge()
        let run = try nudge("import", "-", input: Self.event + "END:VTODO\r\n")
        #expect(run.status == 0)
        #expect(run.stderr == "")
        #expect(run.stdout.hasSuffix("; not kept: 1 END lines without a BEGIN, 1 events (not todos)\n"), "\(run.stdout)")
    }

    /// A PARTICIPANT in a todo goes out as it came, and Python's icalendar reads it there.
    @Test func aParticipantInATodoIsExportedAsItCame() throws {
        let nudge = Nudge()
        let input = Self.event.replacingOccurrences(of: "SUMMARY:Buy milk\r\n", with: "SUMMARY:Buy milk\r\nBEGIN:PARTICIPANT\r\n"
                                                    + "UID:p1\r\nPARTICIPANT-TYPE:ACTIVE\r\nEND:PARTICIPANT\r\n")
        #expect(try nudge("import", "-", input: input).status == 0)
        let path = nudge.folder.file("out.ics")
        #expect(try nudge("export", "--format", "ics", "-o", path).status == 0)
        let read = try ChildProcess.output("/usr/bin/python3", ["-c", """
            import icalendar, sys
            todo = icalendar.Calendar.from_ical(open(sys.argv[1], 'rb').read()).walk('VTODO')[0]
            for part in todo.subcomponents:
                print(part.name, str(part['UID']), str(part['PARTICIPANT-TYPE']))
            """, path], environment: ["PATH": "/usr/bin:/bin"])
        #expect(read == "PARTICIPANT p1 ACTIVE\n")
    }

    static func startPlus(_ duration: String) -> String {
        "BEGIN:VCALENDAR\nBEGIN:VTODO\nUID:d1\nSUMMARY:Plan\nDTSTART:20261224T090000Z\nDURATION:\(duration)\nEND:VTODO\nEND:VCALENDAR\n"
    }

    /// A due in the year 27,026,422 was stored, and `postpone`, `upcoming` and nudged died on it.
    @Test func aDurationPastTheYear9999IsRefusedByName() throws {
        let nudge = Nudge()
        let run = try nudge("import", "-", input: Self.startPlus("P99999999999W"))
        #expect(run.status == 1)
        #expect(run.stderr == "nudge: todo 1: \"DURATION\" added to DTSTART '20261224T090000Z'"
                + " puts the due outside the years 0001-9999; nothing was imported (--skip-bad imports the rest)\n")
        #expect(try nudge("export", "--all").array().isEmpty)
    }

    @Test func aNegativeDurationAndASecondlyRuleAreSaid() throws {
        let nudge = Nudge()
        let run = try nudge("import", "-", input: Self.startPlus("-P1000000W"))
        #expect(run.status == 0)
        #expect(run.stderr == "nudge: warning: todo 1: \"DURATION\" '-P1000000W' is negative, so DTSTART plus it is no due:"
                + " imported without a due (kept for export)\n")
        let secondly = Self.dueTomorrow(status: "NEEDS-ACTION").replacingOccurrences(of: "STATUS:", with: "RRULE:FREQ=SECONDLY\r\nSTATUS:")
        let again = try nudge("import", "-", input: secondly)
        #expect(again.status == 0)
        #expect(again.stderr == "nudge: warning: todo 1: \"RRULE\" 'FREQ=SECONDLY' is not a repeat nudge can follow:"
                + " imported without repeating (kept for export)\n")
    }

    /// Other programs fired "10m before" an all-day due at 23:50 the day before, and an AUDIO
    /// alarm went out as DISPLAY.
    @Test func alarmsGoOutAsOtherProgramsFireThemAndComeBackTheSame() throws {
        let nudge = Nudge()
        try nudge("add", "Wrap presents", "--due", "2026-12-24")
        try nudge("remind", "1", "--add", "10m")
        let audio = Self.dueTomorrow(status: "NEEDS-ACTION").replacingOccurrences(of: "ACTION:DISPLAY\r\nDESCRIPTION:Call the plumber\r\n",
                                                                                 with: "ACTION:AUDIO\r\n")
        #expect(try nudge("import", "-", input: audio).status == 0)
        let path = nudge.folder.file("out.ics")
        #expect(try nudge("export", "--format", "ics", "-o", path).status == 0)
        let read = try ChildProcess.output("/usr/bin/python3", ["-c", """
            import datetime, icalendar, sys
            for todo in icalendar.Calendar.from_ical(open(sys.argv[1], 'rb').read()).walk('VTODO'):
                due = todo.decoded('DUE')
                if not isinstance(due, datetime.datetime):
                    due = datetime.datetime.combine(due, datetime.time())
                for alarm in todo.walk('VALARM'):
                    print(str(todo['SUMMARY']), str(alarm['ACTION']), due + alarm.decoded('TRIGGER'))
            """, path], environment: ["PATH": "/usr/bin:/bin"])
        #expect(read.split(separator: "\n").sorted() == ["Call the plumber AUDIO 2026-11-30 08:50:00+00:00", "Wrap presents DISPLAY 2026-12-24 08:50:00"])
        let other = Nudge()
        #expect(try other("import", path).status == 0)
        let reminders = try other("export").array().map { ($0["reminders"] as? [[String: String]]) ?? [] }
        #expect(reminders == [[["before": "10m"]], [["before": "10m"]]])
    }

    /// A todo due tomorrow (the tests' now is 2026-11-29) with an alarm 10 minutes before.
    static func dueTomorrow(status: String) -> String {
        [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN", "BEGIN:VTODO",
            "UID:0f8fad5b-d9cb-469f-a165-70867728950e", "SUMMARY:Call the plumber", "DUE:20261130T090000Z",
            "STATUS:\(status)", "LAST-MODIFIED:20261128T090000Z",
            "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Call the plumber", "TRIGGER;RELATED=END:-PT10M", "END:VALARM",
            "END:VTODO", "END:VCALENDAR",
        ].map { $0 + "\r\n" }.joined()
    }

    /// The rules of the reminders `upcoming` lists for todos (the daily digest left out).
    func reminders(_ nudge: Nudge) throws -> [String] {
        try nudge("upcoming", "--json").array().filter { $0["todo"] is Int }.compactMap { $0["rule"] as? String }
    }

    @Test func aCancelledTodoIsImportedDoneIsNotRemindedAndGoesBackCancelled() throws {
        let pending = Nudge()
        try pending("import", "-", input: Self.dueTomorrow(status: "NEEDS-ACTION"))
        #expect(try reminders(pending) == ["before 10m", "due", "nag 1", "nag 2", "nag 3"])

        let nudge = Nudge()
        let imported = try nudge("import", "-", input: Self.dueTomorrow(status: "CANCELLED"))
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout == "Imported 1: 1 added, 0 updated, 0 skipped as unchanged or older\n")
        #expect(try reminders(nudge) == [])
        #expect(try nudge("export").array().isEmpty)
        let todo = try nudge("export", "--all").array()[0]
        #expect(todo["completed"] as? Bool == true)
        #expect(todo["completedAt"] as? String == "2026-11-28T09:00:00+00:00")
        let ics = try nudge("export", "--all", "--format", "ics").stdout
        #expect(ics.contains("\r\nSTATUS:CANCELLED\r\n"))
        #expect(!ics.contains("STATUS:COMPLETED") && !ics.contains("\r\nCOMPLETED:"))
        let again = try nudge("import", "-", input: ics)
        #expect(again.stdout == "Imported 0: 0 added, 0 updated, 1 skipped as unchanged or older\n")
    }

    @Test func unknownPropertiesComeBackWithTheirParametersAsPythonsIcalendarReadsThem() throws {
        let nudge = Nudge()
        let input = Self.event.replacingOccurrences(of: "SUMMARY:Buy milk\r\n", with: "SUMMARY:Buy milk\r\nX-FOO;PARAM=1:bar baz\r\nLOCATION;ALTREP=\"cid:k\";FOO=bar:Kitchen\r\n")
        #expect(try nudge("import", "-", input: input).status == 0)
        let path = nudge.folder.file("out.ics")
        #expect(try nudge("export", "--format", "ics", "-o", path).status == 0)
        // Debian's python3-icalendar, the oracle: what it reads of the export.
        let read = try ChildProcess.output("/usr/bin/python3", ["-c", """
            import icalendar, sys
            todo = icalendar.Calendar.from_ical(open(sys.argv[1], 'rb').read()).walk('VTODO')[0]
            for name in ('X-FOO', 'LOCATION'):
                print(name, str(todo[name]), sorted(todo[name].params.items()))
            """, path], environment: ["PATH": "/usr/bin:/bin"])
        #expect(read == """
            X-FOO bar baz [('PARAM', '1')]
            LOCATION Kitchen [('ALTREP', 'cid:k'), ('FOO', 'bar')]

            """)
    }

    @Test func aFileCutShortIsSaidToBeAndImportsNothing() throws {
        let nudge = Nudge()
        let run = try nudge("import", "-", input: "BEGIN:VCALENDAR\nBEGIN:VTODO\n")
        #expect(run.status == 1)
        #expect(run.stderr == "nudge: cannot import standard input: the file is cut short: the VCALENDAR that begins on line 1 has no END:VCALENDAR; nothing was imported\n")
        #expect(try nudge("export", "--all").array().isEmpty)
    }

    /// A Latin-1 file (an old editor's "Caf\u{E9}") is refused as sync and todo.txt refuse it,
    /// not imported as "Caf\u{FFFD}".
    @Test func aFileThatIsNotUTF8IsRefusedAndImportsNothing() throws {
        let nudge = Nudge()
        let path = nudge.folder.file("latin.ics")
        let text = Self.event.replacingOccurrences(of: "SUMMARY:Buy milk", with: "SUMMARY:Caf\u{E9}")
        try #require(text.data(using: .isoLatin1)).write(to: URL(fileURLWithPath: path))
        let run = try nudge("import", path)
        #expect(run.status == 1)
        #expect(run.stderr == "nudge: cannot import \(path): the file is not UTF-8 text; nothing was imported\n")
        #expect(try nudge("export", "--all").array().isEmpty)
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
