import Foundation
import NudgeCore
import Testing
@testable import NudgeInterchange

/// iCalendar files from servers and other programs that libical 3.0 cannot read whole by
/// itself: components it does not know, very long lines, stray ENDs.
extension ICalendarFileTests {
    @Test(arguments: ["VLOCATION", "PARTICIPANT", "VRESOURCE", "VODO", "X-FOO", "VTODOX"])
    func aComponentOfAnotherKindInACalendarIsCountedAsNotKept(name: String) throws {
        let file = try decode(calendar(["BEGIN:\(name)", "UID:x", "END:\(name)"] + todo([])))
        #expect(try file.items.map { try $0.get().title } == ["Buy milk"])
        #expect(file.notKept == ["\(name) components": 1])
        let alone = try decode(calendar(["BEGIN:\(name)", "END:\(name)"]) + "BEGIN:\(name)\r\nEND:\(name)\r\n")
        #expect(alone.items.isEmpty)
        #expect(alone.notKept == ["\(name) components": 2])
    }

    @Test func aComponentWithoutAReadableNameIsCountedAsUnnamed() throws {
        let file = try decode(calendar(["BEGIN:V:?", "END:V:?", "BEGIN:", "END:"]))
        #expect(file.notKept == ["unnamed components": 2])
    }

    static let participant = [
        "BEGIN:PARTICIPANT", "UID:participant-1@example.org", "PARTICIPANT-TYPE:ACTIVE",
        "CALENDAR-ADDRESS:mailto:ann@example.org", "DESCRIPTION:a description long enough that the line is folded at",
        " seventy-five octets", "BEGIN:VLOCATION", "UID:place-1", "NAME:Kitchen", "END:VLOCATION", "END:PARTICIPANT",
    ]

    @Test func aTodoKeepsAComponentOfAnotherKindAsItWasAndWritesItBack() throws {
        let read = try decodeOne(["UID:\(uuid)", "DUE:20261224T090000Z"] + Self.participant + ["BEGIN:X-ACME-NOTE", "X-TEXT:hi", "END:X-ACME-NOTE"])
        let text = ICalendarFile.encode([read], options: options)
        let block = (Self.participant + ["BEGIN:X-ACME-NOTE", "X-TEXT:hi", "END:X-ACME-NOTE", "END:VTODO"]).joined(separator: "\r\n")
        #expect(text.contains("\r\n" + block + "\r\n"), "\(text)")
        #expect(!text.contains(ICalendarSetAside.placeholderName))
        let again = try decode(text)
        #expect(try again.items.first?.get().kept == read.kept)
        #expect(again.notKept.isEmpty)
    }

    @Test func anAlarmWithALocationIsKeptWhole() throws {
        let alarm = ["BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER;RELATED=END:-PT10M", "BEGIN:VLOCATION", "UID:l1",
                     "NAME:Office", "END:VLOCATION", "END:VALARM"]
        let read = try decodeOne(["UID:\(uuid)", "DUE:20261224T090000Z"] + alarm)
        #expect(read.custom.isEmpty)
        #expect(lines(encode([read])).joined(separator: "\n").contains(alarm.joined(separator: "\n")))
    }

    @Test func anOverrideKeepsAComponentOfAnotherKind() throws {
        let series = todo(["UID:s1", "DUE:20261210T090000Z", "DTSTART:20261210T090000Z", "RRULE:FREQ=DAILY"])
        let override = ["BEGIN:VTODO", "UID:s1", "SUMMARY:Once", "RECURRENCE-ID:20261211T090000Z"] + Self.participant + ["END:VTODO"]
        let file = try decode(calendar(series + override))
        let text = encode([try file.items[0].get()])
        #expect(text.contains(Self.participant.joined(separator: "\r\n").replacingOccurrences(of: "\r\n ", with: "")), "\(text)")
    }

    /// A file that happens to hold the placeholder's own words keeps them as a property.
    @Test func aPropertyNamedAsThePlaceholderIsKeptAsAProperty() throws {
        let read = try decodeOne(["UID:\(uuid)", "X-NUDGE-COMPONENT:n0-1"] + Self.participant)
        let text = lines(encode([read]))
        #expect(text.contains("X-NUDGE-COMPONENT:n0-1"))
        #expect(text.contains("BEGIN:PARTICIPANT"))
    }

