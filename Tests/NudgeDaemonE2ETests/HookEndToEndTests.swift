import Foundation
import Testing
@testable import NudgeTestSupport

extension NudgedEndToEndTests {
    /// `[hooks]` with the real nudged, dunst and journal: hooks that write a file, read their
    /// stdin, fail, hang, print a lot, and suppress a notification. Nested in the end-to-end
    /// suite, so that it is serialized with the other tests.
    @Suite struct Hooks {
        func world(hooks: String) throws -> NudgedWorld {
            try NudgedWorld(config: NudgedWorld.quietConfig + "[hooks]\n" + hooks)
        }

        /// `env` and stdin of a hook, written by a shell the hook runs itself.
        static func recorder(_ folder: String, name: String) -> String {
            #"/bin/sh -c 'env > "$$0/\#(name)-${NUDGE_TODO_ID}.env"; cat > "$$0/\#(name)-${NUDGE_TODO_ID}.json"' "# + folder
        }

        static func environment(_ path: String) -> [String: String] {
            let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            var values: [String: String] = [:]
            for line in text.split(separator: "\n") {
                guard let equals = line.firstIndex(of: "=") else { continue }
                values[String(line[..<equals])] = String(line[line.index(after: equals)...])
            }
            return values
        }

        @Test func onFireGetsTheTodoInItsEnvironmentAndOnStdinAndTheReminderIsShown() async throws {
            let hookFolder = TemporaryDirectory()
            let folder = hookFolder.path
            let world = try world(hooks: "on_fire = \(Self.recorder(folder, name: "fire"))\n")
            let daemon = try await world.startDaemonAndWait()
            #expect(try world.nudge("category", "add", "home").status == 0)
            let due = world.secondsAhead(2)
            let id = try world.add("Pay rent; $(reboot) & <b>", due: due, "--priority", "high", "--category", "home")
            _ = try await world.waitForRecords(count: 1)
            #expect(try await eventually(timeout: 5) { FileManager.default.fileExists(atPath: "\(folder)/fire-\(id).json") })
            try await world.waitForEvent("hook", of: daemon, matching: ["NUDGE_HOOK": "on_fire", "NUDGE_HOOK_STATUS": "0"])
            let environment = Self.environment("\(folder)/fire-\(id).env")
            #expect(environment["NUDGE_EVENT"] == "fire")
            #expect(environment["NUDGE_TITLE"] == "Pay rent; $(reboot) & <b>")
            #expect(environment["NUDGE_TODO_ID"] == String(id))
            #expect(environment["NUDGE_TODO_UUID"] == (try world.todo(id)["uuid"] as? String))
            #expect(environment["NUDGE_PRIORITY"] == "high")
            #expect(environment["NUDGE_CATEGORY"] == "home")
            #expect(environment["NUDGE_RULE"] == "due")
            #expect(environment["NUDGE_DUE"] == NudgedWorld.dueText(due).replacingOccurrences(of: " ", with: "T") + "+00:00")
            let input = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(folder)/fire-\(id).json")))
                                     as? [String: Any])
            #expect(input["event"] as? String == "fire")
            #expect(input["id"] as? Int == id)
            #expect((input["todo"] as? [String: Any])?["title"] as? String == "Pay rent; $(reboot) & <b>")
            #expect((input["todo"] as? [String: Any])?["category"] as? String == "home")
        }

