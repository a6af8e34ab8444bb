import Dispatch
import Foundation
import NudgePlatform
@testable import NudgeSystem
import Testing
@testable import NudgeTestSupport

/// Each test runs its own bus, X server and dunst: one at a time, not a dozen of them at once.
@Suite(.serialized)
struct NotificationClientTests {
    @Test func capabilitiesIncludeActionsAndBody() throws {
        let server = try NotificationServerHarness()
        let probe = try ClientProbe(server)
        let capabilities = try probe.wait { done in probe.client.capabilities(done) }.get()
        #expect(capabilities.contains("actions"))
        #expect(capabilities.contains("body"))
    }

    @Test func aClientGivenAnAddressWhereNoBusListensFailsToConnect() throws {
        let folder = TemporaryDirectory()
        #expect(throws: SystemError(code: ENOENT)) {
            _ = try NotificationClient(queue: DispatchQueue(label: "nudge.test.nobus"),
                                       address: "unix:path=" + folder.file("bus"))
        }
    }

    @Test func withoutLibsystemdTheMessageNamesThePackageNotTheBus() {
        let missing = LibraryLoadError(library: "libsystemd.so.0", package: "libsystemd0", symbol: nil,
                                       reason: "libsystemd.so.0: cannot open shared object file: No such file or directory")
        let message = NotificationClient.noBusMessage(SystemError(missing), environment: ["XDG_RUNTIME_DIR": "/run/user/1000"])
        #expect(message == "libsystemd.so.0 could not be loaded (install the Debian package libsystemd0)")
    }

    @Test func notifyShowsSummaryBodyIconAndHints() throws {
        let server = try NotificationServerHarness()
        let probe = try ClientProbe(server)
        let notification = DesktopNotification(
            summary: "Buy milk", body: "Due 18:00 " + DesktopNotification.markupEscaped("<3 & more"),
            urgency: .critical, category: "x-nudge.reminder", desktopEntry: "nudge",
            icon: NotificationServerHarness.iconName, appName: "Nudge test")
        let id = try probe.notify(notification).get()
        #expect(id > 0)

        let record = try #require(try server.waitForRecords(count: 1).first)
        #expect(record["DUNST_ID"] == String(id))
        #expect(record["DUNST_SUMMARY"] == "Buy milk")
        #expect(record["DUNST_BODY"] == "Due 18:00 &lt;3 &amp; more")
        #expect(record["DUNST_URGENCY"] == "CRITICAL")
        #expect(record["DUNST_APP_NAME"] == "Nudge test")
        #expect(record["DUNST_CATEGORY"] == "x-nudge.reminder")
        #expect(record["DUNST_DESKTOP_ENTRY"] == "nudge")
        #expect(record["DUNST_ICON_PATH"] == server.folder.file("icons/nudge-test.png"))
    }

    @Test func soundResidentAndTimeoutHintsArriveAsSent() throws {
        let server = try NotificationServerHarness()
        try server.startWatchingCalls()
        let probe = try ClientProbe(server)
        var ringing = DesktopNotification(summary: "ring", urgency: .critical, expireTimeout: 0)
        ringing.sound = .name("message-new-instant")
        ringing.resident = true
        var file = DesktopNotification(summary: "file", expireTimeout: 30_000)
        file.sound = .file("/usr/share/sounds/pill.oga")
        var silent = DesktopNotification(summary: "silent", urgency: .low)
        silent.sound = .silent
        for notification in [ringing, file, silent, DesktopNotification(summary: "plain")] {
            _ = try probe.notify(notification).get()
        }
        let calls = try server.waitForNotifyCalls(count: 4)
        #expect(calls.map(\.summary) == ["ring", "file", "silent", "plain"])
        #expect(calls[0].hints == ["urgency": "2", "sound-name": "message-new-instant", "resident": "true"])
        #expect(calls[1].hints == ["urgency": "1", "sound-file": "/usr/share/sounds/pill.oga"])
        #expect(calls[2].hints == ["urgency": "0", "suppress-sound": "true"])
        #expect(calls[3].hints == ["urgency": "1"])
        #expect(calls.map(\.expireTimeout) == [0, 30_000, -1, -1])
        // dunst applies the timeout asked for, in milliseconds, and its own (0 in the
        // harness's dunstrc) for -1.
        // The records come from a script dunst forks for each, so they may land in any order.
        let records = Dictionary(try server.waitForRecords(count: 4).map { ($0["DUNST_SUMMARY"] ?? "", $0) }) { first, _ in first }
        let summaries = ["ring", "file", "silent", "plain"]
        #expect(summaries.map { records[$0]?["DUNST_URGENCY"] } == ["CRITICAL", "NORMAL", "LOW", "NORMAL"])
        #expect(summaries.map { records[$0]?["DUNST_TIMEOUT"] } == ["0", "30000", "0", "0"])
    }

    @Test func urgencyLowAndNormalArriveAsSuch() throws {
        let server = try NotificationServerHarness()
        let probe = try ClientProbe(server)
        _ = try probe.notify(DesktopNotification(summary: "low", urgency: .low)).get()
        _ = try probe.notify(DesktopNotification(summary: "normal")).get()
        let records = try server.waitForRecords(count: 2)
        #expect(records.map { $0["DUNST_URGENCY"] } == ["LOW", "NORMAL"])
        #expect(records.map { $0["DUNST_CATEGORY"] } == ["", ""])
        #expect(records.map { $0["DUNST_APP_NAME"] } == ["Nudge", "Nudge"])
    }

    @Test func clickingAButtonReportsItsKeyAndTheServer() throws {
        let server = try NotificationServerHarness()
        let probe = try ClientProbe(server)
        let notification = DesktopNotification(
            summary: "Buy milk",
            actions: [.init(key: "done", label: "Done"), .init(key: "snooze-0", label: "Snooze 10 min")],
            expireTimeout: 0)
        let id = try probe.notify(notification).get()
        _ = try server.waitForRecords(count: 1)

        try server.click(actionMatching: "snooze")
        let action = try #require(probe.waitForEvent { $0.actions.first })
        #expect(action.id == id)
        #expect(action.key == "snooze-0")
        let owner = try #require(probe.serverOwner())
        #expect(owner.hasPrefix(":"))
        #expect(action.sender == owner)
    }

    @Test func replacesIDReplacesTheShownNotification() throws {
        let server = try NotificationServerHarness()
        let probe = try ClientProbe(server)
        let first = try probe.notify(DesktopNotification(summary: "Buy milk", expireTimeout: 0)).get()
        let second = try probe.notify(DesktopNotification(summary: "Buy milk (snoozed)", replacesID: first,
                                                          expireTimeout: 0)).get()
        #expect(second == first)
        let records = try server.waitForRecords(count: 2)
        #expect(records.map { $0["DUNST_SUMMARY"] } == ["Buy milk", "Buy milk (snoozed)"])
        #expect(records.map { $0["DUNST_ID"] } == [String(first), String(first)])
        #expect(try server.displayedCount() == 1)
        #expect(try server.dunstctl("count", "waiting").trimmingCharacters(in: .whitespacesAndNewlines) == "0")
    }

    @Test func closingReportsReasonThree() throws {
        let server = try NotificationServerHarness()
        let probe = try ClientProbe(server)
        let id = try probe.notify(DesktopNotification(summary: "Buy milk", expireTimeout: 0)).get()
        _ = try server.waitForRecords(count: 1)

        probe.onQueue { $0.close(id: id) }
        let closed = try #require(probe.waitForEvent { $0.closed.first })
        #expect(closed.id == id)
        #expect(closed.reason == .closedByCall)
        #expect(closed.sender == probe.serverOwner())
        #expect(try NotificationServerHarness.waitUntil(timeout: 2) { try server.displayedCount() == 0 })
    }

    @Test func notifyWithoutServerFailsFastWithServiceUnknown() throws {
        let server = try NotificationServerHarness(startingServer: false)
        let probe = try ClientProbe(server)
        #expect(probe.serverOwner() == nil)

        let start = Date()
        let result = try probe.notify(DesktopNotification(summary: "Buy milk"))
        #expect(Date().timeIntervalSince(start) < 1.5)
        #expect(throws: SystemError.self) { try result.get() }
        if case .failure(let error) = result {
            #expect(error.name == "org.freedesktop.DBus.Error.ServiceUnknown")
        }
    }

    @Test func serverComingAndGoingIsReported() throws {
        let server = try NotificationServerHarness(startingServer: false)
        let probe = try ClientProbe(server)

        try server.startServer()
        let appeared = try #require(probe.waitForEvent { $0.owners.first })
        let owner = try #require(appeared)
        #expect(owner == probe.serverOwner())
        #expect(try probe.notify(DesktopNotification(summary: "Hello")).get() > 0)

        server.stopServer()
        let gone = try #require(probe.waitForEvent { $0.owners.count == 2 ? $0.owners.last : nil })
        #expect(gone == nil)
        #expect(probe.serverOwner() == nil)
    }

    @Test func hungServerFailsTheCallAfterAboutASecond() throws {
        let server = try NotificationServerHarness()
        let probe = try ClientProbe(server)
        // Messages read during the setup's blocking calls are processed soon; then it idles.
        #expect(NotificationServerHarness.waitUntil(timeout: 1) { !probe.onQueue { $0.isWaitingForReply } })

        server.pauseServer()
        let start = Date()
        let waiting = probe.start { done in probe.client.notify(DesktopNotification(summary: "Anyone?"), done) }
        #expect(probe.onQueue { $0.isWaitingForReply })
        let result = try #require(waiting.value(timeout: 3))
        let elapsed = Date().timeIntervalSince(start)
        #expect(elapsed > 0.9 && elapsed < 1.5, "took \(elapsed) s")
        #expect(throws: SystemError.self) { try result.get() }
        if case .failure(let error) = result {
            #expect(error.code == ETIMEDOUT)
            #expect(error.name == "org.freedesktop.DBus.Error.NoReply")
            #expect(error.message == "Method call timed out")
        }
        // No reply pending, so no timer left to wake the queue.
        #expect(probe.onQueue { $0.isWaitingForReply } == false)

        server.resumeServer()
        #expect(try probe.notify(DesktopNotification(summary: "Back")).get() > 0)
    }

    /// dunst stopped past the timeout, then woken, shows the notification after all: its
    /// answer reaches `late`, so that the caller can take it as shown instead of sending it again.
    @Test func aHungServerThatWakesHandsItsLateAnswerOn() throws {
        let server = try NotificationServerHarness()
        let probe = try ClientProbe(server)
        #expect(NotificationServerHarness.waitUntil(timeout: 1) { !probe.onQueue { $0.isWaitingForReply } })

        server.pauseServer()
        let late = Mailbox<UInt32>()
        let waiting = probe.start { done in
            probe.client.notify(DesktopNotification(summary: "Anyone?"), late: { late.put($0) }, done)
        }
        let result = try #require(waiting.value(timeout: 3))
        #expect(throws: SystemError.self) { try result.get() }

        server.resumeServer()
        let id = try #require(late.value(timeout: 5))
        #expect(id > 0)
        // The id is the one the server shows it under: a second call replacing it is answered with it.
        var again = DesktopNotification(summary: "Anyone? (again)")
        again.replacesID = id
        #expect(try probe.notify(again).get() == id)
    }

    @Test func losingTheBusFailsPendingCallsAndReportsTheDisconnection() throws {
        let server = try NotificationServerHarness()
        let probe = try ClientProbe(server)
        server.pauseServer()
        let waiting = probe.start { done in probe.client.notify(DesktopNotification(summary: "Anyone?"), done) }

        server.stopBus()
        let result = try #require(waiting.value(timeout: 3))
        if case .failure(let error) = result {
            #expect(error.name == "org.freedesktop.DBus.Error.NoReply")
            #expect(error.message == "Connection terminated")
        } else {
            Issue.record("the call succeeded: \(result)")
        }
        #expect(probe.waitForEvent { $0.disconnections > 0 ? true : nil } == true)
        #expect(probe.onQueue { $0.isConnected } == false)
        #expect(probe.onQueue { $0.isWaitingForReply } == false)
        let failure = try probe.notify(DesktopNotification(summary: "Still there?"))
        #expect(throws: SystemError.self) { try failure.get() }
    }
}

