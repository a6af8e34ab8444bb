import Foundation
import Testing
@testable import NudgeTestSupport

/// One end-to-end world for `nudged`: a private session bus with dunst under Xvfb
/// (`NotificationServerHarness`), a temporary database and config file, the real `nudge` CLI
/// to add todos, and the real `nudged` started as a child with a clean signal mask.
///
///     let world = try NudgedWorld(config: NudgedWorld.quietConfig)
///     let due = world.secondsAhead(2)
///     let id = try world.add("Buy milk", due: due)
///     let daemon = try world.startDaemon()
///     let shown = try await world.waitForRecords(count: 1)   // what dunst received
///     let entries = try world.journal(of: daemon)            // what nudged logged
///
/// Every child runs with TZ=UTC, so due times are written and read in UTC. `nudged`'s stderr
/// goes to `nudged.log` in `folder` (appended across restarts). `nudged`, `nudge` and
/// journalctl run in the tests' own journal (`JournaldHarness`), never the machine's.
final class NudgedWorld {
    /// Only the reminder at the due time: no early reminders, no nagging, no digest.
    static let quietConfig = """
        [reminders]
        before = none
        nag_every = off
        [digest]
        enabled = no

        """

    /// The folder of the test bundle, where SwiftPM also puts `nudge` and `nudged`.
    static let binaries: URL = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    static let nudgeBinary = binaries.appendingPathComponent("nudge").path
    static let nudgedBinary = binaries.appendingPathComponent("nudged").path

    let server: NotificationServerHarness
    let folder = TemporaryDirectory()
    /// When the world was made: journal entries older than this belong to other runs.
    let started = Date()

    /// The database, in a folder of its own (as ~/.local/share/nudge), or beside the config file.
    let database: String
    /// The config file, in a folder of its own (as ~/.config/nudge).
    let configPath: String
    var daemonLogPath: String { folder.file("nudged.log") }
    /// Every `nudged` started, kept running until the world goes away.
    private(set) var daemons: [ChildProcess] = []

    /// `nudge` and `nudged` run in the mount namespace of this process, when set (nsenter).
    let mountNamespace: pid_t?

    /// `databaseFolder`: a folder of the caller's for the database, e.g. a small file system
    /// mounted in the namespace of `mountNamespace`.
    init(config: String = NudgedWorld.quietConfig, startingServer: Bool = true, databaseBesideConfig: Bool = false,
         databaseFolder: String? = nil, mountNamespace: pid_t? = nil) throws {
        self.mountNamespace = mountNamespace
        server = try NotificationServerHarness(startingServer: startingServer)
        for name in ["config", "data"] {
            try FileManager.default.createDirectory(atPath: folder.file(name), withIntermediateDirectories: true)
        }
        configPath = folder.file("config/nudge.conf")
        database = databaseFolder.map { $0 + "/nudge.db" } ?? folder.file((databaseBesideConfig ? "config" : "data") + "/nudge.db")
        try writeConfig(config)
    }

    deinit {
        // Before the bus goes.
        daemons.forEach { $0.stop() }
    }

    /// Replaces the config file at once (write to a temporary name, then rename), as editors do.
    func writeConfig(_ text: String) throws {
        try text.write(toFile: configPath, atomically: true, encoding: .utf8)
    }

    // MARK: The CLI

    private var childEnvironment: [String: String] {
        ["PATH": "/usr/bin:/bin", "HOME": folder.path, "LANG": "C.UTF-8", "TZ": "UTC",
         "NUDGE_DB": database, "NUDGE_CONFIG": configPath]
    }

    /// Runs `nudge`, in the tests' journal, where `nudge history` reads.
    @discardableResult
    func nudge(_ arguments: String...) throws -> Run {
        try nudge(arguments)
    }

    func nudge(_ arguments: [String]) throws -> Run {
        let (path, arguments) = inNamespace(Self.nudgeBinary, arguments)
        return try JournaldHarness.shared.run(path, arguments, environment: childEnvironment)
    }

