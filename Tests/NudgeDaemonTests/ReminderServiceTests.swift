import Foundation
import NudgeCore
@testable import NudgeStore
import NudgeSystem
import Testing
@testable import NudgeTestSupport
@testable import NudgeDaemon

struct ReminderServiceTests {
    let fixture = ServiceFixture()

    @Test func sleepsUntilTheNextReminderThenShowsIt() throws {
        try fixture.add("Buy milk", at: fixture.date(29, 12), priority: .high, notes: "oat\n2 litres\nthe cheap one\nnot this line")
        try fixture.start()
        #expect(fixture.wakeAt == fixture.date(29, 12))
        #expect(fixture.statusLine == "Next: Buy milk (due) at Today 12:00")
        #expect(fixture.server.shown.isEmpty)
        fixture.advanceToWake()
        let shown = try #require(fixture.server.shown.first)
        #expect(shown.content.summary == "Buy milk")
        #expect(shown.content.body == "due now\noat\n2 litres\nthe cheap one")
        #expect(shown.content.urgency == .critical)
        #expect(shown.content.icon == "task-due")
        #expect(shown.content.actions.map(\.label) == ["Done", "Snooze 10 min", "Snooze 1 h", "Tomorrow 9:00"])
        #expect(shown.content.actions.map(\.key) == ["done", "snooze-0", "snooze-1", "snooze-2"])
        #expect(shown.markup)
        #expect(fixture.events.kinds(.fired).map(\.todoID) == [1])
        #expect(fixture.events.kinds(.delivered).map(\.rule) == ["due"])
        // Waking again fires nothing twice.
        fixture.onQueue { fixture.service.wake() }
        #expect(fixture.server.shown.count == 1)
        #expect(fixture.wakeAt == nil)
        #expect(fixture.statusLine == "Nothing to remind")
    }

    @Test func aLongLineOfNotesIsCutInTheNotification() throws {
        let long = String(repeating: "n", count: 120_000)
        try fixture.add("Big notes", at: fixture.date(29, 12), notes: long + "\nshort")
        try fixture.start()
        fixture.advanceToWake()
        let shown = try #require(fixture.server.shown.first)
        #expect(shown.content.body == "due now\n" + String(repeating: "n", count: 199) + "…\nshort")
    }

    @Test func manyRemindersAtOnceArriveAsOne() throws {
        for index in 1...5 { try fixture.add("todo \(index)", at: fixture.date(29, 12)) }
        try fixture.start()
        fixture.advanceToWake()
        try #require(fixture.server.shown.count == 1)
        #expect(fixture.server.shown[0].content.summary == "5 todos due")
        #expect(fixture.server.shown[0].content.body.split(separator: "\n").count == 5)
        #expect(fixture.events.kinds(.fired).count == 5)
    }

    /// Each due in the same second is shown alone (up to group_above): all their Notify calls
    /// leave, in the order they were due, before the first answer and before their journal
    /// lines; each answer is then recorded as it comes.
    @Test func remindersDueTogetherAllLeaveBeforeAnyAnswerInTheOrderTheyWereDue() throws {
        fixture.config.groupAbove = 10
        for title in ["a", "b", "c", "d"] { try fixture.add(title, at: fixture.date(29, 12)) }
        try fixture.start()
        var firedWhenShown: [Int] = []
        fixture.server.onShow = { [unowned fixture] in firedWhenShown.append(fixture.events.kinds(.fired).count) }
        fixture.server.answering = false
        fixture.advanceToWake()
        #expect(fixture.server.shown.map(\.content.summary) == ["a", "b", "c", "d"])
        #expect(firedWhenShown == [0, 0, 0, 0])
        #expect(fixture.events.kinds(.fired).count == 4)
        #expect(fixture.events.kinds(.delivered).isEmpty)
        #expect(fixture.service.inFlight.count == 4)
        fixture.onQueue { fixture.server.answerAll() }
        #expect(fixture.events.kinds(.delivered).map(\.todoID) == [1, 2, 3, 4])
        #expect(fixture.service.inFlight.isEmpty)
        #expect(try fixture.store().pendingDeliveries().isEmpty)
    }

