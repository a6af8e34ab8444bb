import Foundation
import Testing
@testable import NudgeTestSupport

/// Sync under the unit's sandbox: units/nudge.service with the drop-in docs/sync.md
/// gives (the vdir writable, the network for the command), under a real systemd user manager,
/// against Radicale on loopback. Needs root and the release binaries, as the unit test beside it;
/// nested in its suite so that the two user managers do not run at once.
extension NudgeUnitEndToEndTests {
    @Suite struct Sync {
        static let dropIn = """
            [Service]
            ReadWritePaths=%h/.local/share/vdirsyncer
            RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6

            """

        @Test func withTheDocumentedDropInTheSandboxedServiceSyncsThroughVdirsyncer() async throws {
            let release = NudgeUnitEndToEndTests.release
            for name in ["nudge", "nudged"] {
                let path = release.appendingPathComponent(name).path
                try #require(FileManager.default.isExecutableFile(atPath: path), "\(path) is missing: run `make release` first")
            }
            let server = try RadicaleServer()
            let bin = "/opt/nudge-unit-sync-test-\(getpid())"
            let manager = try UserManagerHarness(user: "nudge-sync-\(getpid() % 100_000)", extraFolders: [bin])
            defer { manager.stop() }
            try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
            for name in ["nudge", "nudged"] {
                try #require(try ChildProcess.run("/usr/bin/install", ["-m", "0755", release.appendingPathComponent(name).path, bin],
                                                  environment: [:]).status == 0)
            }
            let unitText = try String(contentsOf: NudgeUnitEndToEndTests.root.appendingPathComponent("units/nudge.service"), encoding: .utf8)
                .replacingOccurrences(of: "@BINDIR@", with: bin)
            try manager.share(unitText, as: "nudge.service")
            try manager.share(Self.dropIn, as: "sync.conf")
            try manager.must("install", "-D", "-m", "0644", manager.work.file("nudge.service"), manager.home + "/.config/systemd/user/nudge.service")
            try manager.must("install", "-D", "-m", "0644", manager.work.file("sync.conf"),
                             manager.home + "/.config/systemd/user/nudge.service.d/sync.conf")

            // The user's vdirsyncer, as docs/sync.md has it (with Radicale's address).
            let vdirsyncerConfig = VdirMachine.config(server: server, status: "~/.local/share/vdirsyncer/status/",
                                                      vdir: "~/.local/share/vdirsyncer/calendars/")
            try manager.share(vdirsyncerConfig, as: "vdirsyncer.conf")
            try manager.must("install", "-D", "-m", "0600", manager.work.file("vdirsyncer.conf"), manager.home + "/.config/vdirsyncer/config")
            try manager.must("mkdir", "-p", manager.home + "/.local/share/vdirsyncer/calendars/todos")
            let discover = try manager.run("sh", "-c", "yes | vdirsyncer discover todos")
            try #require(discover.status == 0, "\(discover.stdout)\(discover.stderr)")
            let config = "[reminders]\nbefore = none\nnag_every = off\n[digest]\nenabled = no\n"
                + "[sync]\nvdir = ~/.local/share/vdirsyncer/calendars/todos\ncommand = vdirsyncer sync\n"
            try manager.share(config, as: "nudge.conf")
            try manager.must("install", "-D", "-m", "0644", manager.work.file("nudge.conf"), manager.home + "/.config/nudge/nudge.conf")

            try manager.must("systemctl", "--user", "daemon-reload")
            let start = try manager.run("systemctl", "--user", "start", "nudge.service")
            try #require(start.status == 0, "start: \(start.stderr) \(manager.status())")

            // A todo added by the user reaches the server through the sandboxed service's vdirsyncer.
            try manager.must("\(bin)/nudge", "add", "Synced under systemd", "--due", "in 2h")
            let collection = server.userFolder + "/" + VdirMachine.collectionName
            #expect(try await eventually(timeout: 30) {
                let files = (try? FileManager.default.contentsOfDirectory(atPath: collection)) ?? []
                return files.contains { (try? String(contentsOfFile: collection + "/" + $0, encoding: .utf8))?.contains("SUMMARY:Synced under systemd") == true }
            }, "not on the server: \(manager.messages(["_SYSTEMD_USER_UNIT=nudge.service"]))")
            let commands = try manager.journal(["_SYSTEMD_USER_UNIT=nudge.service", "NUDGE_EVENT=command"])
            #expect(!commands.isEmpty, "\(manager.messages(["_SYSTEMD_USER_UNIT=nudge.service"]))")
            let failures = try manager.journal(["_SYSTEMD_USER_UNIT=nudge.service", "NUDGE_EVENT=failed"])
                .compactMap { $0["MESSAGE"] as? String }
            #expect(failures.isEmpty, "\(failures)")
            try manager.must("systemctl", "--user", "stop", "nudge.service")
        }
    }
}