        @Test func aFailingAHangingAndALoudHookAreJournaledAndRemindersGoOn() async throws {
            let world = try world(hooks: """
                on_add = /bin/sh -c 'echo "cannot reach the phone" >&2; echo second line >&2; exit 3'
                on_snooze = /bin/sh -c 'head -c 3000000 /dev/zero; head -c 3000000 /dev/zero >&2; echo done >&2'
                on_done = sleep 60
                timeout = 1s

                """)
            let daemon = try await world.startDaemonAndWait()
            let id = try world.add("Water the plants", due: world.secondsAhead(2))
            let failed = try await world.waitForEvent("hook", of: daemon, matching: ["NUDGE_HOOK": "on_add"])
            #expect(failed["NUDGE_HOOK_STATUS"] == "3")
            #expect(failed["NUDGE_HOOK_STDERR"] == "cannot reach the phone")
            #expect(failed["PRIORITY"] == "4")
            #expect(failed["NUDGE_TODO_ID"] == String(id))
            // The reminder comes all the same.
            let records = try await world.waitForRecords(count: 1)
            #expect(records.first?["DUNST_SUMMARY"] == "Water the plants")

            #expect(try world.nudge("snooze", String(id), "10m").status == 0)
            let loud = try await world.waitForEvent("hook", of: daemon, matching: ["NUDGE_HOOK": "on_snooze"])
            #expect(loud["NUDGE_HOOK_STATUS"] == "0")

            let started = Date()
            #expect(try world.nudge("done", String(id)).status == 0)
            let hung = try await world.waitForEvent("hook", of: daemon, matching: ["NUDGE_HOOK": "on_done"], timeout: 10)
            #expect(hung["NUDGE_HOOK_STATUS"] == "137")
            #expect(hung["MESSAGE"]?.contains("killed after its timeout of 1s") == true)
            #expect(Date().timeIntervalSince(started) < 8)
            // And the service still reminds.
            try world.add("Feed the cat", due: world.secondsAhead(2))
            let later = try await world.waitForRecords(count: 2)
            #expect(later.last?["DUNST_SUMMARY"] == "Feed the cat")
        }

        @Test func anOnFireHookThatPrintsSuppressStopsTheNotification() async throws {
            let hookFolder = TemporaryDirectory()
            let folder = hookFolder.path
            // Sends todos about the phone "to the phone" (a file) and suppresses them.
            let world = try world(hooks: #"""
                on_fire = /bin/sh -c 'case "$$1" in *phone*) echo suppress; echo "$$1" >> "$$0/phone";; esac' \#(folder) ${NUDGE_TITLE}
                suppress_wait = 3s

                """#)
            let daemon = try await world.startDaemonAndWait()
            let due = world.secondsAhead(2)
            let phone = try world.add("Call mum on the phone", due: due)
            try world.add("Buy milk", due: due)
            try await world.waitForEvent("suppressed", of: daemon, matching: ["NUDGE_TODO_ID": String(phone)])
            let records = try await world.waitForRecords(count: 1)
            #expect(records.map { $0["DUNST_SUMMARY"] } == ["Buy milk"])
            #expect(try await staysTrue(for: 1) { try world.server.records().count == 1 }, "\(world.summaries)")
            #expect(try String(contentsOfFile: folder + "/phone", encoding: .utf8) == "Call mum on the phone\n")
            // Not shown is not done: the todo is still pending.
            #expect(try world.todo(phone)["completed"] as? Bool == false)
        }

        @Test func theDoneButtonInDunstRunsOnDone() async throws {
            let hookFolder = TemporaryDirectory()
            let folder = hookFolder.path
            let world = try world(hooks: "on_done = \(Self.recorder(folder, name: "done"))\n")
            let daemon = try await world.startDaemonAndWait()
            let id = try world.add("Take out the bins", due: world.secondsAhead(2))
            _ = try await world.waitForRecords(count: 1)
            try await world.waitForEvent("delivered", of: daemon, matching: ["NUDGE_TODO_ID": String(id)])
            try await world.click("#Done (Take out the bins)", onTodo: id, of: daemon)
            #expect(try await eventually(timeout: 5) { FileManager.default.fileExists(atPath: "\(folder)/done-\(id).json") })
            #expect(try await eventually(timeout: 5) { Self.environment("\(folder)/done-\(id).env")["NUDGE_EVENT"] == "done" })
        }
    }
}
