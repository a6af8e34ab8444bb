import Foundation
import Testing
@testable import NudgeTestSupport

/// One Nudge "machine" for the sync tests: its own database, config, vdir, vdirsyncer config
/// and `nudged` on its own private bus with dunst, against the shared Radicale.
final class SyncMachine {
    let vdir: VdirMachine
    let world: NudgedWorld
    private(set) var daemon: ChildProcess!

    /// `runsCommand`: `[sync] command` runs this machine's `vdirsyncer sync` (after each local
    /// change, and at start); otherwise the test runs it.
    init(_ name: String, server: RadicaleServer, nagging: Bool = false, runsCommand: Bool = false) throws {
        vdir = try VdirMachine(name: name, server: server)
        var config = nagging ? NudgedWorld.quietConfig.replacingOccurrences(of: "nag_every = off", with: "nag_every = 1h")
            : NudgedWorld.quietConfig
        config += "[sync]\nvdir = \(vdir.collection)\n"
        if runsCommand { config += "command = \(vdir.syncCommand)\n" }
        world = try NudgedWorld(config: config)
    }

    func start() async throws {
        daemon = try await world.startDaemonAndWait()
    }

    /// The todo with this title (`nudge list --all --json`), if there is one.
    func todo(titled title: String) throws -> [String: Any]? {
        let run = try world.nudge("list", "--all", "--json")
        guard run.status == 0 else { throw HarnessError("nudge list failed: \(run.stderr)") }
        return try run.array().first { $0["title"] as? String == title }
    }

    /// Every todo, as `nudge list --all --json` prints them.
    func allTodos() throws -> [[String: Any]] {
        try world.nudge("list", "--all", "--json").array()
    }

    /// What `nudge upcoming --within 30d --json` lists for the todo `id`.
    func upcoming(todo id: Int) throws -> [[String: Any]] {
        try world.nudge("upcoming", "--within", "30d", "--json").array().filter { $0["todo"] as? Int == id }
    }

    /// The collection's file for the todo with this uuid, if there is one.
    func file(uuid: String) -> String? {
        try? String(contentsOfFile: vdir.collection + "/" + uuid + ".ics", encoding: .utf8)
    }

    /// Whether an alarm in the iCalendar `text` is ACKNOWLEDGED at `moment` or later (every
    /// alarm carries one from the start: how far the todo's reminders had gone then).
    static func acknowledged(in text: String, through moment: Date) -> Bool {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return text.split(whereSeparator: \.isNewline).contains { line in
            guard line.hasPrefix("ACKNOWLEDGED:"), let date = formatter.date(from: String(line.dropFirst(13))) else { return false }
            return date >= moment
        }
    }

    /// Adds a todo here, waits for this machine's nudged to upload it with its vdirsyncer, and
    /// brings it into `other`'s vdir with `other`'s: its id here and its file on the server.
    func addAndCarry(_ title: String, due: Date, to other: SyncMachine,
                     server: RadicaleServer) async throws -> (id: Int, onServer: String) {
        let id = try world.add(title, due: due)
        let uuid = try #require(try world.todo(id)["uuid"] as? String)
        let onServer = server.userFolder + "/" + VdirMachine.collectionName + "/" + uuid + ".ics"
        #expect(try await eventually(timeout: 10) { FileManager.default.fileExists(atPath: onServer) }, "\(log)")
        try other.vdir.sync()
        return (id, onServer)
    }

    /// Machines A and B against `server`, each with its collection discovered and its nudged
    /// started: what most sync tests begin with.
    static func pair(server: RadicaleServer, nagging: Bool = false, aRunsCommand: Bool = false,
                     bRunsCommand: Bool = false) async throws -> (a: SyncMachine, b: SyncMachine) {
        let a = try SyncMachine("a", server: server, nagging: nagging, runsCommand: aRunsCommand)
        let b = try SyncMachine("b", server: server, nagging: nagging, runsCommand: bRunsCommand)
        try a.vdir.discover()
        try b.vdir.discover()
        try await a.start()
        try await b.start()
        return (a, b)
    }

    /// What this machine's nudged logged, for failure messages.
    var log: String {
        let journal = (try? world.journal(of: daemon).compactMap { $0["MESSAGE"] }.joined(separator: " | ")) ?? ""
        return "nudged on \(vdir.name): \(journal); stderr: \(world.daemonLog)"
    }
}

