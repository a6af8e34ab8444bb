import Foundation
import Synchronization
import Testing

/// A systemd-journald for tests that need one. When nothing accepts entries on the journal
/// socket (as on a machine without systemd as PID 1), the first test to need it starts
/// `/lib/systemd/systemd-journald` (which needs root), and the last one to finish stops that
/// process, by its pid. A journald that was already running is used and left alone.
///
/// Use it as a trait: `@Suite(.journald)` or `@Test(.journald)`.
final class JournaldHarness: Sendable {
    static let shared = JournaldHarness()
    static let socketPath = "/run/systemd/journal/socket"
    static let program = "/lib/systemd/systemd-journald"

    private struct State {
        var users = 0
        var started: pid_t?
    }

    private let state = Mutex(State())

    func acquire() throws {
        try state.withLock { state throws in
            if state.started == nil && !Self.isAccepting() {
                state.started = try Self.start()
            }
            state.users += 1
        }
    }

    func release() {
        state.withLock { state in
            state.users -= 1
            guard state.users == 0, let pid = state.started else { return }
            kill(pid, SIGTERM)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            state.started = nil
        }
    }

    /// Whether a journald takes datagrams on the socket; a socket file left by a stopped one
    /// refuses them.
    static func isAccepting() -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { path in
            path.copyBytes(from: socketPath.utf8)
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
            }
        }
    }

    private static func start() throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] {
            posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == STDIN_FILENO ? O_RDONLY : O_WRONLY, 0)
        }
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup(program), nil]
        defer { argv.forEach { free($0) } }
        // An environment of its own: `environ` may be changing under other tests (setenv).
        let environment: [UnsafeMutablePointer<CChar>?] = [strdup("PATH=/usr/sbin:/usr/bin:/sbin:/bin"), nil]
        defer { environment.forEach { free($0) } }
        let spawned = posix_spawn(&pid, program, &actions, nil, argv, environment)
        guard spawned == 0 else { throw HarnessError("could not start \(program): \(String(cString: strerror(spawned)))") }

        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            if isAccepting() { return pid }
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                throw HarnessError("\(program) exited at once (wait status \(status)); it needs root")
            }
            usleep(20_000)
        }
        kill(pid, SIGTERM)
        waitpid(pid, nil, 0)
        throw HarnessError("\(program) did not open \(socketPath) within 5 s")
    }
}

/// Runs a test or suite with a journald accepting entries.
struct JournaldTrait: SuiteTrait, TestTrait, TestScoping {
    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        try JournaldHarness.shared.acquire()
        defer { JournaldHarness.shared.release() }
        try await function()
    }
}

extension Trait where Self == JournaldTrait {
    static var journald: Self { Self() }
}
