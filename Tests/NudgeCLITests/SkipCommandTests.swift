import Foundation
import Testing
@testable import NudgeTestSupport

/// `nudge skip`, through the binary: the todo moves past the skipped dues, its reminders follow,
/// `explain` and `show` name what was skipped, exports carry it as EXDATE, and what cannot be
/// skipped changes nothing.
struct SkipCommandTests {
    /// A nudge at Sunday 2026-11-29 10:53 in Berlin with todo 1, daily at 09:00 from Tuesday.
    func daily() throws -> Nudge {
        let nudge = Nudge()
        #expect(try nudge("add", "Water the plants", "--due", "2026-12-01 09:00", "--repeat", "daily").status == 0)
        return nudge
    }

    func due(_ nudge: Nudge) throws -> String? {
        try nudge("show", "1", "--json").object()["due"] as? String
    }

    @Test func theNextDueIsSkippedAndTheTodoMovesToTheOneAfter() throws {
        let nudge = try daily()
        let skipped = try nudge("skip", "1")
        #expect(skipped.status == 0, "\(skipped.stderr)")
        #expect(skipped.stdout == "Skipped 1: Water the plants\n  skipped  Tue Dec 1 09:00\n  due      Tue Dec 1 09:00 → Wed Dec 2 09:00\n")
        #expect(try due(nudge) == "2026-12-02T09:00:00+01:00")
        // --on a later due leaves the due where it is; --count takes several in a row.
        #expect(try nudge("skip", "1", "--on", "2026-12-04", "--count", "2").stdout
                == "Skipped 1: Water the plants\n  skipped  Fri Dec 4 09:00, Sat Dec 5 09:00\n  due      Wed Dec 2 09:00\n")
        #expect(try due(nudge) == "2026-12-02T09:00:00+01:00")
        let explained = try nudge("explain", "1", "--json").object()
        #expect(explained["nextDues"] as? [String] == ["2026-12-03T09:00:00+01:00", "2026-12-06T09:00:00+01:00", "2026-12-07T09:00:00+01:00",
                                                       "2026-12-08T09:00:00+01:00", "2026-12-09T09:00:00+01:00"])
        #expect(explained["skippedDues"] as? [String] == ["2026-12-04T09:00:00+01:00", "2026-12-05T09:00:00+01:00"])
        let text = try nudge("explain", "1").stdout
        #expect(text.contains("""
              Then      Thu Dec  3 09:00  (if each is done when due)
                        Fri Dec  4 09:00  skipped
                        Sat Dec  5 09:00  skipped
                        Sun Dec  6 09:00

            """), "\(text)")
        let shown = try nudge("show", "1").stdout
        #expect(shown.contains("\n  Skipped   Tue Dec 1 09:00\n            Fri Dec 4 09:00\n            Sat Dec 5 09:00\n"), "\(shown)")
        let repeats = try #require(try nudge("show", "1", "--json").object()["repeat"] as? [String: Any])
        #expect(repeats["except"] as? [String] == ["2026-12-01T09:00", "2026-12-04T09:00", "2026-12-05T09:00"])
    }

    @Test func theRemindersFollowTheDue() throws {
        let nudge = try daily()
        func dueReminders() throws -> [String] {
            try nudge("upcoming", "--within", "4d", "--json").array().compactMap { item in
                item["rule"] as? String == "due" ? item["at"] as? String : nil
            }
        }
        #expect(try dueReminders() == ["2026-12-01T09:00:00+01:00"])
        try nudge("skip", "1")
        #expect(try dueReminders() == ["2026-12-02T09:00:00+01:00"])
    }

    @Test func jsonGivesTheTodoAndTheSkippedDues() throws {
        let nudge = try daily()
        let object = try nudge("skip", "1", "--count", "2", "--json").object()
        #expect(object["skipped"] as? [String] == ["2026-12-01T09:00:00+01:00", "2026-12-02T09:00:00+01:00"])
        let todo = try #require(object["todo"] as? [String: Any])
        #expect(todo["id"] as? Int == 1)
        #expect(todo["due"] as? String == "2026-12-03T09:00:00+01:00")
    }

    @Test func theSkippedDatesGoOutAsEXDATEAndRepeatExcept() throws {
        let nudge = try daily()
        try nudge("skip", "1", "--on", "dec 3")
        let ics = try nudge("export", "--format", "ics").stdout
        #expect(ics.contains("\r\nEXDATE;TZID=Europe/Berlin:20261203T090000\r\n"), "\(ics)")
        let json = try nudge("export").stdout
        let todos = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        #expect((todos.first?["repeat"] as? [String: Any])?["except"] as? [String] == ["2026-12-03T09:00"])
        // Read back elsewhere, the date is still skipped.
        for text in [ics, json] {
            let other = Nudge()
            #expect(try other("import", "-", input: text).status == 0)
            let next = try #require(try other("explain", "1", "--json").object()["nextDues"] as? [String])
            #expect(next.prefix(2) == ["2026-12-02T09:00:00+01:00", "2026-12-04T09:00:00+01:00"])
        }
    }

    /// A skip on one machine reaches the other through the vdir, as EXDATE in the todo's file.
    @Test func aSkipGoesThroughSync() throws {
        var machines: [Nudge] = []
        let shared = TemporaryDirectory()
        for _ in 0..<2 {
            let nudge = Nudge()
            let configFolder = nudge.folder.file(".config/nudge")
            try FileManager.default.createDirectory(atPath: configFolder, withIntermediateDirectories: true)
            try "[sync]\nvdir = \(shared.path)\n".write(toFile: configFolder + "/nudge.conf", atomically: true, encoding: .utf8)
            machines.append(nudge)
        }
        var (a, b) = (machines[0], machines[1])
        #expect(try a("add", "Water the plants", "--due", "2026-12-01 09:00", "--repeat", "daily").status == 0)
        #expect(try a("sync").status == 0)
        #expect(try b("sync").status == 0)
        a.now = "2026-11-29 11:00:00"
        b.now = "2026-11-29 11:05:00"
        #expect(try a("skip", "1", "--on", "dec 2").status == 0)
        let synced = try a("sync")
        #expect(synced.status == 0, "\(synced.stderr)")
        let file = try #require(try FileManager.default.contentsOfDirectory(atPath: shared.path).first { $0.hasSuffix(".ics") })
        #expect(try String(contentsOfFile: shared.file(file), encoding: .utf8).contains("\r\nEXDATE;TZID=Europe/Berlin:20261202T090000\r\n"))
        #expect(try b("sync").status == 0)
        let repeats = try #require(try b("show", "1", "--json").object()["repeat"] as? [String: Any])
        #expect(repeats["except"] as? [String] == ["2026-12-02T09:00"])
        #expect(try b("explain", "1", "--json").object()["skippedDues"] as? [String] == ["2026-12-02T09:00:00+01:00"])
    }

    /// Daily at 02:30 in Berlin, where 2027-03-28 has no 02:30: the gap's due is skipped by its
    /// day, and the dues left are dateutil's rruleset with that EXDATE.
    @Test func aDueInTheDSTGapIsSkippedByItsDay() throws {
        var nudge = Nudge()
        nudge.now = "2027-03-26 12:00:00"
        #expect(try nudge("add", "Night job", "--due", "2027-03-27 02:30", "--repeat", "daily").status == 0)
        #expect(try nudge("skip", "1", "--on", "2027-03-28").status == 0)
        let next = try #require(try nudge("explain", "1", "--json").object()["nextDues"] as? [String])
        let oracle = try BerlinOracle.occurrences(start: "2027-03-27T02:30", rule: "FREQ=DAILY",
                                                                  exdates: ["2027-03-28T02:30"], count: 6)
        let instants = next.compactMap { ISO8601DateFormatter().date(from: $0)?.ISO8601Format() }
        #expect(instants == Array(oracle.dropFirst()))
        #expect(try nudge("export", "--format", "ics").stdout.contains("\r\nEXDATE;TZID=Europe/Berlin:20270328T023000\r\n"))
    }

    /// Each refused with one line and a non-zero status, the database as it was.
    @Test(arguments: [
        (["skip", "2"], 1, "nudge: todo 2 does not repeat, so it has no occurrence to skip; to move its due: nudge postpone 2 DURATION\n"),
        (["skip", "9"], 1, "nudge: there is no todo 9; 'nudge list --all' shows the ids\n"),
        (["skip", "1", "--on", "2026-12-02 10:00"], 1,
         "nudge: todo 1 is not due then; its next dues are Tue Dec 1 09:00, Wed Dec 2 09:00, Thu Dec 3 09:00, Fri Dec 4 09:00\n"),
        (["skip", "1", "--on", "2026-11-20"], 1,
         "nudge: --on names a time before todo 1's due, Tue Dec 1 09:00; skip a due from then on (nudge explain 1 lists them)\n"),
        (["skip", "1", "--count", "0"], 2, "nudge: --count takes a whole number from 1 to 366, not '0'\n"),
        (["skip", "1", "--count", "99999999999999999999"], 2, "nudge: --count takes a whole number from 1 to 366, not '99999999999999999999'\n"),
        (["skip", "1", "--on", "someday"], 2, nil),
        (["skip", "3", "--count", "3"], 1,
         "nudge: todo 3's series has only 2 dues left from there (Tue Dec 1 09:00, Wed Dec 2 09:00); skip fewer, or end it with: nudge done 3\n"),
        (["skip", "3", "--count", "2"], 1,
         "nudge: todo 3's series has only 2 dues left from there (Tue Dec 1 09:00, Wed Dec 2 09:00); skip fewer, or end it with: nudge done 3\n"),
        (["skip", "4"], 1, "nudge: todo 4 repeats from its completion, so its next dates are not fixed to skip; to move its due: nudge postpone 4 DURATION\n"),
    ] as [([String], Int32, String?)])
    func whatCannotBeSkippedChangesNothing(arguments: [String], status: Int32, message: String?) throws {
        let nudge = try daily()
        try nudge("add", "Call Ann", "--due", "2026-12-01 09:00")
        try nudge("add", "Twice", "--due", "2026-12-01 09:00", "--repeat", "RRULE:FREQ=DAILY;COUNT=2")
        try nudge("add", "Shave", "--due", "2026-12-01 09:00", "--repeat", "daily", "--repeat-from", "completion")
        let before = try nudge("export", "--all").stdout
        let run = try nudge.run(arguments)
        #expect(run.status == status)
        #expect(run.stdout.isEmpty)
        if let message { #expect(run.stderr == message) }
        #expect(run.stderr.split(separator: "\n").count == 1)
        #expect(try nudge("export", "--all").stdout == before)
    }

    @Test func theHelpIsTheCommandsOwn() throws {
        let nudge = Nudge()
        let help = try nudge("help", "skip")
        #expect(help.stdout == (try nudge("skip", "--help")).stdout)
        #expect(help.stdout.contains("Usage: nudge skip ID [--on WHEN] [--count N] [--json]"))
    }
}

/// The dateutil oracle of RepeatRuleOracleTests for a Berlin series, as UTC instants.
enum BerlinOracle {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("NudgeRecurrenceTests/rrule_oracle.py").path

    static func occurrences(start: String, rule: String, exdates: [String], count: Int) throws -> [String] {
        func compact(_ text: String) -> String { text.filter { $0 != "-" && $0 != ":" } + "00" }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script]
        process.environment = ["PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"]
        let input = "Europe/Berlin \(compact(start)) \(count) \(rule) EXDATE=" + exdates.map(compact).joined(separator: ",") + "\n"
        let run = try Run.launch(process, input: input)
        try #require(run.status == 0, "the oracle failed (is python3-dateutil installed?): \(run.stderr)")
        return run.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ").map(String.init)
    }
}
