import Foundation
import Testing
@testable import NudgeTestSupport

/// Commands that only show never write the database, whatever zone or config they run with;
/// the schedule nudged fires from stays the one its own rules planned.
struct ReadOnlyTests {
    let nudge = Nudge()

    func files() throws -> [Data] {
        try [nudge.database, nudge.database + "-wal"].map {
            FileManager.default.fileExists(atPath: $0) ? try Data(contentsOf: URL(fileURLWithPath: $0)) : Data()
        }
    }

    func writeConfig(_ text: String) throws -> String {
        let path = nudge.folder.file("other.conf")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func showingInAnotherZoneOrWithAnotherConfigWritesNothing() throws {
        try nudge("add", "Water the plants", "--due", "tomorrow")
        try nudge("add", "Call mum", "--due", "today 18:00", "--priority", "high")
        let other = try writeConfig("[reminders]\nbefore = 2h\nall_day_time = 07:00\n")
        let before = try files()
        let commands: [[String]] = [
            ["list"], ["list", "--all", "--json"], ["show", "1"], ["upcoming"], ["upcoming", "--json"],
            ["explain", "1"], ["remind", "1"], ["category", "list"], ["config", "show"],
            ["show", "1", "--json"], ["explain", "1", "--json"], ["remind", "1", "--json"], ["config", "show", "--json"],
            ["status"], ["status", "--format", "waybar"], [],
        ]
        for command in commands {
            for environment in [["TZ": "Asia/Tokyo"], ["NUDGE_CONFIG": other], [:]] {
                var run = nudge
                if let zone = environment["TZ"] { run.zone = zone }
                let result = try run.run(command, environment: environment.filter { $0.key != "TZ" })
                #expect(result.status == 0, "\(command) \(environment): \(result.stderr)")
            }
        }
        #expect(try files() == before)
    }

    @Test func aPreviewWithAnotherConfigShowsItsOwnRulesAndLeavesThePlanOfRecord() throws {
        try nudge("add", "Water the plants", "--due", "tomorrow")
        let other = try writeConfig("[reminders]\nbefore = none\nall_day_time = 07:00\nnag_every = off\n[digest]\nenabled = no\n")
        let preview = try nudge("upcoming", "--json", "--within", "2d", environment: ["NUDGE_CONFIG": other]).array()
        #expect(preview.map { "\($0["at"] ?? "") \($0["rule"] ?? "")" } == ["2026-11-30T07:00:00+01:00 all-day"])
        let recorded = try nudge("upcoming", "--json", "--within", "2d").array()
        #expect(recorded.contains { ($0["at"] as? String) == "2026-11-30T09:00:00+01:00" })
    }

    @Test func aChangeMadeInAnotherZoneIsPlannedByThePlanOfRecord() throws {
        try nudge("add", "Water the plants", "--due", "tomorrow")
        var tokyo = nudge
        tokyo.zone = "Asia/Tokyo"
        // Tomorrow in Tokyo is Monday too at 18:53 there; its reminders are planned in Berlin.
        try tokyo("add", "Pay rent", "--due", "2026-12-01")
        let planned = try nudge("upcoming", "--json", "--within", "3d").array()
            .filter { ($0["todo"] as? Int) == 2 }.compactMap { $0["at"] as? String }
        #expect(planned.contains("2026-12-01T09:00:00+01:00"), "\(planned)")
    }

    @Test func aDamagedFileIsRefusedBeforeAWriteWithTheWayToRecoverIt() throws {
        _ = try nudge.shell("for i in $(seq 1 300); do \"$NUDGE\" add \"todo $i $(printf 'x%.0s' $(seq 1 150))\" >/dev/null; done")
        let pages = try nudge.shell("stat -c %s \"$NUDGE_DB\"").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let size = try #require(Int(pages))
        // A stray write in the middle of the third page from the end.
        _ = try nudge.shell("head -c 2000 /dev/urandom | dd of=\"$NUDGE_DB\" bs=1 seek=\(size - 3 * 4096 + 1000) conv=notrunc 2>/dev/null")
        let before = try files()
        let run = try nudge("done", "1")
        #expect(run.status == 1)
        #expect(run.stderr.contains(nudge.database), "\(run.stderr)")
        #expect(run.stderr.filter { $0 == "\n" }.count == 1, "\(run.stderr)")
        #expect(try files() == before)

        // The command it gives brings back what the damage spared.
        let recovery = try #require(run.stderr.range(of: "made by: ").map { run.stderr[$0.upperBound...] })
        let recovered = try nudge.shell("cd \"$HOME\" && " + recovery.trimmingCharacters(in: .newlines))
        #expect(recovered.status == 0, "\(recovered.stderr)")
        let todos = try nudge("list", "--json", environment: ["NUDGE_DB": nudge.folder.file("recovered.db")]).array()
        #expect(todos.count > 250 && todos.count <= 300, "\(todos.count)")
    }

    @Test func aSearchThatMeetsDamageSaysSoAsAWriteDoes() throws {
        _ = try nudge.shell("for i in $(seq 1 100); do \"$NUDGE\" add \"todo $i $(printf 'x%.0s' $(seq 1 150))\" >/dev/null; done")
        // The todos table's root page, overwritten: every scan of it meets the damage.
        let root = try nudge.shell("sqlite3 \"$NUDGE_DB\" \"SELECT rootpage FROM sqlite_schema WHERE name = 'todos'\"").stdout
        let page = try #require(Int(root.trimmingCharacters(in: .whitespacesAndNewlines)))
        _ = try nudge.shell("head -c 4096 /dev/urandom | dd of=\"$NUDGE_DB\" bs=4096 seek=\(page - 1) conv=notrunc 2>/dev/null")
        let search = try nudge("list", "--search", "todo")
        #expect(search.status == 1, "\(search.stdout)")
        #expect(search.stderr.hasPrefix("nudge: the database \(nudge.database) is damaged") && search.stderr.contains("made by: sqlite3"), "\(search.stderr)")
        #expect(search.stderr.filter { $0 == "\n" }.count == 1)
    }
}
