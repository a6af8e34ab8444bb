import Foundation
import NudgeCore
import Testing
@testable import NudgeInterchange

struct TodoTxtTests {
    let options = InterchangeOptions(zone: TimeZone(identifier: "Europe/Berlin")!, now: Date(timeIntervalSince1970: 1_796_000_000))

    func decode(_ text: String) throws -> DecodedFile {
        try TodoTxt.decode(Data(text.utf8), options: options)
    }

    func one(_ line: String) throws -> TodoRecord {
        let file = try decode(line)
        #expect(file.items.count == 1)
        return try file.items[0].get()
    }

    func day(_ text: String) -> LocalDate { LocalDate(iso: text)! }

    @Test func readsPriorityDatesProjectAndDue() throws {
        let record = try one("(A) 2026-11-30 Buy milk +Home @shop due:2026-12-24")
        #expect(record.title == "Buy milk")
        #expect(record.tags == ["shop"])
        #expect(record.priority == .high)
        #expect(record.category == "Home")
        #expect(record.due == .allDay(day("2026-12-24")))
        #expect(record.createdAt == day("2026-11-30").start(in: .nudge(zone: options.zone)))
        #expect(record.completedAt == nil)
    }

    @Test func readsACompletedLineWithAndWithoutItsCreationDate() throws {
        let file = try decode("x 2026-12-01 2026-11-30 Call mum\nx 2026-12-02 Pay rent\n")
        let call = try file.items[0].get(), rent = try file.items[1].get()
        #expect(call.completedAt == day("2026-12-01").start(in: .nudge(zone: options.zone)))
        #expect(call.createdAt == day("2026-11-30").start(in: .nudge(zone: options.zone)))
        #expect(rent.completedAt == day("2026-12-02").start(in: .nudge(zone: options.zone)))
        #expect(rent.title == "Pay rent")
    }

    @Test(arguments: [
        "(A) 2026-11-30 Buy milk +Home @shop +errands due:2026-12-24 pri:x",
        "(D) Far away task",
        "(B) 2026-01-01 middle one +Work",
        "x 2026-12-01 2026-11-30 Call mum +Family",
        "x 2026-12-02 Pay rent",
        "plain words only",
        "2026-11-30 Water plants rec:+1w due:2026-12-05 at:07:30",
        "(C) 2026-11-30 Dentist due:2026-12-05 rec:3m",
        "0725-12-24 a",
        "x 1582-10-14 1582-10-04 Before the reform due:1582-10-10 at:09:15",
    ])
    func writesBackTheLineItRead(line: String) throws {
        let record = try one(line)
        #expect(TodoTxt.encode([record], options: options) == line + "\n")
    }

    /// Foundation's calendar is Julian before 1582-10-15: a day there came back 4 days later.
    @Test func aDayBeforeTheGregorianReformIsTheSameProlepticGregorianDay() throws {
        let record = try one("x 1582-10-14 0725-12-24 Old due:1000-03-01 at:09:15")
        let clock = WallClock(zone: options.zone)
        #expect(clock.day(of: record.createdAt) == day("0725-12-24"))
        #expect(clock.time(of: record.createdAt) == (0, 0, 0))
        #expect(clock.day(of: try #require(record.completedAt)) == day("1582-10-14"))
        guard case .at(let due, _)? = record.due else { Issue.record("not timed"); return }
        #expect(clock.day(of: due) == day("1000-03-01"))
        #expect(clock.time(of: due) == (9, 15, 0))
    }

    @Test func readingTheSameLineTwiceGivesTheSameUUID() throws {

        let first = try one("(A) 2026-11-30 Buy milk +Home")
        let done = try one("x 2026-12-01 2026-11-30 Buy milk +Home")
        let other = try one("(A) 2026-11-30 Buy oat milk +Home")
        #expect(first.uuid == done.uuid)
        #expect(first.uuid != other.uuid)
        #expect(UUID(uuidString: first.uuid) != nil)
        #expect(done.updatedAt > first.updatedAt)
    }

