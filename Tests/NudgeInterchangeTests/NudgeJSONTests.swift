import Foundation
import NudgeCore
import Testing
@testable import NudgeInterchange

struct NudgeJSONTests {
    let berlin = TimeZone(identifier: "Europe/Berlin")!
    let created = Date(timeIntervalSince1970: 1_790_000_000)

    func record(_ change: (inout TodoRecord) -> Void = { _ in }) -> TodoRecord {
        var record = TodoRecord(uuid: "0f8fad5b-d9cb-469f-a165-70867728950e", title: "Buy milk",
                                createdAt: created, updatedAt: created.addingTimeInterval(60))
        change(&record)
        return record
    }

    func decodeOne(_ json: String) throws -> Result<TodoRecord, RecordError> {
        let results = try NudgeJSON.decode(Data(json.utf8))
        #expect(results.count == 1)
        return results[0]
    }

    @Test func writesTheDueInItsOwnZoneWithTheZoneName() {
        let due = Date(timeIntervalSince1970: 1_798_099_200) // 2026-12-24 08:00 UTC
        let text = NudgeJSON.encode([record { $0.due = .at(due, zone: berlin) }])
        #expect(text.contains(#""due": "2026-12-24T09:00:00+01:00""#))
        #expect(text.contains(#""zone": "Europe/Berlin""#))
        #expect(text.contains(#""allDay": false"#))
        #expect(text.contains(#""createdAt": "2026-09-21T14:13:20+00:00""#))
    }

    @Test func writesAnAllDayDueAsADay() {
        let text = NudgeJSON.encode([record { $0.due = .allDay(LocalDate(year: 2026, month: 12, day: 24)!) }])
        #expect(text.contains(#""due": "2026-12-24""#))
        #expect(text.contains(#""allDay": true"#))
        #expect(text.contains(#""zone": null"#))
    }

    @Test func anEmptyListIsAnEmptyArray() throws {
        #expect(NudgeJSON.encode([]) == "[]\n")
        #expect(try NudgeJSON.decode(Data("[]".utf8)).isEmpty)
    }

    @Test(arguments: [
        TodoRecord(uuid: "0f8fad5b-d9cb-469f-a165-70867728950e", title: "Ünïcødé 🥛 \"quoted\" \\ tab\there",
                   notes: "line one\nline two\r\n\u{1B}[31m", priority: .high, category: "Home & Garden",
                   createdAt: Date(timeIntervalSince1970: 1_700_000_000), updatedAt: Date(timeIntervalSince1970: 1_700_000_100)),
        TodoRecord(uuid: "6ba7b810-9dad-11d1-80b4-00c04fd430c8", title: "Water plants",
                   due: .at(Date(timeIntervalSince1970: 1_774_661_400), zone: TimeZone(identifier: "America/New_York")!),
                   priority: .low, repetition: Repetition(rrule: "FREQ=WEEKLY;INTERVAL=2", from: .completion,
                                                          start: SeriesStart(parsing: "2026-03-28T02:30")),
                   completedAt: Date(timeIntervalSince1970: 1_774_000_000),
                   createdAt: Date(timeIntervalSince1970: 1_700_000_000), updatedAt: Date(timeIntervalSince1970: 1_774_000_000)),
        TodoRecord(uuid: "6ba7b811-9dad-11d1-80b4-00c04fd430c8", title: "Birthday",
                   due: .allDay(LocalDate(year: 2027, month: 2, day: 28)!),
                   repetition: Repetition(rrule: "FREQ=YEARLY", from: .due),
                   createdAt: Date(timeIntervalSince1970: 1_700_000_000), updatedAt: Date(timeIntervalSince1970: 1_700_000_000)),
    ])
    func readsBackWhatItWrites(original: TodoRecord) throws {
        let results = try NudgeJSON.decode(Data(NudgeJSON.encode([original]).utf8))
        #expect(try results.map { try $0.get() } == [original])
    }

    /// Berlin kept local mean time (+00:53:28) until 1893: cut to +00:53, the due came back 28 s off.
    @Test func aDueInAnOffsetWithSecondsComesBackToTheSecond() throws {
        let due = Date(timeIntervalSince1970: -30_245_673_600) // 1011-07-22 08:00 UTC
        let original = record { $0.due = .at(due, zone: berlin) }
        let text = NudgeJSON.encode([original])
        #expect(text.contains(#""due": "1011-07-22T08:53:28+00:53:28""#))
        #expect(try NudgeJSON.decode(Data(text.utf8)).map { try $0.get() } == [original])
    }

