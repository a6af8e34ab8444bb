import Foundation
import Testing
@testable import NudgeDaemon
@testable import NudgeTestSupport

/// The config file's watch on the real inotify, in a temporary folder.
struct EntryWatchTests {
    let queue = DispatchQueue(label: "nudge.test.entry-watch")
    let home = TemporaryDirectory()
    var folder: String { home.file("nudge") }
    var config: String { folder + "/nudge.conf" }

    /// The calls of the watch, taken on the queue.
    final class Calls: @unchecked Sendable {
        var appeared: [Bool] = []
        var failures: [String] = []
    }

    func start(_ calls: Calls) throws -> FileWatcher {
        try queue.sync {
            let files = try FileWatcher(queue: queue)
            try EntryWatch(files, entry: "nudge.conf", inFolder: folder, failed: { calls.failures.append("\($0)") }) {
                calls.appeared.append($0)
            }
            return files
        }
    }

    /// Waits up to 5 s for the watch to be called `count` times in all.
    func waitFor(_ count: Int, _ calls: Calls) async throws -> [Bool] {
        for _ in 0..<500 {
            if queue.sync(execute: { calls.appeared.count }) >= count { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        return queue.sync { calls.appeared }
    }

    func write(_ text: String) throws {
        try text.write(toFile: config, atomically: true, encoding: .utf8)
    }

    /// `rm -r ~/.config/nudge` and a new one (a dotfiles manager, a restore): the watch was on
    /// the deleted folder, and the new config was never read.
    @Test func aFolderDeletedAndMadeAgainIsWatchedAgain() async throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        try write("[reminders]\n")
        let calls = Calls()
        let files = try start(calls)
        try FileManager.default.removeItem(atPath: folder)
        _ = try await waitFor(1, calls)
        // Each event of the deletion taken.
        try await Task.sleep(for: .milliseconds(200))
        let afterDeletion = queue.sync { calls.appeared.count }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        try await Task.sleep(for: .milliseconds(100))
        try write("[reminders]\nbefore = 1h\n")
        let seen = try await waitFor(afterDeletion + 1, calls)
        #expect(seen.count > afterDeletion, "the new folder's config was not seen")
        // Changed again, in the new folder: still seen.
        try write("[reminders]\nbefore = 2h\n")
        #expect(try await waitFor(seen.count + 1, calls).count > seen.count)
        #expect(queue.sync { calls.failures }.isEmpty)
        withExtendedLifetime(files) {}
    }

    /// Made after the start (no config yet): its parent is watched until it appears.
    @Test func aFolderMadeLaterIsWatchedFromThen() async throws {
        let calls = Calls()
        let files = try start(calls)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        try await Task.sleep(for: .milliseconds(100))
        try write("[reminders]\n")
        #expect(try await waitFor(1, calls).count >= 1)
        try write("[reminders]\nbefore = 1h\n")
        let seen = try await waitFor(2, calls)
        #expect(seen.count >= 2)
        withExtendedLifetime(files) {}
    }
}
