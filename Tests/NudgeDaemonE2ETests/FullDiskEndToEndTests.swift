import Foundation
import Testing
@testable import NudgeTestSupport

/// A 2 MB tmpfs in a mount namespace of its own, held by a sleeping child: `nudge` and
/// `nudged` run in that namespace (NudgedWorld's `mountNamespace`), the test reaches the tmpfs
/// through /proc/PID/root, and nothing is mounted on the host. It goes with the child.
final class SmallDisk {
    let mountPoint = TemporaryDirectory()
    let holder: ChildProcess
    /// The tmpfs, as processes outside the namespace see it.
    let path: String

    init() throws {
        // A copy of the tests' journal namespace, whose journald the processes in it reach.
        holder = try JournaldHarness.shared.perform { [mountPoint] in
            try ChildProcess("/usr/bin/unshare", ["-m", "--propagation", "private", "/bin/sh", "-c",
                                                  "mount -t tmpfs -o size=2M tmpfs \"$0\" && exec sleep 600", mountPoint.path],
                             environment: ["PATH": "/usr/bin:/bin"])
        }
        path = "/proc/\(holder.pid)/root" + mountPoint.path
        let mounted = NotificationServerHarness.waitUntil(timeout: 5) { [path, mountPoint] in
            var inside = stat(), outside = stat()
            return stat(path, &inside) == 0 && stat(mountPoint.path, &outside) == 0 && inside.st_dev != outside.st_dev
        }
        guard mounted else { throw HarnessError("no tmpfs mounted at \(path)") }
    }

    deinit {
        holder.stop()
    }

    var fillPath: String { path + "/fill" }

    /// Writes zeros until the file system is full.
    func fill() throws {
        _ = try ChildProcess.run("/usr/bin/dd", ["if=/dev/zero", "of=" + fillPath, "bs=4k"], environment: [:])
        var info = statvfs()
        guard statvfs(path, &info) == 0, info.f_bavail == 0 else { throw HarnessError("\(path) is not full") }
    }

    func free() throws {
        guard unlink(fillPath) == 0 else { throw HarnessError("cannot remove \(fillPath): \(String(cString: strerror(errno)))") }
    }
}

/// nudged on a full disk: a reminder that comes due cannot be recorded as fired. The service
/// stays up, logs the failure once, shows nothing; once space returns it fires the reminder at
/// its retry (30 s later), shows it once and records it.
@Suite(.journald)
struct FullDiskEndToEndTests {
    @Test func aReminderDueOnAFullDiskIsShownOnceWhenSpaceReturnsAndNudgedStaysUp() async throws {
        let disk = try SmallDisk()
        let world = try NudgedWorld(databaseFolder: disk.mountPoint.path, mountNamespace: disk.holder.pid)
        let daemon = try await world.startDaemonAndWait()
        let id = try world.add("Pay the rent", due: world.secondsAhead(4))
        // Planned while it could write: only the firing meets the full disk.
        try await world.waitForEvent("planned", of: daemon, matching: ["NUDGE_TODO_ID": String(id)])
        try disk.fill()

        let failure = try await world.waitForEvent("failed", of: daemon, timeout: 10)
        let message = failure["MESSAGE"] ?? ""
        #expect(message.hasPrefix("could not fire reminders: cannot write the database \(world.database): No space left on device"),
                "\(failure)")
        #expect(failure["PRIORITY"] == "3" && failure["SYSLOG_IDENTIFIER"] == "nudged", "\(failure)")
        #expect(failure["MESSAGE_ID"]?.count == 32 && failure["NUDGE_DATABASE_ID"]?.count == 32, "\(failure)")
        #expect(failure["NUDGE_TODO_ID"] == String(id), "\(failure)")
        // Nothing shown, nothing recorded, one failure: no loop, no crash.
        #expect(try await staysTrue(for: 3) { try daemon.isRunning && world.server.records().isEmpty },
                "records: \(world.summaries); nudged: \(world.daemonLog)")
        #expect(try world.journal(of: daemon, matching: ["NUDGE_EVENT": "failed"]).count == 1)
        #expect(try firings(world, id) == 0)

        try disk.free()
        let shown = try await world.waitForRecords(count: 1, timeout: 40)
        #expect(shown.first?["DUNST_SUMMARY"] == "Pay the rent", "\(shown)")
        try await world.waitForEvent("delivered", of: daemon, matching: ["NUDGE_TODO_ID": String(id)])
        #expect(try await staysTrue(for: 2) { try world.server.records().count == 1 }, "records: \(world.summaries)")
        #expect(daemon.isRunning, "nudged: \(world.daemonLog)")
        #expect(try world.journal(of: daemon, matching: ["NUDGE_EVENT": "fired", "NUDGE_TODO_ID": String(id)]).count == 1)
        #expect(try firings(world, id) == 1)
        let integrity = try sqlite(world, "PRAGMA integrity_check")
        #expect(integrity.stdout == "ok\n", "\(integrity.stdout)\(integrity.stderr)")
    }

    /// The firings the database holds for todo `id`.
    private func firings(_ world: NudgedWorld, _ id: Int) throws -> Int? {
        Int(try sqlite(world, "SELECT count(*) FROM firings WHERE todo_id = \(id)").stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    private func sqlite(_ world: NudgedWorld, _ query: String) throws -> Run {
        let (path, arguments) = world.inNamespace("/usr/bin/sqlite3", ["-readonly", world.database, query])
        return try ChildProcess.run(path, arguments, environment: [:])
    }
}
