import Foundation
import Synchronization
import Testing

/// The tests' own journal: a systemd-journald in a `JournalNamespace`, so that nothing a test
/// logs reaches the machine's journal (a developer's `journalctl`), and nothing there is read
/// back as a test's. The first test to need it starts `/lib/systemd/systemd-journald` (as
/// root), the last one to finish stops it.
///
/// What should log to it or read it runs through `perform` (or `run`): a `nudged` under test,
/// `nudge history`, journalctl, or in-process calls of sd-journal.
///
///     let daemon = try JournaldHarness.shared.perform { try ChildProcess(nudged, [], environment: ...) }
///     let history = try JournaldHarness.shared.run(nudge, ["history", "3"], environment: ...)
///     let entries = try JournaldHarness.shared.perform { try JournalReader.entries(matching: ...) }
///
/// Use it as a trait: `@Suite(.journald)` or `@Test(.journald)`.
final class JournaldHarness: Sendable {
    static let shared = JournaldHarness()
    static let socketPath = "/run/systemd/journal/socket"
    static let program = "/lib/systemd/systemd-journald"

    private struct State {
        var namespace: JournalNamespace?
        var users = 0
        var journald: ChildProcess?
        var folder: TemporaryDirectory?
    }

    private let state = Mutex(State())

    func acquire() throws {
        try state.withLock { state throws in
            let namespace = try Self.namespace(&state)
            if state.journald == nil {
                let folder = state.folder ?? TemporaryDirectory()
                state.folder = folder
                state.journald = try Self.start(in: namespace, log: folder.file("journald.log"))
            }
            state.users += 1
        }
    }

    func release() {
        state.withLock { state in
            state.users -= 1
            guard state.users == 0 else { return }
            state.journald?.stop()
            state.journald = nil
        }
    }

    /// Runs `body` where the tests' journal is the journal, and returns what it returns.
    @discardableResult
    func perform<T>(_ body: @escaping () throws -> T) throws -> T {
        let namespace = try state.withLock { state throws in try Self.namespace(&state) }
        return try namespace.perform(body)
    }

    /// Runs a command to its end in the tests' journal and returns what it did. Only its start
    /// waits for the namespace's thread.
    func run(_ path: String, _ arguments: [String], environment: [String: String]) throws -> Run {
        try ChildProcess.run(path, arguments, environment: environment) { start in try perform(start) }
    }

    private static func namespace(_ state: inout State) throws -> JournalNamespace {
        if let namespace = state.namespace { return namespace }
        let namespace = try JournalNamespace()
        state.namespace = namespace
        return namespace
    }

    private static func start(in namespace: JournalNamespace, log: String) throws -> ChildProcess {
        try namespace.perform {
            // Its own messages go to its stderr: by default they go to the kernel log, which the
            // machine's journald copies.
            let journald = try ChildProcess(program, [], environment: [
                "PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "SYSTEMD_LOG_TARGET": "console",
            ], log: log)
            let deadline = Date().addingTimeInterval(5)
            while Date() < deadline {
                if isAccepting() { return journald }
                if !journald.isRunning {
                    throw HarnessError("\(program) exited at once (wait status \(journald.exitStatus ?? 0)); it needs root: "
                                       + ((try? String(contentsOfFile: log, encoding: .utf8)) ?? ""))
                }
                usleep(20_000)
            }
            throw HarnessError("\(program) did not open \(socketPath) within 5 s")
        }
    }

    /// Whether a journald takes datagrams on the socket, as seen by the calling thread; a socket
    /// file left by a stopped one refuses them.
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
}

/// The machine's own journald, for the tests that check that nothing of theirs reaches it:
/// the one listening on /run/systemd/journal/socket, or else (as on a machine without
/// systemd as PID 1) one started for them as root, stopped by its pid after the last of them,
/// with the files it made removed. A journald that was already running is used and left alone.
final class MachineJournaldHarness: Sendable {
    static let shared = MachineJournaldHarness()
    /// Where a journald makes its sockets and its volatile journal.
    static let folders = ["/run/systemd/journal", "/run/log/journal"]

    private struct State {
        var users = 0
        var journald: ChildProcess?
        var folder: TemporaryDirectory?
        /// What was in `folders` before the journald started here made its files.
        var before: Set<String> = []
    }

    private let state = Mutex(State())

    func acquire() throws {
        try state.withLock { state throws in
            if state.journald == nil && !JournaldHarness.isAccepting() {
                state.before = Self.contents()
                let folder = TemporaryDirectory()
                state.folder = folder
                let log = folder.file("journald.log")
                let journald = try ChildProcess(JournaldHarness.program, [], environment: [
                    "PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "SYSTEMD_LOG_TARGET": "console",
                ], log: log)
                state.journald = journald
                guard NotificationServerHarness.waitUntil(timeout: 5, { JournaldHarness.isAccepting() || !journald.isRunning }),
                      journald.isRunning else {
                    Self.stop(&state)
                    throw HarnessError("\(JournaldHarness.program) did not open \(JournaldHarness.socketPath); it needs root: "
                                       + ((try? String(contentsOfFile: log, encoding: .utf8)) ?? ""))
                }
            }
            state.users += 1
        }
    }

    func release() {
        state.withLock { state in
            state.users -= 1
            if state.users == 0 { Self.stop(&state) }
        }
    }

    private static func stop(_ state: inout State) {
        guard let journald = state.journald else { return }
        journald.stop()
        state.journald = nil
        for path in contents().subtracting(state.before) {
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    private static func contents() -> Set<String> {
        Set(folders.flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).map { folder + "/" + $0 }
        })
    }
}

/// Runs a test or suite with the tests' journald accepting entries.
struct JournaldTrait: SuiteTrait, TestTrait, TestScoping {
    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        try JournaldHarness.shared.acquire()
        defer { JournaldHarness.shared.release() }
        try await function()
    }
}

/// Runs a test or suite with a journald of the machine's accepting entries.
struct MachineJournaldTrait: SuiteTrait, TestTrait, TestScoping {
    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        try MachineJournaldHarness.shared.acquire()
        defer { MachineJournaldHarness.shared.release() }
        try await function()
    }
}

extension Trait where Self == JournaldTrait {
    static var journald: Self { Self() }
}

extension Trait where Self == MachineJournaldTrait {
    static var machineJournald: Self { Self() }
}