    /// SQLite checkpoints in the commit that takes the log past 1,000 pages, which could be a
    /// firing's, before its notifications leave; the service's commits leave it until every
    /// Notify is answered.
    @Test func theLogIsCheckpointedOnceEveryNotificationIsAnswered() throws {
        try fixture.add("a", at: fixture.date(29, 12))
        try fixture.start()
        let writer = try fixture.store()
        writer.deferCheckpoints()
        let notes = String(repeating: "n", count: 3_000)
        var added = 0
        while writer.logPages < 1_100 && added < 5_000 {
            _ = try writer.add(NewTodo(title: "later \(added)", notes: notes), now: fixture.now)
            added += 1
        }
        let size = { try #require(FileManager.default.attributesOfItem(atPath: fixture.databasePath)[.size] as? Int) }
        let before = try size()
        fixture.server.answering = false
        fixture.advanceToWake()
        #expect(fixture.service.inFlight.count == 1)
        #expect(fixture.service.store.logPages >= 1_100)
        #expect(try size() == before)
        fixture.onQueue { fixture.server.answerAll() }
        #expect(fixture.service.store.logPages == 0)
        #expect(try size() > before + added * notes.utf8.count)
        withExtendedLifetime(writer) {}  // its closing would checkpoint
    }

    /// Asked when the server is first known, not when the first reminder waits for it.
    @Test func theServersCapabilitiesAreAskedAtTheStartOnce() throws {
        try fixture.add("a", at: fixture.date(29, 12))
        try fixture.start()
        #expect(fixture.server.capabilityRequests == 1)
        fixture.advanceToWake()
        #expect(fixture.server.shown.map(\.content.summary) == ["a"])
        #expect(fixture.server.capabilityRequests == 1)
        // A new server is asked at once, too.
        fixture.onQueue { fixture.server.restart(as: ":1.9") }
        #expect(fixture.server.capabilityRequests == 2)
    }

    @Test func remindersMissedWhileStoppedArriveAsOneDigest() throws {
        try fixture.add("a", at: fixture.date(29, 11))
        try fixture.add("b", at: fixture.date(29, 11, 30))
        try fixture.add("later", at: fixture.date(29, 18))
        fixture.now = fixture.date(29, 12)
        try fixture.start()
        #expect(fixture.server.shown.map(\.content.summary) == ["Missed while Nudge was not running: 2 todos"])
        #expect(fixture.events.kinds(.missed).map(\.todoID) == [1, 2])
        #expect(fixture.wakeAt == fixture.date(29, 18))
    }

    @Test(arguments: [(CatchUp.all, ["a", "b"]), (.skipOlderThan(TimeSpan(seconds: 3600)), ["b"])])
    func catchUpPolicies(policy: CatchUp, shown: [String]) throws {
        fixture.config.catchUp = policy
        fixture.now = fixture.date(29, 10)
        try fixture.add("a", at: fixture.date(29, 10, 30))
        try fixture.add("b", at: fixture.date(29, 11, 30))
        fixture.now = fixture.date(29, 12)
        try fixture.start()
        #expect(fixture.server.shown.map(\.content.summary) == shown)
        #expect(try fixture.store().dueReminders(through: fixture.now).isEmpty)
    }

    @Test func withoutAServerRemindersWaitAndTheFailureIsLoggedOnce() throws {
        fixture.server.owner = nil
        try fixture.add("a", at: fixture.date(29, 12))
        try fixture.add("b", at: fixture.date(29, 12, 5))
        try fixture.start()
        fixture.advanceToWake()
        fixture.advanceToWake()
        #expect(fixture.server.shown.isEmpty)
        #expect(fixture.events.kinds(.failed).count == 1)
        #expect(try fixture.store().pendingDeliveries().count == 2)
        fixture.onQueue { fixture.server.restart(as: ":1.9") }
        #expect(fixture.server.shown.map(\.content.summary) == ["a", "b"])
        #expect(try fixture.store().pendingDeliveries().isEmpty)
    }

    @Test func aFailingServerIsRetriedLater() throws {
        try fixture.add("a", at: fixture.date(29, 12))
        fixture.server.failing = SystemError(code: 110, name: "org.freedesktop.DBus.Error.NoReply", message: "timeout")
        try fixture.start()
        fixture.advanceToWake()
        #expect(fixture.events.kinds(.failed).count == 1)
        #expect(fixture.wakeAt == fixture.date(29, 12).addingTimeInterval(ReminderService.retryDelay))
        fixture.server.failing = nil
        fixture.advanceToWake()
        #expect(fixture.server.shown.map(\.content.summary) == ["a"])
    }

    /// A firing the store refuses (here a trigger; a full disk in the field) is logged with the
    /// todo it was for, so that `journalctl NUDGE_TODO_ID=` finds it.
    @Test func aFiringThatCannotBeRecordedNamesItsTodo() throws {
        fixture.config.reminders.before = []
        let todo = try fixture.add("a", at: fixture.date(29, 12))
        try fixture.start()
        let sqlite = Process()
        sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        sqlite.arguments = [fixture.databasePath,
                            "CREATE TRIGGER refuse BEFORE INSERT ON firings BEGIN SELECT RAISE(ABORT, 'refused'); END"]
        try sqlite.run()
        sqlite.waitUntilExit()
        try #require(sqlite.terminationStatus == 0)
        fixture.advanceToWake()
        let failed = fixture.events.kinds(.failed)
        #expect(failed.map(\.message).first?.hasPrefix("could not fire reminders: ") == true, "\(failed)")
        #expect(failed.map(\.todoID) == [todo.id])
        #expect(failed.first?.todoUUID == todo.uuid)
        #expect(fixture.server.shown.isEmpty)
    }

    /// A server that hung past the timeout and woke before the retry showed the notification
    /// after all: it is taken as shown, not sent again, and its buttons work.
    @Test func aLateAnswerIsTakenAsShown() throws {
        let todo = try fixture.add("a", at: fixture.date(29, 12))
        try fixture.start()
        fixture.server.failing = SystemError(code: 110, name: "org.freedesktop.DBus.Error.NoReply", message: "timeout")
        fixture.advanceToWake()
        fixture.onQueue { fixture.server.wake() }
        #expect(try fixture.store().pendingDeliveries().isEmpty)
        #expect(fixture.events.kinds(.delivered).map(\.message) == ["delivered late: a (notification 1)"])
        fixture.advanceToWake()
        #expect(fixture.server.shown.map(\.content.summary) == ["a"])
        fixture.onQueue { fixture.server.onActionInvoked?(1, "done", ":1.7") }
        #expect(try fixture.store().todos(ids: [todo.id])[0].isCompleted)
    }

    /// Woken only after the retry was shown, it would show the reminder twice: its copy is closed.
    @Test func aLateAnswerAfterTheRetryIsClosed() throws {
        try fixture.add("a", at: fixture.date(29, 12))
        try fixture.start()
        fixture.server.failing = SystemError(code: 110, name: "org.freedesktop.DBus.Error.NoReply", message: "timeout")
        fixture.advanceToWake()
        fixture.server.failing = nil
        fixture.advanceToWake()
        #expect(fixture.server.shown.map(\.content.summary) == ["a"])
        fixture.onQueue { fixture.server.wake() }
        #expect(fixture.server.shown.count == 2)
        #expect(fixture.server.closedIDs == [2])
        #expect(try fixture.store().delivery(id: 1)?.notificationID == 1)
    }

    @Test func doneCompletesTheTodoAndARepeatingOneMovesOn() throws {
        try fixture.add("once", at: fixture.date(29, 12))
        try fixture.add("daily", at: fixture.date(29, 12), repetition: Repetition(rrule: "FREQ=DAILY", from: .due))
        try fixture.start()
        fixture.advanceToWake()
        #expect(fixture.server.shown.count == 2)
        fixture.onQueue { fixture.server.onActionInvoked?(1, "done", ":1.7") }
        fixture.onQueue { fixture.server.onActionInvoked?(2, "done", ":1.7") }
        let todos = try fixture.store().todos(ids: [1, 2])
        #expect(todos[0].isCompleted)
        #expect(!todos[1].isCompleted)
        #expect(todos[1].due == .at(fixture.date(30, 12), zone: fixture.zone))
        #expect(fixture.events.kinds(.completed).count == 2)
        #expect(fixture.events.kinds(.action).map(\.rule) == ["due", "due"])
    }

    @Test func snoozeBringsTheReminderBackInPlaceOfTheOldOne() throws {
        try fixture.add("a", at: fixture.date(29, 12))
        try fixture.start()
        fixture.advanceToWake()
        fixture.onQueue { fixture.server.onActionInvoked?(1, "snooze-0", ":1.7") }
        #expect(fixture.events.kinds(.snoozed).count == 1)
        #expect(fixture.wakeAt == fixture.date(29, 12, 10))
        fixture.advanceToWake()
        try #require(fixture.server.shown.count == 2)
        #expect(fixture.server.shown[1].replacing == 1)
        #expect(fixture.server.shown[1].content.body == "overdue since 12:00")
    }

    @Test func aSnoozeChoiceThatHasPassedIsNotOfferedAndPressedLateSnoozesByTheDefault() throws {
        fixture.config.snooze.choices = [.span(TimeSpan(seconds: 600)), .when("tonight"), .when("tomorrow 09:00")]
        fixture.config.snooze.defaultChoice = .span(TimeSpan(seconds: 1800))
        // Shown at 19:55: "tonight" (20:00) is still ahead.
        try fixture.add("a", at: fixture.date(29, 19, 55))
        try fixture.add("b", at: fixture.date(29, 21))
        try fixture.start()
        fixture.advanceToWake()
        #expect(fixture.server.shown[0].content.actions.map(\.label) == ["Done", "Snooze 10 min", "Tonight", "Tomorrow 9:00"])
        // Pressed at 20:05, it would hold the reminders until a moment already gone.
        fixture.now = fixture.date(29, 20, 5)
        fixture.onQueue { fixture.server.onActionInvoked?(1, "snooze-1", ":1.7") }
        #expect(try fixture.store().reminderSubject(id: 1).snoozedUntil == fixture.date(29, 20, 35))
        // Shown at 21:00, after 20:00: no "Tonight" button; the others keep their keys.
        fixture.advance(to: fixture.date(29, 21))
        let late = try #require(fixture.server.shown.last)
        #expect(late.content.summary == "b")
        #expect(late.content.actions.map(\.label) == ["Done", "Snooze 10 min", "Tomorrow 9:00"])
        #expect(late.content.actions.map(\.key) == ["done", "snooze-0", "snooze-2"])
    }

    @Test func aRestartShowsWhatTheSameServerStillShowsAgainInPlaceAndSilently() throws {
        try fixture.add("a", at: fixture.date(29, 12), priority: .high)
        try fixture.start()
        fixture.advanceToWake()
        // A new service on the same database and server, as after a restart.
        try fixture.start()
        try #require(fixture.server.shown.count == 2)
        #expect(fixture.server.shown[1].replacing == 1)
        #expect(fixture.server.shown[1].content.summary == "a")
        #expect(fixture.server.shown[1].content.sound == .silent)
        fixture.onQueue { fixture.server.onActionInvoked?(1, "done", ":1.7") }
        #expect(fixture.events.kinds(.completed).count == 1)
    }

    @Test func signalsFromOtherSendersOrUnknownIDsAreIgnored() throws {
        try fixture.add("a", at: fixture.date(29, 12))
        try fixture.start()
        fixture.advanceToWake()
        fixture.onQueue { fixture.server.onActionInvoked?(1, "done", ":1.99") }
        fixture.onQueue { fixture.server.onActionInvoked?(42, "done", ":1.7") }
        #expect(!(try fixture.store().todos(ids: [1])[0].isCompleted))
        #expect(fixture.events.kinds(.action).isEmpty)
    }

    @Test func nagsReplaceThePreviousNotificationUntilTheServerRestarts() throws {
        fixture.config.reminders.nagEvery = TimeSpan(seconds: 600)
        try fixture.add("a", at: fixture.date(29, 12))
        try fixture.start()
        fixture.advanceToWake()
        fixture.advanceToWake()
        #expect(fixture.server.shown.map(\.replacing) == [0, 1])
        fixture.onQueue { fixture.server.restart(as: ":1.8") }
        fixture.advanceToWake()
        #expect(fixture.server.shown.map(\.replacing) == [0, 1, 0])
        // A dismissed notification is not replaced either.
        fixture.onQueue { fixture.server.onClosed?(2, .dismissed, ":1.8") }
        fixture.advanceToWake()
        #expect(fixture.server.shown.map(\.replacing) == [0, 1, 0, 0])
        #expect(fixture.events.kinds(.closed).count == 1)
    }

    @Test func theServiceTakesTheScheduleBackWhenAnotherZonePlannedIt() throws {
        try fixture.add("a", at: nil)
        _ = try fixture.store().add(NewTodo(title: "all day", due: .allDay(LocalDate(year: 2026, month: 11, day: 30)!)), now: fixture.now)
        try fixture.start()
        #expect(fixture.wakeAt == fixture.date(30, 9))
        // Someone plans the same database in Tokyo, where 09:00 is eight hours earlier.
        let tokyo = TimeZone(identifier: "Asia/Tokyo")!
        _ = try TodoStore(path: fixture.databasePath, planner: ReminderPlanner(config: fixture.config, zone: tokyo), now: fixture.now)
        fixture.onQueue { fixture.service.databaseMayHaveChanged() }
        #expect(fixture.wakeAt == fixture.date(30, 9))
        #expect(try fixture.store().upcoming(from: fixture.now, through: fixture.date(30, 23)).map(\.at) == [fixture.date(30, 9)])
    }

    @Test func aDatabaseRestoredOverTheOpenOneIsOpenedAgainAndFiredFrom() throws {
        try fixture.add("old", at: fixture.date(29, 12))
        try fixture.start()
        #expect(fixture.wakeAt == fixture.date(29, 12))
        // A backup restored in place: another file moved over the path.
        let restored = fixture.folder.file("restored.db")
        _ = try TodoStore(path: restored, planner: ReminderPlanner(config: fixture.config, zone: fixture.zone), now: fixture.now)
            .add(NewTodo(title: "restored", due: .at(fixture.date(29, 11, 30), zone: fixture.zone)), now: fixture.now)
        #expect(rename(restored, fixture.databasePath) == 0)
        #expect(!fixture.service.store.isStillAtPath)
        try fixture.onQueue { try fixture.service.reopenReplacedDatabase() }
        #expect(fixture.service.store.isStillAtPath)
        #expect(fixture.wakeAt == fixture.date(29, 11, 30))
        fixture.advanceToWake()
        #expect(fixture.server.shown.map(\.content.summary) == ["restored"])
        #expect(fixture.events.kinds(.reloaded).map(\.message) == ["reopened the database: the file was replaced"])
    }

    @Test func aReplacementThatCannotBeOpenedIsReportedAndThrown() throws {
        try fixture.add("old", at: fixture.date(29, 12))
        try fixture.start()
        let other = fixture.folder.file("notes.txt")
        try Data(String(repeating: "not a database\n", count: 100).utf8).write(to: URL(fileURLWithPath: other))
        #expect(rename(other, fixture.databasePath) == 0)
        #expect(throws: StoreError.notANudgeDatabase(path: fixture.databasePath)) { try fixture.onQueue { try fixture.service.reopenReplacedDatabase() } }
        #expect(fixture.events.kinds(.failed).contains { $0.message.contains("cannot be used") })
    }

    /// Work that may read every todo leaves pages and heap behind; a reminder does not.
    @Test func memoryIsGivenBackAfterStartReloadAndPlanningEveryTodoOnly() throws {
        try fixture.add("a", at: fixture.date(29, 12))
        try fixture.add("b", at: fixture.date(29, 13))
        try fixture.start()
        #expect(fixture.heapTrims == 1)
        fixture.advanceToWake()
        try fixture.add("c", at: fixture.date(29, 14))
        fixture.onQueue { fixture.service.databaseMayHaveChanged() }
        #expect(fixture.server.shown.count == 1)
        #expect(fixture.heapTrims == 1)
        fixture.onQueue { fixture.service.reload("SIGHUP") }
        #expect(fixture.heapTrims == 2)
        _ = try TodoStore(path: fixture.databasePath, planner: ReminderPlanner(config: fixture.config, zone: TimeZone(identifier: "Asia/Tokyo")!), now: fixture.now)
        fixture.onQueue { fixture.service.databaseMayHaveChanged() }
        #expect(fixture.heapTrims == 3)
    }

    /// The statements of a notification's work would otherwise hold the heap until the next wake.
    @Test func aWakeLeavesNoPreparedStatementsBehind() throws {
        try fixture.add("a", at: fixture.date(29, 12))
        try fixture.add("b", at: fixture.date(29, 13))
        try fixture.start()
        fixture.advanceToWake()
        #expect(fixture.server.shown.count == 1)
        #expect(fixture.service.store.db.cachedStatementCount == 0)
        #expect(fixture.heapTrims == 1)
    }

    @Test func aDigestListsWhatIsOverdueAndDueToday() throws {
        fixture.config.digest.enabled = true
        try fixture.add("late", at: fixture.date(28, 9))
        try fixture.add("today", at: fixture.date(30, 17))
        fixture.now = fixture.date(30, 7)
        try fixture.start()
        fixture.server.shown.removeAll()
        fixture.advance(to: fixture.date(30, 8))
        #expect(fixture.server.shown.map(\.content.summary) == ["Nudge: 1 overdue, 1 due today"])
        try #require(fixture.server.shown.count == 1)
        #expect(fixture.server.shown[0].content.body == "• late — overdue since Nov 28 09:00\n• today — due at 17:00")
    }

    @Test func theDigestWritesDatesAsTheLocaleAndDisplayKeysSay() throws {
        fixture.config.digest.enabled = true
        fixture.localeStyle = DateStyle(clock: .twelveHour, dateOrder: .monthDayYear, weekStart: 7)
        fixture.config.display.dateFormat = .dayMonthYear
        try fixture.add("late", at: fixture.date(28, 9))
        try fixture.add("today", at: fixture.date(30, 17))
        fixture.now = fixture.date(30, 7)
        try fixture.start()
        fixture.server.shown.removeAll()
        fixture.advance(to: fixture.date(30, 8))
        try #require(fixture.server.shown.count == 1)
        #expect(fixture.server.shown[0].content.body == "• late — overdue since 28 Nov 9:00 AM\n• today — due at 5:00 PM")
    }

    @Test func theDigestEndsWithTheQuoteOfTheDay() throws {
        fixture.config.digest.enabled = true
        fixture.config.quote = .url("https://zenquotes.io/api/today")
        fixture.quoteLine = "“Well begun is half done.” — Aristotle & <Co>"
        try fixture.add("today", at: fixture.date(30, 17))
        fixture.now = fixture.date(30, 7)
        try fixture.start()
        fixture.server.shown.removeAll()
        fixture.advance(to: fixture.date(30, 8))
        try #require(fixture.server.shown.count == 1)
        #expect(fixture.server.shown[0].content.body == "• today — due at 17:00\n\n“Well begun is half done.” — Aristotle & <Co>")
        #expect(fixture.quoteRequests == [.url("https://zenquotes.io/api/today")])
    }

    @Test func withoutAQuoteSourceTheDigestAsksForNone() throws {
        fixture.config.digest.enabled = true
        fixture.quoteLine = "never shown"
        try fixture.add("today", at: fixture.date(30, 17))
        fixture.now = fixture.date(30, 7)
        try fixture.start()
        fixture.server.shown.removeAll()
        fixture.advance(to: fixture.date(30, 8))
        #expect(fixture.server.shown.map(\.content.body) == ["• today — due at 17:00"])
        #expect(fixture.quoteRequests.isEmpty)
    }

    @Test func remindersOtherThanTheDigestCarryNoQuote() throws {
        fixture.config.quote = .url("https://zenquotes.io/api/today")
        fixture.quoteLine = "never shown"
        try fixture.add("a", at: fixture.date(29, 12))
        try fixture.start()
        fixture.advanceToWake()
        #expect(fixture.server.shown.map(\.content.body) == ["due now"])
        #expect(fixture.quoteRequests.isEmpty)
    }

    @Test func aTodoDoneBeforeItsNotificationIsShownIsNotShown() throws {
        fixture.server.owner = nil
        try fixture.add("a", at: fixture.date(29, 12))
        try fixture.start()
        fixture.advanceToWake()
        _ = try fixture.store().setCompleted(ids: [1], done: true, now: fixture.now)
        fixture.onQueue { fixture.server.restart(as: ":1.9") }
        #expect(fixture.server.shown.isEmpty)
    }
}

/// The clock jumping: the service is woken (by the clock-change timerfd) and asks again.
struct ClockJumpTests {
    let fixture = ServiceFixture()

