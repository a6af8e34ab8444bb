import Foundation
import Testing
@testable import NudgeTestSupport

/// `nudge import`: idempotent by uuid, newer wins, all or nothing unless --skip-bad.
struct ImportTests {
    let source = Nudge()
    let nudge = Nudge()

    func item(_ uuid: String, _ title: String, updated: String = "2026-11-01T10:00:00Z", extra: String = "") -> String {
        """
        {"uuid": "\(uuid)", "title": "\(title)", "createdAt": "2026-10-01T10:00:00Z", "updatedAt": "\(updated)"\(extra)}
        """
    }

    let uuidA = "0f8fad5b-d9cb-469f-a165-70867728950e"
    let uuidB = "6ba7b810-9dad-11d1-80b4-00c04fd430c8"
    let uuidC = "6ba7b811-9dad-11d1-80b4-00c04fd430c8"

    func file(_ items: String...) throws -> String {
        let path = nudge.folder.file("in-\(UUID().uuidString).json")
        try ("[" + items.joined(separator: ",\n") + "]").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The database and its log, which together are what is stored.
    func storedBytes() -> [Data?] {
        [nudge.database, nudge.database + "-wal"].map { FileManager.default.contents(atPath: $0) }
    }

    @Test func importingTheSameFileTwiceChangesNothingTheSecondTime() throws {
        try source("add", "Buy milk", "--due", "2026-12-24 09:30")
        try source("add", "Done already")
        try source("done", "2")
        let path = nudge.folder.file("todos.json")
        try source("export", "--all", "-o", path)
        let first = try nudge("import", path)
        #expect(first.status == 0)
        #expect(first.stdout == "Imported 2: 2 added, 0 updated, 0 skipped as unchanged or older\n")
        let before = storedBytes()
        let second = try nudge("import", path)
        #expect(second.stdout == "Imported 0: 0 added, 0 updated, 2 skipped as unchanged or older\n")
        #expect(storedBytes() == before)
        #expect(try nudge("export", "--all").stdout == (try source("export", "--all").stdout))
    }

    @Test func aNewerRecordUpdatesAndAnOlderOneIsSkipped() throws {
        try nudge("import", try file(item(uuidA, "Old title"), item(uuidB, "Keep me", updated: "2026-11-05T00:00:00Z")))
        let run = try nudge("import", try file(item(uuidA, "New title", updated: "2026-11-02T00:00:00Z"),
                                               item(uuidB, "Older", updated: "2026-11-04T00:00:00Z")), "--json")
        let counts = try run.object()
        #expect(counts["added"] as? Int == 0)
        #expect(counts["updated"] as? Int == 1)
        #expect(counts["skipped"] as? Int == 1)
        let items = try #require(counts["items"] as? [[String: Any]])
        #expect(items.map { "\($0["place"]!) \($0["uuid"]!) \($0["outcome"]!) \($0["title"]!)" }
                == ["item 1 \(uuidA) updated New title", "item 2 \(uuidB) skipped Older"])
        // A dry run says the same of each, and changes nothing.
        let again = try nudge("import", try file(item(uuidA, "Newest", updated: "2026-11-03T00:00:00Z"),
                                                 item(uuidC, "Brand new")), "--json", "--dry-run").object()
        #expect((again["items"] as? [[String: Any]])?.map { $0["outcome"] as? String } == ["updated", "added"])
        let titles = try nudge("export").array().map { $0["title"] as? String }
        #expect(titles == ["New title", "Keep me"])
        let updated = try nudge("export").array()[0]
        #expect(updated["updatedAt"] as? String == "2026-11-02T00:00:00+00:00")
        #expect(updated["createdAt"] as? String == "2026-10-01T10:00:00+00:00")
    }

