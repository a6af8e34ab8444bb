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
        #expect(read.reminders.isEmpty)
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
