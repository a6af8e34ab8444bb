import Foundation
import Testing
@testable import NudgeTestSupport

/// units/nudge.service under a real systemd 252 user manager, with the release binaries
/// installed for a throwaway user (`make check` builds them first): from `systemd-analyze
/// verify` through start, sandbox, notifications on dunst, reload, the watchdog and stop, to
/// the journal. One test, as each step needs the ones before. Needs root; takes about 2 min.
@Suite(.serialized)
struct NudgeUnitEndToEndTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let release = root.appendingPathComponent(".build/release")
    static let watchdogSeconds = 30.0

    @Test func theUnitRunsUnderARealUserManager() async throws {
        for name in ["nudge", "nudged"] {
            let path = Self.release.appendingPathComponent(name).path
            try #require(FileManager.default.isExecutableFile(atPath: path), "\(path) is missing: run `make release` first")
        }
        // Outside /tmp, which the unit's PrivateTmp= hides; removed by the harness, even after a crash.
        let bin = "/opt/nudge-unit-test-\(getpid())"
        let manager = try UserManagerHarness(user: "nudge-e2e-\(getpid() % 100_000)", extraFolders: [bin])
        defer { manager.stop() }
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        for name in ["nudge", "nudged"] {
            try #require(try ChildProcess.run("/usr/bin/install", ["-m", "0755", Self.release.appendingPathComponent(name).path, bin],
                                              environment: [:]).status == 0)
        }
        let unitText = try String(contentsOf: Self.root.appendingPathComponent("units/nudge.service"), encoding: .utf8)
            .replacingOccurrences(of: "@BINDIR@", with: bin)
        try manager.share(unitText, as: "nudge.service")
        let unitPath = manager.home + "/.config/systemd/user/nudge.service"
        try manager.must("install", "-D", "-m", "0644", manager.work.file("nudge.service"), unitPath)
        try manager.must("systemctl", "--user", "daemon-reload")

        // verify: clean, not a word about the unit.
        let verify = try manager.run("systemd-analyze", "--user", "verify", unitPath)
        #expect(verify.status == 0 && !(verify.stdout + verify.stderr).contains("nudge.service"), "\(verify.stdout)\(verify.stderr)")

        // dunst, a user unit on the same bus, on an X server of the test's.
        let display = try XServer()
        try writeDunstConfig(manager)
        try manager.must("systemd-run", "--user", "--unit=test-dunst", "--setenv=DISPLAY=\(display.name)", "/usr/bin/dunst")
        #expect(try await eventually(timeout: 10) {
            try manager.run("busctl", "--user", "status", "org.freedesktop.Notifications").status == 0
        }, "dunst did not take org.freedesktop.Notifications")

        // Type=notify: start returns once READY=1 came.
        let started = Date()
        let start = try manager.run("systemctl", "--user", "start", "nudge.service")
        try #require(start.status == 0, "start: \(start.stderr) \(manager.status())")
        #expect(try manager.property("ActiveState") == "active")
        #expect(try manager.property("SubState") == "running")
        #expect(try manager.property("StatusText") == "Nothing to remind")
        let pid = try manager.property("MainPID")

        // The sandbox is in force.
        let procStatus = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        #expect(procStatus.contains("\nSeccomp:\t2\n"), "\(procStatus)")
        #expect(procStatus.contains("\nNoNewPrivs:\t1\n"), "\(procStatus)")
        // ~/.local and ~/.local/share keep the usual 0755; only Nudge's own folder is 0700.
        let modes = try manager.run("stat", "-c", "%a", manager.home + "/.local", manager.home + "/.local/share",
                                    manager.home + "/.local/share/nudge").stdout
        #expect(modes == "755\n755\n700\n", "\(modes)")

        // STATUS= names the next reminder, the first that `nudge upcoming` lists, once the user
        // adds a todo.
        try manager.must("\(bin)/nudge", "add", "Water the plants", "--due", "in 20m")
        let upcoming = try manager.run("\(bin)/nudge", "upcoming", "--limit", "1", "--json").stdout
        let next = try #require((JSONSerialization.jsonObject(with: Data(upcoming.utf8)) as? [[String: Any]])?.first, "\(upcoming)")
        let title = next["todo"] is Int ? next["title"] as? String ?? "" : "daily digest"
        let expected = "Next: \(title) (\(next["rule"] as? String ?? ""))"
        #expect(try await eventually(timeout: 10) {
            try manager.property("StatusText").hasPrefix(expected)
        }, "STATUS=\((try? manager.property("StatusText")) ?? ""), not \(expected)")

        // A config file written after the start, in a folder that did not exist, is read.
        let config = "[reminders]\nbefore = none\nnag_every = off\n[digest]\nenabled = no\n"
        try manager.must("sh", "-c", "mkdir -p ~/.config/nudge && printf '\(config)' > ~/.config/nudge/nudge.conf")
        #expect(try await eventually(timeout: 10) {
            try manager.journal(["_SYSTEMD_USER_UNIT=nudge.service", "NUDGE_EVENT=reloaded"]).count >= 1
        }, "the new config file was not read")

        // A todo the user adds is delivered to dunst.
        let added = try manager.run("\(bin)/nudge", "add", "Buy milk", "--due", Self.utc(Date().addingTimeInterval(3)))
        try #require(added.status == 0, "\(added.stderr)")
        #expect(try await eventually(timeout: 15) {
            try manager.run("cat", manager.home + "/shown.log").stdout.contains("Buy milk")
        }, "not shown: \(manager.messages(["SYSLOG_IDENTIFIER=nudged"]))")

        // Reload works and is logged.
        let reload = try manager.run("systemctl", "--user", "reload", "nudge.service")
        #expect(reload.status == 0, "\(reload.stderr)")
        #expect(try await eventually(timeout: 10) {
            try manager.journal(["_SYSTEMD_USER_UNIT=nudge.service", "NUDGE_EVENT=reloaded"])
                .contains { ($0["MESSAGE"] as? String)?.contains("SIGHUP") == true }
        }, "no reload in the journal")

        // Twice WatchdogSec running: no watchdog kill, and at most one thread-priority line.
        let idle = 2 * Self.watchdogSeconds + 2 - Date().timeIntervalSince(started)
        if idle > 0 { try await Task.sleep(nanoseconds: UInt64(idle * 1e9)) }
        #expect(try manager.property("MainPID") == pid)
        #expect(try manager.property("NRestarts") == "0")
        let userManagerLines = try manager.journal(["_PID=\(manager.managerPID)"]).compactMap { $0["MESSAGE"] as? String }
        #expect(!userManagerLines.contains { $0.contains("Watchdog timeout") }, "\(userManagerLines)")
        let priorityLines = try manager.journal(["_PID=\(pid)"]).compactMap { $0["MESSAGE"] as? String }
            .filter { $0.contains("thread priority") }
        #expect(priorityLines.count <= 1, "\(priorityLines)")

        // A stopped process (no signal but SIGKILL acts) is replaced within WatchdogSec + 10 s.
        let stopped = Date()
        kill(pid_t(pid) ?? 0, SIGSTOP)
        #expect(try await eventually(timeout: Self.watchdogSeconds + 10) {
            let now = try manager.property("MainPID")
            let state = try manager.property("SubState")
            return now != pid && now != "0" && state == "running"
        }, "not replaced within \(Self.watchdogSeconds + 10) s: \(manager.status())")
        print("nudge e2e: a stopped nudged was replaced after \(Date().timeIntervalSince(stopped)) s")
        #expect(try manager.property("NRestarts") == "1")

        // The live security score stays under 2.0.
        let security = try manager.run("systemd-analyze", "--user", "security", "nudge.service").stdout
        let score = security.split(separator: "\n").first { $0.contains("Overall exposure level") }
            .flatMap { line in line.split(separator: " ").compactMap { Double($0) }.first }
        #expect(score != nil && score! < 2.0, "\(security)")
        print("nudge e2e: systemd-analyze security --user nudge.service: \(score.map { String($0) } ?? "none")")

        // Stop ends cleanly.
        let stop = try manager.run("systemctl", "--user", "stop", "nudge.service")
        #expect(stop.status == 0, "\(stop.stderr)")
        #expect(try manager.property("Result") == "success")
        #expect(try manager.property("ActiveState") == "inactive")

        // Without a session bus nudged exits 1 with one line naming the bus: systemd restarts it
        // as configured (Restart=on-failure), and the journal says why.
        let noBus = "unix:path=/run/user/\(manager.uid)/no-such-bus"
        try manager.must("systemctl", "--user", "set-environment", "DBUS_SESSION_BUS_ADDRESS=\(noBus)")
        #expect(try manager.run("systemctl", "--user", "start", "nudge.service").status != 0)
        let line = "nudged: no session bus at \(noBus): No such file or directory"
        #expect(try await eventually(timeout: 15) {
            try manager.property("NRestarts") == "2"
        }, "not restarted: \(manager.status())")
        // Exited with status 1, not killed by a signal (it used to trap: SIGILL, 132).
        #expect(manager.messages(["_PID=\(manager.managerPID)"])
                    .contains("nudge.service: Main process exited, code=exited, status=1/FAILURE"), "\(manager.status())")
        #expect(manager.messages(["_SYSTEMD_USER_UNIT=nudge.service", "SYSLOG_IDENTIFIER=nudged"]).contains(line),
                "\(manager.messages(["_SYSTEMD_USER_UNIT=nudge.service"]))")
        try manager.must("systemctl", "--user", "stop", "nudge.service")
        // Stopped while failing, the unit may stay "failed"; the autostart check below needs
        // it plainly inactive (one already unloaded has nothing to reset).
        _ = try manager.run("systemctl", "--user", "reset-failed", "nudge.service")
        try manager.must("systemctl", "--user", "unset-environment", "DBUS_SESSION_BUS_ADDRESS")

        // The autostart entry, as a desktop without graphical-session.target runs it at login:
        // nothing for a user who did not enable the unit; else the session's display passed to
        // the manager, and the unit started.
        let entry = try String(contentsOf: Self.root.appendingPathComponent("units/nudge-autostart.desktop"), encoding: .utf8)
        let exec = try #require(entry.split(separator: "\n").first { $0.hasPrefix("Exec=") }?.dropFirst("Exec=".count))
        try manager.must("env", "DISPLAY=\(display.name)", "sh", "-c", String(exec))
        let stateUnenabled = try manager.property("ActiveState")
        #expect(stateUnenabled == "inactive", "\(manager.status())")
        try manager.must("systemctl", "--user", "enable", "nudge.service")
        try manager.must("env", "DISPLAY=\(display.name)", "sh", "-c", String(exec))
        #expect(try manager.property("ActiveState") == "active", "\(manager.status())")
        #expect(try manager.run("systemctl", "--user", "show-environment").stdout.contains("DISPLAY=\(display.name)\n"))
        try manager.must("systemctl", "--user", "stop", "nudge.service")

        // The journal holds the service's events under its unit.
        let events = Set(try manager.journal(["_SYSTEMD_USER_UNIT=nudge.service", "SYSLOG_IDENTIFIER=nudged"])
            .compactMap { $0["NUDGE_EVENT"] as? String })
        for event in ["started", "planned", "fired", "delivered", "reloaded", "stopped"] {
            #expect(events.contains(event), "no \(event) in \(events.sorted())")
        }
    }

    /// "2026-11-29 10:53:07" in UTC, the zone the user's commands run in: `--due` to the second.
    static func utc(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter.string(from: date)
    }

    /// dunst's config: every notification it receives is appended to ~/shown.log.
    func writeDunstConfig(_ manager: UserManagerHarness) throws {
        let script = "#!/bin/sh\nprintf '%s\\n' \"$DUNST_SUMMARY\" >> \"$HOME/shown.log\"\n"
        let rc = "[global]\n    timeout = 0\n[record]\n    summary = \"*\"\n    script = \(manager.home)/record.sh\n"
        try manager.share(script, as: "record.sh")
        try manager.share(rc, as: "dunstrc")
        try manager.must("install", "-m", "0755", manager.work.file("record.sh"), manager.home + "/record.sh")
        try manager.must("install", "-D", "-m", "0644", manager.work.file("dunstrc"), manager.home + "/.config/dunst/dunstrc")
    }
}

/// Xvfb on a display it picks itself, for dunst; stopped when the value goes away.
final class XServer {
    let process: ChildProcess
    let name: String
    private let reader: Int32

    init() throws {
        let fds = try ChildProcess.makePipe()
        let started = Result {
            try ChildProcess("/usr/bin/Xvfb", ["-displayfd", "1", "-nolisten", "tcp", "-screen", "0", "800x600x24"],
                             environment: ["PATH": "/usr/bin:/bin"], stdout: fds[1])
        }
        close(fds[1])
        reader = fds[0]
        process = try started.get()
        let number = ChildProcess.readAll(fds[0], line: true).trimmingCharacters(in: .whitespacesAndNewlines)
        guard Int(number) != nil else { throw HarnessError("Xvfb printed no display") }
        name = ":" + number
    }

    deinit {
        process.stop()
        close(reader)
    }
}

/// Whether `condition` holds within `timeout` seconds, asked every 0.2 s.
func eventually(timeout: Double, _ condition: () throws -> Bool) async throws -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try condition() { return true }
        try await Task.sleep(nanoseconds: 200_000_000)
    }
    return try condition()
}
