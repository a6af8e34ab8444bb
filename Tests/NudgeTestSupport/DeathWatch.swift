import Foundation

/// What the harnesses start ends with the test process, however that process ends: a crashed
/// or killed one cannot clean up after itself, so a watcher outside it does.
///
/// Every `ChildProcess` joins one process group, led by a `sleep` that keeps the group alive.
/// The watcher, a shell in a group of its own, reads a socket that only the test process holds;
/// end of file means the test process is gone, and the watcher then kills the group (the
/// children, and what they started) and removes the process's folders,
/// /tmp/nudge-test-PID-* (`TemporaryDirectory`). PR_SET_PDEATHSIG would not do: it fires when
/// the spawning *thread* ends, and Swift Testing runs tests on threads that come and go.
///
/// Folders whose process is gone without its watcher having removed them are swept when the
/// next test process starts its watch.
final class DeathWatch: Sendable {
    static let shared = DeathWatch()

    /// The process group children join; 0 (each a group of its own) when the watch could not start.
    let processGroup: pid_t
    /// This process's end of the socket: never written, only closed, by the process's end.
    private let socket: Int32

    static let folderPrefix = "/tmp/nudge-test-"
    /// The start of the paths of this process's folders.
    var folderStem: String { Self.folderStem(of: getpid()) }

    /// The start of the paths of the folders of the test process `pid`.
    static func folderStem(of pid: pid_t) -> String { folderPrefix + "\(pid)-" }

    private init() {
        Self.sweep()
        var fds: [Int32] = [-1, -1]
        // Closed on exec from the start: a child started meanwhile by another thread must not
        // hold the socket, or the watcher would wait for that child too.
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
            Self.complain("socketpair: \(String(cString: strerror(errno)))")
            (processGroup, socket) = (0, -1)
            return
        }
        let environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        do {
            let leader = try ChildProcess.spawn("/bin/sleep", ["infinity"], environment: environment, processGroup: 0)
            let script = """
                trap '' HUP INT TERM
                cat > /dev/null
                kill -9 -\(leader)
                for attempt in 1 2 3 4 5; do rm -rf \(Self.folderStem(of: getpid()))* && break; sleep 0.2; done
                """
            _ = try ChildProcess.spawn("/bin/sh", ["-c", script], environment: environment, stdin: fds[1], processGroup: 0)
            close(fds[1])
            (processGroup, socket) = (leader, fds[0])
        } catch {
            Self.complain("\(error)")
            fds.forEach { close($0) }
            (processGroup, socket) = (0, -1)
        }
    }

    /// Removes the folders of test processes that no longer exist.
    static func sweep() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/tmp")) ?? []
        for name in names where ("/tmp/" + name).hasPrefix(folderPrefix) {
            let rest = name.dropFirst(folderPrefix.count - "/tmp/".count)
            guard let dash = rest.firstIndex(of: "-"), let pid = pid_t(rest[..<dash]), pid > 0 else { continue }
            // ESRCH: no such process (EPERM would mean one exists).
            if kill(pid, 0) != 0 && errno == ESRCH {
                try? FileManager.default.removeItem(atPath: "/tmp/" + name)
            }
        }
    }

    private static func complain(_ text: String) {
        let line = "nudge tests: no death watch, so children of a crashed test would live on: \(text)\n"
        _ = Array(line.utf8).withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