extension NudgedEndToEndTests {
    /// Two machines syncing through Radicale with vdirsyncer, each with its own `nudged`.
    /// Nested in the end-to-end suite, so that it is serialized with the other tests.
    @Suite struct Sync {
        @Test func aTodoAddedOnOneMachineIsOnTheOtherWithEveryField() async throws {
            let server = try RadicaleServer()
            let (a, b) = try await SyncMachine.pair(server: server)

            #expect(try a.world.nudge("category", "add", "home").status == 0)
            let id = try a.world.add("Water the plants", due: a.world.secondsAhead(3 * 86_400),
                                     "--notes", "Ficus: a little\nCactus: none", "--priority", "high", "--category", "home",
                                     "--repeat", "weekly", "--remind", "2h")
            let original = try a.world.todo(id)
            let uuid = try #require(original["uuid"] as? String)
            // A's nudged writes it to A's vdir on its own (the change is debounced, then passed).
            #expect(try await eventually(timeout: 5) { a.file(uuid: uuid) != nil }, "\(a.log)")
            try a.vdir.sync()
            try b.vdir.sync()
            // B's nudged sees the file arrive (inotify) and imports it.
            #expect(try await eventually(timeout: 5) { try b.todo(titled: "Water the plants") != nil }, "\(b.log)")
            let copyID = try #require(try b.todo(titled: "Water the plants")?["id"] as? Int)
            var copy = try b.world.todo(copyID)
            var expected = original
            for key in ["id"] {
                copy[key] = nil
                expected[key] = nil
            }
            for key in Set(expected.keys).union(copy.keys).sorted() {
                #expect(Self.same(copy[key], expected[key]), "\(key): \(String(describing: copy[key])) on b, \(String(describing: expected[key])) on a")
            }
            // And it is in B's schedule: its own reminder 2 h before, and the due.
            let rules = try b.upcoming(todo: copyID).compactMap { $0["rule"] as? String }
            #expect(rules.contains("due") && rules.contains("remind 2h"), "upcoming on b: \(rules)")
        }

        @Test func doneOnOneMachineStopsTheOthersNaggingAndWithdrawsItsNotification() async throws {
            let server = try RadicaleServer()
            // A runs vdirsyncer itself ([sync] command); B is synced by the test.
            let (a, b) = try await SyncMachine.pair(server: server, nagging: true, aRunsCommand: true)

            let due = a.world.secondsAhead(6)
            // A's nudged writes the file and its vdirsyncer uploads it.
            let (id, onServer) = try await a.addAndCarry("Pay the rent", due: due, to: b, server: server)
            #expect(try await eventually(timeout: 5) { try b.todo(titled: "Pay the rent") != nil }, "\(b.log)")
            let copyID = try #require(try b.todo(titled: "Pay the rent")?["id"] as? Int)

            // Both show it when it is due.
            _ = try await a.world.waitForRecords(count: 1, timeout: 12)
            _ = try await b.world.waitForRecords(count: 1, timeout: 12)
            try await b.world.waitForEvent("delivered", of: b.daemon, matching: ["NUDGE_TODO_ID": String(copyID)])
            #expect(try b.world.server.displayedCount() == 1)
            #expect(try !b.upcoming(todo: copyID).isEmpty, "B nags every hour while it is overdue")

            try await a.world.waitForEvent("delivered", of: a.daemon, matching: ["NUDGE_TODO_ID": String(id)])
            try await a.world.click("#Done (Pay the rent)", onTodo: id, of: a.daemon)
            // A's nudged writes the completion and its vdirsyncer uploads it.
            #expect(try await eventually(timeout: 10) {
                ((try? String(contentsOfFile: onServer, encoding: .utf8)) ?? "").contains("STATUS:COMPLETED")
            }, "\(a.log)")
            try b.vdir.sync()

