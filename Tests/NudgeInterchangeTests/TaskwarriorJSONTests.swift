import Foundation
import NudgeCore
import Testing
@testable import NudgeInterchange

struct TaskwarriorJSONTests {
    let options = InterchangeOptions(zone: TimeZone(identifier: "Europe/Berlin")!, now: Date(timeIntervalSince1970: 1_796_000_000))

    func decode(_ json: String) throws -> DecodedFile {
        try TaskwarriorJSON.decode(Data(json.utf8), options: options)
    }

    func one(_ json: String) throws -> TodoRecord {
        let file = try decode("[\(json)]")
        #expect(file.items.count == 1)
        return try file.items[0].get()
    }

    /// The object an export writes for the record, parsed.
    func exported(_ record: TodoRecord) throws -> [String: Any] {
        let text = TaskwarriorJSON.encode([record], options: options)
        let array = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        return try #require(array.first)
    }

    static let full = """
        {"id":0,"description":"Buy milk","due":"20261224T083000Z","end":"20261201T020050Z","entry":"20261130T020050Z",\
        "modified":"20261201T020051Z","priority":"H","project":"Home","status":"completed",\
        "uuid":"71B8FD60-6F8F-4831-90EA-9B3FD4A2241C","annotations":[{"entry":"20261201T020050Z","description":"first note"},\
        {"entry":"20261201T020051Z","description":"second note"}],"tags":["shop","urgent"],"depends":["d6f18a1c-8b8e-4d9b-9fca-a6d689a84003"],\
        "scheduled":"20261210T000000Z","estimate":"PT2H","urgency":11.2}
        """

    @Test func readsTheFieldsNudgeHas() throws {
        let record = try one(Self.full)
        #expect(record.uuid == "71b8fd60-6f8f-4831-90ea-9b3fd4a2241c")
        #expect(record.title == "Buy milk")
        #expect(record.notes == "first note")
        #expect(record.priority == .high)
        #expect(record.category == "Home")
        #expect(record.due == .at(Date(timeIntervalSince1970: 1_798_101_000), zone: options.zone))
        #expect(record.completedAt == TaskwarriorJSON.parseDate("20261201T020050Z"))
        #expect(record.createdAt == Date(timeIntervalSince1970: 1_796_004_050))
        #expect(record.updatedAt == TaskwarriorJSON.parseDate("20261201T020051Z"))
    }

    @Test func keepsWhatNudgeHasNoFieldForAndGivesItBack() throws {
        let record = try one(Self.full)
        let kept = try #require(record.kept["taskwarrior"])
        #expect(record.tags == ["shop", "urgent"])
        #expect(!kept.contains("\"tags\""))
        #expect(kept.contains("second note"))
        #expect(!kept.contains("urgency"))
        let original = try #require(try JSONSerialization.jsonObject(with: Data(Self.full.utf8)) as? [String: Any])
        var expected = original
        expected.removeValue(forKey: "id")
        expected.removeValue(forKey: "urgency")
        expected["uuid"] = "71b8fd60-6f8f-4831-90ea-9b3fd4a2241c"
        #expect(NSDictionary(dictionary: try exported(record)).isEqual(to: expected))
    }

