import Foundation
import NudgeCore
import Testing
@testable import NudgeInterchange
@testable import NudgeTestSupport

/// A subtask's RELATED-TO (RELTYPE=PARENT, RFC 5545's default) both ways, in the shapes
/// Nextcloud Tasks, tasks.org (through DAVx5) and Thunderbird write, and Nudge JSON's parent.
struct ICalendarSubtaskTests {
    let options = InterchangeOptions(zone: TimeZone(identifier: "Europe/Berlin")!, now: Date(timeIntervalSince1970: 1_795_000_000))

    /// A parent and its subtask as each program writes them: the UIDs and the link's form.
    static let shapes: [(program: String, parentUID: String, link: String)] = [
        // Nextcloud Tasks: an uppercase uuid and a RELATED-TO without RELTYPE.
        ("Nextcloud Tasks", "5B5A0F2E-3C4D-4E6F-8A9B-0C1D2E3F4A5B", "RELATED-TO:5B5A0F2E-3C4D-4E6F-8A9B-0C1D2E3F4A5B"),
        // tasks.org: long numeric UIDs, RELTYPE=PARENT written out.
        ("tasks.org", "7438299214580284731", "RELATED-TO;RELTYPE=PARENT:7438299214580284731"),
        // Thunderbird: a lowercase uuid, RELTYPE=PARENT.
        ("Thunderbird", "c9e2f0a4-7d1b-4b6e-9f3a-2e5d8c7b6a10", "RELATED-TO;RELTYPE=PARENT:c9e2f0a4-7d1b-4b6e-9f3a-2e5d8c7b6a10"),
    ]

    func file(parentUID: String, link: String) -> String {
        let lines = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN",
            "BEGIN:VTODO", "UID:\(parentUID)", "SUMMARY:Paint walls", "DTSTAMP:20261118T100000Z", "END:VTODO",
            "BEGIN:VTODO", "UID:child-of-\(parentUID)", "SUMMARY:Buy paint", "DTSTAMP:20261118T100000Z", link,
            "RELATED-TO;RELTYPE=SIBLING:someone-else", "END:VTODO",
            "END:VCALENDAR",
        ]
        return lines.map { $0 + "\r\n" }.joined()
    }

    func records(_ text: String) throws -> [TodoRecord] {
        try ICalendarFile.decode(Data(text.utf8), options: options).items.map { try $0.get() }
    }

    @Test(arguments: shapes.map(\.program))
    func aSubtaskJoinsItsParentAndTheLinkIsWrittenBackAsItCame(program: String) throws {
        let shape = try #require(Self.shapes.first { $0.program == program })
        let read = try records(file(parentUID: shape.parentUID, link: shape.link))
        try #require(read.count == 2)
        #expect(read[0].parentUUID == nil)
        #expect(read[1].parentUUID == read[0].uuid)
        let written = ICalendarFile.encode(read, options: options).replacingOccurrences(of: "\r\n ", with: "")
        let links = written.components(separatedBy: "\r\n").filter { $0.hasPrefix("RELATED-TO") }
        // Nudge writes RELTYPE=PARENT out; the UID as the parent's is written.
        let parentUID = written.components(separatedBy: "\r\n").first { $0.hasPrefix("UID:") }?.dropFirst(4)
        #expect(links.contains { $0.hasPrefix("RELATED-TO") && $0.hasSuffix(":" + (parentUID.map(String.init) ?? "?")) }, "\(links)")
        #expect(links.contains("RELATED-TO;RELTYPE=SIBLING:someone-else"))
        #expect(links.count == 2)
        let again = try records(written)
        #expect(again.map(\.uuid) == read.map(\.uuid))
        #expect(again.map(\.parentUUID) == read.map(\.parentUUID))
        // Nothing kept is lost; the export writes the kept lines in its own order.
        func keptLines(_ records: [TodoRecord]) -> [Set<Substring>] { records.map { Set(($0.kept["ics"] ?? "").split(separator: "\n")) } }
        #expect(keptLines(again) == keptLines(read))
    }

    @Test func aParentChangedOrRemovedInNudgeIsWrittenSo() throws {
        var read = try records(file(parentUID: "7438299214580284731", link: "RELATED-TO;RELTYPE=PARENT:7438299214580284731"))
        let other = "0f8fad5b-d9cb-469f-a165-70867728950e"
        read[1].parentUUID = other
        var written = ICalendarFile.encode([read[1]], options: options)
        #expect(written.contains("RELATED-TO;RELTYPE=PARENT:\(other)\r\n"))
        #expect(!written.contains("RELTYPE=PARENT:7438299214580284731"))
        read[1].parentUUID = nil
        written = ICalendarFile.encode([read[1]], options: options)
        #expect(!written.contains("RELTYPE=PARENT"))
        #expect(try records(written)[0].parentUUID == nil)
    }

    /// A parent or blocker given in Nudge is named by the UID of its file, which is all the
    /// program that made it knows it by; alone in its file (a vdir), from `linked`.
    @Test(arguments: shapes.map(\.program))
    func aLinkMadeInNudgeNamesTheTodoByTheUIDOfItsFile(program: String) throws {
        let shape = try #require(Self.shapes.first { $0.program == program })
        let parent = try records(file(parentUID: shape.parentUID, link: shape.link))[0]
        var child = TodoRecord(uuid: "1f8fad5b-d9cb-469f-a165-70867728950e", title: "Buy paint", createdAt: options.now,
                               updatedAt: options.now, parentUUID: parent.uuid)
        var alone = options
        alone.linked = [parent.uuid: parent]
        for written in [ICalendarFile.encode([parent, child], options: options), ICalendarFile.encode([child], options: alone)] {
            #expect(written.contains("RELATED-TO;RELTYPE=PARENT:\(shape.parentUID)\r\n"), "\(written)")
        }
        #expect(try records(ICalendarFile.encode([child], options: alone))[0].parentUUID == parent.uuid)
        child.parentUUID = nil
        child.after = [parent.uuid]
        #expect(ICalendarFile.encode([child], options: alone).contains("RELATED-TO;RELTYPE=DEPENDS-ON:\(shape.parentUID)\r\n"))
    }

    @Test func nudgeJSONCarriesTheParentsUUID() throws {
        let parent = TodoRecord(uuid: "0f8fad5b-d9cb-469f-a165-70867728950e", title: "Paint walls",
                                createdAt: options.now, updatedAt: options.now)
        let child = TodoRecord(uuid: "1f8fad5b-d9cb-469f-a165-70867728950e", title: "Buy paint", createdAt: options.now,
                               updatedAt: options.now, parentUUID: parent.uuid)
        let text = NudgeJSON.encode([parent, child])
        let read = try NudgeJSON.decode(Data(text.utf8), options: options).items.map { try $0.get() }
        #expect(read.map(\.parentUUID) == [nil, parent.uuid])
    }
}
