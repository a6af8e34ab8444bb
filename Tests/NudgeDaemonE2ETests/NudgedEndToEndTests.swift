import Foundation
import Testing
@testable import NudgeTestSupport

/// `nudged` end to end: the real service and CLI binaries, a private session bus with dunst
/// under Xvfb as the notification server, journald, and real time. One test at a time: each
/// runs an X server and dunst, and the timing checks need the machine's attention.
@Suite(.serialized, .journald)
struct NudgedEndToEndTests {
    // MARK: Showing a reminder

    @Test func aDueTodoIsShownWithinASecondWithItsTitleNotesUrgencyAndButtons() async throws {
        let world = try NudgedWorld()
        let daemon = try await world.startDaemonAndWait()
        let due = world.secondsAhead(2)
        try world.add("Call the plumber", due: due, "--priority", "high",
                      "--notes", "Kitchen sink\nAsk about the boiler\nBring the invoice\nFourth line not shown")
        let plants = try world.add("Water the plants", due: due, "--priority", "medium")

        let records = try await world.waitForRecords(count: 2, timeout: 6)
        #expect(records.count == 2)
        let urgent = try #require(records.first { $0["DUNST_SUMMARY"] == "Call the plumber" }, "\(records)")
        let normal = try #require(records.first { $0["DUNST_SUMMARY"] == "Water the plants" }, "\(records)")
        #expect(urgent["DUNST_BODY"] == "due now\nKitchen sink\nAsk about the boiler\nBring the invoice")
        #expect(urgent["DUNST_URGENCY"] == "CRITICAL")
        #expect(normal["DUNST_BODY"] == "due now")
        #expect(normal["DUNST_URGENCY"] == "NORMAL")
        for record in records {
            #expect(record["DUNST_APP_NAME"] == "Nudge")
            let shown = try #require(NudgedWorld.shownAt(record))
            // Not early, and at most a second late.
            #expect(shown.timeIntervalSince(due) >= -0.01, "shown \(shown.timeIntervalSince(due)) s from its due time")
            #expect(shown.timeIntervalSince(due) <= 1, "shown \(shown.timeIntervalSince(due)) s after its due time")
        }

        // The buttons, as dunst offers them to its menu: "#Done (Water the plants) [2,done]".
        try await world.waitForEvent("delivered", of: daemon, matching: ["NUDGE_TODO_ID": String(plants)])
        try world.server.click(actionMatching: "no button is labelled like this")
        #expect(try await eventually(timeout: 5) { world.menuLines.count >= 4 }, "menu: \(world.menuLines)")
        let buttons = Self.buttons(world.menuLines)
        // dunst keeps actions in a hash table: their order in the menu is its own.
        let offered = try #require(buttons.first?.value, "no actions in \(world.menuLines)").sorted()
        #expect(offered == ["Done: done", "Snooze 1 h: snooze-1", "Snooze 10 min: snooze-0", "Tomorrow 9:00: snooze-2"],
                "menu: \(world.menuLines)")
        for (summary, labels) in buttons {
            #expect(labels.sorted() == offered, "the buttons of \(summary)")
        }
    }

    /// "label: key" lines per summary, from dunst's menu lines `#LABEL (SUMMARY) [ID,KEY]`.
    static func buttons(_ lines: [String]) -> [String: [String]] {
        var buttons: [String: [String]] = [:]
        for line in lines where line.hasPrefix("#") {
            guard let open = line.range(of: " ("), let bracket = line.range(of: ") [", options: .backwards),
                  let comma = line[bracket.upperBound...].firstIndex(of: ",") else { continue }
            let label = String(line[line.index(after: line.startIndex)..<open.lowerBound])
            let summary = String(line[open.upperBound..<bracket.lowerBound])
            let key = String(line[line.index(after: comma)...].dropLast())
            buttons[summary, default: []].append(label + ": " + key)
        }
        return buttons
    }

    @Test func doneCompletesATodoAndMovesARepeatingOneToItsNextDay() async throws {
        let world = try NudgedWorld()
        let daemon = try world.startDaemon()

        let due = world.secondsAhead(2)
        let plain = try world.add("Pay the rent", due: due)
        _ = try await world.waitForRecords(count: 1)
        try await world.waitForEvent("delivered", of: daemon, matching: ["NUDGE_TODO_ID": String(plain)])
        try await world.click("#Done (Pay the rent)", onTodo: plain, of: daemon)
        #expect(try await eventually(timeout: 5) { try world.todo(plain)["completed"] as? Bool == true },
                "todo: \(String(describing: try? world.todo(plain))); nudged: \(world.daemonLog)")
        #expect(NudgedWorld.date(fromJSON: try world.todo(plain)["completedAt"]) != nil)

        let firstDue = world.secondsAhead(2)
        let daily = try world.add("Stretch", due: firstDue, "--repeat", "daily")
        _ = try await world.waitForRecords(count: 2)
        try await world.waitForEvent("delivered", of: daemon, matching: ["NUDGE_TODO_ID": String(daily)])
        try await world.click("#Done (Stretch)", onTodo: daily, of: daemon)
        // The next day at the same time of day. A series keeps its time of day to the minute
        // (SeriesStart), so the seconds the CLI took for the first due are not kept.
        let nextDue = firstDue.addingTimeInterval(86_400)
        #expect(try await eventually(timeout: 5) {
            guard let due = NudgedWorld.date(fromJSON: try world.todo(daily)["due"]) else { return false }
            return due <= nextDue && nextDue.timeIntervalSince(due) < 60
        }, "todo: \(String(describing: try? world.todo(daily))); nudged: \(world.daemonLog)")
        #expect(try world.todo(daily)["completed"] as? Bool == false)
        try await world.waitForEvent("completed", of: daemon, matching: ["NUDGE_TODO_ID": String(daily)])
    }

    // MARK: What is shown is what was written

    @Test func markupInTheTitleAndNotesIsShownLiterally() async throws {
        let world = try NudgedWorld()
        let title = "<b>Tom & Jerry</b> <3"
        try await world.startDaemonAndWait()
        let due = world.secondsAhead(2)
        try world.add(title, due: due, "--notes", "a < b & c")

        let record = try await world.waitForRecords(count: 1)[0]
        #expect(record["DUNST_SUMMARY"] == title)
        // dunst parses bodies as markup: the service escapes what it sends.
        #expect(record["DUNST_BODY"] == "due now\na &lt; b &amp; c")
        let dunstLog = (try? String(contentsOfFile: world.server.folder.file("dunst.log"), encoding: .utf8)) ?? ""
        #expect(!dunstLog.contains("Unable to parse markup"), "dunst.log: \(dunstLog)")
        // What dunst rendered: its markup text, in which every character given is an entity
        // or itself, so the screen shows exactly the title and the notes.
        _ = try world.server.dunstctl("close-all")
        let history = try world.server.dunstctl("history")
        let shown = try #require(Self.history(history).first, "history: \(history)")
        #expect(shown["summary"] == title)
        #expect(shown["body"] == "due now\na &lt; b &amp; c")
        #expect(shown["message"] == "<b>&lt;b&gt;Tom &amp; Jerry&lt;/b&gt; &lt;3</b>\ndue now\na &lt; b &amp; c",
                "history: \(history)")
    }

    /// The notifications in `dunstctl history` output, newest first: field name to its data.
    static func history(_ json: String) -> [[String: String]] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
              let lists = object["data"] as? [[[String: Any]]], let list = lists.first else { return [] }
        return list.map { fields in
            fields.compactMapValues { ($0 as? [String: Any])?["data"] }.compactMapValues { "\($0)" }
        }
    }

    // MARK: Todos added while the service runs

    @Test func todosAddedWhileTheServiceRunsFireOnTimeAndAtOnceWhenAlreadyDue() async throws {
        let world = try NudgedWorld()
        let daemon = try world.startDaemon()
        try await world.waitForEvent("started", of: daemon)

        let due = world.secondsAhead(2)
        try world.add("Later today", due: due)
        let first = try await world.waitForRecords(count: 1)[0]
        #expect(first["DUNST_SUMMARY"] == "Later today")
        let shown = try #require(NudgedWorld.shownAt(first))
        #expect(shown.timeIntervalSince(due) >= -0.01 && shown.timeIntervalSince(due) <= 1,
                "shown \(shown.timeIntervalSince(due)) s from its due time")

        // Due now, to the second: only the database's change tells the service, and it shows
        // the todo at once.
        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        let id = try world.add("Right now", due: now)
        let added = Date()
        let planned = try await world.waitForEvent("fired", of: daemon, matching: ["NUDGE_TODO_ID": String(id)], timeout: 2)
        let firedAt = try #require(NudgedWorld.loggedAt(planned))
        #expect(firedAt.timeIntervalSince(added) <= 0.5, "fired \(firedAt.timeIntervalSince(added)) s after the add")
        let records = try await world.waitForRecords(count: 2)
        #expect(records[1]["DUNST_SUMMARY"] == "Right now")
        let shownNow = try #require(NudgedWorld.shownAt(records[1]))
        #expect(shownNow.timeIntervalSince(added) <= 1, "shown \(shownNow.timeIntervalSince(added)) s after the add")
    }

    /// A config file in the database's folder (NUDGE_CONFIG and NUDGE_DB side by side) must not
    /// hide the database's changes from the service.
    @Test func aTodoAddedWhileTheServiceRunsFiresWhenTheConfigFileIsBesideTheDatabase() async throws {
        let world = try NudgedWorld(databaseBesideConfig: true)
        let daemon = try world.startDaemon()
        try await world.waitForEvent("started", of: daemon)

        let due = world.secondsAhead(2)
        try world.add("Beside the config", due: due)
        let record = try await world.waitForRecords(count: 1)[0]
        #expect(record["DUNST_SUMMARY"] == "Beside the config")
        let shown = try #require(NudgedWorld.shownAt(record))
        #expect(shown.timeIntervalSince(due) >= -0.01 && shown.timeIntervalSince(due) <= 1,
                "shown \(shown.timeIntervalSince(due)) s from its due time")
    }

    /// A reminder a minute before the due time fires a few milliseconds after that moment,
    /// when the due time is a hair under a minute away: it still reads "due in 1 min".
    @Test func aReminderAMinuteBeforeSaysDueInOneMinute() async throws {
        let world = try NudgedWorld()
        let due = world.secondsAhead(62)
        try world.add("Leave for the station", due: due, "--remind", "1m")
        try world.startDaemon()

        let record = try await world.waitForRecords(count: 1, timeout: 6)[0]
        #expect(record["DUNST_SUMMARY"] == "Leave for the station")
        #expect(record["DUNST_BODY"] == "due in 1 min")
        let shown = try #require(NudgedWorld.shownAt(record))
        let early = due.addingTimeInterval(-60)
        #expect(shown.timeIntervalSince(early) >= -0.01 && shown.timeIntervalSince(early) <= 1,
                "shown \(shown.timeIntervalSince(early)) s from a minute before the due time")
    }

    // MARK: The notification server comes and goes

    @Test func aReminderWaitsForTheNotificationServerAndSurvivesItsRestart() async throws {
        let world = try NudgedWorld(startingServer: false)
        let daemon = try world.startDaemon()
        let due = world.secondsAhead(1)
        let id = try world.add("Feed the cat", due: due)
        try await world.waitForEvent("fired", of: daemon, matching: ["NUDGE_TODO_ID": String(id)])
        try await Task.sleep(for: .seconds(max(0, due.addingTimeInterval(2).timeIntervalSinceNow)))
        #expect(try world.server.records().isEmpty)

        try world.server.startServer()
        let owned = Date()
        let record = try await world.waitForRecords(count: 1)[0]
        #expect(record["DUNST_SUMMARY"] == "Feed the cat")
        let shown = try #require(NudgedWorld.shownAt(record))
        #expect(shown.timeIntervalSince(owned) <= 2, "shown \(shown.timeIntervalSince(owned)) s after dunst took the name")

        world.server.stopServer()
        try world.server.startServer()
        let later = world.secondsAhead(2)
        try world.add("Feed the dog", due: later)
        let records = try await world.waitForRecords(count: 2)
        #expect(records[1]["DUNST_SUMMARY"] == "Feed the dog")
        let shownLater = try #require(NudgedWorld.shownAt(records[1]))
        #expect(shownLater.timeIntervalSince(later) <= 1, "shown \(shownLater.timeIntervalSince(later)) s after its due time")
        #expect(daemon.isRunning)
    }

    // MARK: Restarts

    @Test func aDatabaseMovedInPlaceOfTheOpenOneIsRemindedFrom() async throws {
        let world = try NudgedWorld()
        let daemon = try await world.startDaemonAndWait()
        try world.add("In the old file", due: world.secondsAhead(3600))
        // A backup made elsewhere, then moved over the database, as `mv restored.db nudge.db`.
        let restored = world.folder.file("data/restored.db")
        let add = try world.nudge("--db", restored, "add", "From the backup", "--due", NudgedWorld.dueText(world.secondsAhead(2)))
        #expect(add.status == 0, "\(add.stderr)")
        #expect(rename(restored, world.database) == 0)
        let reopened = try await world.waitForEvent("reloaded", of: daemon)
        #expect(reopened["MESSAGE"] == "reopened the database: the file was replaced", "\(reopened)")
        let records = try await world.waitForRecords(count: 1)
        #expect(records.map { $0["DUNST_SUMMARY"] } == ["From the backup"])
        #expect(daemon.isRunning)
    }

    /// The database's folder moved away (a backup taken with `mv`): the service makes no new
    /// one, which would stand in the way of moving the backup back, and nothing reminds from
    /// the moved file. The folder made again by `nudge add` is watched, and its todo reminds.
    @Test func aDatabaseFolderMovedAwayIsWaitedForAndFollowedToTheNewOne() async throws {
        let world = try NudgedWorld()
        let daemon = try await world.startDaemonAndWait()
        try world.add("In the old folder", due: world.secondsAhead(2))
        let folder = URL(fileURLWithPath: world.database).deletingLastPathComponent().path
        #expect(rename(folder, folder + ".moved") == 0)
        let gone = try await world.waitForEvent("reloaded", of: daemon)
        #expect(gone["MESSAGE"]?.hasPrefix("the database file is gone: nothing reminds until one is made at ") == true, "\(gone)")
        try await Task.sleep(for: .seconds(2.5))
        #expect(!FileManager.default.fileExists(atPath: folder))
        #expect(try world.server.records().isEmpty, "reminded from the moved file")

        try world.add("In the new folder", due: world.secondsAhead(2))
        let made = try await world.waitForEvent("reloaded", of: daemon, matching: ["MESSAGE": "reopened the database: a file is at its path again"])
        #expect(made["NUDGE_DATABASE_ID"] != gone["NUDGE_DATABASE_ID"])
        let records = try await world.waitForRecords(count: 1)
        #expect(records.map { $0["DUNST_SUMMARY"] } == ["In the new folder"])
        #expect(daemon.isRunning)
    }

    /// `rm nudge.db*`: as for a folder moved away, nothing is made until a todo is added.
    @Test func aDeletedDatabaseIsWaitedForNotMadeAgain() async throws {
        let world = try NudgedWorld()
        let daemon = try await world.startDaemonAndWait()
        try world.add("In the deleted file", due: world.secondsAhead(2))
        for suffix in ["", "-wal", "-shm"] { unlink(world.database + suffix) }
        _ = try await world.waitForEvent("reloaded", of: daemon)
        try await Task.sleep(for: .seconds(2.5))
        #expect(!FileManager.default.fileExists(atPath: world.database))
        #expect(try world.server.records().isEmpty, "reminded from the deleted file")

        try world.add("In the new file", due: world.secondsAhead(2))
        let records = try await world.waitForRecords(count: 1)
        #expect(records.map { $0["DUNST_SUMMARY"] } == ["In the new file"])
        #expect(daemon.isRunning)
    }

    @Test func afterAKillNothingIsShownTwiceAndWhatWasMissedComesAsOneNotification() async throws {
        let world = try NudgedWorld()
        let first = try world.startDaemon()
        let id = try world.add("Take out the bins", due: world.secondsAhead(2))
        _ = try await world.waitForRecords(count: 1)
        try await world.waitForEvent("delivered", of: first, matching: ["NUDGE_TODO_ID": String(id)])
        first.send(SIGKILL)
        #expect(first.wait(timeout: 5) != nil)

        // Due while no service runs.
        let missedDue = world.secondsAhead(1)
        try world.add("Book the flights", due: missedDue)
        try world.add("Renew the insurance", due: missedDue)
        try await Task.sleep(for: .seconds(max(0, missedDue.addingTimeInterval(0.5).timeIntervalSinceNow)))

        let second = try world.startDaemon()
        // The bins are shown again in their own place, so that their buttons reach the new
        // service (dunst answers only the connection that showed a notification): 3 records.
        let records = try await world.waitForRecords(count: 3)
        let missed = records.filter { $0["DUNST_SUMMARY"]?.hasPrefix("Missed while") == true }
        try #require(missed.count == 1, "records: \(world.summaries)")
        #expect(missed[0]["DUNST_SUMMARY"] == "Missed while Nudge was not running: 2 todos")
        let body = missed[0]["DUNST_BODY"] ?? ""
        #expect(body.contains("Book the flights") && body.contains("Renew the insurance"), "body: \(body)")
        let bins = records.filter { $0["DUNST_SUMMARY"] == "Take out the bins" }
        #expect(Set(bins.compactMap { $0["DUNST_ID"] }).count == 1, "records: \(records)")
        // Nothing more: not the bins beside the first, not the missed ones one by one.
        #expect(try await staysTrue(for: 2) { try world.server.records().count == 3 },
                "records: \(world.summaries)")
        #expect(second.isRunning)
    }

    @Test func aButtonOnANotificationShownBeforeARestartStillWorks() async throws {
        let world = try NudgedWorld()
        let first = try world.startDaemon()
        let id = try world.add("Water the plants", due: world.secondsAhead(2))
        _ = try await world.waitForRecords(count: 1)
        try await world.waitForEvent("delivered", of: first, matching: ["NUDGE_TODO_ID": String(id)])
        first.send(SIGKILL)
        #expect(first.wait(timeout: 5) != nil)

        // dunst sends a notification's ActionInvoked only to the connection that showed it.
        let second = try await world.startDaemonAndWait()
        try await world.click("#Done (Water the plants)", onTodo: id, of: second)
        #expect(try await eventually(timeout: 5) { try world.todo(id)["completed"] as? Bool == true },
                "todo: \(String(describing: try? world.todo(id))); nudged: \(world.daemonLog)")
        // Shown again in its place, never beside it.
        #expect(Set(try world.server.records().compactMap { $0["DUNST_ID"] }).count == 1, "records: \(world.summaries)")
    }

    /// dunst stopped past the Notify timeout shows the reminder when it wakes: nudged takes
    /// that late answer as the notification, instead of showing it again at the retry, and
    /// its buttons work.
    @Test func aReminderShownLateByAServerThatHungIsTakenAsShownAndItsButtonsWork() async throws {
        let world = try NudgedWorld()
        let daemon = try await world.startDaemonAndWait()
        world.server.pauseServer()
        let id = try world.add("Water the plants", due: world.secondsAhead(1))
        let failure = try await world.waitForEvent("failed", of: daemon, timeout: 8)
        #expect(failure["MESSAGE"]?.contains("timed out") == true, "\(failure)")
        world.server.resumeServer()
        let late = try await world.waitForEvent("delivered", of: daemon, matching: ["NUDGE_TODO_ID": String(id)])
        #expect(late["MESSAGE"]?.hasPrefix("delivered late: Water the plants") == true, "\(late)")
        try await world.click("#Done (Water the plants)", onTodo: id, of: daemon)
        #expect(try await eventually(timeout: 5) { try world.todo(id)["completed"] as? Bool == true },
                "todo: \(String(describing: try? world.todo(id))); nudged: \(world.daemonLog)")
        #expect(try world.server.records().count == 1, "records: \(world.summaries)")
    }

    // MARK: systemd

    @Test func readinessStatusWatchdogAndStoppingReachTheNotifySocket() async throws {
        let world = try NudgedWorld()
        try world.add("Renew the passport", due: world.secondsAhead(3600))
        let socket = try NotifySocket()
        let daemon = try world.startDaemon(environment: ["NOTIFY_SOCKET": socket.path, "WATCHDOG_USEC": "400000"])

        var messages: [(at: Date, text: String)] = []
        #expect(try await eventually(timeout: 5) {
            messages += socket.received()
            return messages.contains { $0.text.split(separator: "\n").contains("READY=1") }
        }, "datagrams: \(messages.map(\.text)); nudged: \(world.daemonLog)")
        let statuses = messages.flatMap { $0.text.split(separator: "\n") }.filter { $0.hasPrefix("STATUS=") }
        #expect(statuses.contains { $0.contains("Next:") && $0.contains("Renew the passport") }, "statuses: \(statuses)")

        // WatchdogSec=0.4 s: a ping at least every 0.2 s.
        let ready = messages.first { $0.text.split(separator: "\n").contains("READY=1") }!.at
        try await Task.sleep(for: .seconds(max(0, ready.addingTimeInterval(1).timeIntervalSinceNow)))
        messages += socket.received()
        let pings = messages.filter { $0.text == "WATCHDOG=1" && $0.at.timeIntervalSince(ready) <= 1.05 }
        #expect(pings.count >= 3, "datagrams: \(messages.map(\.text))")

        daemon.send(SIGTERM)
        let status = try #require(daemon.wait(timeout: 5), "nudged did not stop on SIGTERM")
        #expect(status == 0, "wait status \(status); nudged: \(world.daemonLog)")
        messages += socket.received()
        #expect(messages.contains { $0.text.split(separator: "\n").contains("STOPPING=1") }, "datagrams: \(messages.map(\.text))")
    }

    @Test func theJournalHoldsEachStepWithItsFieldsAndNudgeHistoryShowsThem() async throws {
        let world = try NudgedWorld()
        let title = "Journal check " + UUID().uuidString.prefix(8)
        let daemon = try await world.startDaemonAndWait()
        let id = try world.add(title, due: world.secondsAhead(2))
        _ = try await world.waitForRecords(count: 1)
        try await world.waitForEvent("delivered", of: daemon, matching: ["NUDGE_TODO_ID": String(id)])

        let entries = try world.journal(of: daemon, matching: ["NUDGE_TODO_ID": String(id)])
        let uuid = try #require(try world.todo(id)["uuid"] as? String)
        let databaseIDs = Set(entries.compactMap { $0["NUDGE_DATABASE_ID"] })
        #expect(databaseIDs.count == 1 && databaseIDs.first?.count == 32, "\(databaseIDs)")
        for event in ["planned", "fired", "delivered"] {
            let entry = try #require(entries.first { $0["NUDGE_EVENT"] == event }, "no \(event) in \(entries)")
            #expect(entry["SYSLOG_IDENTIFIER"] == "nudged")
            #expect(entry["NUDGE_TODO_ID"] == String(id))
            #expect(entry["NUDGE_TODO_UUID"] == uuid, "\(event): \(entry)")
            #expect(entry["NUDGE_RULE"] == "due", "\(event): \(entry)")
            #expect(entry["PRIORITY"] == "6", "\(event): \(entry)")
            let messageID = entry["MESSAGE_ID"] ?? ""
            #expect(messageID.count == 32 && messageID.allSatisfy(\.isHexDigit), "\(event): MESSAGE_ID \(messageID)")
            #expect(entry["MESSAGE"]?.contains(title) == true, "\(event): \(entry["MESSAGE"] ?? "")")
        }
        let delivered = entries.first { $0["NUDGE_EVENT"] == "delivered" }!
        #expect(delivered["NUDGE_NOTIFICATION_ID"].flatMap(UInt32.init) != nil)
        #expect(delivered["NUDGE_LATENCY_MS"].flatMap(Double.init) != nil)
        #expect(Set(entries.compactMap { $0["MESSAGE_ID"] }).count >= 3, "one MESSAGE_ID per kind of event")

        let history = try world.nudge("history", String(id))
        #expect(history.status == 0, "\(history.stderr)")
        let lines = history.stdout.split(separator: "\n").filter { $0.contains(title) }
        for event in ["planned", "fired", "delivered"] {
            #expect(lines.contains { $0.contains(" \(event) ") && $0.contains(" due ") }, "no \(event) in:\n\(history.stdout)")
        }
    }

    @Test func historyShowsOnlyThisDatabasesTodoAndRefusesOneThatDoesNotExist() async throws {
        let world = try NudgedWorld()
        let title = "First database " + UUID().uuidString.prefix(8)
        let daemon = try await world.startDaemonAndWait()
        let id = try world.add(title, due: world.secondsAhead(2))
        try await world.waitForEvent("delivered", of: daemon, matching: ["NUDGE_TODO_ID": String(id)])
        #expect(try world.nudge("history", String(id)).stdout.contains(title))

        // A brand-new database has a todo of the same id, which nothing has reminded of yet.
        let other = try NudgedWorld(startingServer: false)
        #expect(try other.add("Second database", due: other.secondsAhead(3600)) == id)
        let history = try other.nudge("history", String(id))
        #expect(history.status == 0, "\(history.stderr)")
        #expect(!history.stdout.contains(title), "\(history.stdout)")
        #expect(history.stdout.contains("No history"), "\(history.stdout)")

        let missing = try other.nudge("history", "42")
        #expect(missing.status == 1)
        #expect(missing.stderr == "nudge: there is no todo 42; 'nudge list --all' shows the ids\n")
    }

    /// A user who may read no journal file (not in systemd-journal, a volatile journal that only
    /// root reads) is told so and how to fix it, not that the todo has no history.
    @Test func historyWhereNoJournalFileIsReadableSaysWhyAndFails() async throws {
        let world = try NudgedWorld(startingServer: false)
        let id = try world.add("Unseen", due: world.secondsAhead(3600))
        // A journal file exists: the tests' journald writes one for this line.
        let logged = try JournaldHarness.shared.run("/usr/bin/systemd-cat", ["-t", "nudge-tests", "/bin/echo", "a line"],
                                                    environment: ["PATH": "/usr/bin:/bin"])
        #expect(logged.status == 0, "\(logged.stderr)")
        let chown = try ChildProcess.run("/bin/chown", ["-R", "65534:65534", world.folder.path], environment: ["PATH": "/usr/bin:/bin"])
        #expect(chown.status == 0, "\(chown.stderr)")
        let history = try JournaldHarness.shared.run(
            "/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", NudgedWorld.nudgeBinary, "history", String(id)],
            environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TZ": "UTC", "HOME": world.folder.path,
                          "NUDGE_DB": world.database, "NUDGE_CONFIG": world.configPath])
        #expect(history.status == 1, "stdout: \(history.stdout) stderr: \(history.stderr)")
        #expect(history.stdout.isEmpty)
        let user = try ChildProcess.output("/usr/bin/id", ["-nu", "65534"], environment: [:]).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(history.stderr == "nudge: cannot read the journal: no journal file is readable by \(user); add \(user) to the group "
                + "systemd-journal (then log in again), or make the journal persistent "
                + "(Storage=persistent in /etc/systemd/journald.conf), where each user reads their own\n")
    }

    /// The tests' journal is their own: with a journald of the machine's listening on
    /// /run/systemd/journal/socket, what a test's nudged logs is in the tests' journal, where
    /// `nudge history` reads, and not in the machine's, where a developer's journalctl looks.
    @Test(.machineJournald) func whatATestsServiceLogsStaysOutOfTheMachinesJournal() async throws {
        let world = try NudgedWorld(startingServer: false)
        let title = "Journal isolation " + UUID().uuidString
        let id = try world.add(title, due: world.secondsAhead(3600))
        let daemon = try await world.startDaemonAndWait()
        let planned = try await world.waitForEvent("planned", of: daemon, matching: ["NUDGE_TODO_ID": String(id)])
        #expect(planned["MESSAGE"]?.contains(title) == true, "\(planned)")
        let history = try world.nudge("history", String(id))
        #expect(history.status == 0 && history.stdout.contains(title), "history: \(history.stdout)\(history.stderr)")

        // journalctl as a developer runs it, outside the tests' namespace. journald stores
        // datagrams in the order they come, so what reached it would be there by now.
        try await Task.sleep(for: .milliseconds(300))
        let environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        let newest = try ChildProcess.run("/usr/bin/journalctl", ["--no-pager", "-o", "json", "-n", "1"], environment: environment)
        #expect(newest.status == 0 && !newest.stdout.isEmpty, "the machine's journal reads empty: \(newest.stderr)")
        let since = "@\(Int(world.started.timeIntervalSince1970) - 1)"
        let machine = try ChildProcess.run("/usr/bin/journalctl", ["--no-pager", "-o", "json", "--since", since],
                                           environment: environment)
        #expect(machine.status == 0, "\(machine.stderr)")
        let leaked = machine.stdout.split(separator: "\n").filter { $0.contains(title) }
        #expect(leaked.isEmpty, "in the machine's journal: \(leaked)")
    }

    // MARK: Many at once

    @Test func fiveRemindersAtOneMomentArriveAsOneNotification() async throws {
        let world = try NudgedWorld()
        try await world.startDaemonAndWait()
        let due = world.secondsAhead(3)
        let titles = ["Milk", "Eggs", "Bread", "Butter", "Coffee"]
        for title in titles { try world.add(title, due: due) }

        let record = try await world.waitForRecords(count: 1, timeout: 6)[0]
        #expect(record["DUNST_SUMMARY"] == "5 todos due")
        let lines = (record["DUNST_BODY"] ?? "").split(separator: "\n")
        #expect(lines.count == 5, "body: \(record["DUNST_BODY"] ?? "")")
        for title in titles {
            #expect(lines.contains { $0.contains(title) }, "\(title) not in \(lines)")
        }
        let shown = try #require(NudgedWorld.shownAt(record))
        #expect(shown.timeIntervalSince(due) >= -0.01 && shown.timeIntervalSince(due) <= 1,
                "shown \(shown.timeIntervalSince(due)) s from its due time")
        #expect(try await staysTrue(for: 1.5) { try world.server.records().count == 1 },
                "records: \(world.summaries)")
    }

    // MARK: Configuration

    @Test func sighupAndAChangedConfigFileReloadTheRules() async throws {
        let world = try NudgedWorld()
        let daemon = try world.startDaemon()
        try await world.waitForEvent("started", of: daemon)
        daemon.send(SIGHUP)
        let hup = try await world.waitForEvent("reloaded", of: daemon)
        #expect(hup["MESSAGE"]?.contains("SIGHUP") == true, "\(hup["MESSAGE"] ?? "")")

        // Due in two minutes and a bit; with the new rules, also reminded two minutes before.
        let due = world.secondsAhead(124)
        let id = try world.add("Join the call", due: due)
        try world.writeConfig(NudgedWorld.quietConfig.replacingOccurrences(of: "before = none", with: "before = 2m"))
        let changed = try await world.waitForEvent("reloaded", of: daemon, matching: ["MESSAGE": "reloaded (the config file changed)"])
        #expect(changed["PRIORITY"] == "6")

        let record = try await world.waitForRecords(count: 1, timeout: 8)[0]
        #expect(record["DUNST_SUMMARY"] == "Join the call")
        #expect(record["DUNST_BODY"] == "due in 2 min")
        let early = due.addingTimeInterval(-120)
        let shown = try #require(NudgedWorld.shownAt(record))
        #expect(shown.timeIntervalSince(early) >= -0.01 && shown.timeIntervalSince(early) <= 1,
                "shown \(shown.timeIntervalSince(early)) s from two minutes before the due time")
        try await world.waitForEvent("fired", of: daemon, matching: ["NUDGE_TODO_ID": String(id)])
    }

    /// A config file named by NUDGE_CONFIG (or --config) that is deleted while nudged runs is
    /// not taken for "no config": the rules in use stay, and the journal says why, as it does
    /// for a broken file.
    @Test func aNamedConfigFileDeletedKeepsTheRulesAndIsLoggedOnce() async throws {
        let world = try NudgedWorld()
        _ = try world.add("Call back", due: world.secondsAhead(3600))
        let daemon = try await world.startDaemonAndWait()
        try FileManager.default.removeItem(atPath: world.configPath)
        let failed = try await world.waitForEvent("failed", of: daemon)
        #expect(failed["MESSAGE"] == "not reloaded (the config file changed): there is no config file \(world.configPath) (named by NUDGE_CONFIG)",
                "\(failed)")
        #expect(try await staysTrue(for: 0.5) { try world.journal(of: daemon, matching: ["NUDGE_EVENT": "failed"]).count == 1 })
        #expect(try world.journal(of: daemon, matching: ["NUDGE_EVENT": "reloaded"]).isEmpty)
        // Planned by the rules in use (no early reminder), not by the defaults (10 minutes before).
        let rules = try ChildProcess.run("/usr/bin/sqlite3", [world.database, "SELECT rule FROM schedule"], environment: [:])
        #expect(rules.stdout == "due\n", "\(rules)")
        #expect(daemon.isRunning, "nudged: \(world.daemonLog)")
    }

    /// The usual path ($XDG_CONFIG_HOME/nudge/nudge.conf), which may be missing at the start: a
    /// file named by NUDGE_CONFIG must exist.
    static func usualConfigPath(_ world: NudgedWorld) throws -> (environment: [String: String], folder: String) {
        let home = world.folder.file("xdg")
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: false)
        return (["NUDGE_CONFIG": "", "XDG_CONFIG_HOME": home], home + "/nudge")
    }

    @Test func aConfigFileWrittenAfterTheStartIsReadInAFolderThatDidNotExist() async throws {
        let world = try NudgedWorld()
        let (environment, configFolder) = try Self.usualConfigPath(world)
        let daemon = try await world.startDaemonAndWait(environment: environment)
        try FileManager.default.createDirectory(atPath: configFolder, withIntermediateDirectories: false)
        try NudgedWorld.quietConfig.write(toFile: configFolder + "/nudge.conf", atomically: true, encoding: .utf8)
        let reloaded = try await world.waitForEvent("reloaded", of: daemon)
        #expect(reloaded["MESSAGE"]?.hasPrefix("reloaded (the config file") == true, "\(reloaded)")
        // One write, one reload.
        #expect(try await staysTrue(for: 0.5) { try world.journal(of: daemon, matching: ["NUDGE_EVENT": "reloaded"]).count == 1 })
    }

    /// The config folder deleted and made again (a restore, a dotfiles manager): the watch went
    /// with the old folder, and the new config was not read until a restart.
    @Test func aConfigFolderDeletedAndMadeAgainIsStillWatched() async throws {
        let world = try NudgedWorld()
        let configFolder = (world.configPath as NSString).deletingLastPathComponent
        let daemon = try await world.startDaemonAndWait()
        try FileManager.default.removeItem(atPath: configFolder)
        try await Task.sleep(for: .milliseconds(300))
        let reloads = { try world.journal(of: daemon, matching: ["NUDGE_EVENT": "reloaded"]).count }
        let before = try reloads()
        try FileManager.default.createDirectory(atPath: configFolder, withIntermediateDirectories: false)
        try await Task.sleep(for: .milliseconds(100))
        try world.writeConfig(NudgedWorld.quietConfig)
        #expect(try await eventually(timeout: 5) { try reloads() > before }, "the new folder's config was not read")
    }

    /// A new user has no ~/.config/nudge: nudged waits for it in ~/.config, where other
    /// programs write all the time, and sleeps through their writes.
    @Test func writesBesideTheMissingConfigFolderDoNotWakeTheService() async throws {
        let world = try NudgedWorld()
        let (environment, configFolder) = try Self.usualConfigPath(world)
        let daemon = try await world.startDaemonAndWait(environment: environment)
        try await Task.sleep(for: .milliseconds(500))
        let other = (configFolder as NSString).deletingLastPathComponent + "/other-program.conf"
        #expect(FileManager.default.createFile(atPath: other, contents: nil))
        let before = try Self.contextSwitches(of: daemon.pid)
        for round in 0..<50 {
            let handle = try #require(FileHandle(forWritingAtPath: other))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data("line \(round)\n".utf8))
            try handle.close()
            try await Task.sleep(for: .milliseconds(10))
        }
        try await Task.sleep(for: .milliseconds(300))
        let woken = try Self.contextSwitches(of: daemon.pid) - before
        // Each write woke it about once before (over 50, and 558 system calls).
        #expect(woken < 10, "\(woken) context switches for 50 writes beside the config folder")
        // The folder and the config, when they come, are read.
        try FileManager.default.createDirectory(atPath: configFolder, withIntermediateDirectories: false)
        try NudgedWorld.quietConfig.write(toFile: configFolder + "/nudge.conf", atomically: true, encoding: .utf8)
        let reloaded = try await world.waitForEvent("reloaded", of: daemon)
        #expect(reloaded["MESSAGE"]?.hasPrefix("reloaded (the config file") == true, "\(reloaded)")
    }

    /// The voluntary context switches of every thread of `pid`: how often it went to sleep.
    static func contextSwitches(of pid: pid_t) throws -> Int {
        let tasks = "/proc/\(pid)/task"
        return try FileManager.default.contentsOfDirectory(atPath: tasks).reduce(0) { sum, task in
            let status = (try? String(contentsOfFile: "\(tasks)/\(task)/status", encoding: .utf8)) ?? ""
            let line = status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches:") }
            return sum + (line.flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0)
        }
    }

    @Test func aBrokenConfigFileStopsTheStartWithOneLineNamingTheFileAndLine() async throws {
        let world = try NudgedWorld(config: "[reminders]\nbefore = banana\n", startingServer: false)
        let daemon = try world.startDaemon()
        let status = try #require(daemon.wait(timeout: 10), "nudged kept running with a broken config: \(world.daemonLog)")
        // Exited (not killed by a signal), with a failure code.
        #expect(status & 0x7f == 0 && (status >> 8) & 0xff != 0, "wait status \(status)")
        let lines = world.daemonLog.split(separator: "\n")
        #expect(lines.count == 1, "stderr: \(world.daemonLog)")
        #expect(lines.first?.contains(world.configPath + ":2:") == true, "stderr: \(world.daemonLog)")
        #expect(lines.first?.contains("banana") == true, "stderr: \(world.daemonLog)")
    }

    /// Without a session bus nudged cannot show anything: it says which bus it looked for and
    /// exits 1, so that systemd restarts it and the journal says why (it used to trap, SIGILL).
    /// systemd shows the ERRNO= it is told as `Error: N (strerror)` under the status line, so
    /// it is the bus's own error: a fixed 1 read "Operation not permitted" beside "No such file".
    @Test(arguments: [
        (["DBUS_SESSION_BUS_ADDRESS": "unix:path=MISSING"], "nudged: no session bus at unix:path=MISSING: No such file or directory", ENOENT),
        (["XDG_RUNTIME_DIR": ""], "nudged: no session bus at unix:path=/bus: No such file or directory", ENOENT),
        (["DBUS_SESSION_BUS_ADDRESS": ""], "nudged: no session bus: DBUS_SESSION_BUS_ADDRESS is set but empty (Connection refused)", ECONNREFUSED),
        ([:], "nudged: no session bus: neither DBUS_SESSION_BUS_ADDRESS nor XDG_RUNTIME_DIR is set (No medium found)", ENOMEDIUM),
    ])
    func withoutASessionBusTheStartFailsWithOneLineNamingTheBus(bus: [String: String], line: String, errno: Int32) throws {
        let folder = TemporaryDirectory()
        let missing = folder.file("bus")
        var environment = ["PATH": "/usr/bin:/bin", "HOME": folder.path, "LANG": "C.UTF-8",
                           "NUDGE_DB": folder.file("data/nudge.db")]
        environment.merge(bus.mapValues { $0.replacingOccurrences(of: "MISSING", with: missing) }) { $1 }
        let socket = try NotifySocket()
        environment["NOTIFY_SOCKET"] = socket.path
        let run = try JournaldHarness.shared.run(NudgedWorld.nudgedBinary, [], environment: environment)
        #expect(run.status == 1, "stderr: \(run.stderr)")
        let expected = line.replacingOccurrences(of: "MISSING", with: missing)
        #expect(run.stderr == expected + "\n")
        let told = socket.received().flatMap { $0.text.split(separator: "\n").map(String.init) }
        #expect(told.contains("STATUS=Failed: " + expected.dropFirst("nudged: ".count)), "datagrams: \(told)")
        #expect(told.filter { $0.hasPrefix("ERRNO=") } == ["ERRNO=\(errno)"], "datagrams: \(told)")
    }

    /// A config file named by --config or NUDGE_CONFIG that does not exist is a typo, not the
    /// defaults: nudged says so in one line, tells systemd, and exits 1 before it starts.
    @Test(arguments: [(["--config", "MISSING"], [:], "--config"), ([], ["NUDGE_CONFIG": "MISSING"], "NUDGE_CONFIG")])
    func aMissingConfigFileNamedByTheUserStopsTheStart(arguments: [String], named: [String: String], by namer: String) throws {
        let folder = TemporaryDirectory()
        let missing = folder.file("nudge.cnof")
        let socket = try NotifySocket()
        let environment = ["PATH": "/usr/bin:/bin", "HOME": folder.path, "LANG": "C.UTF-8", "NUDGE_DB": folder.file("nudge.db"),
                           "NOTIFY_SOCKET": socket.path].merging(named.mapValues { _ in missing }) { $1 }
        let run = try JournaldHarness.shared.run(NudgedWorld.nudgedBinary, arguments.map { $0 == "MISSING" ? missing : $0 },
                                                 environment: environment)
        let line = "there is no config file \(missing) (named by \(namer))"
        #expect(run.status == 1, "stderr: \(run.stderr)")
        #expect(run.stderr == "nudged: \(line)\n")
        let told = socket.received().flatMap { $0.text.split(separator: "\n").map(String.init) }
        #expect(told.contains("STATUS=Failed: " + line), "datagrams: \(told)")
        #expect(!told.contains { $0.hasPrefix("ERRNO=") }, "datagrams: \(told)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("nudge.db")))
    }

    /// A failure with no error number of its own (a broken config file) sends no ERRNO=: systemd
    /// would show the number as an error it was not.
    @Test func aBrokenConfigFileTellsSystemdWhyWithoutAnErrorNumber() throws {
        let world = try NudgedWorld(config: "[reminders]\nbefore = banana\n", startingServer: false)
        let socket = try NotifySocket()
        let daemon = try world.startDaemon(environment: ["NOTIFY_SOCKET": socket.path])
        _ = try #require(daemon.wait(timeout: 10), "nudged kept running with a broken config: \(world.daemonLog)")
        let told = socket.received().flatMap { $0.text.split(separator: "\n").map(String.init) }
        #expect(told.contains { $0.hasPrefix("STATUS=Failed: ") && $0.contains("banana") }, "datagrams: \(told)")
        #expect(!told.contains { $0.hasPrefix("ERRNO=") }, "datagrams: \(told)")
    }
}

