import Foundation
import NudgeCore
import NudgeStore
import Testing
@testable import NudgeTestSupport
@testable import NudgeDaemon

/// With `fireAhead`, the service records a firing shortly before it is due and shows the
/// notification at the moment it is due; what users see and the journal says is unchanged.
struct ReminderServiceFireAheadTests {
    let fixture = ServiceFixture()
    let noon: Date
    let ahead: Date

    init() {
        fixture.fireAhead = 0.05
        noon = fixture.date(29, 12)
        ahead = noon.addingTimeInterval(-0.05)
    }

    @Test func theFiringIsRecordedAheadAndTheNotificationLeavesWhenDue() throws {
        for title in ["a", "b"] { try fixture.add(title, at: noon) }
        fixture.config.hooks.commands[.fire] = try HookCommand(parsing: "on-fire")
        try fixture.start()
        #expect(fixture.wakeAt == ahead)
        #expect(fixture.statusLine == "Next: a (due) at Today 12:00")

        fixture.advanceToWake()
        let firings = try fixture.store().firings(todoID: 1)
        #expect(firings.map(\.firedAt) == [noon])
        #expect(try fixture.store().pendingDeliveries().map(\.todoIDs) == [[1], [2]])
        #expect(fixture.server.shown.isEmpty)
        #expect(fixture.events.kinds(.fired).isEmpty)
        #expect(fixture.hookJobs.isEmpty)
        #expect(fixture.wakeAt == noon)
        // Nothing is left to plan, but that is said after the "fired" lines, not before.
        #expect(fixture.statusLine == "Next: a (due) at Today 12:00")
        #expect(fixture.events.kinds(.planned).map(\.message) == ["Next: a (due) at Today 12:00"])
        // Anything else that wakes the service meanwhile shows nothing early.
        fixture.advance(to: noon.addingTimeInterval(-0.01))
        #expect(fixture.server.shown.isEmpty)

        fixture.advanceToWake()
        #expect(fixture.server.shown.map(\.content.summary) == ["a", "b"])
        #expect(fixture.events.kinds(.fired).map(\.todoID) == [1, 2])
        #expect(fixture.events.kinds(.delivered).count == 2)
        #expect(fixture.hookJobs.map(\.event) == [.fire, .fire])
        #expect(try fixture.store().firings(todoID: 1).count == 1)
        #expect(fixture.wakeAt == nil)
        #expect(fixture.events.events.filter { $0.kind == .fired || $0.kind == .planned }.map(\.message)
                == ["Next: a (due) at Today 12:00", "fired: a (due)", "fired: b (due)", "Nothing to remind"])
    }

    @Test func theNextReminderAfterOneFiredAheadIsFiredAheadToo() throws {
        try fixture.add("a", at: noon)
        try fixture.add("b", at: fixture.date(29, 13))
        try fixture.start()
        fixture.advanceToWake()
        #expect(fixture.wakeAt == noon)
        fixture.advanceToWake()
        #expect(fixture.server.shown.map(\.content.summary) == ["a"])
        #expect(fixture.wakeAt == fixture.date(29, 13).addingTimeInterval(-0.05))
    }

    /// A todo added meanwhile, due with the ones fired ahead, fires at their moment (no timer
    /// armed in the past meanwhile).
    @Test func aTodoAddedMeanwhileFiresWhenWhatFiredAheadIsShown() throws {
        try fixture.add("a", at: noon)
        try fixture.start()
        fixture.advanceToWake()
        try fixture.add("b", at: noon)
        fixture.onQueue { fixture.service.databaseMayHaveChanged() }
        #expect(fixture.wakeAt == noon)
        #expect(fixture.server.shown.isEmpty)
        fixture.advanceToWake()
        #expect(fixture.server.shown.map(\.content.summary) == ["a", "b"])
        #expect(try fixture.store().firings(todoID: 2).map(\.firedAt) == [noon])
    }

    @Test func aClockSetBackShowsWhatFiredAheadAtOnce() throws {
        try fixture.add("a", at: noon)
        try fixture.start()
        fixture.advanceToWake()
        #expect(fixture.server.shown.isEmpty)
        fixture.advance(to: fixture.date(29, 11))
        #expect(fixture.server.shown.map(\.content.summary) == ["a"])
        #expect(fixture.events.kinds(.fired).map(\.todoID) == [1])
        #expect(try fixture.store().firings(todoID: 1).map(\.firedAt) == [noon])
    }

    @Test func stoppingShowsWhatFiredAheadRatherThanLeaveItForTheNextStart() throws {
        try fixture.add("a", at: noon)
        try fixture.start()
        fixture.advanceToWake()
        var stopped = false
        fixture.onQueue { fixture.service.stop { stopped = true } }
        #expect(stopped)
        #expect(fixture.server.shown.map(\.content.summary) == ["a"])
        #expect(fixture.events.kinds(.fired).map(\.todoID) == [1])
        #expect(fixture.events.kinds(.stopped).count == 1)
    }

    /// The notification is written when its firing is recorded; a todo changed before its
    /// moment, by another process, is shown as it is at the moment.
    @Test func aTodoRenamedElsewhereBeforeItsMomentIsShownRenamed() throws {
        let todo = try fixture.add("a", at: noon)
        try fixture.start()
        fixture.advanceToWake()
        var renamed = todo
        renamed.title = "a, renamed"
        _ = try fixture.store().update(renamed, now: fixture.now)
        fixture.advanceToWake()
        #expect(fixture.server.shown.map(\.content.summary) == ["a, renamed"])
    }

    /// ... and by the service itself: Done on the todo's earlier notification meanwhile.
    @Test func aTodoDoneFromItsEarlierNotificationBeforeItsMomentIsNotShownAgain() throws {
        fixture.config.reminders.before = [TimeSpan(seconds: 600)]
        try fixture.add("a", at: noon)
        try fixture.start()
        fixture.advanceToWake()
        fixture.advanceToWake()
        #expect(fixture.server.shown.map(\.content.summary) == ["a"])
        fixture.advanceToWake()
        #expect(fixture.wakeAt == noon)
        fixture.onQueue { fixture.server.onActionInvoked?(1, "done", ":1.7") }
        fixture.advanceToWake()
        #expect(fixture.server.shown.count == 1)
        #expect(try fixture.store().pendingDeliveries().isEmpty)
    }

    /// A wake late past the moment fires and shows at once, as without `fireAhead`.
    @Test func aWakeAfterTheMomentFiresAndShowsAtOnce() throws {
        try fixture.add("a", at: noon)
        try fixture.start()
        fixture.advance(to: noon.addingTimeInterval(2))
        #expect(fixture.server.shown.map(\.content.summary) == ["a"])
        #expect(try fixture.store().firings(todoID: 1).map(\.firedAt) == [noon.addingTimeInterval(2)])
    }
}
