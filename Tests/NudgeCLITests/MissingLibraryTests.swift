import Foundation
import Testing
@testable import NudgeTestSupport

/// libical that cannot be opened: an empty libical.so.3 first on LD_LIBRARY_PATH, which dlopen
/// refuses ("file too short") rather than looking further.
struct MissingLibraryTests {
    let nudge = Nudge()
    static let message = "nudge: libical.so.3 could not be loaded (install the Debian package libical3)\n"

    func withoutLibICal() throws -> [String: String] {
        let folder = nudge.folder.file("lib")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: folder + "/libical.so.3", contents: Data()))
        return ["LD_LIBRARY_PATH": folder]
    }

    @Test func aRepeatingTodoIsLeftUndoneWithOneLineSayingWhichPackageToInstall() throws {
        try nudge("add", "Water the plants", "--due", "2026-11-30 09:00", "--repeat", "daily")
        let run = try nudge("done", "1", environment: withoutLibICal())
        #expect(run.status == 1)
        #expect(run.stderr == Self.message)
        #expect(run.stdout == "")
        #expect(try nudge("show", "1", "--json").object()["due"] as? String == "2026-11-30T09:00:00+01:00")
        #expect(try nudge("done", "1").status == 0)
        #expect(try nudge("show", "1", "--json").object()["due"] as? String == "2026-12-01T09:00:00+01:00")
    }

    @Test func exportImportAndSyncSayItOnce() throws {
        try nudge("add", "Water the plants", "--due", "2026-11-30 09:00", "--repeat", "daily")
        let broken = try withoutLibICal()
        for arguments in [["export", "--format", "ics"], ["sync"], ["explain", "1"], ["explain", "1", "--json"]] {
            let run = try nudge.run(arguments, environment: broken)
            #expect(run.status == 1, "\(arguments)")
            #expect(run.stderr == Self.message, "\(arguments)")
            #expect(run.stdout == "", "\(arguments)")
        }
        let file = nudge.folder.file("todo.ics")
        #expect(FileManager.default.createFile(atPath: file, contents: Data("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n".utf8)))
        let run = try nudge("import", file, environment: broken)
        #expect(run.status == 1)
        #expect(run.stderr == "nudge: cannot import \(file): libical.so.3 could not be loaded (install the Debian package libical3); nothing was imported\n")
    }

    @Test func aRuleIsRefusedWithTheSameLine() throws {
        let run = try nudge("add", "Water the plants", "--due", "2026-11-30 09:00", "--repeat", "daily", environment: withoutLibICal())
        #expect(run.stderr == Self.message)
        #expect(run.status != 0)
        #expect(try nudge("list").stdout.hasPrefix("No todos yet"))
    }

    @Test func commandsThatNeverRepeatRunWithoutIt() throws {
        let broken = try withoutLibICal()
        #expect(try nudge("add", "Buy milk", environment: broken).status == 0)
        let list = try nudge("list", environment: broken)
        #expect(list.status == 0)
        #expect(list.stdout.contains("Buy milk"))
        #expect(try nudge("add", "Call Anna", "--due", "2026-11-30 09:00", environment: broken).status == 0)
        for arguments in [["explain", "2"], ["edit", "2", "--title", "Call Anna back"], ["export"], ["export", "--format", "todotxt"], ["done", "1", "2"]] {
            let run = try nudge.run(arguments, environment: broken)
            #expect(run.status == 0, "\(arguments)")
            #expect(run.stderr == "", "\(arguments)")
        }
        #expect(try nudge("list", "--all", "--json").array().allSatisfy { $0["completed"] as? Bool == true })
    }
}