    /// The command line that runs `path` in `mountNamespace`; nsenter execs it, in its own pid.
    func inNamespace(_ path: String, _ arguments: [String]) -> (path: String, arguments: [String]) {
        guard let mountNamespace else { return (path, arguments) }
        return ("/usr/bin/nsenter", ["-t", String(mountNamespace), "-m", "--", path] + arguments)
    }

    /// Adds a todo due at `due` (whole seconds) and returns its id.
    @discardableResult
    func add(_ title: String, due: Date, _ more: String...) throws -> Int {
        let run = try nudge(["add", title, "--due", Self.dueText(due), "--json"] + more)
        guard run.status == 0 else { throw HarnessError("nudge add failed (\(run.status)): \(run.stderr)") }
        return try #require(try run.object()["id"] as? Int, "no id in \(run.stdout)")
    }

    /// `nudge show ID --json`.
    func todo(_ id: Int) throws -> [String: Any] {
        let run = try nudge("show", String(id), "--json")
        guard run.status == 0 else { throw HarnessError("nudge show \(id) failed: \(run.stderr)") }
        return try run.object()
    }

    /// "2026-11-29 10:53:07": how `--due` takes a moment to the second, in UTC.
    static func dueText(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter.string(from: date)
    }

    /// A moment on a whole second, at least `seconds` from now.
    func secondsAhead(_ seconds: Int) -> Date {
        Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + Double(seconds)).rounded(.up))
    }

    /// Reads the `2026-11-29T10:53:07+00:00` form `--json` prints.
    static func date(fromJSON text: Any?) -> Date? {
        guard let text = text as? String else { return nil }
        return ISO8601DateFormatter().date(from: text)
    }

    // MARK: The service

    /// Starts `nudged` with the bus of this world, stderr appended to `nudged.log`. It runs
    /// until stopped or the world goes away.
    @discardableResult
    func startDaemon(environment more: [String: String] = [:]) throws -> ChildProcess {
        var environment = childEnvironment.merging(server.environment) { $1 }
        environment.merge(more) { $1 }
        let log = daemonLogPath
        let (path, arguments) = inNamespace(Self.nudgedBinary, [])
        let daemon = try JournaldHarness.shared.perform {
            try ChildProcess(path, arguments, environment: environment, log: log)
        }
        daemons.append(daemon)
        return daemon
    }

    /// Starts `nudged` and waits until it has planned for the first time, so that a todo added
    /// next is seen while it runs, however slowly a loaded machine started it.
    @discardableResult
    func startDaemonAndWait(environment more: [String: String] = [:]) async throws -> ChildProcess {
        let daemon = try startDaemon(environment: more)
        _ = try await waitForEvent("planned", of: daemon, timeout: 20)
        return daemon
    }

    /// What `nudged` wrote to stderr so far.
    var daemonLog: String {
        (try? String(contentsOfFile: daemonLogPath, encoding: .utf8)) ?? ""
    }

    /// Journal entries of the `nudged` process `daemon` since this world was made, oldest first
    /// (`journalctl -o json _PID=... SYSLOG_IDENTIFIER=nudged`, plus any other matches).
    func journal(of daemon: ChildProcess, matching: [String: String] = [:]) throws -> [[String: String]] {
        try Self.journal(["_PID": String(daemon.pid), "SYSLOG_IDENTIFIER": "nudged"].merging(matching) { $1 }, since: started)
    }

    static func journal(_ matches: [String: String], since: Date) throws -> [[String: String]] {
        let microseconds = UInt64(since.timeIntervalSince1970 * 1_000_000)
        let arguments = ["-o", "json", "--no-pager"] + matches.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let output = try JournaldHarness.shared.run("/usr/bin/journalctl", arguments,
                                                    environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]).stdout
        return output.split(separator: "\n").compactMap { line -> [String: String]? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            var entry: [String: String] = [:]
            for (key, value) in object {
                if let text = value as? String {
                    entry[key] = text
                } else if let bytes = value as? [Int] {
                    // journalctl prints values it finds unprintable as arrays of bytes.
                    entry[key] = String(decoding: bytes.map { UInt8(truncatingIfNeeded: $0) }, as: UTF8.self)
                }
            }
            guard let stamp = entry["__REALTIME_TIMESTAMP"].flatMap(UInt64.init), stamp >= microseconds else { return nil }
            return entry
        }
    }

    /// When the journal received `entry`.
    static func loggedAt(_ entry: [String: String]) -> Date? {
        guard let text = entry["__REALTIME_TIMESTAMP"], let microseconds = Double(text) else { return nil }
        return Date(timeIntervalSince1970: microseconds / 1e6)
    }

    /// Waits for a journal entry of `daemon` with NUDGE_EVENT=`event` (and the other matches).
    @discardableResult
    func waitForEvent(_ event: String, of daemon: ChildProcess, matching: [String: String] = [:],
                      timeout: Double = 5) async throws -> [String: String] {
        var found: [String: String]?
        let matches = matching.merging(["NUDGE_EVENT": event]) { $1 }
        _ = try await eventually(timeout: timeout) {
            found = try journal(of: daemon, matching: matches).last
            return found != nil
        }
        guard let found else {
            throw HarnessError("no '\(event)' event from nudged \(daemon.pid) in \(timeout) s; its journal: "
                               + ((try? journal(of: daemon).compactMap { $0["MESSAGE"] }.joined(separator: " | ")) ?? "")
                               + "; stderr: \(daemonLog)")
        }
        return found
    }

    /// Clicks the button matching `pattern` through dunst until nudged logs the action on
    /// todo `id`. Under load, dunst's context menu now and then comes up without the newest
    /// notification's buttons, and the click is lost; a second one then finds them.
    func click(_ pattern: String, onTodo id: Int, of daemon: ChildProcess) async throws {
        for attempt in 1...3 {
            try server.click(actionMatching: pattern)
            do {
                try await waitForEvent("action", of: daemon, matching: ["NUDGE_TODO_ID": String(id)], timeout: 3)
                return
            } catch where attempt < 3 {
                continue
            }
        }
    }

    // MARK: What dunst saw

    /// Waits up to `timeout` seconds for at least `count` notifications and returns them all.
    func waitForRecords(count: Int, timeout: Double = 5) async throws -> [[String: String]] {
        var found: [[String: String]] = []
        _ = try await eventually(timeout: timeout) {
            found = try server.records()
            return found.count >= count
        }
        guard found.count >= count else {
            let journal = daemons.map { daemon in
                "nudged \(daemon.pid): " + ((try? self.journal(of: daemon).compactMap { $0["MESSAGE"] }.joined(separator: " | ")) ?? "")
            }
            throw HarnessError("\(found.count) notifications recorded, wanted \(count); \(journal.joined(separator: "; ")); stderr: \(daemonLog)")
        }
        return found
    }

    /// When dunst's record script ran for `record`.
    static func shownAt(_ record: [String: String]) -> Date? {
        record["RECORDED_AT"].flatMap(Double.init).map(Date.init(timeIntervalSince1970:))
    }

    /// The summaries of the notifications dunst recorded, for messages.
    var summaries: [String] {
        ((try? server.records()) ?? []).map { $0["DUNST_SUMMARY"] ?? "" }
    }

    /// What dunst's dmenu script was given by `click` so far (one line per action).
    var menuLines: [String] {
        let text = (try? String(contentsOfFile: server.folder.file("pick-input"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }
}

/// Polls `condition` every 20 ms until it holds or `timeout` seconds passed; whether it held.
func eventually(timeout: Double, _ condition: () throws -> Bool) async throws -> Bool {
    let end = Date().addingTimeInterval(timeout)
    while true {
        if try condition() { return true }
        if Date() > end { return false }
        try await Task.sleep(for: .milliseconds(20))
    }
}

/// Polls `condition` for `duration` seconds and says whether it stayed true all along.
func staysTrue(for duration: Double, _ condition: () throws -> Bool) async throws -> Bool {
    let end = Date().addingTimeInterval(duration)
    while Date() < end {
        if try !condition() { return false }
        try await Task.sleep(for: .milliseconds(50))
    }
    return try condition()
}