    @Test func createsMissingCategoriesAndCountsThem() throws {
        try nudge("category", "add", "Work")
        let run = try nudge("import", try file(item(uuidA, "a", extra: #", "category": "Garden""#),
                                               item(uuidB, "b", extra: #", "category": "work""#)))
        #expect(run.stdout == "Imported 2: 2 added, 0 updated, 0 skipped as unchanged or older; 1 category created: Garden\n")
        #expect(try nudge("export").array().map { $0["category"] as? String } == ["Garden", "Work"])
    }

    @Test func oneBadItemImportsNothingAndIsNamed() throws {
        try nudge("add", "existing")
        let before = storedBytes()
        let run = try nudge("import", try file(item(uuidA, "good"), item(uuidB, "fine"),
                                               item(uuidC, "bad", extra: #", "due": "next tuesday""#)))
        #expect(run.status == 1)
        #expect(run.stderr == "nudge: item 3: \"due\" is not a date: 'next tuesday' (use 2026-12-24 or 2026-12-24T09:00:00+01:00); nothing was imported (--skip-bad imports the rest)\n")
        #expect(run.stdout == "")
        #expect(storedBytes() == before)
    }

    @Test func skipBadImportsTheRestAndListsWhatItSkipped() throws {
        let run = try nudge("import", "--skip-bad", try file(item(uuidA, "good"), #"{"title": "no uuid"}"#,
                                                             item(uuidC, "bad", extra: #", "priority": "urgent""#)))
        #expect(run.status == 0)
        #expect(run.stderr == """
            nudge: skipped item 2: "uuid" is missing
            nudge: skipped item 3: "priority" is not low, medium or high: 'urgent'

            """)
        #expect(run.stdout == "Imported 1: 1 added, 0 updated, 0 skipped as unchanged or older, 2 bad skipped\n")
        #expect(try nudge("export").array().map { $0["title"] as? String } == ["good"])
    }

    @Test func daysThatDoNotExistAndANulInATitleAreRefusedNotRewritten() throws {
        let created = #"{"uuid": "\#(uuidB)", "title": "b", "createdAt": "2026-02-31T10:00:00Z", "updatedAt": "2026-11-01T10:00:00Z"}"#
        let path = try file(item(uuidA, "good", extra: #", "due": "2026-02-30T10:00:00Z""#), created,
                            item(uuidC, "c", extra: #", "due": "2026-12-24T09:00:00+25:00""#),
                            item("6ba7b812-9dad-11d1-80b4-00c04fd430c8", #"before\u0000after"#),
                            item("6ba7b813-9dad-11d1-80b4-00c04fd430c8", "fine"))
        let refused = try nudge("import", path)
        #expect(refused.status == 1)
        #expect(refused.stderr == "nudge: item 1: \"due\" is not a date: '2026-02-30T10:00:00Z' (use 2026-12-24 or 2026-12-24T09:00:00+01:00) (and 3 more bad items); nothing was imported (--skip-bad imports the rest)\n")
        #expect(try nudge("export", "--all").array().isEmpty)

        let skipped = try nudge("import", "--skip-bad", path)
        #expect(skipped.status == 0)
        #expect(skipped.stderr == """
            nudge: skipped item 1: "due" is not a date: '2026-02-30T10:00:00Z' (use 2026-12-24 or 2026-12-24T09:00:00+01:00)
            nudge: skipped item 2: "createdAt" is not a date: '2026-02-31T10:00:00Z' (use 2026-12-24T09:00:00+01:00)
            nudge: skipped item 3: "due" is not a date: '2026-12-24T09:00:00+25:00' (use 2026-12-24 or 2026-12-24T09:00:00+01:00)
            nudge: skipped item 4: "title" contains a NUL character (U+0000)

            """)
        #expect(skipped.stdout == "Imported 1: 1 added, 0 updated, 0 skipped as unchanged or older, 4 bad skipped\n")
        #expect(try nudge("export", "--all").array().map { $0["title"] as? String } == ["fine"])
    }

    @Test func aDryRunSaysWhatWouldHappenAndChangesNothing() throws {
        try nudge("import", try file(item(uuidA, "Stored")))
        let before = storedBytes()
        let run = try nudge("import", "--dry-run", try file(item(uuidA, "Stored"), item(uuidB, "New", extra: #", "category": "Garden""#),
                                                            item(uuidA, "Stored, newer", updated: "2026-11-03T00:00:00Z")))
        #expect(run.status == 0)
        #expect(run.stdout == """
            would skip item 1: Stored (\(uuidA))
            would add item 2: New (\(uuidB))
            would update item 3: Stored, newer (\(uuidA))
            Would import 2: 1 added, 1 updated, 1 skipped as unchanged or older; 1 category to create: Garden

            """)
        #expect(storedBytes() == before)
        #expect(try nudge("category", "list").stdout.contains("Garden") == false)
    }

    @Test func aDryRunOnAMissingDatabaseCreatesNoFile() throws {
        let run = try nudge("import", "--dry-run", try file(item(uuidA, "x")))
        #expect(run.stdout.hasSuffix("Would import 1: 1 added, 0 updated, 0 skipped as unchanged or older\n"))
        #expect(!FileManager.default.fileExists(atPath: nudge.database))
    }

    @Test func readsStandardInput() throws {
        let run = try nudge("import", "-", input: "[" + item(uuidA, "From a pipe") + "]")
        #expect(run.stdout.hasPrefix("Imported 1: 1 added"))
        #expect(try nudge("export").array().first?["uuid"] as? String == uuidA)
    }

    @Test func aRepeatThatCannotBeFollowedIsImportedWithAWarning() throws {
        let task = #"[{"uuid":"\#(uuidA)","description":"Stretch","status":"pending","due":"20261201T100000Z","recur":"PT30M"}]"#
        let run = try nudge.run(["import", "-"], input: task)
        #expect(run.status == 0)
        #expect(run.stderr == "nudge: warning: item 1: \"recur\" 'PT30M' is not a repeat nudge can follow: imported without repeating (kept for export)\n")
        #expect(run.stdout.hasPrefix("Imported 1: 1 added"))
    }

    /// `nudge import <(task export)`: the shell hands over /dev/fd/63, a pipe.
    @Test func readsANamedPipe() throws {
        let pipe = nudge.folder.file("todos.fifo")
        try #require(mkfifo(pipe, 0o600) == 0)
        let content = "[" + item(uuidA, "From a FIFO") + "]"
        let writer = Thread {
            let handle = FileHandle(forWritingAtPath: pipe)
            handle?.write(Data(content.utf8))
            try? handle?.close()
        }
        writer.start()
        let run = try nudge("import", pipe)
        #expect(run.stdout.hasPrefix("Imported 1: 1 added"))
        #expect(try nudge("export").array().first?["title"] as? String == "From a FIFO")
    }

    @Test(arguments: [
        (["import"], 2, "missing argument"),
        (["import", "/nonexistent/todos.json"], 1, "cannot import /nonexistent/todos.json: there is no such file; nothing was imported"),
        (["import", "-", "--format", "xlsx"], 2, "'xlsx' is not a format nudge reads or writes; use json, ics, taskwarrior, todotxt"),
    ] as [([String], Int32, String)])
    func badCommandLinesAreOneLine(arguments: [String], status: Int32, message: String) throws {
        let run = try nudge.run(arguments, input: "[]")
        #expect(run.status == status)
        #expect(run.stderr.hasPrefix("nudge: "))
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(run.stderr.filter { $0 == "\n" }.count == 1)
    }

    @Test(arguments: [
        ("{\"not\": \"an array\"}", "is not a JSON array of todos"),
        ("[{", "is not JSON"),
        ("[" + #"{"uuid": "0f8fad5b-d9cb-469f-a165-70867728950e", "title": "x", "createdAt": "2026-10-01T10:00:00Z", "updatedAt": "2026-10-01T10:00:00Z", "repeat": {"rule": "FREQ=HOURLY"}, "due": "2026-12-24"}"# + "]",
         "item 1: \"repeat.rule\""),
        ("[" + #"{"uuid": "0f8fad5b-d9cb-469f-a165-70867728950e", "title": "x", "createdAt": "2026-10-01T10:00:00Z", "updatedAt": "2026-10-01T10:00:00Z", "repeat": {"rule": "FREQ=DAILY"}}"# + "]",
         "item 1: \"repeat\" is set but \"due\" is missing"),
        ("[" + #"{"uuid": "0f8fad5b-d9cb-469f-a165-70867728950e", "title": "x", "createdAt": "2026-10-01T10:00:00Z", "updatedAt": "2026-10-01T10:00:00Z", "category": " "}"# + "]",
         "item 1: \"category\" the category name is empty"),
    ])
    func badFilesAreRefusedWhole(content: String, message: String) throws {
        try nudge("add", "existing")
        let before = storedBytes()
        let run = try nudge("import", "-", input: content)
        #expect(run.status == 1)
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(run.stderr.filter { $0 == "\n" }.count == 1)
        #expect(storedBytes() == before)
    }
}