    /// libical reads `^^` in a parameter as `^` and printed `^` as it is: each export of what
    /// Nudge keeps halved the carets (found by fuzzing the import).
    @Test func caretsInAParameterComeBackAsTheyWent() throws {
        let property = "X-ACME;X-NOTE=\"a^^b ^' c:d^n\";X-N=^^^;X-^^P=^^:v^^w"
        let override = "RECURRENCE-ID;TZID=^^^^^Europe/Berlin:20261212T090000"
        let series = todo(["UID:s1", "DUE:20261210T090000Z", "DTSTART:20261210T090000Z", "RRULE:FREQ=DAILY", property])
        let file = try decode(calendar(series + ["BEGIN:VTODO", "UID:s1", override, "END:VTODO"]))
        let text = encode([try file.items[0].get()])
        #expect(lines(text).contains(property), "\(text)")
        #expect(lines(text).contains(override), "\(text)")
        #expect(encode([try decode(text).items[0].get()]) == text)
    }

    /// `BEGIN:VTODO` with a second CR at its end was set aside as a component of another kind,
    /// raw, while libical reads it as a VTODO: the export then went through libical, whose
    /// `\(` is a space the next import dropped, and the round trip did not settle (found by
    /// fuzzing the import).
    @Test func aBeginWithAStrayCarriageReturnIsTheComponentNamed() throws {
        let alarm = ["BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT1H", "BEGIN:VTODO\r", "UID:\\(uid)", "END:VTODO", "END:VALARM"]
        let read = try decodeOne(["UID:\(uuid)"] + alarm)
        let text = encode([read])
        #expect(!text.contains("\r\r"), "\(text)")
        #expect(encode([try decode(text).items[0].get()]) == text, "\(text)")
    }

    /// libical prints a value without its BS, FF and CR, and reads a CR inside a folded line as
    /// a line's end: a name kept for one was a tag at the next import, and a STATUS of CRs lost
    /// one at each (found by fuzzing the import).
    @Test func controlsLibicalDropsAreDroppedOnTheWayIn() throws {
        let read = try decodeOne(["UID:\(uuid)", "CATEGORIES:Home,Es\u{8}2,a\u{C}b", "STATUS:NEED" + String(repeating: "\r", count: 150) + "S"])
        #expect(read.tags == ["Es2", "ab"])
        let text = encode([read])
        #expect(!text.contains("\r\r"))
        #expect(encode([try decode(text).items[0].get()]) == text, "\(text)")
    }

    /// libical adds an X-LIC-ERROR for each value it cannot read inside a component a todo
    /// keeps; printed with it, the next import read it back and added another beside it, so
    /// the round trip did not settle (found by fuzzing the import).
    @Test func errorsLibicalAddsInsideAKeptComponentAreNotKept() throws {
        let note = ["BEGIN:VTODO", "UID:inner", "LAST-MODIFIED;VALUE=DATE:20261128", "D]E:x", "END:VTODO"]
        let read = try decodeOne(["UID:\(uuid)"] + note)
        let text = encode([read])
        #expect(!text.contains("X-LIC-ERROR"), "\(text)")
        #expect(text.contains("LAST-MODIFIED;VALUE=DATE:20261128"), "\(text)")
        #expect(encode([try decode(text).items[0].get()]) == text, "\(text)")
    }

    /// An alarm with a line libical cannot read was kept whole for the X-LIC-ERROR it got, and
    /// written without it: the next import read it as a reminder, so the round trip did not
    /// settle (found by fuzzing the import). It is read as what libical could read of it.
    @Test func anAlarmWithAnUnreadableLineIsReadAsWhatIsLeft() throws {
        let alarm = ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTDON:x", "TRIGGER;RELATED=END:-PT10M", "END:VALARM"]
        let file = try decode(calendar(todo(["UID:\(uuid)", "DUE:20261130T090000Z"] + alarm)))
        let read = try file.items[0].get()
        #expect(read.custom == [.before(TimeSpan(seconds: 600))])
        #expect(file.notKept == ["unreadable properties": 1])
        let text = encode([read])
        #expect(encode([try decode(text).items[0].get()]) == text, "\(text)")
    }

    /// libical splits no CATEGORIES value holding an escape other than `\,`: `Ex\rt,` was one
    /// name with its comma, kept, then written back without the escape and split, so that
    /// the next import read a tag (found by fuzzing the import).
    @Test func aCategoryWithAnEscapeAndATrailingCommaIsOneName() throws {
        let read = try decodeOne(["UID:\(uuid)", "CATEGORIES:Home", "CATEGORIES:Ex\\rt,"])
        #expect(read.category == "Home")
        #expect(read.tags == ["Ext"])
        let text = encode([read])
        #expect(encode([try decode(text).items[0].get()]) == text, "\(text)")
    }