/// A NotificationClient on its own serial queue, as the daemon runs one on the main queue,
/// with everything it reported recorded for the test thread.
final class ClientProbe: @unchecked Sendable {
    struct Events {
        var actions: [(id: UInt32, key: String, sender: String)] = []
        var closed: [(id: UInt32, reason: CloseReason, sender: String)] = []
        var owners: [String?] = []
        var disconnections = 0
    }

    let queue = DispatchQueue(label: "nudge.test.notifications")
    /// Touch only on `queue`.
    private(set) var client: NotificationClient!
    private let lock = NSLock()
    private var events = Events()

    /// Connects to the harness's bus.
    init(_ server: NotificationServerHarness) throws {
        try queue.sync {
            let client = try NotificationClient(queue: queue, address: server.busAddress)
            client.onActionInvoked = { [unowned self] id, key, sender in
                record { $0.actions.append((id, key, sender)) }
            }
            client.onClosed = { [unowned self] id, reason, sender in
                record { $0.closed.append((id, reason, sender)) }
            }
            client.onServerChanged = { [unowned self] owner in
                record { $0.owners.append(owner) }
            }
            client.onDisconnected = { [unowned self] in
                record { $0.disconnections += 1 }
            }
            self.client = client
        }
    }

    deinit {
        queue.sync { client = nil }
    }