    /// Found by the import fuzz target: each export dropped the first annotation when it had no
    /// description, so the next one went at the next round trip.
    @Test func dependsAreTheBlockersInEitherSpelling() throws {
        let first = "d6f18a1c-8b8e-4d9b-9fca-a6d689a84003", second = "11111111-1111-4111-8111-111111111111"
        let array = try one(#"{"description":"Deploy","entry":"20261130T020050Z","depends":["D6F18A1C-8B8E-4D9B-9FCA-A6D689A84003","\#(second)"]}"#)
        #expect(array.after == [first, second])
        #expect(array.kept["taskwarrior"]?.contains("depends") != true)
        #expect(try exported(array)["depends"] as? [String] == [first, second])
        // Before 2.6, one comma-separated text.
        #expect(try one(#"{"description":"Deploy","entry":"20261130T020050Z","depends":"\#(first),\#(second)"}"#).after == [first, second])
        // A task without depends comes after nothing, and a todo after nothing has no depends.
        var none = try one(#"{"description":"Deploy","entry":"20261130T020050Z"}"#)
        #expect(none.after == [])
        #expect(try exported(none)["depends"] == nil)
        none.after = [second]
        #expect(try exported(none)["depends"] as? [String] == [second])
        #expect(throws: RecordError.self) { try one(#"{"description":"Deploy","entry":"20261130T020050Z","depends":["14"]}"#) }
    }

    @Test func tagsAreTagsAndWordsThatAreNoTagAreKeptAndGoBackAfterThem() throws {
        let record = try one(#"{"uuid":"71b8fd60-6f8f-4831-90ea-9b3fd4a2241c","description":"Pay","entry":"20261130T020050Z","tags":["money","a.b","Money","日本","-x"]}"#)
        #expect(record.tags == ["money", "日本"])
        #expect(record.kept["taskwarrior"]?.contains(#""tags":["a.b","Money","-x"]"#) == true)
        #expect(try exported(record)["tags"] as? [String] == ["money", "日本", "a.b", "Money", "-x"])
        // A tag removed in Nudge is gone; the kept words stay.
        var edited = record
        edited.tags = ["phone"]
        #expect(try exported(edited)["tags"] as? [String] == ["phone", "a.b", "Money", "-x"])
        // A task without tags is a todo without: the import takes the stored todo's away.
        #expect(try one(#"{"description":"Pay","entry":"20261130T020050Z"}"#).tags == [])
    }

    /// A file within the import's size can keep tens of thousands of words that are no tags:
    /// each export looked each up among those before it (190 s at 50,000 in a debug build).
    @Test func manyKeptWordsAreWrittenInLinearTime() throws {
        let words = (0..<20_000).map { "w.\($0)" }
        let data = try JSONSerialization.data(withJSONObject: ["description": "Pay", "entry": "20261130T020050Z", "tags": ["money"] + words])
        let record = try one(String(decoding: data, as: UTF8.self))
        let clock = ContinuousClock()
        var exported: [String: Any] = [:]
        let took = try clock.measure { exported = try self.exported(record) }
        #expect((exported["tags"] as? [String])?.count == 20_001)
        #expect(took < .seconds(5), "\(took)")
    }

    @Test func tagsKeptByAnImportBeforeTagsStillGoBackWithNudgesOwn() throws {
        let record = TodoRecord(uuid: "71b8fd60-6f8f-4831-90ea-9b3fd4a2241c", title: "Pay", tags: ["phone"],
                                createdAt: options.now, updatedAt: options.now,
                                kept: ["taskwarrior": #"{"tags":["money","phone"]}"#])
        #expect(try exported(record)["tags"] as? [String] == ["phone", "money"])
        var untagged = record
        untagged.tags = []
        #expect(try exported(untagged)["tags"] as? [String] == ["money", "phone"])
    }

    @Test func annotationsWithoutADescriptionAreKeptAndTheRoundTripSettles() throws {
        let text = #"{"uuid":"11111111-1111-4111-8111-111111111111","description":"x","status":"pending","entry":"20261101T100000Z","annotations":[{"entry":"20261201T020050Z","dEscription":"a"},{"entry":"20261201T020051Z","note":"b"}]}"#
        let record = try one(text)
        #expect(record.notes == nil)
        let annotations = try #require(try exported(record)["annotations"] as? [[String: String]])
        #expect(annotations == [["entry": "20261201T020050Z", "dEscription": "a"], ["entry": "20261201T020051Z", "note": "b"]])
        let written = TaskwarriorJSON.encode([record], options: options)
        let again = try decode(written).items[0].get()
        #expect(TaskwarriorJSON.encode([again], options: options) == written)
        var noted = record
        noted.notes = "added in Nudge"
        let withNotes = try #require(try exported(noted)["annotations"] as? [[String: String]])
        #expect(withNotes.count == 3)
        #expect(withNotes[0]["description"] == "added in Nudge" && withNotes[0]["entry"] != nil)
    }

    /// Found by the taskwarrior fuzz target: a template and a plain task sharing a uuid made a
    /// series of both, and its export read back as one todo more.
    @Test func aUUIDGivenTwiceIsARecordErrorAndTheFirstIsKept() throws {
        let file = try decode("""
            [{"description":"Pay rent","due":"20261201T090000Z","entry":"20261201T020050Z","mask":"-","recur":"monthly","rtype":"periodic","status":"recurring","uuid":"b2b018f1-3b97-48f4-850c-17280d28b26f"},
            {"description":"Other","entry":"20261201T020051Z","status":"pending","uuid":"B2B018F1-3B97-48F4-850C-17280D28B26F"}]
            """)
        #expect(file.items.count == 2)
        #expect(try file.items[0].get().title == "Pay rent")
        #expect(throws: RecordError(item: 2, place: .item, field: "uuid", reason: "is the uuid of item 1 too; a task is given once")) {
            try file.items[1].get()
        }
    }

    @Test func aDueAtLocalMidnightIsAnAllDayDueAndGoesBackToMidnight() throws {
        let record = try one(#"{"uuid":"11111111-1111-4111-8111-111111111111","description":"Day","status":"pending","entry":"20261101T100000Z","due":"20261223T230000Z"}"#)
        #expect(record.due == .allDay(LocalDate(year: 2026, month: 12, day: 24)!))
        #expect(try exported(record)["due"] as? String == "20261223T230000Z")
    }

    @Test func noPriorityIsMediumAndStaysNone() throws {
        var record = try one(#"{"uuid":"11111111-1111-4111-8111-111111111111","description":"x","status":"pending","entry":"20261101T100000Z"}"#)
        #expect(record.priority == .medium)
        #expect(try exported(record)["priority"] == nil)
        #expect(try exported(record)["modified"] as? String == "20261101T100000Z")
        record.priority = .low
        #expect(try exported(record)["priority"] as? String == "L")
    }

    @Test func deletedTasksAreCompletedInNudgeAndDeletedAgainOnExport() throws {
        var record = try one(#"{"uuid":"11111111-1111-4111-8111-111111111111","description":"gone","status":"deleted","entry":"20261101T100000Z","end":"20261102T100000Z","modified":"20261102T100000Z"}"#)
        #expect(record.completedAt == TaskwarriorJSON.parseDate("20261102T100000Z"))
        #expect(try exported(record)["status"] as? String == "deleted")
        record.completedAt = nil
        #expect(try exported(record)["status"] as? String == "pending")
        #expect(try exported(record)["end"] == nil)
    }

    /// `task add "Water plants" due:2026-11-01T09:00 recur:weekly`, its first instance done
    /// and its second deleted: two instances pending, Nov 15 and Nov 22.
    static let series = """
        [{"description":"Water plants","due":"20261101T080000Z","entry":"20261101T020050Z","mask":"+X--","modified":"20261120T020051Z","recur":"weekly","rtype":"periodic","status":"recurring","tags":["home"],"uuid":"b2b018f1-3b97-48f4-850c-17280d28b26f"},
        {"description":"Water plants","due":"20261101T080000Z","end":"20261102T080000Z","entry":"20261101T020051Z","imask":0,"modified":"20261102T080000Z","parent":"b2b018f1-3b97-48f4-850c-17280d28b26f","recur":"weekly","rtype":"periodic","status":"completed","uuid":"d4843d46-a159-4899-836e-0fb4d8e4b9e0"},
        {"description":"Water plants","due":"20261108T080000Z","end":"20261109T080000Z","entry":"20261101T020051Z","imask":1,"modified":"20261109T080000Z","parent":"b2b018f1-3b97-48f4-850c-17280d28b26f","recur":"weekly","rtype":"periodic","status":"deleted","uuid":"d4843d46-a159-4899-836e-0fb4d8e4b9e1"},
        {"annotations":[{"description":"moved to the balcony","entry":"20261121T090000Z"}],"description":"Water plants","due":"20261122T080000Z","entry":"20261101T020051Z","imask":3,"modified":"20261121T090000Z","parent":"b2b018f1-3b97-48f4-850c-17280d28b26f","recur":"weekly","rtype":"periodic","status":"pending","uuid":"d4843d46-a159-4899-836e-0fb4d8e4b9e3","urgency":9.1},
        {"description":"Water plants","due":"20261115T080000Z","entry":"20261101T020051Z","id":4,"imask":2,"modified":"20261101T020050Z","parent":"b2b018f1-3b97-48f4-850c-17280d28b26f","recur":"weekly","rtype":"periodic","status":"pending","uuid":"d4843d46-a159-4899-836e-0fb4d8e4b9e2"}]
        """

    func objects(_ text: String) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
    }

    @Test func aTemplateAndItsInstancesAreOneTodoDueAtTheEarliestPendingInstance() throws {
        let file = try decode(Self.series)
        #expect(file.items.count == 1)
        #expect(file.places.map(\.number) == [1])
        #expect(file.warnings.isEmpty)
        let todo = try file.items[0].get()
        #expect(todo.uuid == "b2b018f1-3b97-48f4-850c-17280d28b26f")
        #expect(todo.title == "Water plants")
        #expect(todo.due == .at(Date(timeIntervalSince1970: 1_794_729_600), zone: options.zone)) // Nov 15 09:00 in Berlin
        #expect(todo.repetition == Repetition(rrule: "FREQ=WEEKLY", from: .due))
        #expect(todo.completedAt == nil)
        // Its newest task's: an instance annotated alone.
        #expect(todo.updatedAt == TaskwarriorJSON.parseDate("20261121T090000Z"))
        #expect(todo.notes == nil)

        // Back as it came, but for what Taskwarrior computes; and read again, the same todo.
        let text = TaskwarriorJSON.encode([todo], options: options)
        var expected = try objects(Self.series)
        for index in expected.indices {
            expected[index].removeValue(forKey: "id")
            expected[index].removeValue(forKey: "urgency")
        }
        let back = try objects(text)
        #expect(back.count == 5)
        for task in expected {
            #expect(back.contains { ($0 as NSDictionary).isEqual(to: task) }, "\(task)")
        }
        #expect(try TaskwarriorJSON.decode(Data(text.utf8), options: options).items.map { try $0.get() } == [todo])

        // Tags changed in Nudge go to the open instances, which `task +tag` lists; not to done ones.
        var tagged = todo
        tagged.tags = ["garden"]
        let instances = try objects(TaskwarriorJSON.encode([tagged], options: options)).filter { $0["parent"] != nil }
        #expect(instances.filter { $0["status"] as? String == "pending" }.map { $0["tags"] as? [String] } == [["garden"], ["garden"]])
        #expect(instances.filter { $0["status"] as? String != "pending" }.allSatisfy { $0["tags"] == nil })
    }

    @Test func instancesWithoutTheirTemplateAreOneSeriesForEachParent() throws {
        let instances = try objects(Self.series).filter { $0["parent"] != nil }
        let other = instances.map { instance in
            var copy = instance
            copy["parent"] = "11111111-1111-4111-8111-111111111111"
            copy["uuid"] = (copy["uuid"] as? String ?? "").replacingOccurrences(of: "d4843d46", with: "e4843d46")
            copy["description"] = "Feed cat"
            return copy
        }
        let data = try JSONSerialization.data(withJSONObject: instances + other)
        let file = try TaskwarriorJSON.decode(data, options: options)
        let todos = try file.items.map { try $0.get() }
        #expect(todos.map(\.uuid) == ["b2b018f1-3b97-48f4-850c-17280d28b26f", "11111111-1111-4111-8111-111111111111"])
        #expect(todos.map(\.title) == ["Water plants", "Feed cat"])
        #expect(todos.allSatisfy { $0.due == .at(Date(timeIntervalSince1970: 1_794_729_600), zone: options.zone) })
        #expect(todos.allSatisfy { $0.repetition == Repetition(rrule: "FREQ=WEEKLY", from: .due) && $0.completedAt == nil })
        // Taskwarrior has the template: only the instances go back.
        let back = try objects(TaskwarriorJSON.encode(todos, options: options))
        #expect(back.count == 8)
        #expect(back.allSatisfy { $0["parent"] != nil })
    }

    @Test func whereNudgeStandsGoesBackAsDoneInstancesAndThePendingOne() throws {
        var todo = try decode(Self.series).items[0].get()
        // `nudge done` twice: Nov 15, then Nov 22 done; Nov 29 is an instance Taskwarrior has not made.
        todo.due = .at(Date(timeIntervalSince1970: 1_795_939_200), zone: options.zone)
        todo.updatedAt = Date(timeIntervalSince1970: 1_796_000_000)
        let back = try objects(TaskwarriorJSON.encode([todo], options: options))
        let template = try #require(back.first { $0["status"] as? String == "recurring" })
        #expect(template["due"] as? String == "20261101T080000Z")
        #expect(template["mask"] as? String == "+X++-")
        let byIndex = Dictionary(back.compactMap { task in (task["imask"] as? Int).map { ($0, task) } }) { first, _ in first }
        #expect(byIndex[2]?["status"] as? String == "completed")
        #expect(byIndex[2]?["end"] as? String == "20261130T005320Z")
        #expect(byIndex[3]?["status"] as? String == "completed")
        let next = try #require(byIndex[4])
        #expect(next["status"] as? String == "pending")
        #expect(next["due"] as? String == "20261129T080000Z")
        #expect(next["parent"] as? String == todo.uuid)
        #expect(next["mask"] == nil)
        #expect(next["tags"] as? [String] == ["home"])
        // Read back: the same todo, where it stood.
        let again = try decode(TaskwarriorJSON.encode([todo], options: options))
        #expect(try again.items.map { try $0.get().due } == [todo.due])
    }

    @Test func aNewRuleStartsTheSeriesAgainFromTheDue() throws {
        var todo = try decode(Self.series).items[0].get()
        todo.repetition = Repetition(rrule: "FREQ=DAILY", from: .due)
        let back = try objects(TaskwarriorJSON.encode([todo], options: options))
        let template = try #require(back.first { $0["status"] as? String == "recurring" })
        #expect(template["recur"] as? String == "daily")
        #expect(template["due"] as? String == "20261115T080000Z")
        #expect(template["mask"] as? String == "-")
        let pending = back.filter { $0["status"] as? String == "pending" }
        #expect(pending.count == 1)
        #expect(pending.first?["imask"] as? Int == 0)
        #expect(pending.first?["due"] as? String == "20261115T080000Z")
        #expect(back.filter { $0["status"] as? String == "deleted" }.count == 3)
    }

    @Test func aSeriesWithNothingPendingStandsAfterItsLastInstanceAndEndsAtItsUntil() throws {
        var tasks = try objects(Self.series).filter { $0["status"] as? String != "pending" }
        tasks[0]["mask"] = "+X"
        var todo = try TaskwarriorJSON.decode(try JSONSerialization.data(withJSONObject: tasks), options: options).items[0].get()
        #expect(todo.due == .at(Date(timeIntervalSince1970: 1_794_729_600), zone: options.zone))
        #expect(todo.completedAt == nil)
        tasks[0]["until"] = "20261110T000000Z"
        todo = try TaskwarriorJSON.decode(try JSONSerialization.data(withJSONObject: tasks), options: options).items[0].get()
        #expect(todo.completedAt == TaskwarriorJSON.parseDate("20261109T080000Z"))
        #expect(try exported(todo)["status"] as? String == "deleted")
    }

    /// Walked, the mask would step the due two million days on (past the year 7500); refused, the
    /// series stays at the template's due. The due is the measure, not the time taken, which
    /// the sanitizer builds stretch past any bound that also holds in a release build.
    @Test func aHostileMaskIsNotWalked() throws {
        let mask = String(repeating: "+", count: 2_000_000)
        let todo = try one(#"{"uuid":"11111111-1111-4111-8111-111111111111","description":"x","status":"recurring","due":"20261101T100000Z","recur":"daily","mask":"\#(mask)"}"#)
        #expect(todo.due == .at(Date(timeIntervalSince1970: 1_793_527_200), zone: options.zone))
    }

    /// Taken for a template, it went back with an instance, and each round added a deleted copy.
    @Test func aMaskWithoutRecurIsAPlainTaskKeepingItsMask() throws {
        let todo = try one(#"{"uuid":"11111111-1111-4111-8111-111111111111","description":"n","due":"20261201T090050Z","mask":"e"}"#)
        #expect(todo.repetition == nil)
        let text = TaskwarriorJSON.encode([todo], options: options)
        let tasks = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        #expect(tasks.count == 1)
        #expect(tasks.first?["mask"] as? String == "e")
        #expect(tasks.first?["status"] as? String == "pending")
        let again = try TaskwarriorJSON.decode(Data(text.utf8), options: options).items.map { try $0.get() }
        #expect(again == [todo])
        #expect(TaskwarriorJSON.encode(again, options: options) == text)
    }

    /// Taken for a template, its instance was folded into a series that went back with a deleted
    /// copy of the instance at each round trip.
    @Test func aRecurringStatusWithoutRecurIsAPlainTaskAndItsInstanceOneOfItsOwn() throws {
        let text = #"""
        [{"description":"Pay rent","due":"20261201T090000Z","rtype":"periodic","status":"recurring","uuid":"b2b018f1-3b97-48f4-850c-17280d28b26f"},
        {"description":"Pay rent","due":"20261201T090000Z","entry":"20261201T020051Z","imask":0,"modified":"20261201T020050Z","parent":"b2b018f1-3b97-48f4-850c-17280d28b26f","recur":"2w","rtype":"periodic","status":"pending","uuid":"d4843d46-a159-4899-836e-0fb4d8e4b9eb"}]
        """#
        let todos = try TaskwarriorJSON.decode(Data(text.utf8), options: options).items.map { try $0.get() }
        #expect(todos.map(\.uuid) == ["b2b018f1-3b97-48f4-850c-17280d28b26f", "d4843d46-a159-4899-836e-0fb4d8e4b9eb"])
        #expect(todos[0].repetition == nil)
        let written = TaskwarriorJSON.encode(todos, options: options)
        let again = try TaskwarriorJSON.decode(Data(written.utf8), options: options).items.map { try $0.get() }
        #expect(again == todos)
        #expect(TaskwarriorJSON.encode(again, options: options) == written)
    }

    @Test func aRepeatingTodoGoesAsATemplateButAnInstanceImportedAloneStaysOne() throws {

        var record = TodoRecord(uuid: "11111111-1111-4111-8111-111111111111", title: "x",
                                due: .allDay(LocalDate(year: 2026, month: 12, day: 1)!),
                                repetition: Repetition(rrule: "FREQ=WEEKLY", from: .due),
                                createdAt: options.now, updatedAt: options.now)
        #expect(try exported(record)["status"] as? String == "recurring")
        record.kept["taskwarrior"] = #"{"imask":0,"parent":"b2b018f1-3b97-48f4-850c-17280d28b26f","recur":"weekly"}"#
        #expect(try exported(record)["status"] as? String == "pending")
    }

    @Test func stepsAsTaskwarriorDoes() {
        let zone = options.zone
        func date(_ text: String) -> Date { TaskwarriorJSON.parseDate(text)! }
        // Jan 31 09:00 in Berlin, monthly: the day cut to February's last, and kept there.
        let february = TaskwarriorJSON.nextRecurrence(after: date("20270131T080000Z"), recur: "monthly", zone: zone)
        #expect(february == date("20270228T080000Z"))
        #expect(TaskwarriorJSON.nextRecurrence(after: february!, recur: "monthly", zone: zone) == date("20270328T070000Z"))
        // Weeks are seconds: midnight before the clocks go back is 23:00 after.
        #expect(TaskwarriorJSON.nextRecurrence(after: date("20261019T220000Z"), recur: "weekly", zone: zone) == date("20261026T220000Z"))
        // Friday to Monday.
        #expect(TaskwarriorJSON.nextRecurrence(after: date("20261204T080000Z"), recur: "weekdays", zone: zone) == date("20261207T080000Z"))
        #expect(TaskwarriorJSON.nextRecurrence(after: date("20261204T080000Z"), recur: "PT30M", zone: zone) == nil)
        #expect(TaskwarriorJSON.nextRecurrence(after: date("99991231T080000Z"), recur: "yearly", zone: zone) == nil)
    }

    @Test(arguments: [
        ("daily", "FREQ=DAILY"), ("3d", "FREQ=DAILY;INTERVAL=3"), ("weekly", "FREQ=WEEKLY"), ("2w", "FREQ=WEEKLY;INTERVAL=2"),
        ("biweekly", "FREQ=WEEKLY;INTERVAL=2"), ("monthly", "FREQ=MONTHLY"), ("2mo", "FREQ=MONTHLY;INTERVAL=2"),
        ("quarterly", "FREQ=MONTHLY;INTERVAL=3"), ("yearly", "FREQ=YEARLY"), ("annual", "FREQ=YEARLY"), ("P3D", "FREQ=DAILY;INTERVAL=3"),
        ("weekdays", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"), ("2h", "FREQ=HOURLY;INTERVAL=2"), ("1h", "FREQ=HOURLY"),
        // As `task add ... recur:PT2H` and `recur:"3 days"` store them.
        ("PT2H", "FREQ=HOURLY;INTERVAL=2"), ("3 days", "FREQ=DAILY;INTERVAL=3"), ("P2W", "FREQ=WEEKLY;INTERVAL=2"),
    ])
    func readsRecurValues(recur: String, rule: String) {
        #expect(TaskwarriorJSON.rrule(recur: recur) == rule)
    }

    /// Three times this many quarters is past Int: it trapped, and the import died.
    @Test func aCountOfQuartersPastIntIsNotARule() throws {
        #expect(TaskwarriorJSON.rrule(recur: "3074457345618258603q") == nil)
        let file = try decode(#"[{"uuid":"11111111-1111-4111-8111-111111111111","description":"a","status":"pending","due":"20261101T100000Z","recur":"3074457345618258603q"}]"#)
        #expect(try file.items.map { try $0.get().repetition == nil } == [true])
    }

    /// Imported, recur kept for the way back, and said: a series that stopped repeating
    /// without a word would be missed.
    @Test func aPendingTaskWhoseRecurDoesNotRepeatHereIsSaid() throws {
        let file = try decode("""
            [{"uuid":"11111111-1111-4111-8111-111111111111","description":"a","status":"pending","due":"20261101T100000Z","recur":"PT30M"},
             {"uuid":"22222222-2222-4222-8222-222222222222","description":"b","status":"pending","due":"20261101T230000Z","recur":"2h"},
             {"uuid":"33333333-3333-4333-8333-333333333333","description":"c","status":"pending","due":"20261101T100000Z","recur":"daily"},
             {"uuid":"44444444-4444-4444-8444-444444444444","description":"d","status":"recurring","due":"20261101T100000Z","recur":"daily"}]
            """)
        #expect(try file.items.map { try $0.get().repetition == nil } == [true, true, false, false])
        #expect(file.warnings == [
            "item 1: \"recur\" 'PT30M' is not a repeat nudge can follow: imported without repeating (kept for export)",
            "item 2: \"recur\" '2h' repeats by hours, and the due is a day (at midnight): imported without repeating (kept for export)",
        ])
        let lines = try TaskwarriorJSON.decode(Data(#"{"uuid":"11111111-1111-4111-8111-111111111111","description":"a","due":"20261101T100000Z","recur":"fortnightly-ish"}"#.utf8), options: options)
        #expect(lines.warnings.first?.hasPrefix("line 1: \"recur\" 'fortnightly-ish' is not") == true)
    }

    @Test(arguments: ["PT30M", "PT1S", "every blue moon", "0d"])
    func refusesRecurValuesItCannotRepeatBy(recur: String) {
        #expect(TaskwarriorJSON.rrule(recur: recur) == nil)
    }

    @Test func hourlyRecurrenceRepeatsATimedDue() throws {
        let record = try one(#"{"uuid":"11111111-1111-4111-8111-111111111111","description":"x","status":"pending","entry":"20261101T100000Z","due":"20261101T100000Z","recur":"2h"}"#)
        #expect(record.repetition == Repetition(rrule: "FREQ=HOURLY;INTERVAL=2", from: .due))
        let exported = try exported(record)
        #expect(exported["recur"] as? String == "2h")
        #expect(exported["nudgerule"] == nil)
    }

    @Test func hourlyRecurrenceOfAMidnightDueIsKeptButDoesNotRepeat() throws {
        // 23:00Z is midnight in Berlin: an all-day due, which cannot repeat hourly.
        let record = try one(#"{"uuid":"11111111-1111-4111-8111-111111111111","description":"x","status":"pending","entry":"20261101T100000Z","due":"20261101T230000Z","recur":"2h"}"#)
        #expect(record.repetition == nil)
        #expect(try exported(record)["recur"] as? String == "2h")
    }

    @Test func anHourlyWindowGoesAsHoursAndComesBackExactly() throws {
        let rule = Repetition(rrule: "FREQ=HOURLY;INTERVAL=2;BYHOUR=9,10,11,12,13,14,15,16,17", from: .due)
        let record = TodoRecord(uuid: "11111111-1111-4111-8111-111111111111", title: "Stretch",
                                due: .at(Date(timeIntervalSince1970: 1_798_101_000), zone: options.zone), tags: [], after: [],
                                repetition: rule,
                                createdAt: options.now, updatedAt: options.now)
        let text = TaskwarriorJSON.encode([record], options: options)
        #expect(text.contains(#""recur":"2h""#))
        var back = try TaskwarriorJSON.decode(Data(text.utf8), options: options).items[0].get()
        back.kept = [:]
        #expect(back == record)
    }

    @Test func aRuleTaskwarriorCannotSayGoesAsTheNearestAndComesBackExactly() throws {
        let rule = Repetition(rrule: "FREQ=WEEKLY;BYDAY=MO,TH", from: .completion)
        let record = TodoRecord(uuid: "11111111-1111-4111-8111-111111111111", title: "Gym",
                                due: .at(Date(timeIntervalSince1970: 1_798_101_000), zone: options.zone), tags: [], after: [],
                                repetition: rule,
                                createdAt: options.now, updatedAt: options.now)
        let text = TaskwarriorJSON.encode([record], options: options)
        #expect(text.contains(#""recur":"weekly""#))
        #expect(text.contains(#""nudgerule":"FREQ=WEEKLY;BYDAY=MO,TH""#))
        var back = try TaskwarriorJSON.decode(Data(text.utf8), options: options).items[0].get()
        #expect(back.kept == ["taskwarrior": #"{"recur":"weekly","status":"recurring"}"#])
        back.kept = [:]
        #expect(back == record)
    }

    @Test func aNudgeTodoGoesThereAndBack() throws {
        let record = TodoRecord(uuid: "11111111-1111-4111-8111-111111111111", title: "Ünïcødé \"x\" / y", notes: "two\nlines",
                                due: .allDay(LocalDate(year: 2027, month: 3, day: 28)!), priority: .low, category: "Work ✓",
                                tags: ["work", "日本"], after: ["22222222-2222-4222-8222-222222222222"],
                                repetition: Repetition(rrule: "FREQ=MONTHLY;INTERVAL=2", from: .due),
                                createdAt: Date(timeIntervalSince1970: 1_790_000_000), updatedAt: Date(timeIntervalSince1970: 1_790_000_100))
        let text = TaskwarriorJSON.encode([record], options: options)
        #expect(!text.contains("nudgerule"))
        var back = try TaskwarriorJSON.decode(Data(text.utf8), options: options).items[0].get()
        #expect(back.kept["taskwarrior"] != nil)
        back.kept = [:]
        #expect(back == record)
    }

    @Test func readsOneObjectALineAndNamesTheBadLine() throws {
        let file = try TaskwarriorJSON.decode(Data("""
            {"uuid":"11111111-1111-4111-8111-111111111111","description":"a","status":"pending","entry":"20261101T100000Z"}

            {"uuid":"nope","description":"b","status":"pending","entry":"20261101T100000Z"}
            """.utf8), options: options)
        #expect(file.items.count == 2)
        #expect(try file.items[0].get().title == "a")
        #expect(file.places[1].place == .line && file.places[1].number == 3)
        guard case .failure(let error) = file.items[1] else { Issue.record("a bad uuid was read"); return }
        #expect(error.description == "line 3: \"uuid\" is not a UUID: 'nope'")
    }

    /// As `task import` takes them; the uuid is named by the task, so a second import of the
    /// same file updates rather than adds.
    @Test func aTaskWithoutUUIDGetsOneNamedByItsDescriptionAndEntry() throws {
        let file = try decode("""
            [{"description":"Written by hand","entry":"20261101T100000Z"},
             {"description":"Written by hand","entry":"20261101T100000Z"},
             {"description":"Written by hand"},
             {"description":"Another"}]
            """)
        let uuids = try file.items.map { try $0.get().uuid }
        #expect(uuids.allSatisfy { UUID(uuidString: $0)?.uuidString.lowercased() == $0 })
        #expect(uuids[0] == uuids[1])
        #expect(Set(uuids).count == 3)
        #expect(try decode(#"[{"description":"Another"}]"#).items[0].get().uuid == uuids[3])
    }

    @Test func namesTheItemAndFieldOfABadDate() throws {
        let file = try decode(#"[{"uuid":"11111111-1111-4111-8111-111111111111","description":"a","due":"tomorrow","entry":"20261101T100000Z"}]"#)
        guard case .failure(let error) = file.items[0] else { Issue.record("a bad due was read"); return }
        #expect(error.description == "item 1: \"due\" is not a date like 20261130T120000Z: 'tomorrow'")
    }

    @Test func guessesTaskwarriorFromTheHeadAlone() {
        #expect(InterchangeFormat.guess(Data(Self.full.utf8)) == .taskwarrior)
        #expect(InterchangeFormat.guess(Data(("[" + Self.full + ",").utf8)) == .taskwarrior)
        #expect(InterchangeFormat.guess(Data(#"[{"uuid":"x","title":"a","notes":"description"}]"#.utf8)) == .json)
    }
}

struct TaskwarriorJSONWriterTests {
    @Test func writesWhatJSONSerializationReadsBackTheSame() throws {
        let value: [String: Any] = ["b": [1, 2.5, true, false, NSNull()], "a": "quote \" backslash \\ tab\t nl\n \u{1}",
                                    "c": ["z": 1, "y": ["x"]], "u": "Ünïcødé 🥛 / slash"]
        let out = TaskwarriorJSON.json(value).text(.compact)
        #expect(out.hasPrefix(#"{"a":"quote \" backslash \\ tab\t nl\n \u0001","b":[1,2.5,true,false,null],"c":{"y":["x"],"z":1}"#))
        let back = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? NSDictionary)
        #expect(back.isEqual(to: value))
    }

    @Test func writesStampsAsTaskwarriorDoes() {
        #expect(TaskwarriorJSON.stamp(Date(timeIntervalSince1970: 1_798_101_005)) == "20261224T083005Z")
        #expect(TaskwarriorJSON.stamp(Date(timeIntervalSince1970: 0)) == "19700101T000000Z")
    }
}
