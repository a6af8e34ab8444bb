import Foundation
import NudgeSync
import Testing
@testable import NudgeDaemon
@testable import NudgeTestSupport

/// The scheduler with a fake pass, fake timers and a fake command: when passes and commands
/// run, and what is logged.
final class SyncSchedulerFixture {
    let queue = DispatchQueue(label: "nudge.test.sync")
    let events = EventList()
    var now = Date(timeIntervalSince1970: 1_800_000_000)
    var passes: [Date] = []
    var nextReport = SyncReport()
    var passError: SyncError?
    var reports: [SyncReport] = []
    /// Commands started, and the completions not called yet.
    var commandsRun: [String] = []
    var pending: [(CommandResult) -> Void] = []
    var timers: [FakeTimer] = []
    private(set) var scheduler: SyncScheduler!

    init(command: String? = "vdirsyncer sync", interval: TimeInterval = 900) {
        scheduler = SyncScheduler(SyncScheduler.Environment(
            queue: queue, now: { [unowned self] in now },
            pass: { [unowned self] moment throws(SyncError) in
                passes.append(moment)
                if let passError { throw passError }
                return nextReport
            },
            command: command, interval: interval,
            run: { [unowned self] command, completion in
                commandsRun.append(command)
                pending.append(completion)
            },
            makeTimer: { [unowned self] handler in
                let timer = FakeTimer(handler)
                timers.append(timer)
                return timer
            },
            events: events,
            passed: { [unowned self] in reports.append($0) }))
    }

    var passTimer: FakeTimer { timers[0] }
    var commandTimer: FakeTimer { timers[1] }
    var localTimer: FakeTimer { timers[2] }

    func onQueue<T>(_ body: () throws -> T) rethrows -> T { try queue.sync(execute: body) }

    /// Ends the oldest running command.
    func finishCommand(status: Int32?, lastLine: String = "") {
        let completion = pending.removeFirst()
        onQueue { completion(CommandResult(status: status, lastLine: lastLine)) }
    }
}

struct SyncSchedulerTests {
    @Test func startRunsAPassThenTheCommandAndArmsTheInterval() throws {
        let fixture = SyncSchedulerFixture()
        fixture.onQueue { fixture.scheduler.start() }
        #expect(fixture.passes.count == 1)
        #expect(fixture.reports.count == 1)
        #expect(fixture.commandsRun == ["vdirsyncer sync"])
        fixture.finishCommand(status: 0)
        #expect(fixture.commandTimer.delay == 900)
        #expect(fixture.events.kinds(.command).map(\.message) == ["vdirsyncer sync: done in 0.0 s"])
        // What the command brought is taken at once.
        #expect(fixture.passes.count == 2)
        #expect(fixture.commandsRun.count == 1, "the pass wrote nothing: nothing to upload")
    }

    @Test func folderChangesAreGatheredIntoOnePassAfterTheDebounce() throws {
        let fixture = SyncSchedulerFixture(command: nil)
        fixture.onQueue {
            fixture.scheduler.folderChanged()
            fixture.scheduler.folderChanged()
            fixture.scheduler.folderChanged()
        }
        #expect(fixture.passes.isEmpty)
        #expect(fixture.passTimer.delay == 0.2)
        fixture.onQueue { fixture.passTimer.fire() }
        #expect(fixture.passes.count == 1)
        #expect(fixture.commandsRun.isEmpty)
        // The next change gets a pass of its own.
        fixture.onQueue { fixture.scheduler.folderChanged() }
        #expect(fixture.passTimer.isArmed)
    }

    @Test func withoutACommandALocalChangeIsPassedAfterTheDebounce() throws {
        let fixture = SyncSchedulerFixture(command: nil)
        fixture.onQueue { fixture.scheduler.localChange() }
        #expect(fixture.passTimer.delay == 0.2)
        fixture.onQueue { fixture.passTimer.fire() }
        #expect(fixture.passes.count == 1)
    }