    /// Foundation takes the abbreviation "ART" for a zone; libical has none by that name, so the
    /// export wrote the due in UTC and the round trip changed its zone (found by fuzzing).
    @Test func aDueInAZoneNamedByAnAbbreviationIsReadInUTCAtTheSameInstant() throws {
        let art = try #require(TimeZone(identifier: "ART"))
        let nine = try #require(LocalDate(iso: "2026-12-10")).at(hour: 9, minute: 0, second: 0, in: .nudge(zone: art))
        let read = try decodeOne(["UID:\(uuid)", "DUE;TZID=ART:20261210T090000"])
        #expect(read.due == .at(nine, zone: ICalendarFile.utc))
        let text = encode([read])
        #expect(try decode(text).items[0].get().due == read.due)
    }

    /// A rule Nudge cannot follow was kept after the other properties, and a second RRULE
    /// before it was then taken as the rule: each import reordered them (found by fuzzing).
    @Test func propertiesKeptComeBackInTheFilesOrder() throws {
        let properties = ["RRULE:FREQ=DAILY;COUNT=5", "EXDATE;TZID=Europe/Berlin:20261211T090000",
                          "RRULE:FREQ=WEEKLY;COUNT=2", "DTSTART:20261210T090000Z", "X-ACME:1"]
        let read = try decodeOne(["UID:\(uuid)"] + properties)
        #expect(read.repetition == nil)
        #expect(read.kept["ics"].map { $0.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("PRIORITY") } }
                == properties, "\(read.kept)")
        let text = encode([read])
        #expect(encode([try decode(text).items[0].get()]) == text)
    }

    @Test func anEndWithoutABeginIsCountedAndTheRestRead() throws {
        let file = try decode(calendar(todo([])) + "END:VTODO\r\nEND:VCALENDAR\r\n")
        #expect(file.items.count == 1)
        #expect(file.notKept == ["END lines without a BEGIN": 2])
    }

    /// libical looked for the end of a line again for every 80 bytes of it: 8 MB took 20 s.
    @Test func aLineOfMegabytesIsReadInLinearTime() throws {
        let value = String(repeating: "QUJD", count: 2 * 1024 * 1024)
        let start = ContinuousClock.now
        let read = try decodeOne(["ATTACH;ENCODING=BASE64;VALUE=BINARY:" + value])
        let elapsed = ContinuousClock.now - start
        #expect(elapsed < .seconds(10), "\(elapsed)")
        #expect(read.kept["ics"]?.replacingOccurrences(of: "\n ", with: "").contains(value) == true)
    }

    @Test func foldsLongLinesForLibicalAtCharacterBoundaries() {
        var setAside = ICalendarSetAside()
        let line = "DESCRIPTION:" + String(repeating: "äöü€𝄞", count: 1000)
        let prepared = setAside.prepare("BEGIN:VTODO\r\n" + line + "\r\nEND:VTODO\r\n")
        let text = String(decoding: prepared.dropLast(), as: UTF8.self)
        #expect(!text.contains("\u{FFFD}"))
        let physical = text.components(separatedBy: "\r\n")
        #expect(physical.allSatisfy { $0.utf8.count <= ICalendarSetAside.piece + 1 })
        #expect(physical.joined(separator: "\r\n").replacingOccurrences(of: "\r\n ", with: "")
                == "BEGIN:VTODO\r\n" + line + "\r\nEND:VTODO\r\n")
    }

    /// After the last LF, libical ends lines at CR (Kerio's files): read as such, not as one line.
    @Test func aFileOfCarriageReturnEndedLinesIsRead() throws {
        let text = calendar(todo(["DUE:20261224T090000Z"])).replacingOccurrences(of: "\r\n", with: "\r")
        let read = try #require(try decode(text).items.first).get()
        #expect(read.due == .at(Date(timeIntervalSince1970: 1_798_102_800), zone: Self.utc))
    }
}

/// Dates a file computes: every one in the years 0001-9999, and what cannot be followed said.
extension ICalendarFileTests {
    func readError(_ lines: [String]) throws -> RecordError? {
        let file = try decode(calendar(todo(lines)))
        guard case .failure(let error)? = file.items.first else { return nil }
        return error
    }

