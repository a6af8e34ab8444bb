import Foundation
import NudgeCore
@testable import NudgeDaemon
@testable import NudgeStore
import Testing

/// Sound, timeout, residency and escalation of the notifications the writer makes.
struct NotificationAlertTests {
    let zone = TimeZone(identifier: "Europe/Berlin")!
    /// Sunday 2026-11-29 10:53 in Berlin.
    let now = Date(timeIntervalSince1970: 1_795_945_980)

    func todo(_ priority: Priority, category: String? = nil) -> Todo {
        Todo(id: 1, title: "t", due: .at(now.addingTimeInterval(-600), zone: zone), priority: priority,
             category: category.map { Category(id: 1, name: $0) }, createdAt: now, updatedAt: now)
    }

    func delivery(_ rule: String, kind: Delivery.Kind = .reminder, dueAt: Date? = nil) -> Delivery {
        Delivery(id: 1, kind: kind, todoIDs: [1], rule: rule, dueAt: dueAt ?? now, state: .pending, server: nil, notificationID: nil)
    }

    func content(_ todo: Todo, rule: String = "due", config: NudgeConfig = NudgeConfig(), at moment: Date? = nil,
                 dueAt: Date? = nil) -> NotificationContent {
        NotificationWriter(now: moment ?? now, zone: zone, config: config, style: .standard, home: "/home/ana")
            .content(for: delivery(rule, dueAt: dueAt), todos: [todo])
    }

    @Test func byDefaultHighPriorityRingsAndStaysAndTheOthersAreSilent() {
        let high = content(todo(.high))
        #expect(high.urgency == .critical)
        #expect(high.sound == .name("message-new-instant"))
        #expect(high.expireTimeout == 0)
        #expect(!high.resident)
        for priority in [Priority.medium, .low] {
            let quiet = content(todo(priority))
            #expect(quiet.sound == .silent)
            #expect(quiet.expireTimeout == -1)
        }
        #expect(content(todo(.medium)).urgency == .normal)
        #expect(content(todo(.low)).urgency == .low)
    }

    @Test func aCategoryOverridesThePrioritySoundTimeoutAndResidency() throws {
        var config = NudgeConfig()
        config.byPriority[.low] = RuleOverrides(sound: .some(.name("bell")), timeout: .some(.seconds(45)))
        config.byCategory["meds"] = RuleOverrides(sound: .some(.file("~/sounds/pills.oga")), timeout: .some(.never), resident: true)
        let low = content(todo(.low), config: config)
        #expect(low.sound == .name("bell"))
        #expect(low.expireTimeout == 45_000)
        #expect(!low.resident)
        let meds = content(todo(.low, category: "Meds"), config: config)
        #expect(meds.sound == .file("/home/ana/sounds/pills.oga"))
        #expect(meds.expireTimeout == 0)
        #expect(meds.resident)
    }

    @Test func nagsEscalateToCriticalFromTheConfiguredNagOn() {
        var config = NudgeConfig()
        config.reminders.escalateAfter = 2
        #expect(content(todo(.low), rule: "due", config: config).urgency == .low)
        #expect(content(todo(.low), rule: "nag 1", config: config).urgency == .low)
        #expect(content(todo(.low), rule: "nag 2", config: config).urgency == .critical)
        #expect(content(todo(.medium), rule: "nag 3", config: config).urgency == .critical)
        // Without escalate_after, nags keep the priority's urgency.
        #expect(content(todo(.low), rule: "nag 9").urgency == .low)
    }

    @Test func onlyTheFirstReminderSoundsUnlessRepeatSoundIsOn() {
        #expect(content(todo(.high), rule: "before 10m").sound == .name("message-new-instant"))
        #expect(content(todo(.high), rule: "snooze").sound == .name("message-new-instant"))
        #expect(content(todo(.high), rule: "nag 1").sound == .silent)
        var config = NudgeConfig()
        config.byPriority[.high] = RuleOverrides(repeatSound: true)
        #expect(content(todo(.high), rule: "nag 1", config: config).sound == .name("message-new-instant"))
        #expect(content(todo(.high), rule: "nag 4", config: config).sound == .name("message-new-instant"))
    }

