import Foundation
import Testing
@testable import NudgeTestSupport

/// Sound, timeout, residency and escalation as dunst received them from `nudged`: urgency and
/// the timeout dunst applied from its record script, and every hint from the Notify calls
/// on the bus (dunst does not pass sound hints to its scripts).
@Suite(.serialized, .journald)
struct AlertEndToEndTests {
    @Test func eachPriorityAndCategoryArrivesWithTheHintsTheConfigGivesIt() async throws {
        let world = try NudgedWorld(config: NudgedWorld.quietConfig + """
            [category.meds]
            sound = bell
            timeout = 45s
            resident = yes

            """)
        try world.server.startWatchingCalls()
        try world.nudge("category", "add", "meds")
        _ = try await world.startDaemonAndWait()
        let due = world.secondsAhead(2)
        try world.add("Call the plumber", due: due, "--priority", "high")
        try world.add("Water the plants", due: due, "--priority", "low")
        try world.add("Take the pills", due: due, "--category", "meds")

        let calls = try world.server.waitForNotifyCalls(count: 3, timeout: 8)
        let byTitle = Dictionary(calls.map { ($0.summary, $0) }) { first, _ in first }
        let high = try #require(byTitle["Call the plumber"], "\(calls)")
        #expect(high.hints["urgency"] == "2")
        #expect(high.hints["sound-name"] == "message-new-instant")
        #expect(high.hints["suppress-sound"] == nil)
        #expect(high.hints["resident"] == nil)
        #expect(high.expireTimeout == 0)
        let low = try #require(byTitle["Water the plants"], "\(calls)")
        #expect(low.hints["urgency"] == "0")
        #expect(low.hints["suppress-sound"] == "true")
        #expect(low.hints["sound-name"] == nil)
        #expect(low.expireTimeout == -1)
        let meds = try #require(byTitle["Take the pills"], "\(calls)")
        #expect(meds.hints["urgency"] == "1")
        #expect(meds.hints["sound-name"] == "bell")
        #expect(meds.hints["resident"] == "true")
        #expect(meds.expireTimeout == 45_000)

        // What dunst made of them.
        let records = try await world.waitForRecords(count: 3)
        let shown = Dictionary(records.map { ($0["DUNST_SUMMARY"] ?? "", $0) }) { first, _ in first }
        #expect(shown["Call the plumber"]?["DUNST_URGENCY"] == "CRITICAL")
        #expect(shown["Call the plumber"]?["DUNST_TIMEOUT"] == "0")
        #expect(shown["Water the plants"]?["DUNST_URGENCY"] == "LOW")
        #expect(shown["Take the pills"]?["DUNST_URGENCY"] == "NORMAL")
        #expect(shown["Take the pills"]?["DUNST_TIMEOUT"] == "45000")
    }

    @Test func aTagSectionsBeforeAndSoundReachTheTodosTaggedSo() async throws {
        let world = try NudgedWorld(config: NudgedWorld.quietConfig + """
            [tag.money]
            before = 1h
            sound = bell

            """)
        try world.server.startWatchingCalls()
        let daemon = try await world.startDaemonAndWait()
        // Due in an hour: only the tag's `before = 1h` fires now.
        let due = world.secondsAhead(3600 + 3)
        try world.add("Water the plants", due: due)
        let tagged = try world.add("Pay the bill", due: due, "+Money")

        let calls = try world.server.waitForNotifyCalls(count: 1, timeout: 10)
        let call = try #require(calls.first)
        #expect(call.summary == "Pay the bill")
        #expect(call.hints["sound-name"] == "bell")
        #expect(call.hints["suppress-sound"] == nil)
        let delivered = try await world.waitForEvent("delivered", of: daemon, matching: ["NUDGE_TODO_ID": String(tagged)])
        #expect(delivered["NUDGE_RULE"] == "before 1h", "\(delivered)")
        #expect(try world.server.notifyCalls().map(\.summary) == ["Pay the bill"])
    }

    @Test func theSecondNagIsCriticalAndOnlyRepeatSoundReplaysTheSound() async throws {
        let world = try NudgedWorld(config: """
            [reminders]
            before = none
            nag_every = 1m
            nag_limit = none
            escalate_after = 2
            [priority.low]
            sound = bell
            repeat_sound = yes
            [priority.medium]
            sound = bell
            [digest]
            enabled = no

            """)
        try world.server.startWatchingCalls()
        _ = try await world.startDaemonAndWait()
        // Overdue by almost two minutes and almost one: their next nags, numbers 2 and 1, come
        // in three seconds.
        let soon = world.secondsAhead(3)
        try world.add("Stretch", due: soon.addingTimeInterval(-120), "--priority", "low")
        try world.add("Drink water", due: soon.addingTimeInterval(-60), "--priority", "medium")

        let calls = try world.server.waitForNotifyCalls(count: 2, timeout: 8)
        let byTitle = Dictionary(calls.map { ($0.summary, $0) }) { first, _ in first }
        let second = try #require(byTitle["Stretch"], "\(calls)")
        #expect(second.hints["urgency"] == "2", "a low-priority todo's second nag escalates")
        #expect(second.hints["sound-name"] == "bell")
        let first = try #require(byTitle["Drink water"], "\(calls)")
        #expect(first.hints["urgency"] == "1", "a first nag does not")
        #expect(first.hints["suppress-sound"] == "true", "without repeat_sound a nag is silent")
        #expect(first.hints["sound-name"] == nil)

        let records = try await world.waitForRecords(count: 2)
        let shown = Dictionary(records.map { ($0["DUNST_SUMMARY"] ?? "", $0) }) { first, _ in first }
        #expect(shown["Stretch"]?["DUNST_URGENCY"] == "CRITICAL")
        #expect(shown["Drink water"]?["DUNST_URGENCY"] == "NORMAL")
    }

