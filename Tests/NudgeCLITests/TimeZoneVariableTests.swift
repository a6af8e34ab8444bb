import Foundation
import Testing
@testable import NudgeTestSupport

/// TZ in each form tzset(3) reads gives the times `date` gives; a TZ nudge cannot follow is
/// refused rather than read as UTC.
struct TimeZoneVariableTests {
    let nudge = Nudge()

    /// What `date` writes for `instant` under TZ=`value`: the oracle.
    static func date(_ instant: Int, zone value: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/date")
        process.arguments = ["-d", "@\(instant)", "+%Y-%m-%dT%H:%M:%S%:z"]
        process.environment = ["TZ": value]
        return try Run.launch(process).stdout.trimmingCharacters(in: .newlines)
    }

    @Test(arguments: [":Europe/Berlin", ":/usr/share/zoneinfo/America/New_York", "/usr/share/zoneinfo/Asia/Tokyo",
                      "UTC+3", "EST5", "<+0530>-5:30", "GMT-2", "Etc/GMT+3", "Australia/Lord_Howe", "UTC"])
    func aDueIsShownAsDateShowsIt(value: String) throws {
        // 2026-12-10 12:00 UTC.
        try nudge("add", "Call the bank", "--due", "2026-12-10 13:00")
        let shown = try nudge("show", "1", "--json", environment: ["TZ": value])
        #expect(shown.status == 0, "\(shown.stderr)")
        let expected = try Self.date(1_796_904_000, zone: value)
        let due = try shown.object()["due"] as? String
        #expect(due == expected)
    }

    @Test(arguments: ["CET-1CEST,M3.5.0,M10.5.0/3", "Nowhere/Atlantis", ":/tmp/zone"])
    func aZoneNudgeCannotFollowIsRefused(value: String) throws {
        for arguments in [["list"], ["add", "Call the bank"]] {
            let run = try nudge.run(arguments, environment: ["TZ": value])
            #expect(run.status == 2)
            #expect(run.stderr.hasPrefix("nudge: TZ is '\(value)'") && run.stderr.filter { $0 == "\n" }.count == 1, "\(run.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: nudge.database))
    }
}
