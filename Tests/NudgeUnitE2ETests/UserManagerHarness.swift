import Foundation
@testable import NudgeTestSupport

/// A real `systemd --user` manager (systemd 252) for a throwaway user, started by
/// `user-manager.sh` beside this file: the user, a delegated cgroup, a private mount namespace
/// in which only the manager's world has /run/systemd/system and a journald of its own.
///
///     let manager = try UserManagerHarness(user: "nudge-e2e-\(getpid())")
///     try manager.run("systemctl", "--user", "start", "nudge")      // as the user, on its bus
///     try manager.runAsRoot("journalctl", "_UID=\(manager.uid)")     // in its namespace
///
/// The script waits on a pipe only this process writes to: `stop()`, or this process's end
/// (even a crash), makes it remove the user, the cgroups, the journald and `extraFolders`.
/// It runs in a process group of its own, so the `DeathWatch` SIGKILL of the test's children
/// cannot stop it before it has cleaned up. Needs root.
final class UserManagerHarness {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("user-manager.sh").path

    let user: String
    let managerPID: pid_t
    let uid: String
    let home: String
    let work = TemporaryDirectory()
    private let scriptPID: pid_t
    private var writer: Int32

    init(user: String, extraFolders: [String] = []) throws {
        self.user = user
        chmod(work.path, 0o755)
        let input = try ChildProcess.makePipe()
        let output = try ChildProcess.makePipe()
        let workPath = work.path
        let log = work.file("harness.log")
        let started = Result {
            try ChildProcess.spawn("/bin/bash", [Self.script, user, workPath] + extraFolders,
                                   environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8"],
                                   stdin: input[0], stdout: output[1], log: log, processGroup: 0)
        }
        close(input[0])
        close(output[1])
        defer { close(output[0]) }
        writer = input[1]
        guard case .success(let pid) = started else {
            close(input[1])
            throw HarnessError("cannot start \(Self.script)")
        }
        scriptPID = pid
        let words = ChildProcess.readAll(output[0], line: true).trimmingCharacters(in: .whitespacesAndNewlines)
            .split(separator: " ").map(String.init)
        guard words.count == 4, words[0] == "ready", let manager = pid_t(words[1]) else {
            close(writer)
            writer = -1
            waitpid(pid, nil, 0)
            let log = (try? String(contentsOfFile: work.file("harness.log"), encoding: .utf8)) ?? ""
            throw HarnessError("no user manager: \(words.joined(separator: " ")) \(log)")
        }
        (managerPID, uid, home) = (manager, words[2], words[3])
    }

    deinit { stop() }

    /// Stops the manager and removes everything; waits for it.
    func stop() {
        guard writer >= 0 else { return }
        close(writer)
        writer = -1
        var status: Int32 = 0
        while waitpid(scriptPID, &status, 0) < 0 && errno == EINTR {}
    }

    /// The user's environment in a session: its runtime folder and bus.
    var userEnvironment: [String: String] {
        ["HOME": home, "USER": user, "LOGNAME": user, "PATH": "/usr/local/bin:/usr/bin:/bin",
         "XDG_RUNTIME_DIR": "/run/user/\(uid)", "DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/\(uid)/bus",
         "LANG": "C.UTF-8", "TZ": "UTC", "SYSTEMD_PAGER": "", "SYSTEMD_COLORS": "0"]
    }

    /// Runs a command as the user, in the manager's namespace, with the session's environment.
    @discardableResult
    func run(_ arguments: String...) throws -> Run {
        try run(arguments)
    }

    func run(_ arguments: [String]) throws -> Run {
        let environment = userEnvironment.map { "\($0.key)=\($0.value)" }
        return try ChildProcess.run("/usr/bin/nsenter", ["-t", String(managerPID), "-m", "--", "/usr/sbin/runuser", "-u", user, "--",
                                                         "/usr/bin/env", "-i"] + environment + arguments,
                                    environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"])
    }

    /// Runs a command as the user; throws with its stderr when it fails.
    func must(_ arguments: String...) throws {
        let run = try run(arguments)
        guard run.status == 0 else { throw HarnessError("\(arguments.joined(separator: " ")): exit \(run.status): \(run.stderr)") }
    }

    /// Writes `text` to a file in `work` that the user may read, for it to copy.
    func share(_ text: String, as name: String) throws {
        try text.write(toFile: work.file(name), atomically: true, encoding: .utf8)
        chmod(work.file(name), 0o644)
    }

    /// Runs a command as root in the manager's namespace (journalctl reads its journal there).
    @discardableResult
    func runAsRoot(_ arguments: String...) throws -> Run {
        try ChildProcess.run("/usr/bin/nsenter", ["-t", String(managerPID), "-m", "--"] + arguments,
                             environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8", "SYSTEMD_PAGER": ""])
    }

    /// `systemctl --user status` of a unit, for failure messages.
    func status(_ unit: String = "nudge.service") -> String {
        ((try? run("systemctl", "--user", "status", "--no-pager", unit).stdout) ?? "")
    }

    /// The messages of the journal entries matching `matches`, for failure messages.
    func messages(_ matches: [String]) -> [String] {
        ((try? journal(matches)) ?? []).compactMap { $0["MESSAGE"] as? String }
    }

    /// One property of a unit, as `systemctl --user show -p NAME --value` prints it.
    func property(_ name: String, of unit: String = "nudge.service") throws -> String {
        try run("systemctl", "--user", "show", "-p", name, "--value", unit).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Journal entries of this user, as JSON objects, matching `matches` (journalctl's FIELD=VALUE).
    func journal(_ matches: [String]) throws -> [[String: Any]] {
        let run = try ChildProcess.run("/usr/bin/nsenter", ["-t", String(managerPID), "-m", "--", "journalctl", "--no-pager",
                                                            "-o", "json", "_UID=\(uid)"] + matches,
                                       environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8"])
        return run.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }
}
