import Foundation
import NudgeCore
import NudgePlatform
import NudgeStore
import Testing
@testable import NudgeTestSupport
@testable import NudgeDaemon

/// What the service asks its hooks to run, and what an on_fire hook's answer does; the
/// hooks themselves stand in (HookRunnerTests runs real ones).
struct ReminderServiceHookTests {
    let fixture = ServiceFixture()

    func hooks(_ events: [HookEvent: String], wait: Double = 0) throws {
        for (event, text) in events { fixture.config.hooks.commands[event] = try HookCommand(parsing: text) }
        fixture.config.hooks.suppressWait = wait
    }

    func answer(_ job: HookJob, suppress: Bool) {
        fixture.onQueue { job.answered?(suppress) }
    }

    @Test func aFiredReminderRunsOnFireWithTheTodoInItsEnvironmentAndOnStdin() throws {
        try hooks([.fire: #"notify --title "${NUDGE_TITLE}" ${NUDGE_PRIORITY}"#])
        try fixture.add("Pay rent & more", at: fixture.date(29, 12), priority: .high)
        try fixture.start()
        #expect(fixture.hookJobs.isEmpty)
        fixture.advanceToWake()
        let job = try #require(fixture.hookJobs.first)
        #expect(fixture.hookJobs.count == 1)
        #expect(job.event == .fire)
        #expect(job.arguments == ["notify", "--title", "Pay rent & more", "high"])
        #expect(job.variables["NUDGE_EVENT"] == "fire")
        #expect(job.variables["NUDGE_TODO_ID"] == "1")
        #expect(job.variables["NUDGE_RULE"] == "due")
        #expect(job.variables["NUDGE_DUE"] == "2026-11-29T12:00:00+01:00")
        #expect(job.variables["NUDGE_CATEGORY"] == "")
        let input = try #require(try JSONSerialization.jsonObject(with: Data(job.input.utf8)) as? [String: Any])
        #expect(input["event"] as? String == "fire")
        #expect(input["rule"] as? String == "due")
        #expect(input["id"] as? Int == 1)
        let todo = try #require(input["todo"] as? [String: Any])
        #expect(todo["title"] as? String == "Pay rent & more")
        #expect(todo["uuid"] as? String == job.variables["NUDGE_TODO_UUID"])
        // Without suppress_wait, the notification did not wait for the hook.
        #expect(fixture.server.shown.count == 1)
    }

    @Test func onFireIsToldWhetherQuietHoursSilenceTheReminder() throws {
        try hooks([.fire: "on-fire ${NUDGE_TITLE} ${NUDGE_QUIET}"])
        fixture.config.quietHours = QuietHours(start: TimeOfDay(hour: 11, minute: 0)!, end: TimeOfDay(hour: 13, minute: 0)!)
        try fixture.add("let through", at: fixture.date(29, 12), priority: .high)
        try fixture.add("held back", at: fixture.date(29, 12))
        try fixture.add("after", at: fixture.date(29, 14), priority: .high)
        try fixture.start()
        fixture.advance(to: fixture.date(29, 12))
        fixture.advance(to: fixture.date(29, 13))
        fixture.advance(to: fixture.date(29, 14))
        #expect(fixture.hookJobs.map(\.arguments) == [["on-fire", "let through", "yes"], ["on-fire", "held back", "yes"],
                                                       ["on-fire", "after", "no"]])
        // As the notifications were sent.
        #expect(fixture.server.shown.map(\.content.sound) == [.silent, .silent, .name("message-new-instant")])
    }

