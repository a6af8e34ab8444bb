import Foundation
import NudgeCore
import Testing
@testable import NudgeInterchange

/// A subtask's parent through Taskwarrior JSON (`nudgeparent`) and todo.txt (`parent:UUID`):
/// an export read back names the same parent, so re-importing one does not clear it.
struct SubtaskInterchangeTests {
    let options = InterchangeOptions(zone: TimeZone(identifier: "Europe/Berlin")!, now: Date(timeIntervalSince1970: 1_796_000_000))
    static let parent = "5b5a0f2e-3c4d-4e6f-8a9b-0c1d2e3f4a5b"

    func records(_ encode: ([TodoRecord]) -> String, _ decode: (Data) throws -> DecodedFile,
                 _ records: [TodoRecord]) throws -> [TodoRecord] {
        try decode(Data(encode(records).utf8)).items.map { try $0.get() }
    }

    var family: [TodoRecord] {
        let created = Date(timeIntervalSince1970: 1_795_000_000)
        return [
            TodoRecord(uuid: Self.parent, title: "Paint walls", createdAt: created, updatedAt: created),
            TodoRecord(uuid: "c9e2f0a4-7d1b-4b6e-9f3a-2e5d8c7b6a10", title: "Buy paint", due: .allDay(LocalDate(iso: "2026-12-24")!),
                       category: "Home", tags: ["shop"], createdAt: created, updatedAt: created, parentUUID: Self.parent),
            TodoRecord(uuid: "d6f18a1c-8b8e-4d9b-9fca-a6d689a84003", title: "Buy rollers", repetition: nil,
                       completedAt: created, createdAt: created, updatedAt: created, parentUUID: Self.parent),
        ]
    }

    @Test func taskwarriorCarriesTheParentInItsOwnAttributeNotInTaskwarriorsParent() throws {
        let text = TaskwarriorJSON.encode(family, options: options)
        #expect(text.contains(#""nudgeparent":"\#(Self.parent)""#))
        #expect(!text.contains(#""parent":"#))
        let back = try records({ TaskwarriorJSON.encode($0, options: options) },
                               { try TaskwarriorJSON.decode($0, options: options) }, family)
        #expect(back.map(\.uuid) == family.map(\.uuid))
        #expect(back.map(\.parentUUID) == family.map(\.parentUUID))
    }

    @Test func todoTxtCarriesTheParentAsAParentTag() throws {
        let text = TodoTxt.encode(family, options: options)
        #expect(text.contains("Buy paint +Home @shop due:2026-12-24 parent:\(Self.parent) nudge:"))
        let back = try records({ TodoTxt.encode($0, options: options) }, { try TodoTxt.decode($0, options: options) }, family)
        #expect(back.map(\.uuid) == family.map(\.uuid))
        #expect(back.map(\.parentUUID) == family.map(\.parentUUID))
        // Written again as it was read.
        #expect(TodoTxt.encode(back, options: options) == text)
    }

    @Test func aTodoTxtLineNamesItsParentWithoutANudgeTagAndKeepsItsIdentity() throws {
        let line = "2026-11-30 Buy paint parent:\(Self.parent.uppercased())"
        let record = try TodoTxt.decode(Data(line.utf8), options: options).items[0].get()
        #expect(record.title == "Buy paint")
        #expect(record.parentUUID == Self.parent)
        // The same line read again is the same todo, and is written back as it came.
        #expect(TodoTxt.encode([record], options: options) == line + "\n")
        // A parent: word that names no uuid is part of the title.
        let other = try TodoTxt.decode(Data("Call parent:teacher".utf8), options: options).items[0].get()
        #expect(other.title == "Call parent:teacher")
        #expect(other.parentUUID == nil)
    }

    @Test func aParentChangedOrRemovedOutsideIsReadAsItNowStands() throws {
        var record = family[1]
        record.parentUUID = nil
        let taskwarrior = try records({ TaskwarriorJSON.encode($0, options: options) },
                                      { try TaskwarriorJSON.decode($0, options: options) }, [record])
        #expect(taskwarrior.first?.parentUUID == nil)
        let todoTxt = try records({ TodoTxt.encode($0, options: options) }, { try TodoTxt.decode($0, options: options) }, [record])
        #expect(todoTxt.first?.parentUUID == nil)
    }

    @Test func aBadOrSelfNamingNudgeparentInTaskwarriorJSON() throws {
        let bad = try TaskwarriorJSON.decode(Data(#"[{"uuid":"\#(Self.parent)","description":"x","nudgeparent":"nope"}]"#.utf8),
                                             options: options)
        #expect(throws: RecordError.self) { try bad.items[0].get() }
        let own = try TaskwarriorJSON.decode(Data(#"[{"uuid":"\#(Self.parent)","description":"x","nudgeparent":"\#(Self.parent.uppercased())"}]"#.utf8),
                                             options: options)
        #expect(try own.items[0].get().parentUUID == nil)
    }
}