    @Test func aJumpForwardFiresWhatCameDueAndAJumpBackRefiresNothing() throws {
        fixture.config.reminders.nagEvery = TimeSpan(seconds: 3600)
        try fixture.add("a", at: fixture.date(29, 12))
        try fixture.add("b", at: fixture.date(29, 14))
        try fixture.start()
        // The clock is set forward to 14:30: both are due (a's nag too) and go out now.
        fixture.advance(to: fixture.date(29, 14, 30))
        #expect(Set(fixture.events.kinds(.fired).map(\.todoID)) == [1, 2])
        let shown = fixture.server.shown.count
        // Set back to 11:00: nothing fires twice, and the timer waits for what is still to come.
        fixture.advance(to: fixture.date(29, 11))
        #expect(fixture.server.shown.count == shown)
        #expect(fixture.wakeAt == fixture.date(29, 15))
    }
}

struct FileWatcherTests {
    @Test func reportsTheNamesWrittenInAWatchedFolder() throws {
        let folder = TemporaryDirectory()
        let queue = DispatchQueue(label: "watcher")
        let names = Mailbox()
        let watcher = try queue.sync { try FileWatcher(queue: queue) }
        try queue.sync { _ = try watcher.watch(folder: folder.path) { names.add($0) } }
        #expect(FileManager.default.createFile(atPath: folder.file("nudge.db-wal"), contents: Data("x".utf8)))
        #expect(names.wait(for: "nudge.db-wal"))
        withExtendedLifetime(watcher) {}
    }