    @Test func aLocalChangeRunsTheCommandThenThePassThatWritesItThenTheCommandThatUploadsIt() throws {
        let fixture = SyncSchedulerFixture()
        fixture.onQueue {
            fixture.scheduler.localChange()
            fixture.scheduler.localChange()
        }
        #expect(fixture.passes.isEmpty && fixture.commandsRun.isEmpty)
        #expect(fixture.localTimer.delay == 0.2)
        // First the command brings what changed elsewhere, while the folder is as agreed.
        fixture.onQueue { fixture.localTimer.fire() }
        #expect(fixture.commandsRun.count == 1)
        #expect(fixture.passes.isEmpty)
        // vdirsyncer writes: the folder events wait for the run's end.
        fixture.onQueue {
            fixture.scheduler.folderChanged()
            fixture.passTimer.fire()
        }
        #expect(fixture.passes.isEmpty)
        // Then the pass that merges and writes the change, and the upload.
        fixture.nextReport.written = 1
        fixture.finishCommand(status: 0)
        #expect(fixture.passes.count == 1)
        #expect(fixture.commandsRun.count == 2)
        let synced = try #require(fixture.events.kinds(.synced).first)
        #expect(synced.message == "synced: 0 imported, 0 deleted here, 1 written, 0 files deleted, 0 conflicts")
        #expect(synced.fields.contains { $0 == (.syncWritten, "1") })
        // After the upload, a pass that writes nothing: the end.
        fixture.nextReport.written = 0
        fixture.finishCommand(status: 0)
        #expect(fixture.passes.count == 2)
        #expect(fixture.commandsRun.count == 2)
        #expect(fixture.pending.isEmpty)
    }

    @Test func aPassThatAlwaysWritesDoesNotRunTheCommandForever() throws {
        let fixture = SyncSchedulerFixture()
        fixture.nextReport.written = 1
        fixture.onQueue {
            fixture.scheduler.localChange()
            fixture.localTimer.fire()
        }
        for _ in 1...10 where !fixture.pending.isEmpty { fixture.finishCommand(status: 0) }
        // The run for the change, then three uploads, then it stops and says why.
        #expect(fixture.commandsRun.count == 4)
        #expect(fixture.pending.isEmpty)
        #expect(fixture.events.kinds(.failed).last?.message.hasPrefix("sync: every pass after vdirsyncer sync writes files again") == true)
        // The next change starts afresh.
        fixture.nextReport.written = 0
        fixture.onQueue {
            fixture.scheduler.localChange()
            fixture.localTimer.fire()
        }
        #expect(fixture.commandsRun.count == 5)
    }

    @Test func neverTwoCommandsAtOnceAndAChangeDuringARunRunsItOnceMore() throws {
        let fixture = SyncSchedulerFixture()
        fixture.onQueue { fixture.scheduler.start() }
        #expect(fixture.commandsRun.count == 1)
        for _ in 1...3 {
            fixture.onQueue {
                fixture.scheduler.localChange()
                fixture.localTimer.fire()
            }
        }
        #expect(fixture.commandsRun.count == 1)
        fixture.finishCommand(status: 0)
        #expect(fixture.commandsRun.count == 2)
        #expect(fixture.passes.count == 1, "the pass follows the second run")
        fixture.finishCommand(status: 0)
        #expect(fixture.commandsRun.count == 2)
        #expect(fixture.passes.count == 2)
        #expect(fixture.pending.isEmpty)
    }

    @Test func aFailingCommandIsLoggedWithItsStatusAndLastLineAndBacksOff() throws {
        let fixture = SyncSchedulerFixture(interval: 600)
        fixture.onQueue { fixture.scheduler.start() }
        fixture.finishCommand(status: 1, lastLine: "error: Unknown error occured: Connection refused")
        let failure = try #require(fixture.events.kinds(.failed).last)
        #expect(failure.message == "vdirsyncer sync failed (exit status 1): error: Unknown error occured: Connection refused")
        #expect(failure.priority == .warning)
        #expect(failure.fields.contains { $0 == (.exitStatus, "1") })
        #expect(failure.fields.contains { $0 == (.stderr, "error: Unknown error occured: Connection refused") })
        var delays = [fixture.commandTimer.delay]
        for _ in 1...6 {
            fixture.onQueue { fixture.commandTimer.fire() }
            fixture.finishCommand(status: 1)
            delays.append(fixture.commandTimer.delay)
        }
        #expect(delays == [1200, 2400, 4800, 9600, 14400, 14400, 14400])
        // It works again: back to the interval.
        fixture.onQueue { fixture.commandTimer.fire() }
        fixture.finishCommand(status: 0)
        #expect(fixture.commandTimer.delay == 600)
        #expect(fixture.scheduler.failures == 0)
    }

    @Test func aCommandThatCannotStartIsAFailureNotAnEnd() throws {
        let fixture = SyncSchedulerFixture()
        fixture.onQueue { fixture.scheduler.start() }
        fixture.finishCommand(status: nil, lastLine: "cannot start /bin/sh: No such file or directory")
        #expect(fixture.events.kinds(.failed).last?.message == "vdirsyncer sync failed (exit status not started): cannot start /bin/sh: No such file or directory")
        #expect(fixture.commandTimer.isArmed)
    }