    @Test func withSuppressWaitTheNotificationWaitsForTheAnswerAndSuppressStopsIt() throws {
        try hooks([.fire: "to-phone"], wait: 2)
        try fixture.add("a", at: fixture.date(29, 12))
        try fixture.add("b", at: fixture.date(29, 13))
        try fixture.start()
        fixture.advanceToWake()
        #expect(fixture.server.shown.isEmpty)
        #expect(fixture.wakeAt == fixture.date(29, 12).addingTimeInterval(2))
        answer(try #require(fixture.hookJobs.first), suppress: true)
        #expect(fixture.server.shown.isEmpty)
        #expect(fixture.events.kinds(.suppressed).map(\.todoID) == [1])
        #expect(try fixture.store().pendingDeliveries().isEmpty)
        // The next one's hook says nothing of the kind: shown as soon as it answers.
        fixture.advance(to: fixture.date(29, 13))
        try #require(fixture.hookJobs.count == 2)
        #expect(fixture.server.shown.isEmpty)
        answer(fixture.hookJobs[1], suppress: false)
        #expect(fixture.server.shown.map(\.content.summary) == ["b"])
    }

    @Test func aHookThatDoesNotAnswerInTimeHasItsNotificationShownAndALateSuppressWithdrawsIt() throws {
        try hooks([.fire: "slow-hook"], wait: 1)
        try fixture.add("a", at: fixture.date(29, 12))
        try fixture.start()
        fixture.advanceToWake()
        #expect(fixture.server.shown.isEmpty)
        fixture.advanceToWake()
        #expect(fixture.server.shown.count == 1)
        answer(try #require(fixture.hookJobs.first), suppress: true)
        #expect(fixture.server.closedIDs == [1])
        #expect(fixture.events.kinds(.suppressed).count == 1)
    }

    @Test func aGroupedNotificationIsNotHeldNorSuppressed() throws {
        try hooks([.fire: "to-phone"], wait: 5)
        for index in 1...5 { try fixture.add("todo \(index)", at: fixture.date(29, 12)) }
        try fixture.start()
        fixture.advanceToWake()
        #expect(fixture.hookJobs.count == 5)
        #expect(fixture.server.shown.count == 1)
        for job in fixture.hookJobs { answer(job, suppress: true) }
        #expect(fixture.server.closedIDs.isEmpty)
        #expect(fixture.events.kinds(.suppressed).isEmpty)
    }

    @Test func addsCompletionsAndSnoozesByAnyProcessRunTheirHooks() throws {
        try hooks([.add: "on-add ${NUDGE_TITLE}", .done: "on-done", .snooze: "on-snooze ${NUDGE_SNOOZED_UNTIL}"])
        let first = try fixture.add("before the start", at: fixture.date(29, 12))
        try fixture.start()
        // What happened before the service started runs nothing.
        #expect(fixture.hookJobs.isEmpty)
        let other = try fixture.store()
        let added = try other.add(NewTodo(title: "Call Ann", due: nil), now: fixture.now)
        _ = try other.setCompleted(ids: [first.id], done: true, now: fixture.now) { _ in nil }
        _ = try other.snooze(todoID: added.id, until: fixture.date(29, 15), now: fixture.now)
        fixture.onQueue { fixture.service.databaseMayHaveChanged() }
        #expect(fixture.hookJobs.map(\.event) == [.add, .done, .snooze])
        #expect(fixture.hookJobs.map(\.todoID) == [added.id, first.id, added.id])
        #expect(fixture.hookJobs[0].arguments == ["on-add", "Call Ann"])
        #expect(fixture.hookJobs[2].arguments == ["on-snooze", "2026-11-29T15:00:00+01:00"])
        #expect(fixture.hookJobs[2].variables["NUDGE_RULE"] == "snooze")
        // Nothing new: nothing runs again.
        fixture.onQueue { fixture.service.databaseMayHaveChanged() }
        #expect(fixture.hookJobs.count == 3)
    }

    @Test func onDoneOfARepeatingTodoIsGivenTheDueThatWasDoneNotTheNext() throws {
        try hooks([.done: "on-done ${NUDGE_DUE}"])
        let daily = try fixture.add("Stretch", at: fixture.date(29, 12), repetition: Repetition(rrule: "FREQ=DAILY", from: .due))
        try fixture.start()
        let other = try fixture.store()
        let (_, after) = try other.setCompleted(ids: [daily.id], done: true, now: fixture.now) { todo throws(LibraryLoadError) in
            try todo.nextOccurrence(completedAt: fixture.now, localZone: fixture.zone)
        }
        #expect(after.first?.due == .at(fixture.date(30, 12), zone: fixture.zone), "it moved on to the next day")
        fixture.onQueue { fixture.service.databaseMayHaveChanged() }
        #expect(fixture.hookJobs.map(\.arguments) == [["on-done", "2026-11-29T12:00:00+01:00"]])
        #expect(fixture.hookJobs.first?.variables["NUDGE_DUE"] == "2026-11-29T12:00:00+01:00")
    }

    @Test func theDoneButtonRunsOnDone() throws {
        try hooks([.done: "on-done ${NUDGE_TODO_ID}"])
        try fixture.add("a", at: fixture.date(29, 12))
        try fixture.start()
        fixture.advanceToWake()
        fixture.onQueue { fixture.server.onActionInvoked?(1, "done", ":1.7") }
        #expect(fixture.hookJobs.map(\.arguments) == [["on-done", "1"]])
    }

    @Test func aHooksEndIsJournaledWithItsStatusAndFirstErrorLine() throws {
        try hooks([.fire: "x"])
        try fixture.start()
        let job = HookJob(event: .fire, todoID: 3, command: "x --y", arguments: ["x", "--y"], variables: [:], input: "")
        fixture.onQueue {
            fixture.service.hookEnded(job, HookOutcome(status: 2, firstErrorLine: "no route to host", seconds: 0.25))
            fixture.service.hookEnded(job, HookOutcome(status: 137, firstErrorLine: "", killed: true, seconds: 10))
            fixture.service.hookEnded(job, HookOutcome(status: nil, firstErrorLine: "cannot start x: No such file or directory"))
            fixture.service.hookEnded(job, HookOutcome(status: 139, signal: SIGSEGV, firstErrorLine: "", seconds: 0.5))
        }
        let ended = fixture.events.kinds(.hook)
        #expect(ended.map(\.message) == [
            "hook on_fire for todo 3 exited with status 2: no route to host",
            "hook on_fire for todo 3 killed after its timeout of 10s",
            "hook on_fire for todo 3 could not start: cannot start x: No such file or directory",
            "hook on_fire for todo 3 killed by signal 11 (Segmentation fault)",
        ])
        #expect(ended.allSatisfy { $0.priority == .warning })
        #expect(ended[0].fields.contains { $0 == (.hookStatus, "2") })
        #expect(ended[0].fields.contains { $0 == (.hookStderr, "no route to host") })
        #expect(ended[0].fields.contains { $0 == (.hook, "on_fire") })
        #expect(!ended[0].fields.contains { $0.0 == .hookSignal })
        #expect(ended[3].fields.contains { $0 == (.hookSignal, "11") })
        #expect(ended[3].fields.contains { $0 == (.hookStatus, "139") })
    }
}