    /// DTSTART plus 99999999999 weeks was imported as a due in the year 27,026,422.
    @Test(arguments: [
        ["DTSTART:20261224T090000Z", "DURATION:P99999999999W"],
        ["DTSTART;VALUE=DATE:20261224", "DURATION:P99999999W"],
        ["DTSTART;TZID=Europe/Berlin:99991231T090000", "DURATION:PT16H"],
        ["DTSTART;VALUE=DATE:99991231", "DURATION:P1D"],
    ])
    func aDurationThatPutsTheDueOutsideTheYearsIsTheTodosError(lines: [String]) throws {
        let error = try #require(try readError(lines))
        #expect(error.field == "DURATION")
        #expect(error.reason.hasSuffix("puts the due outside the years 0001-9999"), "\(error)")
    }

    @Test func aNegativeDurationIsSaidAndKept() throws {
        let file = try decode(calendar(todo(["DTSTART:20261224T090000Z", "DURATION:-P1000000W"])))
        let read = try #require(try file.items.first?.get())
        #expect(read.due == nil)
        #expect(file.warnings == ["todo 1: \"DURATION\" '-P1000000W' is negative, so DTSTART plus it is no due:"
                                  + " imported without a due (kept for export)"])
        #expect(lines(encode([read])).contains("DURATION:-P1000000W"))
    }

    @Test(arguments: [
        (["DUE:20261224T090000Z", "RRULE:FREQ=SECONDLY"], "\"RRULE\" 'FREQ=SECONDLY' is not a repeat nudge can follow"),
        (["DUE:20261224T090000Z", "RRULE:FREQ=MINUTELY;INTERVAL=5"], "\"RRULE\" 'FREQ=MINUTELY;INTERVAL=5' is not a repeat nudge can follow"),
        (["DUE;VALUE=DATE:20261224", "RRULE:FREQ=HOURLY"], "\"RRULE\" 'FREQ=HOURLY' repeats by hours, and the due is a day (at midnight)"),
        (["DTSTART:20261224T090000Z", "RRULE:FREQ=DAILY"], "\"RRULE\" 'FREQ=DAILY' has no due to repeat from"),
    ])
    func aRuleNudgeCannotFollowIsSaidAndKept(lines: [String], warning: String) throws {
        let file = try decode(calendar(todo(lines)))
        let read = try #require(try file.items.first?.get())
        #expect(read.repetition == nil)
        #expect(file.warnings == ["todo 1: " + warning + ": imported without repeating (kept for export)"])
        #expect(self.lines(encode([read])).contains(lines[1]))
        // Done with, it repeats nowhere: nothing to say.
        #expect(try decode(calendar(todo(lines + ["STATUS:COMPLETED"]))).warnings.isEmpty)
    }

    @Test func aReminderLongBeforeTheDueIsTheTodosError() throws {
        let error = try #require(try readError(["DUE:20261224T090000Z", "BEGIN:VALARM", "ACTION:DISPLAY",
                                                "TRIGGER;RELATED=END:-P99999999W", "END:VALARM"]))
        #expect(error.field == "TRIGGER")
        #expect(error.reason == "is outside the years 0001-9999")
    }

    /// 0001-01-01 00:00 at UTC+14 is in the year 0 in UTC, where Taskwarrior writes it. (Not
    /// Pacific/Kiritimati: in the year 1 it keeps its local mean time, 10:29 behind UTC.)
    @Test(arguments: ["Etc/GMT-14", "Asia/Tokyo"])
    func aDueInYearOneThatIsYearZeroInUTCIsTheTodosError(zone: String) throws {
        let error = try #require(try readError(["DUE;TZID=\(zone):00010101T000000"]))
        #expect(error.field == "DUE")
    }
}

/// Writers never write a date outside the years 0001-9999, which an older version could store.
extension ICalendarFileTests {
    @Test(arguments: InterchangeFormat.allCases)
    func aRecordDueAfterTheYear9999IsLeftOut(format: InterchangeFormat) {
        let far = record { $0.title = "Far"; $0.due = .at(Date(timeIntervalSince1970: 253_403_459_940), zone: Self.berlin) }
        var near = record { $0.title = "Near"; $0.due = .allDay(LocalDate(year: 2026, month: 12, day: 30)!) }
        near.uuid = "1f8fad5b-d9cb-469f-a165-70867728950e"
        #expect(YearBounds.unwritable(far) == "its due is outside the years 0001-9999")
        #expect(YearBounds.unwritable(near) == nil)
        let text = format.encode([far, near], options: options)
        #expect(text.contains("Near") && !text.contains("Far"), "\(text)")
        #expect(!ICalendarFile.encode([far], options: options).contains("VTODO"))
    }
}