    @Test func aFailingPassIsLoggedOnceUntilOneWorks() throws {
        let fixture = SyncSchedulerFixture(command: nil)
        fixture.passError = SyncError(reason: "/home/a/cal/todos: No such file or directory")
        fixture.onQueue {
            fixture.scheduler.start()
            fixture.scheduler.folderChanged()
            fixture.passTimer.fire()
        }
        #expect(fixture.passes.count == 2)
        #expect(fixture.events.kinds(.failed).map(\.message) == ["sync pass failed: /home/a/cal/todos: No such file or directory"])
        #expect(fixture.reports.isEmpty)
        fixture.passError = nil
        fixture.onQueue {
            fixture.scheduler.folderChanged()
            fixture.passTimer.fire()
        }
        #expect(fixture.reports.count == 1)
        #expect(fixture.events.kinds(.synced).map(\.priority) == [.debug], "a pass that changed nothing is debug")
    }

    /// A link named .ics was warned of at every pass, and nudged passes at every change: the
    /// same link is said once, again once it changes or comes back, while other warnings
    /// (from files read anew) are said each time.
    @Test func aWarningThatStandsIsLoggedOncePerRun() throws {
        let fixture = SyncSchedulerFixture(command: nil)
        let link = "s.ics is a symbolic link, not a file: left as it is"
        let read = "a.ics is not iCalendar: left as it is"
        func pass(standing: String?) {
            fixture.nextReport.warnings = (standing == nil ? [] : [link]) + [read]
            fixture.nextReport.standingWarnings = standing.map { [link: $0] } ?? [:]
            fixture.onQueue {
                fixture.scheduler.folderChanged()
                fixture.passTimer.fire()
            }
        }
        pass(standing: "s.ics 1;10")
        pass(standing: "s.ics 1;10")
        pass(standing: "s.ics 1;10")
        #expect(fixture.events.kinds(.failed).map(\.message) == ["sync: \(link)", "sync: \(read)", "sync: \(read)", "sync: \(read)"])
        pass(standing: "s.ics 2;11")
        pass(standing: nil)
        pass(standing: "s.ics 2;11")
        #expect(fixture.events.kinds(.failed).map(\.message).filter { $0 == "sync: \(link)" }.count == 3)
        #expect(fixture.events.kinds(.failed).map(\.priority).allSatisfy { $0 == .warning })
    }
}

struct CommandRunnerTests {
    let queue = DispatchQueue(label: "nudge.test.commands")

    func run(_ command: String) async -> CommandResult {
        await withCheckedContinuation { continuation in
            queue.async {
                let runner = CommandRunner(queue: queue)
                runner.run(command) { result in
                    withExtendedLifetime(runner) { continuation.resume(returning: result) }
                }
            }
        }
    }

    @Test func reportsTheExitStatusAndTheLastLineOfStderr() async {
        #expect(await run("true") == CommandResult(status: 0, lastLine: "", tail: []))
        #expect(await run("echo out; echo first >&2; echo 'last one' >&2; echo >&2; exit 3")
                == CommandResult(status: 3, lastLine: "last one", tail: ["first", "last one"]))
    }

    @Test func aCommandKilledBySignalHas128PlusItsNumber() async {
        #expect(await run("kill -TERM $$").status == 128 + SIGTERM)
    }

    /// What the timeout does (a kernel timer, which the suite's reruns under faketime cannot
    /// use: libfaketime shifts the clock libdispatch reads, not the one timerfd counts).
    @Test func aHungCommandIsKilledWithWhatItStarted() async {
        let (result, afterTerminate): (CommandResult, TimeInterval) = await withCheckedContinuation { continuation in
            queue.async {
                let runner = CommandRunner(queue: queue)
                var terminated = Date.distantFuture
                runner.run("sleep 30 & sleep 30; wait") { result in
                    withExtendedLifetime(runner) {
                        continuation.resume(returning: (result, Date().timeIntervalSince(terminated)))
                    }
                }
                // Time for the shell to start both (nanosleep is not faked).
                usleep(300_000)
                terminated = Date()
                runner.terminate()
            }
        }
        #expect(result.status == 128 + SIGKILL)
        // Both sleeps gone well before they would end by themselves, however loaded the machine.
        #expect(afterTerminate < 20)
    }

    @Test func aMissingProgramIsAFailureWithTheShellsWords() async {
        let result = await run("no-such-program-nudge")
        #expect(result.status == 127)
        #expect(result.lastLine.contains("not found"))
    }
}