    @Test func twoWatchesOfOneFolderBothHearOfIt() throws {
        let folder = TemporaryDirectory()
        let queue = DispatchQueue(label: "watcher")
        let database = Mailbox(), config = Mailbox()
        let watcher = try queue.sync { try FileWatcher(queue: queue) }
        try queue.sync {
            try watcher.watch(folder: folder.path) { database.add($0) }
            try watcher.watch(folder: folder.path) { config.add($0) }
        }
        #expect(FileManager.default.createFile(atPath: folder.file("nudge.db"), contents: Data("x".utf8)))
        #expect(database.wait(for: "nudge.db"))
        #expect(config.wait(for: "nudge.db"))
        withExtendedLifetime(watcher) {}
    }
}

extension FileWatcherTests {
    @Test func aFolderThatGoesAwayIsReportedAsAnythingMayHaveChanged() throws {
        let parent = TemporaryDirectory()
        let folder = parent.file("data")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let queue = DispatchQueue(label: "watcher")
        let changes = Mailbox()
        let watcher = try queue.sync { try FileWatcher(queue: queue) }
        try queue.sync { _ = try watcher.watch(folder: folder) { changes.add($0) } }
        try FileManager.default.moveItem(atPath: folder, toPath: parent.file("moved"))
        #expect(changes.wait(for: "*"))
        withExtendedLifetime(watcher) {}
    }

