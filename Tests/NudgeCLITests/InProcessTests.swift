import Foundation
import Testing
@testable import NudgeCLI
@testable import NudgeTestSupport

/// The command line run in this process at a fixed moment and zone, without libfaketime: the
/// clock and zone are the context's parameters, as the executable passes them.
struct InProcessTests {
    let folder = TemporaryDirectory()
    let berlin = TimeZone(identifier: "Europe/Berlin")!

    func run(_ words: [String], at moment: String) throws -> String {
        let now = try #require(ISO8601DateFormatter().date(from: moment))
        // A config named as --config names it must exist: an empty one, the defaults.
        _ = FileManager.default.createFile(atPath: folder.file("nudge.conf"), contents: nil)
        let context = Context(databasePath: folder.file("nudge.db"), configPath: folder.file("nudge.conf"),
                              now: now, zone: berlin, environment: [:])
        #expect(try NudgeCLI.run(words, context: context) == 0)
        return context.output
    }

    @Test func sectionsFollowTheContextsClockNotTheMachines() throws {
        _ = try run(["add", "Pay rent", "--due", "2031-06-16 09:00"], at: "2031-06-15T10:00:00Z")
        #expect(try run(["list"], at: "2031-06-15T10:00:00Z").hasPrefix("Upcoming (1)"))
        #expect(try run(["list"], at: "2031-06-16T06:00:00Z").hasPrefix("Today (1)"))
        #expect(try run(["list"], at: "2031-06-17T06:00:00Z").hasPrefix("Overdue (1)"))
    }
}
