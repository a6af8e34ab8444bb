import Foundation
import Testing
@testable import NudgeTestSupport

/// What the harnesses start ends with the test process, even when it crashes (`DeathWatch`).
struct HarnessCleanupTests {
    static let crasher = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("nudge-test-crash").path

    @Test func whatAKilledTestProcessStartedEndsWithItAndItsFoldersGo() throws {
        let folder = TemporaryDirectory()
        let fds = try ChildProcess.makePipe()
        let started = Result { try ChildProcess(Self.crasher, [], environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"],
                                                stdout: fds[1], log: folder.file("crasher.log")) }
        close(fds[1])
        defer { close(fds[0]) }
        let crasher = try started.get()
        var lines: [String] = []
        while lines.last != "ready" {
            let line = ChildProcess.readAll(fds[0], line: true)
            guard !line.isEmpty else { break }
            lines.append(line.trimmingCharacters(in: .newlines))
        }
        let log = (try? String(contentsOfFile: folder.file("crasher.log"), encoding: .utf8)) ?? ""
        try #require(lines.last == "ready", "\(lines); stderr: \(log)")
        let named = lines.filter { $0.hasPrefix("child ") }.map { $0.split(separator: " ").dropFirst() }
        let children = named.compactMap { $0.first.flatMap { pid_t($0) } }
        let folders = lines.compactMap { $0.hasPrefix("folder ") ? String($0.dropFirst(7)) : nil }
        // The death watch's group leader (sleep) and watcher (sh), the bus, the X server, dunst,
        // the tests' journald and a sleep in its namespace.
        #expect(named.map { $0.dropFirst().joined(separator: " ") }.sorted()
                == ["Xvfb", "dbus-daemon", "dunst", "sh", "sleep", "sleep", "systemd-journal"], "\(lines)")
        // The crasher's own, the notification server's and the journald's.
        #expect(folders.count == 3, "\(lines)")
        // Alive, though the thread that started some of them has ended.
        let starts = children.map { CrashingTestProcess.processStat($0)?.start }
        #expect(starts.allSatisfy { $0 != nil }, "\(lines)")
        #expect(folders.allSatisfy { FileManager.default.fileExists(atPath: $0) })

        // As the OOM killer or a timeout would: no code of the process runs after this.
        crasher.send(SIGKILL)
        #expect(crasher.wait(timeout: 5) != nil)

        let gone = { (index: Int) -> Bool in
            // No such process, one that exited and waits for init to reap it, or another one
            // that got the number.
            guard let stat = CrashingTestProcess.processStat(children[index]) else { return true }
            return stat.state == "Z" || stat.start != starts[index]
        }
        #expect(NotificationServerHarness.waitUntil(timeout: 5) { children.indices.allSatisfy(gone) },
                "still running: \(children.indices.filter { !gone($0) }.map { children[$0] })")
        #expect(NotificationServerHarness.waitUntil(timeout: 5) { folders.allSatisfy { !FileManager.default.fileExists(atPath: $0) } },
                "left: \(folders.filter { FileManager.default.fileExists(atPath: $0) })")
    }

    @Test func foldersOfATestProcessThatIsGoneAreSweptAndOthersKept() throws {
        // A process id that no process has: a child that ended and was reaped.
        let ended = try ChildProcess("/bin/true", [], environment: [:])
        try #require(ended.wait(timeout: 5) != nil)
        let stale = DeathWatch.folderStem(of: ended.pid) + "sweep"
        try FileManager.default.createDirectory(atPath: stale + "/inside", withIntermediateDirectories: true)
        let mine = TemporaryDirectory()

        DeathWatch.sweep()
        #expect(!FileManager.default.fileExists(atPath: stale))
        #expect(FileManager.default.fileExists(atPath: mine.path))
    }
}