    @Test func aFileMovedOutOfTheFolderIsReported() throws {
        let folder = TemporaryDirectory()
        let other = TemporaryDirectory()
        #expect(FileManager.default.createFile(atPath: folder.file("nudge.db"), contents: Data("x".utf8)))
        let queue = DispatchQueue(label: "watcher")
        let changes = Mailbox()
        let watcher = try queue.sync { try FileWatcher(queue: queue) }
        try queue.sync { _ = try watcher.watch(folder: folder.path) { changes.add($0) } }
        try FileManager.default.moveItem(atPath: folder.file("nudge.db"), toPath: other.file("nudge.db"))
        #expect(changes.wait(for: "nudge.db"))
        withExtendedLifetime(watcher) {}
    }
}

extension FileWatcherTests {
    /// A watch waiting for a folder (~/.config/nudge while there is none) hears nothing of
    /// the files other programs write beside it.
    @Test func aWatchForArrivalsHearsNothingOfWrites() throws {
        let parent = TemporaryDirectory()
        let other = parent.file("other.conf")
        #expect(FileManager.default.createFile(atPath: other, contents: nil))
        let queue = DispatchQueue(label: "watcher")
        let changes = Mailbox(), everything = Mailbox()
        let watcher = try queue.sync { try FileWatcher(queue: queue) }
        try queue.sync {
            _ = try watcher.watch(folder: parent.path, for: .arrivals) { changes.add($0) }
        }
        for round in 0..<50 {
            let handle = try #require(FileHandle(forWritingAtPath: other))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data("round \(round)\n".utf8))
            try handle.close()
        }
        try FileManager.default.createDirectory(atPath: parent.file("nudge"), withIntermediateDirectories: false)
        #expect(changes.wait(for: "nudge"))
        // Another watch of the same folder still hears of every change, and this one not.
        try queue.sync { _ = try watcher.watch(folder: parent.path) { everything.add($0) } }
        let handle = try #require(FileHandle(forWritingAtPath: other))
        try handle.write(contentsOf: Data("again".utf8))
        try handle.close()
        #expect(everything.wait(for: "other.conf"))
        queue.sync {}
        #expect(changes.received == ["nudge"])
        withExtendedLifetime(watcher) {}
    }
}

struct NotificationWriterTests {
    let zone = TimeZone(identifier: "Europe/Berlin")!

