import Foundation
import NudgeCore
import NudgeStore
import NudgeSystem
@testable import NudgeDaemon
@testable import NudgeTestSupport

/// A notification server that remembers what it was asked to show and answers at once
/// (or, with `answering` false, only when told).
final class FakeServer: NotificationServer {
    var onActionInvoked: ((UInt32, String, String) -> Void)?
    var onClosed: ((UInt32, CloseReason, String) -> Void)?
    var onServerChanged: ((String?) -> Void)?

    var owner: String? = ":1.7"
    var capabilityList = ["actions", "body", "body-markup"]
    var failing: SystemError?
    var shown: [(content: NotificationContent, replacing: UInt32, markup: Bool)] = []
    var closedIDs: [UInt32] = []
    var nextID: UInt32 = 1
    var capabilityRequests = 0
    /// False: Notify calls are answered only by `answerAll()`, in the order they came.
    var answering = true
    private var unanswered: [() -> Void] = []
    /// Runs as each Notify call arrives, before it is answered. The server keeps it: it takes
    /// the fixture unowned, or neither is ever freed.
    var onShow: () -> Void = {}

    func serverOwner() -> String? { owner }

    func capabilities(_ completion: @escaping (Result<[String], SystemError>) -> Void) {
        capabilityRequests += 1
        if let failing { completion(.failure(failing)) } else { completion(.success(capabilityList)) }
    }

    func show(_ content: NotificationContent, replacing id: UInt32, markup: Bool, late: @escaping (UInt32) -> Void,
              _ completion: @escaping (Result<UInt32, SystemError>) -> Void) {
        onShow()
        if let failing {
            hung.append { [unowned self] in late(showing(content, replacing: id, markup: markup)) }
            completion(.failure(failing))
            return
        }
        let answer = showing(content, replacing: id, markup: markup)
        if answering { completion(.success(answer)) } else { unanswered.append { completion(.success(answer)) } }
    }

    private func showing(_ content: NotificationContent, replacing id: UInt32, markup: Bool) -> UInt32 {
        shown.append((content, id, markup))
        guard id == 0 else { return id }
        defer { nextID += 1 }
        return nextID
    }

    /// Calls that failed while `failing` was set, as a server that hung past the timeout.
    private var hung: [() -> Void] = []

    /// The hung server wakes: it shows what it was asked while hung, and answers late.
    func wake() {
        failing = nil
        let calls = hung
        hung = []
        calls.forEach { $0() }
    }

    func answerAll() {
        let answers = unanswered
        unanswered = []
        answers.forEach { $0() }
    }

    func close(id: UInt32) { closedIDs.append(id) }

    /// The server restarts under a new unique name.
    func restart(as name: String?) {
        owner = name
        onServerChanged?(name)
    }
}

final class EventList: EventRecorder {
    var events: [ServiceEvent] = []
    func record(_ event: ServiceEvent) { events.append(event) }
    func kinds(_ kind: ServiceEvent.Kind) -> [ServiceEvent] { events.filter { $0.kind == kind } }
}

/// A service over a real store in a temporary folder, with a clock the test moves.
final class ServiceFixture {
    let folder = TemporaryDirectory()
    let server = FakeServer()
    let events = EventList()
    let zone = TimeZone(identifier: "Europe/Berlin")!
    var config = NudgeConfig()
    /// The locale's way with dates, as nudged reads it from its environment.
    var localeStyle = DateStyle.standard
    var now: Date
    var wakeAt: Date?
    /// The service's `fireAhead` (nudged's is 0.05 s).
    var fireAhead: TimeInterval = 0
    var statusLine = ""
    var heapTrims = 0
    /// What the quote of the day is, and the sources it was asked of.
    var quoteLine: String?
    var quoteRequests: [QuoteSource] = []
    /// How often the service said the store changed here.
    var localChanges = 0
    /// Run when the service has opened the store, before it fires what was missed. It takes
    /// the fixture unowned: the fixture keeps it.
    var onOpened: () -> Void = {}
    /// The hooks the service asked to run, in order.
    var hookJobs: [HookJob] = []
    private(set) var service: ReminderService!

    init() {
        now = Calendar.nudge(zone: zone).date(from: DateComponents(year: 2026, month: 11, day: 29, hour: 10, minute: 53))!
        config.digest.enabled = false
        config.reminders.before = []
        config.reminders.nagEvery = nil
    }

    var databasePath: String { folder.file("nudge.db") }

    func store() throws -> TodoStore {
        try TodoStore(path: databasePath, planner: ReminderPlanner(config: config, zone: zone), now: now)
    }

    func date(_ day: Int, _ hour: Int, _ minute: Int = 0) -> Date {
        Calendar.nudge(zone: zone).date(from: DateComponents(year: 2026, month: 11, day: day, hour: hour, minute: minute))!
    }

    @discardableResult
    func add(_ title: String, at due: Date?, priority: Priority = .medium, notes: String? = nil,
             repetition: Repetition? = nil) throws -> Todo {
        try store().add(NewTodo(title: title, notes: notes, due: due.map { .at($0, zone: zone) }, priority: priority,
                                repetition: repetition.map { Repetition(rrule: $0.rrule, from: $0.from, start: due.map { SeriesStart(.at($0, zone: zone)) }) }),
                        now: now)
    }

    /// The service's queue: the test's calls into it go through `onQueue`.
    let queue = DispatchQueue(label: "nudge.test.service")

    func onQueue<T>(_ body: () throws -> T) rethrows -> T {
        try queue.sync(execute: body)
    }

    func start() throws {
        try onQueue { try startOnQueue() }
    }

    private func startOnQueue() throws {
        service = try ReminderService(ReminderService.Environment(
            loadConfig: { [unowned self] in config },
            openStore: { [unowned self] planner, moment in try TodoStore(path: databasePath, planner: planner, now: moment) },
            server: server, events: events, queue: queue,
            now: { [unowned self] in now }, zone: { [unowned self] in zone }, localeStyle: localeStyle,
            wake: { [unowned self] in wakeAt = $0 },
            status: { [unowned self] in statusLine = $0 },
            trimHeap: { [unowned self] in heapTrims += 1 },
            quote: { [unowned self] source, moment, zone in
                quoteRequests.append(source)
                return quoteLine
            },
            changed: { [unowned self] in localChanges += 1 },
            opened: { [unowned self] in onOpened() },
            runHook: { [unowned self] job, _ in hookJobs.append(job) },
            fireAhead: fireAhead))
        try service.start()
    }

    /// Moves the clock to the moment the service asked to wake at, and wakes it.
    func advanceToWake() {
        guard let wakeAt else { return }
        now = max(now, wakeAt)
        onQueue { service.wake() }
    }

    func advance(to moment: Date) {
        now = moment
        onQueue { service.wake() }
    }
}

/// A timer the test fires by hand.
final class FakeTimer: OneShotTimer {
    let handler: () -> Void
    private(set) var delay: TimeInterval?

    init(_ handler: @escaping () -> Void) { self.handler = handler }

    func schedule(after delay: TimeInterval?) { self.delay = delay }

    var isArmed: Bool { delay != nil }

    func fire() {
        delay = nil
        handler()
    }
}
