import Foundation
import Testing
@testable import NudgeTestSupport

/// Export, import into an empty database, export again: nothing is lost, uuids included.
struct RoundTripTests {
    static let titles = ["Milch kaufen 🥛", "日本語のタスク", "Ünïcødé “quotes” and \"plain\"", "tab\tinside",
                         "family 👩‍👩‍👧 call", "back\\slash", "RTL שלום", "plain"]
    static let zones = ["Europe/Berlin", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe", "UTC"]
    static let repeats = ["weekly", "daily", "every 3 days", "monthly", "RRULE:FREQ=WEEKLY;BYDAY=MO,TH", "every mon,thu",
                          "every 2nd tue", "last fri of month", "every month on the 15th"]

    /// Adds random todos to `nudge` through the command line, as a person would.
    func addRandomTodos(to nudge: Nudge, seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        try nudge("category", "add", "Home")
        try nudge("category", "add", "Work ✓")
        let count = Int.random(in: 6...10, using: &random)
        for id in 1...count {
            var arguments = ["add", Self.titles.randomElement(using: &random)! + " \(id)"]
            if Bool.random(using: &random) { arguments += ["--notes", "first line\nsecond line ⟨\(id)⟩\n"] }
            let day = "2027-0\(Int.random(in: 1...6, using: &random))-\(10 + Int.random(in: 0...18, using: &random))"
            var zone = "Europe/Berlin"
            switch Int.random(in: 0...2, using: &random) {
            case 0: break
            case 1: arguments += ["--due", day]
            default:
                zone = Self.zones.randomElement(using: &random)!
                arguments += ["--due", "\(day) \(Int.random(in: 0...23, using: &random)):\(["00", "15", "30", "45"].randomElement(using: &random)!)"]
            }
            if arguments.contains("--due") && Int.random(in: 0...2, using: &random) == 0 {
                arguments += ["--repeat", Self.repeats.randomElement(using: &random)!,
                              "--repeat-from", Bool.random(using: &random) ? "due" : "completion"]
            }
            arguments += ["--priority", ["low", "medium", "high"].randomElement(using: &random)!]
            if let category = [nil, "Home", "Work ✓"].randomElement(using: &random)! {
                arguments += ["--category", category]
            }
            if arguments.contains("--due") && Bool.random(using: &random) {
                arguments += ["--remind", ["10m", "1d", "2h30m"].randomElement(using: &random)!, "--remind", "2027-01-05 09:00"]
                if Bool.random(using: &random) { arguments.append("--no-default-reminders") }
            }
            let added = try nudge.run(arguments, environment: ["TZ": zone])
            try #require(added.status == 0, "\(arguments): \(added.stderr)")
            switch Int.random(in: 0...5, using: &random) {
            case 0: try nudge("done", "\(id)")
            case 1: try nudge("snooze", "\(id)", "3h")
            default: break
            }
        }
    }

    /// Nudge's JSON and iCalendar carry everything; Taskwarrior and todo.txt have their own
    /// round trips, against the real tools, in their suites.
    @Test(arguments: [1, 2, 3, 42] as [UInt64], ["json", "ics"])
    func exportImportExportIsLossless(seed: UInt64, format: String) throws {
        let first = Nudge(), second = Nudge()
        try addRandomTodos(to: first, seed: seed)
        let path = first.folder.file("todos.\(format)")
        try first("export", "--all", "--format", format, "-o", path)
        if format == "ics" {
            #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("BEGIN:VCALENDAR\r\n"))
        }
        let imported = try second("import", path)
        #expect(imported.status == 0, "\(imported.stderr)")
        let before = try first("export", "--all").array()
        let after = try second("export", "--all").array()
        #expect(!before.isEmpty)
        #expect(after.map { $0["uuid"] as? String } == before.map { $0["uuid"] as? String })
        for (old, new) in zip(before, after) {
            #expect(Set(old.keys) == Set(new.keys))
            for key in old.keys where !((old[key] as? NSObject)?.isEqual(new[key]) ?? false) {
                Issue.record("\(old["uuid"] ?? "?") \(key): \(old[key] ?? "nil") became \(new[key] ?? "nil")")
            }
        }
        // The second import of the same file finds everything there already.
        #expect(try second("import", path).stdout.contains(" 0 added, 0 updated, \(before.count) skipped"))
    }
}