    func line(dueIn seconds: TimeInterval, style: DateStyle = .standard) -> String {
        let now = Date(timeIntervalSince1970: 1_795_945_980) // Sunday 2026-11-29 10:53 in Berlin
        let todo = Todo(id: 1, title: "t", due: .at(now.addingTimeInterval(seconds), zone: zone), createdAt: now, updatedAt: now)
        return NotificationWriter(now: now, zone: zone, config: NudgeConfig(), style: style).dueLine(todo)
    }

    @Test func writesTimesAndDatesInTheLocalesStyle() {
        let us = DateStyle(clock: .twelveHour, dateOrder: .monthDayYear, weekStart: 7)
        let german = DateStyle(clock: .twentyFourHour, dateOrder: .dayMonthYear, weekStart: 1)
        #expect(line(dueIn: 5 * 3600 + 7 * 60, style: us) == "due at 4:00 PM")
        #expect(line(dueIn: 24 * 3600 - 53 * 60, style: us) == "due tomorrow at 10:00 AM")
        #expect(line(dueIn: -24 * 3600, style: us) == "overdue since yesterday 10:53 AM")
        #expect(line(dueIn: 25 * 86_400 + 7 * 60, style: us) == "due Dec 24 at 11:00 AM")
        #expect(line(dueIn: 25 * 86_400 + 7 * 60, style: german) == "due 24 Dec at 11:00")
    }

