import Foundation
import Testing
@testable import NudgeInterchange
import NudgeCore

/// The web-API shape of todos: `[{"id": 1, "title": "...", "completed": false}]`.
struct WebAPIJSONTests {
    let now = Date(timeIntervalSince1970: 1_795_000_000)
    var options: InterchangeOptions {
        InterchangeOptions(zone: TimeZone(identifier: "Europe/Berlin")!, now: now, source: "https://jsonplaceholder.typicode.com/todos")
    }

    @Test func nameBasedUUIDsAreThoseOfRFC9562() {
        #expect(NameBasedUUID.sha1(Array("abc".utf8)).map { String(format: "%02x", $0) }.joined()
                == "a9993e364706816aba3e25717850c26c9cd0d89d")
        // Python: uuid.uuid5(uuid.NAMESPACE_URL, 'https://jsonplaceholder.typicode.com/todos#1')
        #expect(NameBasedUUID.url("https://jsonplaceholder.typicode.com/todos#1") == "b0d1057a-afab-5da0-9578-fb3164b35644")
    }

    /// Python's hashlib.sha1 and uuid.uuid5: the padding fills one block or spills into another.
    @Test("SHA-1 of every padding", arguments: [
        ("", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
        (String(repeating: "a", count: 55), "c1c8bbdc22796e28c0e15163d20899b65621d65a"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "84983e441c3bd26ebaae4aa1f95129e5e54670f1"),
        (String(repeating: "a", count: 64), "0098ba824b5c16427bd7a1122a5a442a25ec644d"),
    ])
    func sha1(message: String, digest: String) {
        #expect(NameBasedUUID.sha1(Array(message.utf8)).map { String(format: "%02x", $0) }.joined() == digest)
    }

    @Test func longNamesGiveThePythonUUIDs() {
        #expect(NameBasedUUID.url("urn:x-nudge:todo.txt:" + String(repeating: "x", count: 40))
                == "42ea289e-a5a2-51f5-b80e-e6c848665b4a")
        #expect(NameBasedUUID.url("urn:x-nudge:todo.txt:" + String(repeating: "é", count: 60) + "(A) call mum")
                == "6ec18efe-5adc-550a-86d9-8fbe99473a6d")
    }

    @Test func jsonplaceholderTodosBecomeRecordsNamedByURLAndId() throws {
        let json = """
            [{"userId": 1, "id": 1, "title": "delectus aut autem", "completed": false},
             {"userId": 1, "id": 2, "title": "quis ut nam", "completed": true}]
            """
        let decoded = try InterchangeFormat.json.decode(Data(json.utf8), options: options)
        let records = try decoded.items.map { try $0.get() }
        #expect(records.map(\.uuid) == ["b0d1057a-afab-5da0-9578-fb3164b35644",
                                        NameBasedUUID.url("https://jsonplaceholder.typicode.com/todos#2")])
        #expect(records.map(\.title) == ["delectus aut autem", "quis ut nam"])
        #expect(records.map(\.completedAt) == [nil, now])
        #expect(records.allSatisfy { $0.createdAt == now && $0.updatedAt == now && $0.due == nil })
        #expect(decoded.timeless == Set(records.map(\.uuid)))
        #expect(decoded.notKept == ["userId": 2])
    }

    @Test func theSameIdFromAnotherURLIsAnotherTodo() throws {
        var other = options
        other.source = "https://example.org/todos"
        let json = Data(#"[{"id": 1, "title": "x", "completed": false}]"#.utf8)
        let first = try InterchangeFormat.json.decode(json, options: options).items[0].get()
        let second = try InterchangeFormat.json.decode(json, options: other).items[0].get()
        let again = try InterchangeFormat.json.decode(json, options: options).items[0].get()
        #expect(first.uuid != second.uuid)
        #expect(first.uuid == again.uuid)
    }

    @Test func dueDatesAndDummyjsonsShapeAreRead() throws {
        let json = """
            {"todos": [{"id": "a7", "todo": "Water plants", "completed": false, "dueDate": "2026-12-24"},
                       {"id": 8, "title": "Call", "dueDate": "2026-12-24T09:00:00Z"}]}
            """
        let records = try InterchangeFormat.json.decode(Data(json.utf8), options: options).items.map { try $0.get() }
        #expect(records[0].title == "Water plants")
        #expect(records[0].due == .allDay(LocalDate(iso: "2026-12-24")!))
        #expect(records[1].due == .at(Date(timeIntervalSince1970: 1_798_102_800), zone: TimeZone(identifier: "Europe/Berlin")!))
    }

    @Test func badItemsNameTheField() throws {
        let json = """
            [{"id": 1.5, "title": "x"}, {"id": 2}, {"id": 3, "title": "y", "completed": "yes"}, {"id": true, "title": "z"}]
            """
        let errors = try InterchangeFormat.json.decode(Data(json.utf8), options: options).items.map { result in
            if case .failure(let error) = result { error.description } else { "" }
        }
        #expect(errors == ["item 1: \"id\" is not a number or text", "item 2: \"title\" is missing",
                           "item 3: \"completed\" is not true or false", "item 4: \"id\" is not a number or text"])
    }
}