    @Test func quietHoursSilenceWhatTheyLetThroughAndWhatTheyHeldBack() {
        var config = NudgeConfig()
        config.quietHours = QuietHours(start: TimeOfDay(hour: 22, minute: 0)!, end: TimeOfDay(hour: 7, minute: 0)!)
        let calendar = Calendar.nudge(zone: zone)
        let night = calendar.date(from: DateComponents(year: 2026, month: 11, day: 29, hour: 23, minute: 30))!
        let end = calendar.date(from: DateComponents(year: 2026, month: 11, day: 30, hour: 7))!
        // High priority passes through quiet hours, silently.
        #expect(content(todo(.high), rule: "before 10m", config: config, at: night, dueAt: night).sound == .silent)
        // Held until their end: silent, even when shown a little later.
        #expect(content(todo(.high), rule: "before 10m", config: config, at: end, dueAt: end).sound == .silent)
        #expect(content(todo(.high), rule: "nag 2", config: config, at: end.addingTimeInterval(90), dueAt: end).sound == .silent)
        // A todo due exactly when they end was not held: its due reminder rings.
        var dueAtEnd = todo(.high)
        dueAtEnd.due = .at(end, zone: zone)
        #expect(content(dueAtEnd, rule: "due", config: config, at: end, dueAt: end).sound == .name("message-new-instant"))
        // Outside them, as configured.
        #expect(content(todo(.high), config: config).sound == .name("message-new-instant"))
    }

    @Test func aGroupSoundsAndStaysAsItsMostUrgentTodo() {
        let todos = [todo(.low), todo(.high), todo(.medium)]
        let group = NotificationWriter(now: now, zone: zone, config: NudgeConfig(), style: .standard)
            .content(for: delivery("3 reminders", kind: .group), todos: todos)
        #expect(group.sound == .name("message-new-instant"))
        #expect(group.expireTimeout == 0)
        let calm = NotificationWriter(now: now, zone: zone, config: NudgeConfig(), style: .standard)
            .content(for: delivery("2 reminders", kind: .group), todos: [todo(.low), todo(.medium)])
        #expect(calm.sound == .silent)
        #expect(calm.expireTimeout == -1)
    }
}

/// How the service treats a resident notification.
struct ResidentNotificationTests {
    let fixture = ServiceFixture()

    @Test func doneClosesAResidentNotificationSoThatItCannotBeAnsweredTwice() throws {
        fixture.config.reminders.resident = true
        try fixture.add("daily", at: fixture.date(29, 12), repetition: Repetition(rrule: "FREQ=DAILY", from: .due))
        try fixture.start()
        fixture.advanceToWake()
        #expect(fixture.server.shown.map(\.content.resident) == [true])
        fixture.onQueue { fixture.server.onActionInvoked?(1, "done", ":1.7") }
        #expect(fixture.server.closedIDs == [1])
        // A second Done on the same (still resident) notification does nothing more.
        fixture.onQueue { fixture.server.onActionInvoked?(1, "done", ":1.7") }
        #expect(try fixture.store().todos(ids: [1])[0].due == .at(fixture.date(30, 12), zone: fixture.zone))
        #expect(fixture.events.kinds(.completed).count == 1)
    }

    @Test func snoozeKeepsAResidentNotificationAnswerable() throws {
        fixture.config.reminders.resident = true
        try fixture.add("a", at: fixture.date(29, 12))
        try fixture.start()
        fixture.advanceToWake()
        fixture.onQueue { fixture.server.onActionInvoked?(1, "snooze-0", ":1.7") }
        #expect(fixture.server.closedIDs.isEmpty)
        fixture.onQueue { fixture.server.onActionInvoked?(1, "done", ":1.7") }
        #expect(try fixture.store().todos(ids: [1])[0].isCompleted)
        #expect(fixture.server.closedIDs == [1])
    }

    @Test func withoutResidentDoneLeavesClosingToTheServer() throws {
        try fixture.add("a", at: fixture.date(29, 12))
        try fixture.start()
        fixture.advanceToWake()
        #expect(fixture.server.shown.map(\.content.resident) == [false])
        fixture.onQueue { fixture.server.onActionInvoked?(1, "done", ":1.7") }
        #expect(fixture.server.closedIDs.isEmpty)
    }
}