    @Test func saysWhenItIsDueAsAPersonWould() {
        #expect(line(dueIn: 59.99) == "due in 1 min")
        #expect(line(dueIn: 10) == "due now")
        #expect(line(dueIn: -20) == "due now")
        #expect(line(dueIn: 15 * 60) == "due in 15 min")
        #expect(line(dueIn: 90 * 60) == "due in 1 h 30 min")
        #expect(line(dueIn: 5 * 3600 + 7 * 60) == "due at 16:00")
        #expect(line(dueIn: 24 * 3600 - 53 * 60) == "due tomorrow at 10:00")
        #expect(line(dueIn: -(53 * 60 + 60 * 60)) == "overdue since 09:00")
        #expect(line(dueIn: -24 * 3600) == "overdue since yesterday 10:53")
    }

    @Test func labelsSnoozeChoices() {
        #expect(NotificationWriter.label(.span(TimeSpan(seconds: 600))) == "Snooze 10 min")
        #expect(NotificationWriter.label(.span(TimeSpan(seconds: 3600))) == "Snooze 1 h")
        #expect(NotificationWriter.label(.span(TimeSpan(days: 2))) == "Snooze 2 days")
        #expect(NotificationWriter.label(.span(TimeSpan(days: 7))) == "Snooze 1 week")
        #expect(NotificationWriter.label(.when("tomorrow 09:00")) == "Tomorrow 9:00")
    }
}

/// Names seen on the watcher's queue, waited for on the test's.
final class Mailbox: @unchecked Sendable {
    private let lock = NSLock()
    private var names: [String] = []

    func add(_ change: FolderChange) {
        let name = if case .entry(let name) = change { name } else { "*" }
        lock.withLock { names.append(name) }
    }

    var received: [String] { lock.withLock { names } }

    func wait(for name: String) -> Bool {
        for _ in 0..<200 {
            if lock.withLock({ names.contains(name) }) { return true }
            usleep(10_000)
        }
        return false
    }
}