            // B withdraws its notification (CloseNotification) and nags no more.
            try await b.world.waitForEvent("withdrawn", of: b.daemon, matching: ["NUDGE_TODO_ID": String(copyID)], timeout: 5)
            #expect(try await eventually(timeout: 5) { try b.world.server.displayedCount() == 0 }, "\(b.log)")
            #expect(try b.world.todo(copyID)["completed"] as? Bool == true)
            #expect(try b.upcoming(todo: copyID).isEmpty)
            // A's own vdirsyncer runs were logged.
            #expect(try !a.world.journal(of: a.daemon, matching: ["NUDGE_EVENT": "command"]).isEmpty, "\(a.log)")
        }

        @Test func aReminderShownOnOneMachineIsNotShownByTheOtherWhenItCatchesUp() async throws {
            let server = try RadicaleServer()
            let a = try SyncMachine("a", server: server, runsCommand: true)
            let b = try SyncMachine("b", server: server)
            try a.vdir.discover()
            try b.vdir.discover()
            try await a.start()

            let due = a.world.secondsAhead(3)
            // B has it before it is due, while its nudged is not running.
            let (id, onServer) = try await a.addAndCarry("Feed the cat", due: due, to: b, server: server)
            _ = try b.world.nudge("sync")
            #expect(try b.todo(titled: "Feed the cat") != nil, "b: \(String(describing: try? b.allTodos()))")

            // A shows it; the acknowledgement goes to the server with A's vdirsyncer.
            _ = try await a.world.waitForRecords(count: 1, timeout: 8)
            try await a.world.waitForEvent("delivered", of: a.daemon, matching: ["NUDGE_TODO_ID": String(id)])
            #expect(try await eventually(timeout: 10) {
                SyncMachine.acknowledged(in: (try? String(contentsOfFile: onServer, encoding: .utf8)) ?? "", through: due)
            }, "server's copy: \((try? String(contentsOfFile: onServer, encoding: .utf8)) ?? "none"); \(a.log)")
            try b.vdir.sync()

            // B starts after the reminder was due: its first pass takes the acknowledgement
            // before it catches up, and shows nothing.
            try await b.start()
            try await Task.sleep(for: .seconds(2))
            #expect(try b.world.server.records().isEmpty, "b showed: \(b.world.summaries); \(b.log)")
            #expect(try b.world.journal(of: b.daemon, matching: ["NUDGE_EVENT": "missed"]).isEmpty, "\(b.log)")
        }

        @Test func aSnoozeOnOneMachineTravelsAsItsSnoozeAlarmAndTheOtherFollowsIt() async throws {
            let server = try RadicaleServer()
            let (a, b) = try await SyncMachine.pair(server: server, aRunsCommand: true)

            let (id, onServer) = try await a.addAndCarry("Call the bank", due: a.world.secondsAhead(4), to: b, server: server)
            #expect(try await eventually(timeout: 5) { try b.todo(titled: "Call the bank") != nil }, "\(b.log)")
            let copyID = try #require(try b.todo(titled: "Call the bank")?["id"] as? Int)

            _ = try await a.world.waitForRecords(count: 1, timeout: 8)
            try await a.world.waitForEvent("delivered", of: a.daemon, matching: ["NUDGE_TODO_ID": String(id)])
            try await a.world.click("#Snooze 1 h (Call the bank)", onTodo: id, of: a.daemon)
            try await a.world.waitForEvent("snoozed", of: a.daemon, matching: ["NUDGE_TODO_ID": String(id)])
            let snoozed = try a.upcoming(todo: id)
            #expect(snoozed.first?["rule"] as? String == "snooze", "upcoming on a: \(snoozed)")
            let until = try #require(NudgedWorld.date(fromJSON: snoozed.first?["at"]), "upcoming on a: \(snoozed)")
            // The snooze alarm (RFC 9074) reaches the server with A's vdirsyncer.
            #expect(try await eventually(timeout: 10) {
                ((try? String(contentsOfFile: onServer, encoding: .utf8)) ?? "").contains("RELTYPE=SNOOZE")
            }, "server's copy: \((try? String(contentsOfFile: onServer, encoding: .utf8)) ?? "none"); \(a.log)")
            try b.vdir.sync()

            // B's nudged takes it: the todo is snoozed there too, and its next reminder is the
            // snooze's end.
            var upcoming: [[String: Any]] = []
            #expect(try await eventually(timeout: 5) {
                upcoming = try b.upcoming(todo: copyID)
                return upcoming.first?["rule"] as? String == "snooze"
            }, "upcoming on b: \(upcoming); \(b.log)")
            #expect(upcoming.first?["rule"] as? String == "snooze", "upcoming on b: \(upcoming)")
            #expect(NudgedWorld.date(fromJSON: upcoming.first?["at"]) == until, "upcoming on b: \(upcoming)")
        }

        @Test func aFailingSyncCommandIsLoggedWithItsStatusAndLastLineAndTheServiceGoesOn() async throws {
            let folder = TemporaryDirectory()
            try FileManager.default.createDirectory(atPath: folder.file("todos"), withIntermediateDirectories: true)
            let world = try NudgedWorld(config: NudgedWorld.quietConfig + """
                [sync]
                vdir = \(folder.file("todos"))
                command = echo 'starting' >&2; echo 'error: cannot reach caldav.example.com' >&2; exit 3

                """)
            let daemon = try await world.startDaemonAndWait()
            let failure = try await world.waitForEvent("failed", of: daemon, matching: ["NUDGE_EXIT_STATUS": "3"])
            #expect(failure["NUDGE_STDERR"] == "error: cannot reach caldav.example.com")
            #expect(failure["PRIORITY"] == "4")
            #expect(failure["MESSAGE"]?.hasSuffix("failed (exit status 3): error: cannot reach caldav.example.com") == true,
                    "\(failure)")
            // A local change runs it again (backoff holds only the interval), and reminders go on.
            let due = world.secondsAhead(2)
            let id = try world.add("Still reminded", due: due)
            _ = try await world.waitForRecords(count: 1, timeout: 6)
            try await world.waitForEvent("delivered", of: daemon, matching: ["NUDGE_TODO_ID": String(id)])
            #expect(try await eventually(timeout: 5) {
                try world.journal(of: daemon, matching: ["NUDGE_EXIT_STATUS": "3"]).count >= 2
            })
            #expect(daemon.isRunning)
            // The pass wrote the todo to the folder all the same.
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("todos")).contains { $0.hasSuffix(".ics") })
        }

        @Test func aVdirMadeAfterTheStartIsSyncedAndWatchedFromTheNextChange() async throws {
            let folder = TemporaryDirectory()
            let vdir = folder.file("calendars/todos")
            let world = try NudgedWorld(config: NudgedWorld.quietConfig + "[sync]\nvdir = \(vdir)\n")
            let daemon = try await world.startDaemonAndWait()
            let failure = try await world.waitForEvent("failed", of: daemon)
            #expect(failure["MESSAGE"]?.hasPrefix("sync pass failed") == true, "\(failure)")

            try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
            try world.add("Written out", due: world.secondsAhead(3600))
            #expect(try await eventually(timeout: 5) {
                try FileManager.default.contentsOfDirectory(atPath: vdir).contains { $0.hasSuffix(".ics") }
            }, "\((try? world.journal(of: daemon).compactMap { $0["MESSAGE"] }) ?? [])")
            // A file arriving now is seen by inotify and planned.
            let due = world.secondsAhead(7200)
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
            let text = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//EN", "BEGIN:VTODO",
                        "UID:arrived-1", "DTSTAMP:20261201T000000Z", "SUMMARY:Arrived by hand",
                        "DUE:" + formatter.string(from: due), "END:VTODO", "END:VCALENDAR", ""].joined(separator: "\r\n")
            try text.write(toFile: vdir + "/arrived-1.ics", atomically: true, encoding: .utf8)
            #expect(try await eventually(timeout: 3) {
                try world.nudge("upcoming", "--within", "1d", "--json").array().contains { $0["title"] as? String == "Arrived by hand" }
            }, "\((try? world.journal(of: daemon).compactMap { $0["MESSAGE"] }) ?? [])")
        }

        /// Both `nudged` run vdirsyncer themselves: each edit is made on a machine that has not
        /// seen the other's, and both survive; edits of the same field are both kept.
        @Test func withTheCommandOnBothMachinesEditsMadeApartAreMergedFieldByField() async throws {
            let server = try RadicaleServer()
            let (a, b) = try await SyncMachine.pair(server: server, aRunsCommand: true, bRunsCommand: true)

            let id = try a.world.add("Buy milk", due: a.world.secondsAhead(3 * 86_400))
            let uuid = try #require(try a.world.todo(id)["uuid"] as? String)
            let onServer = server.userFolder + "/" + VdirMachine.collectionName + "/" + uuid + ".ics"
            func serverCopy() -> String { (try? String(contentsOfFile: onServer, encoding: .utf8)) ?? "" }
            #expect(try await eventually(timeout: 10) { !serverCopy().isEmpty }, "\(a.log)")
            // B's nudged runs vdirsyncer only on its own changes and every 15 minutes: the
            // test brings it the todo.
            try b.vdir.sync()
            #expect(try await eventually(timeout: 5) { try b.todo(titled: "Buy milk") != nil }, "\(b.log)")
            let copyID = try #require(try b.todo(titled: "Buy milk")?["id"] as? Int)

            // The title on A (uploaded by A's nudged), then the priority on B, which has not
            // seen A's edit: B's nudged fetches it first and merges.
            #expect(try a.world.nudge("edit", String(id), "--title", "Buy oat milk").status == 0)
            #expect(try await eventually(timeout: 10) { serverCopy().contains("SUMMARY:Buy oat milk") }, "\(a.log)")
            #expect(try b.todo(titled: "Buy milk") != nil)
            #expect(try b.world.nudge("edit", String(copyID), "--priority", "high").status == 0)
            #expect(try await eventually(timeout: 10) {
                serverCopy().contains("SUMMARY:Buy oat milk") && serverCopy().contains("PRIORITY:1")
            }, "server: \(serverCopy()); \(b.log)")
            try a.vdir.sync()
            for machine in [a, b] {
                #expect(try await eventually(timeout: 5) { try machine.todo(titled: "Buy oat milk")?["priority"] as? String == "high" },
                        "todos on \(machine.vdir.name): \(String(describing: try? machine.allTodos())); \(machine.log)")
            }

            // The same field: the notes on A, then on B before it has seen A's.
            #expect(try a.world.nudge("edit", String(id), "--notes", "from the corner shop").status == 0)
            #expect(try await eventually(timeout: 10) { serverCopy().contains("corner shop") }, "\(a.log)")
            #expect(try b.world.nudge("edit", String(copyID), "--notes", "from the market").status == 0)
            // Both kept on B: its own in the todo, A's in a conflict copy; both uploaded.
            #expect(try await eventually(timeout: 10) {
                let text = String(describing: try b.allTodos())
                return text.contains("from the corner shop") && text.contains("from the market")
            }, "todos on b: \(String(describing: try? b.allTodos())); \(b.log)")
            // Logged as a conflict in the todo's history, not as a failure.
            let conflict = try await b.world.waitForEvent("conflict", of: b.daemon, matching: ["NUDGE_TODO_ID": String(copyID)])
            #expect(conflict["PRIORITY"] == "5" && conflict["MESSAGE"]?.contains("(notes)") == true, "\(conflict)")
            let history = try b.world.nudge("history", String(copyID))
            #expect(history.stdout.contains(" conflict "), "\(history.stdout)\(history.stderr)")
            // B's nudged uploads both.
            let collection = server.userFolder + "/" + VdirMachine.collectionName
            #expect(try await eventually(timeout: 10) {
                let files = try FileManager.default.contentsOfDirectory(atPath: collection).filter { $0.hasSuffix(".ics") }
                let text = files.map { (try? String(contentsOfFile: collection + "/" + $0, encoding: .utf8)) ?? "" }.joined()
                return text.contains("from the corner shop") && text.contains("from the market")
            }, "\(b.log)")
            try a.vdir.sync()
            #expect(try await eventually(timeout: 5) {
                let text = String(describing: try a.allTodos())
                return text.contains("from the corner shop") && text.contains("from the market")
            }, "todos on a: \(String(describing: try? a.allTodos())); \(a.log)")
        }

        /// Neither `nudged` runs vdirsyncer: both edits are in their machines' folders before
        /// either syncs, and vdirsyncer puts the server's copy over B's file ("b wins"). B's
        /// nudged merges it with its own edit instead of taking it, so neither edit is lost.
        @Test func editsAlreadyInBothFoldersWhenVdirsyncerRunsAreMergedNotOverwritten() async throws {
            let server = try RadicaleServer()
            let (a, b) = try await SyncMachine.pair(server: server)

            let id = try a.world.add("Buy milk", due: a.world.secondsAhead(3 * 86_400))
            let uuid = try #require(try a.world.todo(id)["uuid"] as? String)
            #expect(try await eventually(timeout: 5) { a.file(uuid: uuid) != nil }, "\(a.log)")
            try a.vdir.sync()
            try b.vdir.sync()
            #expect(try await eventually(timeout: 5) { try b.todo(titled: "Buy milk") != nil }, "\(b.log)")
            let copyID = try #require(try b.todo(titled: "Buy milk")?["id"] as? Int)

            /// Edits on both, each written to its own folder by its nudged, then vdirsyncer on A
            /// (uploads) and on B (both changed: the server's copy wins), then B's nudged merges.
            func editApart(_ onA: [String], _ onB: [String], writtenOnA: String, writtenOnB: String) async throws {
                #expect(try a.world.nudge(["edit", String(id)] + onA).status == 0)
                #expect(try b.world.nudge(["edit", String(copyID)] + onB).status == 0)
                #expect(try await eventually(timeout: 5) { a.file(uuid: uuid)?.contains(writtenOnA) == true }, "\(a.log)")
                #expect(try await eventually(timeout: 5) { b.file(uuid: uuid)?.contains(writtenOnB) == true }, "\(b.log)")
                try a.vdir.sync()
                try b.vdir.sync()
            }

            try await editApart(["--title", "Buy oat milk"], ["--priority", "high"],
                                writtenOnA: "SUMMARY:Buy oat milk", writtenOnB: "PRIORITY:1")
            // B's nudged saw the server's copy arrive over its edit, merged both and wrote them.
            #expect(try await eventually(timeout: 5) {
                let text = b.file(uuid: uuid) ?? ""
                return text.contains("SUMMARY:Buy oat milk") && text.contains("PRIORITY:1")
            }, "file on b: \(b.file(uuid: uuid) ?? "none"); \(b.log)")
            try b.vdir.sync()
            try a.vdir.sync()
            for machine in [a, b] {
                #expect(try await eventually(timeout: 5) { try machine.todo(titled: "Buy oat milk")?["priority"] as? String == "high" },
                        "todos on \(machine.vdir.name): \(String(describing: try? machine.allTodos())); \(machine.log)")
            }

            // The same field on both: both versions kept, on both machines.
            try await editApart(["--notes", "from the corner shop"], ["--notes", "from the market"],
                                writtenOnA: "corner shop", writtenOnB: "from the market")
            #expect(try await eventually(timeout: 5) {
                let text = String(describing: try b.allTodos())
                return text.contains("from the corner shop") && text.contains("from the market")
            }, "todos on b: \(String(describing: try? b.allTodos())); \(b.log)")
            #expect(try await eventually(timeout: 5) {
                let files = try FileManager.default.contentsOfDirectory(atPath: b.vdir.collection).filter { $0.hasSuffix(".ics") }
                return files.count == 2
            }, "\(b.log)")
            try b.vdir.sync()
            try a.vdir.sync()
            #expect(try await eventually(timeout: 5) {
                let text = String(describing: try a.allTodos())
                return text.contains("from the corner shop") && text.contains("from the market")
            }, "todos on a: \(String(describing: try? a.allTodos())); \(a.log)")
        }

        /// Tags added on each machine before either has seen the other's, vdirsyncer putting
        /// the server's copy over B's: B's nudged merges them one by one, and both have both.
        @Test func aTagAddedOnEachMachineIsOnBoth() async throws {
            let server = try RadicaleServer()
            let (a, b) = try await SyncMachine.pair(server: server)

            let id = try a.world.add("Call bank", due: a.world.secondsAhead(3 * 86_400), "--tag", "money")
            let uuid = try #require(try a.world.todo(id)["uuid"] as? String)
            #expect(try await eventually(timeout: 5) { a.file(uuid: uuid)?.contains("CATEGORIES:money") == true }, "\(a.log)")
            try a.vdir.sync()
            try b.vdir.sync()
            #expect(try await eventually(timeout: 5) { try b.todo(titled: "Call bank")?["tags"] as? [String] == ["money"] }, "\(b.log)")
            let copyID = try #require(try b.todo(titled: "Call bank")?["id"] as? Int)

            #expect(try a.world.nudge("edit", String(id), "+urgent").status == 0)
            #expect(try b.world.nudge("edit", String(copyID), "+bills").status == 0)
            #expect(try await eventually(timeout: 5) { a.file(uuid: uuid)?.contains("CATEGORIES:money,urgent") == true }, "\(a.log)")
            #expect(try await eventually(timeout: 5) { b.file(uuid: uuid)?.contains("CATEGORIES:money,bills") == true }, "\(b.log)")
            try a.vdir.sync()
            try b.vdir.sync()
            #expect(try await eventually(timeout: 5) { b.file(uuid: uuid)?.contains("CATEGORIES:money,bills,urgent") == true },
                    "file on b: \(b.file(uuid: uuid) ?? "none"); \(b.log)")
            try b.vdir.sync()
            try a.vdir.sync()
            for machine in [a, b] {
                #expect(try await eventually(timeout: 5) {
                    try machine.todo(titled: "Call bank")?["tags"] as? [String] == ["money", "bills", "urgent"]
                }, "todos on \(machine.vdir.name): \(String(describing: try? machine.allTodos())); \(machine.log)")
            }
        }

        /// A subtask made on A is under its parent on B. Its file reaching the server before
        /// its parent's (a third client uploads it alone, as a sync cut short would leave it),
        /// B shows it at the top level until the parent arrives; done on B, A counts it.
        @Test func aSubtaskMadeOnOneMachineIsUnderItsParentOnTheOther() async throws {
            let server = try RadicaleServer()
            let (a, b) = try await SyncMachine.pair(server: server)

            let due = a.world.secondsAhead(3 * 86_400)
            let parentID = try a.world.add("Paint walls", due: due)
            let subtaskID = try a.world.add("Buy paint", due: due, "--parent", String(parentID))
            let parentUUID = try #require(try a.world.todo(parentID)["uuid"] as? String)
            let subtaskUUID = try #require(try a.world.todo(subtaskID)["uuid"] as? String)
            #expect(try await eventually(timeout: 5) {
                a.file(uuid: parentUUID) != nil && a.file(uuid: subtaskUUID)?.contains("RELATED-TO;RELTYPE=PARENT:\(parentUUID)") == true
            }, "\(a.log)")

            // Only the subtask's file reaches the server, by a vdirsyncer of its own.
            let other = try VdirMachine(name: "c", server: server)
            try other.discover()
            try FileManager.default.copyItem(atPath: a.vdir.collection + "/" + subtaskUUID + ".ics",
                                             toPath: other.collection + "/" + subtaskUUID + ".ics")
            try other.sync()
            try b.vdir.sync()
            #expect(try await eventually(timeout: 5) { try b.todo(titled: "Buy paint") != nil }, "\(b.log)")
            let alone = try b.world.nudge("list").stdout
            #expect(alone.contains(/\[ \] \d+  Buy paint/) && !alone.contains("Paint walls"), "\(alone)")
            #expect(try b.todo(titled: "Buy paint")?["parent"] as? String == parentUUID)

            // The parent comes with A's vdirsyncer: the subtask joins it.
            try a.vdir.sync()
            try b.vdir.sync()
            #expect(try await eventually(timeout: 5) { try b.todo(titled: "Paint walls") != nil }, "\(b.log)")
            let lines = try b.world.nudge("list").stdout.split(separator: "\n")
            let parent = try #require(lines.firstIndex { $0.contains("Paint walls") }, "\(lines)")
            #expect(lines[parent].contains(/\[ \] \d+  Paint walls 0\/1/), "\(lines)")
            #expect(parent + 1 < lines.count && lines[parent + 1].contains(/\[ \] \d+    Buy paint/), "\(lines)")
            #expect(try b.todo(titled: "Paint walls")?["uuid"] as? String == parentUUID)

            let copyID = try #require(try b.todo(titled: "Buy paint")?["id"] as? Int)
            #expect(try b.world.nudge("done", String(copyID)).status == 0)
            #expect(try await eventually(timeout: 5) { b.file(uuid: subtaskUUID)?.contains("STATUS:COMPLETED") == true }, "\(b.log)")
            try b.vdir.sync()
            try a.vdir.sync()
            #expect(try await eventually(timeout: 5) { try a.world.todo(subtaskID)["completed"] as? Bool == true }, "\(a.log)")
            let done = try a.world.nudge("list").stdout
            #expect(done.contains(/\[ \] \d+  Paint walls 1\/1/), "\(done)")
        }

        /// JSON values compared as JSON with sorted keys (a dictionary's description follows
        /// its hash order, which differs between two of the same contents).
        static func same(_ x: Any?, _ y: Any?) -> Bool {
            switch (x, y) {
            case (nil, nil): true
            case (let x?, let y?): canonical(x) == canonical(y)
            default: false
            }
        }

        static func canonical(_ value: Any) -> String {
            guard let data = try? JSONSerialization.data(withJSONObject: [value], options: [.sortedKeys]) else {
                return String(describing: value as AnyObject)
            }
            return String(decoding: data, as: UTF8.self)
        }
    }
}