    @Test func aReminderKeptUntilAnsweredGoesWhenNudgeAnswersIt() async throws {
        let world = try NudgedWorld(config: """
            [reminders]
            before = none
            nag_every = off
            [category.meds]
            resident = yes
            [notifications]
            group_above = 10
            [digest]
            enabled = no

            """)
        try world.nudge("category", "add", "meds")
        let daemon = try await world.startDaemonAndWait()
        let due = world.secondsAhead(2)
        let done = try world.add("Call the plumber", due: due, "--priority", "high")
        let snoozed = try world.add("Pay the rent", due: due, "--priority", "high")
        let deleted = try world.add("Book the flight", due: due, "--priority", "high")
        let repeating = try world.add("Stretch", due: due, "--priority", "high", "--repeat", "every 2h")
        let resident = try world.add("Take the pills", due: due, "--priority", "high", "--category", "meds")
        let postponed = try world.add("Water the plants", due: due, "--priority", "high")
        let edited = try world.add("Renew the passport", due: due, "--priority", "high")
        let retitled = try world.add("Clean the oven", due: due, "--priority", "high")
        let all = [done, snoozed, deleted, repeating, resident, postponed, edited, retitled]
        _ = try await world.waitForRecords(count: all.count, timeout: 8)
        for id in all {
            try await world.waitForEvent("delivered", of: daemon, matching: ["NUDGE_TODO_ID": String(id)])
        }
        #expect(try world.server.displayedCount() == all.count, "timeout = never keeps them: \(world.summaries)")

        #expect(try world.nudge("done", String(done)).status == 0)
        #expect(try world.nudge("snooze", String(snoozed), "1h").status == 0)
        #expect(try world.nudge("delete", String(deleted), "--yes").status == 0)
        #expect(try world.nudge("done", String(repeating)).status == 0)
        #expect(try world.nudge("snooze", String(resident), "1h").status == 0)
        #expect(try world.nudge("postpone", String(postponed), "1d").status == 0)
        #expect(try world.nudge("edit", String(edited), "--due", "tomorrow 9am").status == 0)
        #expect(try world.nudge("edit", String(retitled), "--title", "Clean the oven today").status == 0)
        for id in [done, snoozed, deleted, repeating, postponed, edited] {
            try await world.waitForEvent("withdrawn", of: daemon, matching: ["NUDGE_TODO_ID": String(id)])
        }
        let moved = try world.journal(of: daemon, matching: ["NUDGE_EVENT": "withdrawn", "NUDGE_TODO_ID": String(postponed)])
        #expect(moved.first?["MESSAGE"]?.hasSuffix("(Water the plants), rescheduled by another program") == true, "\(moved)")
        // A resident notification stays after a snooze, as after its own Snooze button, and
        // one whose todo changed but not its due stays too.
        #expect(try await eventually(timeout: 5) { try world.server.displayedCount() == 2 }, "\(world.daemonLog)")
        for id in [resident, retitled] {
            #expect(try world.journal(of: daemon, matching: ["NUDGE_EVENT": "withdrawn", "NUDGE_TODO_ID": String(id)]).isEmpty)
        }
    }

    @Test func aReminderAnsweredWhileTheServiceWasStoppedGoesWhenItStarts() async throws {
        let world = try NudgedWorld()
        let first = try await world.startDaemonAndWait()
        let id = try world.add("Call the plumber", due: world.secondsAhead(2), "--priority", "high")
        _ = try await world.waitForRecords(count: 1, timeout: 8)
        try await world.waitForEvent("delivered", of: first, matching: ["NUDGE_TODO_ID": String(id)])
        first.stop()
        #expect(try world.nudge("done", String(id)).status == 0)

        let second = try await world.startDaemonAndWait()
        try await world.waitForEvent("withdrawn", of: second, matching: ["NUDGE_TODO_ID": String(id)])
        #expect(try await eventually(timeout: 5) { try world.server.displayedCount() == 0 }, "\(world.daemonLog)")
    }

    @Test func aHighPriorityReminderLetThroughQuietHoursIsSilent() async throws {
        // Quiet hours from an hour ago to an hour ahead, in UTC as the children run.
        func clock(_ offset: TimeInterval) -> String {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "HH:mm"
            return formatter.string(from: Date().addingTimeInterval(offset))
        }
        let world = try NudgedWorld(config: NudgedWorld.quietConfig + """
            [quiet]
            hours = \(clock(-3600))-\(clock(3600))
            allow_high = yes

            """)
        try world.server.startWatchingCalls()
        _ = try await world.startDaemonAndWait()
        try world.add("Call the plumber", due: world.secondsAhead(2), "--priority", "high")

        let call = try #require(try world.server.waitForNotifyCalls(count: 1, timeout: 8).first)
        #expect(call.summary == "Call the plumber")
        #expect(call.hints["urgency"] == "2")
        #expect(call.hints["suppress-sound"] == "true")
        #expect(call.hints["sound-name"] == nil)
        #expect(call.expireTimeout == 0)
    }
}