    func onQueue<T>(_ body: (NotificationClient) -> T) -> T {
        queue.sync { body(client) }
    }

    func serverOwner() -> String? {
        onQueue { $0.serverOwner() }
    }

    func notify(_ notification: DesktopNotification) throws -> Result<UInt32, SystemError> {
        try wait { done in client.notify(notification, done) }
    }

    /// Starts an asynchronous client call on the queue and waits up to 5 s for its completion.
    func wait<T>(_ call: (@escaping (T) -> Void) -> Void) throws -> T {
        guard let value = start(call).value(timeout: 5) else { throw HarnessError("no completion within 5 s") }
        return value
    }

    /// Starts an asynchronous client call on the queue; the completion fills the mailbox.
    func start<T>(_ call: (@escaping (T) -> Void) -> Void) -> Mailbox<T> {
        let mailbox = Mailbox<T>()
        queue.sync { call { mailbox.put($0) } }
        return mailbox
    }

    /// Polls the recorded events for up to 5 s until `pick` finds something.
    func waitForEvent<T>(_ pick: (Events) -> T?) -> T? {
        var found: T?
        _ = NotificationServerHarness.waitUntil(timeout: 5) {
            found = lock.withLock { pick(events) }
            return found != nil
        }
        return found
    }

    private func record(_ change: (inout Events) -> Void) {
        lock.withLock { change(&events) }
    }
}

/// One value handed over from the client's queue to the test thread.
final class Mailbox<T>: @unchecked Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private var stored: T?

    func put(_ value: T) {
        stored = value
        semaphore.signal()
    }

    func value(timeout seconds: Double) -> T? {
        guard semaphore.wait(timeout: .now() + seconds) == .success else { return nil }
        semaphore.signal()
        return stored
    }
}