    @Test func aTimedDueWithoutAZoneNameKeepsAnOffsetWithSeconds() throws {
        let record = try decodeOne("""
            [{"uuid": "0f8fad5b-d9cb-469f-a165-70867728950e", "title": "x", "due": "1011-07-22T08:53:28+00:53:28",
              "createdAt": "2026-01-01T00:00:00Z", "updatedAt": "2026-01-01T00:00:00Z"}]
            """).get()
        guard case .at(let instant, let zone)? = record.due else { Issue.record("not timed"); return }
        #expect(instant == Date(timeIntervalSince1970: -30_245_673_600))
        #expect(zone.secondsFromGMT() == 53 * 60 + 28)
    }

    @Test func readsUppercaseUUIDsAsLowercaseAndIgnoresUnknownFields() throws {
        let result = try decodeOne("""
            [{"id": 7, "overdue": true, "uuid": "0F8FAD5B-D9CB-469F-A165-70867728950E", "title": "x",
              "createdAt": "2026-01-01T00:00:00Z", "updatedAt": "2026-01-01T01:00:00+01:00"}]
            """)
        let record = try result.get()
        #expect(record.uuid == "0f8fad5b-d9cb-469f-a165-70867728950e")
        #expect(record.createdAt == record.updatedAt)
        #expect(record.priority == .medium)
    }

    @Test func aTimedDueWithoutAZoneNameKeepsItsOffset() throws {
        let record = try decodeOne("""
            [{"uuid": "0f8fad5b-d9cb-469f-a165-70867728950e", "title": "x", "due": "2026-12-24T09:00:00+05:30",
              "createdAt": "2026-01-01T00:00:00Z", "updatedAt": "2026-01-01T00:00:00Z"}]
            """).get()
        guard case .at(_, let zone)? = record.due else { Issue.record("not timed"); return }
        #expect(zone.secondsFromGMT() == 5 * 3600 + 1800)
    }