    @Test func aNudgeTodoGoesThereAndBack() throws {
        let zone = options.zone
        let records = [
            TodoRecord(uuid: "0f8fad5b-d9cb-469f-a165-70867728950e", title: "Call mum",
                       due: .at(Date(timeIntervalSince1970: 1_798_101_000), zone: zone), priority: .high, category: "Work ✓",
                       tags: ["phone", "日本"],
                       repetition: Repetition(rrule: "FREQ=WEEKLY;BYDAY=MO,TH", from: .due),
                       createdAt: day("2026-11-30").start(in: .nudge(zone: zone)), updatedAt: day("2026-11-30").start(in: .nudge(zone: zone))),
            TodoRecord(uuid: "6ba7b810-9dad-11d1-80b4-00c04fd430c8", title: "Birthday", due: .allDay(day("2027-02-28")), priority: .low,
                       repetition: Repetition(rrule: "FREQ=YEARLY", from: .completion), completedAt: day("2026-12-02").start(in: .nudge(zone: zone)),
                       createdAt: day("2026-11-30").start(in: .nudge(zone: zone)), updatedAt: day("2026-12-02").start(in: .nudge(zone: zone))),
        ]
        let text = TodoTxt.encode(records, options: options)
        #expect(text == """
            (A) 2026-11-30 Call mum +Work_✓ @phone @日本 due:2026-12-24 at:09:30 rrule:FREQ=WEEKLY;BYDAY=MO,TH nudge:0f8fad5b-d9cb-469f-a165-70867728950e
            x 2026-12-02 2026-11-30 Birthday due:2027-02-28 rec:1y nudge:6ba7b810-9dad-11d1-80b4-00c04fd430c8

            """)
        let back = try TodoTxt.decode(Data(text.utf8), options: options).items.map { try $0.get() }
        #expect(back.map(\.uuid) == records.map(\.uuid))
        #expect(back[0].title == records[0].title && back[0].due == records[0].due && back[0].repetition == records[0].repetition)
        #expect(back[0].category == "Work_✓")
        #expect(back[0].tags == records[0].tags)
        #expect(back[1].tags == [])
        #expect(back[1].title == records[1].title && back[1].due == records[1].due && back[1].repetition == records[1].repetition)
        #expect(back[1].completedAt == records[1].completedAt)
    }

    @Test func contextsThatAreTagWordsAreTagsAndTheOthersStayInTheTitle() throws {
        let record = try one("2026-11-30 Email @bob about +Work the @ sign @a.b +Home @café")
        #expect(record.title == "Email about the @ sign @a.b +Home")
        #expect(record.category == "Work")
        #expect(record.tags == ["bob", "café"])
        // The line goes back as it was read; with a tag changed, it is written anew.
        #expect(TodoTxt.encode([record], options: options) == "2026-11-30 Email @bob about +Work the @ sign @a.b +Home @café\n")
        var edited = record
        edited.tags = ["café", "phone"]
        let line = TodoTxt.encode([edited], options: options)
        #expect(line.hasPrefix("2026-11-30 +Work Email about the @ sign @a.b +Home @café @phone nudge:"), "\(line)")
        let back = try one(line)
        #expect(back.uuid == record.uuid && back.title == record.title && back.category == "Work" && back.tags == ["café", "phone"])
        // A second spelling of a tag is no second tag: the last is the tag, the other stays in
        // the title, and a line written anew (the tags last) reads back the same.
        let twice = try one("Call @bob @Bob nudge:0f8fad5b-d9cb-469f-a165-70867728950e")
        #expect(twice.title == "Call @bob" && twice.tags == ["Bob"])
        let rewritten = TodoTxt.encode([twice], options: options)
        #expect(rewritten == "Call @bob @Bob nudge:0f8fad5b-d9cb-469f-a165-70867728950e\n")
        #expect(try one(rewritten) == twice)
        // A line of contexts alone is its title, not a todo without one.
        let bare = try one("@phone @home")
        #expect(bare.title == "@phone @home" && bare.tags == [])
    }

    @Test func controlCharactersInALineAreReadAsTheSpacesTheExportWrites() throws {
        let record = try one("Red\u{1B}[31m alert\u{7F}now\u{7}")
        #expect(record.title == "Red [31m alert now")
        #expect(TodoTxt.encode([record], options: options) == "Red [31m alert now\n")
        // A line of nothing else has no title: refused, not a todo that cannot be read back.
        let file = try decode("\u{1}\n")
        #expect(file.items.count == 1)
        guard case .failure(let error) = file.items.first else { Issue.record("a line of a control character was read"); return }
        #expect(error.description.hasPrefix("line 1: \"text\" the title is empty"))
    }

    /// A control character before a combining mark was written as a space that the mark joins:
    /// the line " \u{35B}" is one Character, which is whitespace, so it was skipped as blank
    /// (found by fuzzing the todo.txt import).
    @Test func aSpaceACombiningMarkJoinsIsNoBlankLine() throws {
        let record = try one("\u{5}\u{35B}")
        let text = TodoTxt.encode([record], options: options)
        let back = try decode(text).items.map { try $0.get() }
        #expect(back.map(\.title) == [record.title])
        #expect(TodoTxt.encode(back, options: options) == text)
    }

    @Test func lineBreaksAndControlCharactersAreWrittenAsSpacesAndReadBackTheSame() throws {
        let start = day("2026-11-30").start(in: .nudge(zone: options.zone))
        let record = TodoRecord(uuid: "0f8fad5b-d9cb-469f-a165-70867728950e",
                                title: "Buy\nmilk\r\nand\rbread\u{1B}[31m\u{2028}now\u{85}or\u{7F}later\ttabbed",
                                category: "Home\nGarden", createdAt: start, updatedAt: start)
        let text = TodoTxt.encode([record], options: options)
        #expect(text == "2026-11-30 Buy milk and bread [31m now or later tabbed +Home_Garden nudge:0f8fad5b-d9cb-469f-a165-70867728950e\n")
        let back = try TodoTxt.decode(Data(text.utf8), options: options).items.map { try $0.get() }
        #expect(back.map(\.uuid) == [record.uuid])
        #expect(back.map(\.title) == ["Buy milk and bread [31m now or later tabbed"])
        // Written again, the todo read back is the same line: the round trip settles at once.
        #expect(TodoTxt.encode(back, options: options) == text)
    }

    /// A title with " +49 " came back with the category 49, and one with its own +tag gave
    /// the tag as the category.
    @Test(arguments: [
        ("Call Ann +49 30 1234567", nil, "2026-11-30 Call Ann +49 30 1234567"),
        ("Call Ann +49 30 1234567", "Phone", "2026-11-30 Call Ann +49 30 1234567 +Phone"),
        ("Read about +fun things", "Home", "2026-11-30 +Home Read about +fun things"),
        ("Vote +1 on the proposal", nil, "2026-11-30 Vote +1 on the proposal"),
    ] as [(String, String?, String)])
    func aTitleWithAPlusComesBackAsItWas(title: String, category: String?, line: String) throws {
        let start = day("2026-11-30").start(in: .nudge(zone: options.zone))
        let record = TodoRecord(uuid: "0f8fad5b-d9cb-469f-a165-70867728950e", title: title, category: category,
                                createdAt: start, updatedAt: start)
        let text = TodoTxt.encode([record], options: options)
        #expect(text.hasPrefix(line + " nudge:"), "\(text)")
        let back = try #require(try TodoTxt.decode(Data(text.utf8), options: options).items.first?.get())
        #expect(back.title == title)
        #expect(back.category == category)
    }

    /// A tab was written raw, where todo.txt tools split words.
    @Test func aTabInATitleIsWrittenAsASpaceAndATabSeparatesTags() throws {
        let start = day("2026-11-30").start(in: .nudge(zone: options.zone))
        let record = TodoRecord(uuid: "0f8fad5b-d9cb-469f-a165-70867728950e", title: "Pay\tdue:soon", createdAt: start, updatedAt: start)
        #expect(!TodoTxt.encode([record], options: options).contains("\t"))
        let read = try #require(try decode("Pay rent\tdue:2026-12-24\t+Flat\n").items.first?.get())
        #expect(read.title == "Pay rent")
        #expect(read.due == .allDay(day("2026-12-24")))
        #expect(read.category == "Flat")
    }

    @Test func skipsBlankLinesAndNamesTheLineOfAnError() throws {
        let file = try decode("first\n\n   \r\nsecond due:2026-13-40\n(A)\n")
        #expect(file.items.count == 3)
        #expect(file.places.map(\.number) == [1, 4, 5])
        guard case .failure(let due) = file.items[1], case .failure(let empty) = file.items[2] else {
            Issue.record("bad lines were read"); return
        }
        #expect(due.description == "line 4: \"due\" is not a day like 2026-12-24: '2026-13-40'")
        #expect(empty.description.hasPrefix("line 5: \"text\" the title is empty"))
    }

    /// The fuzzer's: NULs before a byte-order mark made a first todo titled U+FEFF, and its
    /// export began with what a reader takes off as the file's byte-order mark.
    @Test func aFirstTodoBeginningWithAByteOrderMarkIsExportedWhole() throws {
        let records = try decode("\u{0}\u{FEFF}\nCall mum\n").items.map { try $0.get() }
        #expect(records.map(\.title) == ["\u{FEFF}", "Call mum"])
        let again = try decode(TodoTxt.encode(records, options: options)).items.map { try $0.get() }
        #expect(again.map(\.title) == records.map(\.title))
        #expect(again.map(\.uuid) == records.map(\.uuid))
    }

    @Test func guessesTodoTxtForPlainLines() throws {
        #expect(InterchangeFormat.guess(Data("(A) Buy milk\n".utf8)) == .todotxt)
        #expect(try InterchangeFormat.guess(Data("<3 mom\nBuy milk\n".utf8), contentType: "text/plain") == .todotxt)
    }

    @Test(arguments: [
        ("\u{FEFF}\n  <!DOCTYPE html>\n<html lang=\"en\">\n<body>Sign in</body></html>\n", nil, "a web page (HTML)"),
        ("<html>\n<p>x</p>\n</html>", "text/plain", "a web page (HTML)"),
        ("<?xml version=\"1.0\"?>\n<todos/>\n", nil, "XML or HTML markup"),
        ("<rss version=\"2.0\">\n<channel>\n", "application/rss+xml", "XML or HTML markup"),
        ("Buy milk\nCall mum\n", "text/html; charset=utf-8", "a web page (text/html)"),
        ("Buy milk\n", "Application/XHTML+XML", "a web page (application/xhtml+xml)"),
    ] as [(String, String?, String)])
    func refusesAWebPageRatherThanTakingItForTodoTxt(content: String, contentType: String?, what: String) {
        #expect(throws: InterchangeError(reason: "the file is \(what), not todos in a format nudge reads (--format todotxt reads its lines as todo.txt)")) {
            try InterchangeFormat.guess(Data(content.utf8), contentType: contentType)
        }
    }

    @Test func jsonOrICalendarServedAsAWebPageIsReadByItsContent() throws {
        #expect(try InterchangeFormat.guess(Data("[]".utf8), contentType: "text/html") == .json)
        #expect(try InterchangeFormat.guess(Data("BEGIN:VCALENDAR\r\n".utf8), contentType: "text/html") == .ics)
    }
}
