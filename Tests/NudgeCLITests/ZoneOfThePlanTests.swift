import Foundation
import Testing
@testable import NudgeCLI
import NudgeCore
@testable import NudgeStore
@testable import NudgeTestSupport

/// Commands run in a zone other than the plan of record's (a shell that sets TZ, a laptop
/// that travelled): those that show no reminder plan nothing, and the zone is told by its
/// offsets, not its name.
struct ZoneOfThePlanTests {
    let folder = TemporaryDirectory()
    let berlin = TimeZone(identifier: "Europe/Berlin")!
    let tokyo = TimeZone(identifier: "Asia/Tokyo")!
    /// Sunday 2026-11-29 10:53 in Berlin.
    let now = Date(timeIntervalSince1970: 1_795_945_980)

    /// Runs `words` in `zone` and returns the output and the store the command opened.
    func run(_ words: [String], in zone: TimeZone) throws -> (output: String, store: TodoStore) {
        // A config named as --config names it must exist: an empty one, the defaults.
        _ = FileManager.default.createFile(atPath: folder.file("nudge.conf"), contents: nil)
        let context = Context(databasePath: folder.file("nudge.db"), configPath: folder.file("nudge.conf"),
                              now: now, zone: zone, environment: [:])
        #expect(try NudgeCLI.run(words, context: context) == 0)
        return (context.output, try context.store(.read))
    }

    @Test func listShowAndExplainInAnotherZonePlanNoScheduleAndShowItsTimes() throws {
        _ = try run(["add", "Water the plants", "--due", "2026-11-30"], in: berlin)
        _ = try run(["add", "Call the bank", "--due", "2026-11-30 15:00"], in: berlin)
        for words in [["list"], ["list", "--json"], ["show", "1"], ["explain", "1"], ["explain", "1", "--json"]] {
            let (_, store) = try run(words, in: tokyo)
            #expect(store.readerSchedule == nil, "\(words)")
        }
        let (shown, store) = try run(["show", "1", "--json"], in: tokyo)
        #expect(store.readerSchedule == nil)
        let todo = try #require(try JSONSerialization.jsonObject(with: Data(shown.utf8)) as? [String: Any])
        let next = try #require(todo["nextReminder"] as? [String: Any])
        #expect(next["at"] as? String == "2026-11-30T08:50:00+09:00")
        // Asked what fires, it plans by its own zone.
        let (upcoming, asked) = try run(["upcoming", "--json"], in: tokyo)
        #expect(asked.readerSchedule == .own)
        #expect(upcoming.contains("2026-11-30T08:50:00+09:00"))
    }

    @Test func tzUTCIsTheZoneOfEtcUTC() throws {
        _ = try run(["add", "Water the plants", "--due", "2026-11-30"], in: TimeZone(identifier: "Etc/UTC")!)
        // What `TZ=UTC` gives: Foundation calls it GMT.
        let (upcoming, store) = try run(["upcoming", "--json"], in: try #require(try TimeZoneVariable.zone("UTC")))
        #expect(store.readerSchedule == .stored)
        #expect(upcoming.contains("2026-11-30T08:50:00"))
    }
}
