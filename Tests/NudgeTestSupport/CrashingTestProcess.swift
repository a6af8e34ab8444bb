import Foundation

/// A stand-in for a test process that crashes, run by HarnessCleanupTests as the executable
/// `nudge-test-crash`: it starts a folder, the notification server's bus, X server and dunst
/// (from a thread that has ended by the crash), the tests' journald and a process in its
/// namespace, prints `child PID NAME` for each of its children, `folder PATH` for each of its
/// folders and `ready`, and waits to be killed.
public enum CrashingTestProcess {
    private final class Started: @unchecked Sendable {
        var server: NotificationServerHarness?
        var error: (any Error)?
    }

    public static func main() -> Never {
        do {
            let folder = TemporaryDirectory()
            let started = Started()
            let thread = Thread {
                do { started.server = try NotificationServerHarness() } catch { started.error = error }
            }
            thread.start()
            while !thread.isFinished { usleep(10_000) }
            if let error = started.error { throw error }
            try JournaldHarness.shared.acquire()
            let sleeper = try JournaldHarness.shared.perform { try ChildProcess("/bin/sleep", ["1000"], environment: [:]) }

            var lines = children(of: getpid()).map { pid in
                let name = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? "?"
                return "child \(pid) " + name.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            let names = try FileManager.default.contentsOfDirectory(atPath: "/tmp")
            lines += names.map { "/tmp/" + $0 }.filter { $0.hasPrefix(DeathWatch.shared.folderStem) }.map { "folder \($0)" }
            FileHandle.standardOutput.write(Data((lines + ["ready"]).joined(separator: "\n").utf8 + [UInt8(ascii: "\n")]))
            while true {
                pause()
                withExtendedLifetime((folder, started, sleeper)) {}
            }
        } catch {
            FileHandle.standardOutput.write(Data("error \(error)\n".utf8))
            exit(1)
        }
    }

    /// The processes whose parent is `pid`, from /proc.
    static func children(of pid: pid_t) -> [pid_t] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return names.compactMap { pid_t($0) }.filter { processStat($0)?.parent == pid }.sorted()
    }

    /// A process's state letter, parent and start time (in clock ticks after boot), from
    /// /proc/PID/stat; nil when there is no such process.
    static func processStat(_ pid: pid_t) -> (state: Character, parent: pid_t, start: UInt64)? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        // After "PID (COMM) ": state, ppid, ... starttime is the 22nd field, the 20th after comm.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count >= 20, let state = fields[0].first, let parent = pid_t(fields[1]),
              let start = UInt64(fields[19]) else { return nil }
        return (state, parent, start)
    }
}