/// Snoozing waits a real minute (the shortest snooze is 1m), so it has a suite of its own that
/// runs beside the others instead of after them.
@Suite(.journald)
struct NudgedSnoozeEndToEndTests {
    @Test func snoozeBringsTheReminderBackAfterTheChosenTimeInPlaceOfTheFirst() async throws {
        let world = try NudgedWorld(config: NudgedWorld.quietConfig + "[snooze]\nchoices = 1m, 1h\n")
        let daemon = try world.startDaemon()
        let id = try world.add("Check the oven", due: world.secondsAhead(2))
        _ = try await world.waitForRecords(count: 1)
        try await world.waitForEvent("delivered", of: daemon, matching: ["NUDGE_TODO_ID": String(id)])

        try await world.click("#Snooze 1 min (Check the oven)", onTodo: id, of: daemon)
        // When nudged took the click, from the journal: a click that dunst lost is clicked
        // again, so the moment click() returns can be seconds later.
        let snoozed = try await world.waitForEvent("snoozed", of: daemon, matching: ["NUDGE_TODO_ID": String(id)])
        let clicked = try #require(NudgedWorld.loggedAt(snoozed))
        let upcoming = try world.nudge("upcoming", "--json").array()
        let snooze = try #require(upcoming.first { $0["rule"] as? String == "snooze" && $0["todo"] as? Int == id },
                                  "upcoming: \(upcoming)")
        let until = try #require(NudgedWorld.date(fromJSON: snooze["at"]))
        #expect(abs(until.timeIntervalSince(clicked.addingTimeInterval(60))) <= 2, "snoozed until \(until), clicked at \(clicked)")

        let records = try await world.waitForRecords(count: 2, timeout: 70)
        try #require(records.count == 2)
        #expect(records[1]["DUNST_SUMMARY"] == "Check the oven")
        #expect(records[1]["DUNST_BODY"]?.hasPrefix("overdue since ") == true, "body: \(records[1]["DUNST_BODY"] ?? "")")
        let shown = try #require(NudgedWorld.shownAt(records[1]))
        // `until` is printed to the second: the reminder comes within the second after it.
        #expect(shown.timeIntervalSince(until) >= -0.01 && shown.timeIntervalSince(until) <= 2,
                "shown \(shown.timeIntervalSince(until)) s from the snooze's end")
        // One notification on screen for the todo, not two.
        #expect(try world.server.displayedCount() == 1)
    }
}
