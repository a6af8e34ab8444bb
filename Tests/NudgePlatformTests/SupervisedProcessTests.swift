import Foundation
import NudgePlatform
import Testing
@testable import NudgeTestSupport

/// Real child processes watched on a queue. Not rerun under faketime (Makefile): the deadline
/// is a dispatch timer, which a faked monotonic clock breaks.
struct SupervisedProcessTests {
    let queue = DispatchQueue(label: "nudge.test.supervised")
    let folder = TemporaryDirectory()

    struct Ended: Sendable {
        var pid: pid_t
        var status: WaitStatus
        var timedOut: Bool
        /// Turns of the queue taken while the child ran: the queue was never blocked.
        var turns: Int
    }

    /// Runs `script` under sh, killed after `timeout` seconds.
    func supervise(_ script: String, timeout: Double = 10, usesPidfd: Bool = true) async throws -> Ended {
        let queue = queue
        return try await withCheckedThrowingContinuation { continuation in
            queue.async {
                var process: SupervisedProcess?
                var turns = 0
                let ticker = DispatchSource.makeTimerSource(queue: queue)
                ticker.schedule(deadline: .now(), repeating: .milliseconds(10))
                ticker.setEventHandler { turns += 1 }
                ticker.resume()
                do {
                    process = try SupervisedProcess(Spawn(["/bin/sh", "-c", script]), queue: queue, deadline: .now() + timeout,
                                                    usesPidfd: usesPidfd) { status in
                        ticker.cancel()
                        // Non-nil: the exit comes on the queue, after the assignment.
                        continuation.resume(returning: Ended(pid: process!.pid, status: status, timedOut: process!.timedOut,
                                                             turns: turns))
                        process = nil
                    }
                } catch {
                    ticker.cancel()
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    /// Whether `pid` is gone or a zombie that is not ours to reap (init reaps it).
    func isGone(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
        return stat.split(separator: ")").last?.split(separator: " ").first == "Z"
    }

    @Test func theExitCodeIsDecodedAndAStatusOf139IsNotACrash() async throws {
        let failed = try await supervise("exit 3")
        #expect(failed.status == .exited(3) && failed.status.shellStatus == 3 && failed.status.signal == nil)
        let high = try await supervise("exit 139")
        #expect(high.status == .exited(139) && high.status.signal == nil)
        #expect(try await supervise("true").status == .exited(0))
    }

    @Test func aSignalIsDecodedAsAShellSaysIt() async throws {
        let ended = try await supervise("kill -TERM $$")
        #expect(ended.status == .signalled(SIGTERM))
        #expect(ended.status.shellStatus == 143 && ended.status.signal == SIGTERM)
        #expect(!ended.timedOut)
    }

    @Test func theDeadlineKillsTheWholeProcessGroup() async throws {
        let pids = folder.file("pids")
        let ended = try await supervise("sleep 60 & echo $! > \(pids); sleep 60", timeout: 0.5)
        #expect(ended.status == .signalled(SIGKILL) && ended.timedOut)
        let child = try #require(pid_t(String(contentsOfFile: pids, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(NotificationServerHarness.waitUntil(timeout: 5) { isGone(child) })
    }

    @Test func aChildThatIgnoresSIGTERMIsKilledAtTheDeadline() async throws {
        let ended = try await supervise("trap '' TERM; kill -TERM $$; sleep 60", timeout: 0.5)
        #expect(ended.status == .signalled(SIGKILL) && ended.timedOut)
    }

    @Test func whatTheChildLeftRunningInItsGroupGoesWithIt() async throws {
        let pids = folder.file("pids")
        let ended = try await supervise("sleep 60 & echo $! > \(pids)")
        #expect(ended.status == .exited(0) && !ended.timedOut)
        let child = try #require(pid_t(String(contentsOfFile: pids, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(NotificationServerHarness.waitUntil(timeout: 5) { isGone(child) })
    }

    @Test(arguments: [true, false])
    func theChildIsReapedAndTheQueueNeverWaits(usesPidfd: Bool) async throws {
        let ended = try await supervise("sleep 0.3; exit 5", usesPidfd: usesPidfd)
        #expect(ended.status == .exited(5))
        // Reaped: no zombie left, and no child of that pid any more.
        #expect(isGone(ended.pid) && !FileManager.default.fileExists(atPath: "/proc/\(ended.pid)"))
        var status: Int32 = 0
        #expect(waitpid(ended.pid, &status, WNOHANG) == -1 && errno == ECHILD)
        // The queue went on every 10 ms while the child ran 300 ms.
        #expect(ended.turns >= 5)
    }

    @Test func aProgramThatCannotStartIsASpawnError() throws {
        #expect(throws: SpawnError(program: "/nonexistent/program", errno: .noSuchFile)) {
            try Spawn(["/nonexistent/program"]).start()
        }
        #expect(SpawnError(program: "x", errno: .noSuchFile).description == "cannot start x: No such file or directory")
    }

    @Test func pipesCarryTheChildsOutputAndOnlyItsStandardDescriptorsAreOpen() throws {
        var spawn = Spawn(["/bin/sh", "-c", "ls /proc/$$/fd; echo done >&2"])
        (spawn.stdout, spawn.stderr) = (.pipe, .pipe)
        let child = try spawn.start()
        let stdout = try #require(child.stdout), stderr = try #require(child.stderr)
        defer {
            try? stdout.close()
            try? stderr.close()
        }
        #expect(child.stdin == nil)
        _ = NotificationServerHarness.waitUntil(timeout: 5) { (try? reap(child.pid, blocking: false)) != nil }
        let listed = ChildProcess.readAll(stdout.rawValue).split(separator: "\n")
        // The shell's, not those of the test process (without O_CLOEXEC, some are inherited).
        #expect(listed == ["0", "1", "2"])
        #expect(ChildProcess.readAll(stderr.rawValue) == "done\n")
    }
}
