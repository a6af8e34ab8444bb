import Foundation
import NudgeCore
import Testing
@testable import NudgeInterchange

/// The todos one comes after as RFC 9253's `RELATED-TO;RELTYPE=DEPENDS-ON`, both ways.
struct ICalendarDependsOnTests {
    let options = InterchangeOptions(zone: TimeZone(identifier: "Europe/Berlin")!, now: Date(timeIntervalSince1970: 1_795_000_000))

    func records(_ text: String) throws -> [TodoRecord] {
        try ICalendarFile.decode(Data(text.utf8), options: options).items.map { try $0.get() }
    }

    func links(_ text: String) -> [String] {
        text.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\n").filter { $0.hasPrefix("RELATED-TO") }
    }

    @Test func blockersGoOutAsDependsOnAndComeBackInTheirOrder() throws {
        let first = "5b5a0f2e-3c4d-4e6f-8a9b-0c1d2e3f4a5b", second = "c9e2f0a4-7d1b-4b6e-9f3a-2e5d8c7b6a10"
        let record = TodoRecord(uuid: "11111111-1111-4111-8111-111111111111", title: "Deploy", after: [second, first],
                                createdAt: options.now, updatedAt: options.now, parentUUID: first)
        let written = ICalendarFile.encode([record], options: options)
        #expect(links(written) == ["RELATED-TO;RELTYPE=PARENT:\(first)", "RELATED-TO;RELTYPE=DEPENDS-ON:\(second)",
                                   "RELATED-TO;RELTYPE=DEPENDS-ON:\(first)"])
        let back = try #require(try records(written).first)
        #expect(back.after == [second, first])
        #expect(back.parentUUID == first)
        #expect(ICalendarFile.encode([back], options: options) == written)
        // None written for a todo after nothing, and one read without comes after nothing.
        var free = back
        free.after = []
        #expect(links(ICalendarFile.encode([free], options: options)) == ["RELATED-TO;RELTYPE=PARENT:\(first)"])
        #expect(try records(ICalendarFile.encode([free], options: options)).first?.after == [])
    }

    @Test func aBlockerUIDThatIsNoUUIDIsWrittenBackAsItCameAndOtherRelationsStay() throws {
        let lines = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN",
            "BEGIN:VTODO", "UID:7438299214580284731", "SUMMARY:Write tests", "DTSTAMP:20261118T100000Z", "END:VTODO",
            "BEGIN:VTODO", "UID:deploy", "SUMMARY:Deploy", "DTSTAMP:20261118T100000Z",
            "RELATED-TO;RELTYPE=DEPENDS-ON:7438299214580284731", "RELATED-TO;RELTYPE=DEPENDS-ON:deploy",
            "RELATED-TO;RELTYPE=SIBLING:someone-else", "END:VTODO",
            "END:VCALENDAR",
        ]
        let read = try records(lines.map { $0 + "\r\n" }.joined())
        try #require(read.count == 2)
        // Depending on itself is no dependency.
        #expect(read[1].after == [read[0].uuid])
        #expect(read[0].after == [])
        let written = ICalendarFile.encode(read, options: options)
        #expect(Set(links(written)) == ["RELATED-TO;RELTYPE=DEPENDS-ON:7438299214580284731", "RELATED-TO;RELTYPE=SIBLING:someone-else"])
        // Taken away in Nudge, the link is gone; the sibling stays.
        var edited = read[1]
        edited.after = []
        #expect(links(ICalendarFile.encode([edited], options: options)) == ["RELATED-TO;RELTYPE=SIBLING:someone-else"])
    }
}