    @Test(arguments: [
        (#""due": "2026-13-40""#, #"item 1: "due" is not a date: '2026-13-40'"#),
        (#""due": "2026-12-24T09:00:00+01:00", "zone": "Mars/Olympus""#, #""zone" is not a time zone"#),
        (#""due": "2026-12-24", "allDay": false"#, #""allDay" is false"#),
        (#""priority": "urgent""#, #""priority" is not low, medium or high"#),
        (#""completed": true"#, #""completed" is true but "completedAt" is missing"#),
        (#""completed": 1, "completedAt": "2026-01-01T00:00:00Z""#, #""completed" is not true or false"#),
        (#""notes": 5"#, #""notes" is not text"#),
        (#""repeat": {"rule": "WEEKLY"}"#, #""repeat.rule" is not an RRULE"#),
        (#""repeat": {"rule": "FREQ=DAILY", "from": "later"}"#, #""repeat.from" is not due or completion"#),
        (#""repeat": "daily""#, #""repeat" is not an object"#),
        (#""due": "2026-02-30T10:00:00Z""#, #"item 1: "due" is not a date: '2026-02-30T10:00:00Z'"#),
        (#""due": "2026-12-24T09:00:00+25:00""#, #"item 1: "due" is not a date: '2026-12-24T09:00:00+25:00'"#),
        (#""completedAt": "2026-02-29T10:00:00.5Z""#, #"item 1: "completedAt" is not a date: '2026-02-29T10:00:00.5Z'"#),
        (#""snoozedUntil": "2026-04-31T10:00:00+0100""#, #"item 1: "snoozedUntil" is not a date"#),
        (#""notes": "before\u0000after""#, #"item 1: "notes" contains a NUL character (U+0000)"#),
        (#""kept": {"ics": "X-A:b\u0000c\n"}"#, #"item 1: "kept.ics" contains a NUL character (U+0000)"#),
    ])
    func namesTheItemAndTheField(extra: String, message: String) throws {
        let json = """
            [{"uuid": "0f8fad5b-d9cb-469f-a165-70867728950e", "title": "x",
              "createdAt": "2026-01-01T00:00:00Z", "updatedAt": "2026-01-01T00:00:00Z", \(extra)}]
            """
        guard case .failure(let error) = try decodeOne(json) else { Issue.record("accepted: \(extra)"); return }
        #expect(error.description.contains(message), "\(error)")
    }

    @Test func missingFieldsAndBadTitlesAreNamed() throws {
        let results = try NudgeJSON.decode(Data("""
            [{"uuid": "0f8fad5b-d9cb-469f-a165-70867728950e", "title": "ok", "createdAt": "2026-01-01T00:00:00Z", "updatedAt": "2026-01-01T00:00:00Z"},
             {"title": "x"},
             {"uuid": "nope", "title": "x"},
             {"uuid": "0f8fad5b-d9cb-469f-a165-70867728950e", "title": "  ", "createdAt": "2026-01-01T00:00:00Z"},
             {"uuid": "0f8fad5b-d9cb-469f-a165-70867728950e", "title": "x", "createdAt": "2026-01-01T00:00:00Z"},
             42]
            """.utf8))
        let errors = results.map { result -> String in
            if case .failure(let error) = result { return error.description }
            return "ok"
        }
        #expect(errors[0] == "ok")
        #expect(errors[1] == #"item 2: "uuid" is missing"#)
        #expect(errors[2] == #"item 3: "uuid" is not a UUID: 'nope'"#)
        #expect(errors[3].hasPrefix(#"item 4: "title" the title is empty"#))
        #expect(errors[4] == #"item 5: "updatedAt" is missing"#)
        #expect(errors[5] == "item 6: is not a JSON object")
    }

    @Test func aCreationDayThatDoesNotExistOrANulInTheTitleIsNamed() throws {
        let results = try NudgeJSON.decode(Data("""
            [{"uuid": "0f8fad5b-d9cb-469f-a165-70867728950e", "title": "x", "createdAt": "2026-02-31T10:00:00Z", "updatedAt": "2026-03-01T00:00:00Z"},
             {"uuid": "0f8fad5b-d9cb-469f-a165-70867728950e", "title": "before\\u0000after", "createdAt": "2026-01-01T00:00:00Z", "updatedAt": "2026-01-01T00:00:00Z"}]
            """.utf8))
        let errors = results.map { result -> String in
            if case .failure(let error) = result { return error.description }
            return "ok"
        }
        #expect(errors == [#"item 1: "createdAt" is not a date: '2026-02-31T10:00:00Z' (use 2026-12-24T09:00:00+01:00)"#,
                           #"item 2: "title" contains a NUL character (U+0000)"#])
    }

    @Test func refusesWhatIsNotAnArray() {
        #expect(throws: InterchangeError.self) { try NudgeJSON.decode(Data(#"{"uuid": 1}"#.utf8)) }
        #expect(throws: InterchangeError.self) { try NudgeJSON.decode(Data("[1,".utf8)) }
    }
}

struct NudgeJSONDateTests {
    @Test(arguments: ["2026-12-24T09:00:00+01:00", "2026-12-24T08:00:00Z", "2026-03-29T01:30:00-05:30", "1969-12-31T23:59:59Z",
                      "2028-02-29T12:00:00+14:00"])
    func readsTheExportShapeAsTheFormatterDoes(text: String) throws {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        let expected = try #require(formatter.date(from: text))
        #expect(NudgeJSON.parseInternetDate(text) == expected)
    }

    @Test(arguments: ["2026-02-30T09:00:00Z", "2026-12-24T24:00:00Z", "2026-12-24 09:00:00Z", "2026-12-24T09:00:00",
                      "2026-12-24T09:00:00.5Z", "2026-12-24T09:00:00+0100"])
    func leavesOtherShapesToTheFormatter(text: String) {
        #expect(NudgeJSON.parseInternetDate(text) == nil)
    }

    @Test func stillReadsFractionalSeconds() {
        #expect(NudgeJSON.parseDate("2026-12-24T08:00:00.500Z") == Date(timeIntervalSince1970: 1_798_099_200.5))
    }

    /// What ISO8601DateFormatter reads of a day and time that exist, read the same.
    @Test(arguments: ["2026-12-24T09:00:00.250+01:00", "2026-12-24T09:00:00+0100", "2026-12-24T09:00:00+01",
                      "2026-12-24T09:00:00-0530", "2026-12-24T09:00:00+18:00"])
    func readsOtherISOShapesAsTheFormatterDoes(text: String) throws {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = text.contains(".") ? [.withInternetDateTime, .withFractionalSeconds] : [.withInternetDateTime]
        let expected = try #require(formatter.date(from: text))
        #expect(NudgeJSON.parseDate(text) == expected)
    }

    /// The formatter moves these to other days (February 30 to March 2); they are refused.
    @Test(arguments: ["2026-02-30T10:00:00Z", "2026-02-31T10:00:00.5Z", "2026-02-29T10:00:00+0100", "2026-12-24T24:00:00Z",
                      "2026-12-24T09:60:00Z", "2026-12-24T09:00:00+25:00", "2026-12-24T09:00:00+1900", "2026-12-24T09:00:00+01:60",
                      "2026-12-24T09:00:00+00:53:60", "2026-12-24T09:00:00+18:00:01", "2026-12-24T09:00:00.Z", "2026-12-24T09:00:00", "2026-12-24T09:00:00 +01:00"])
    func refusesADayOrTimeThatDoesNotExist(text: String) {
        #expect(NudgeJSON.parseDate(text) == nil)
    }
}
