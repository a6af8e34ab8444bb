import Foundation
import NudgeConfigFile
import NudgeCore
import NudgePlatform
import Testing
@testable import NudgeDaemon
@testable import NudgeTestSupport

/// Hooks as real child processes. Not rerun under faketime (Makefile): the timeout is a
/// dispatch timer, which a faked monotonic clock breaks, and nothing here depends on a date.
struct HookRunnerTests {
    let queue = DispatchQueue(label: "nudge.test.hooks")
    let folder = TemporaryDirectory()

    func job(_ arguments: [String], event: HookEvent = .fire, input: String = "{}",
             variables: [String: String] = [:], answered: ((Bool) -> Void)? = nil) -> HookJob {
        HookJob(event: event, todoID: 7, command: arguments.joined(separator: " "), arguments: arguments,
                variables: variables, input: input, answered: answered)
    }

    /// Runs the jobs with this limit and timeout; the outcomes in the order the hooks ended.
    func run(_ jobs: [HookJob], limit: Int = 4, timeout: Double = 10) async -> [(arguments: [String], outcome: HookOutcome)] {
        // The jobs hold callbacks, which run on the queue only.
        nonisolated(unsafe) let jobs = jobs
        let queue = queue
        return await withCheckedContinuation { continuation in
            queue.async {
                var outcomes: [(arguments: [String], outcome: HookOutcome)] = []
                var runner: HookRunner?
                runner = HookRunner(queue: queue, limit: limit, timeout: timeout) { job, outcome in
                    outcomes.append((job.arguments, outcome))
                    if outcomes.count == jobs.count {
                        runner = nil
                        continuation.resume(returning: outcomes)
                    }
                }
                for job in jobs { runner?.submit(job) }
            }
        }
    }

    @Test func aHookGetsTheTodoInItsEnvironmentAndAsJSONOnStdin() async throws {
        let out = folder.file("hook")
        let input = #"{"event":"fire","todo":{"title":"Pay rent"}}"#
        let result = await run([job(["sh", "-c", "env > \"$0.env\"; cat > \"$0.json\"", out], input: input,
                                    variables: ["NUDGE_TITLE": "Pay rent; $(reboot)", "NUDGE_EVENT": "fire"])])
        #expect(result.first?.outcome.status == 0)
        let environment = try String(contentsOfFile: out + ".env", encoding: .utf8).split(separator: "\n")
        #expect(environment.contains("NUDGE_TITLE=Pay rent; $(reboot)"))
        #expect(environment.contains("NUDGE_EVENT=fire"))
        // nudged's own environment is passed on.
        #expect(environment.contains { $0.hasPrefix("PATH=") })
        #expect(try String(contentsOfFile: out + ".json", encoding: .utf8) == input)
    }

    /// A descriptor of nudged's without O_CLOEXEC (the store, say, opened by a library) stays
    /// out of the hook.
    @Test func aHookGetsNoDescriptorButItsStdinStdoutAndStderr() async throws {
        // Above the few that ls and sh open themselves.
        let opened = open(folder.file("open-in-nudged"), O_WRONLY | O_CREAT, 0o600)
        let leaky = fcntl(opened, F_DUPFD, 100)
        close(opened)
        try #require(leaky >= 100)
        defer { close(leaky) }
        let out = folder.file("fds")
        let result = await run([job(["sh", "-c", "ls /proc/$$/fd > \"$0\"", out])])
        #expect(result.first?.outcome.status == 0)
        let descriptors = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n")
        #expect(!descriptors.contains(Substring(String(leaky))))
        #expect(Set(["0", "1", "2"]).isSubset(of: descriptors.map(String.init)))
    }

    @Test func aFailingHookReportsItsStatusAndFirstLineOfStderr() async {
        let result = await run([job(["sh", "-c", "echo out; echo >&2; echo 'first one' >&2; echo second >&2; exit 3"])])
        #expect(result.first?.outcome == HookOutcome(status: 3, firstErrorLine: "first one", seconds: result.first?.outcome.seconds ?? 0))
    }

    @Test func aLongFirstErrorLineIsCut() async {
        let result = await run([job(["sh", "-c", "printf '%05000d\\n' 7 >&2; exit 1"])])
        let line = result.first?.outcome.firstErrorLine ?? ""
        #expect(line == String(repeating: "0", count: PipeReader.longestLine) + "…")
    }

    /// A shell reports both as status 139; only the first is a crash.
    @Test func aHookEndedBySignalIsToldFromOneExitingWithTheSameStatus() async {
        let result = await run([job(["sh", "-c", "kill -SEGV $$"]), job(["sh", "-c", "sleep 0.2; exit 139"])])
        let crashed = result.first { $0.arguments.last == "kill -SEGV $$" }?.outcome
        let exited = result.first { $0.arguments.last == "sleep 0.2; exit 139" }?.outcome
        #expect(crashed?.status == 139)
        #expect(crashed?.signal == SIGSEGV)
        #expect(exited?.status == 139)
        #expect(exited?.signal == nil)
    }

    /// Status 137 is SIGKILL, which only the runner sends. Not timed: under the whole suite's
    /// load the test queue's handlers can wait many seconds for a thread.
    @Test func aHookStillRunningAfterTheTimeoutIsKilledWithWhatItStarted() async throws {
        let pidFile = folder.file("child")
        let result = await run([job(["sh", "-c", "sleep 300 & echo $! > \"$0\"; sleep 300; wait", pidFile])], timeout: 0.3)
        #expect(result.first?.outcome.killed == true)
        #expect(result.first?.outcome.status == 128 + SIGKILL)
        try expectKilled(childInFile: pidFile)
    }

    @Test func whatAHookLeavesRunningWhenItExitsIsKilledWithIt() async throws {
        let pidFile = folder.file("child")
        let result = await run([job(["sh", "-c", "sleep 300 & echo $! > \"$0\"", pidFile])])
        #expect(result.first?.outcome.killed == false)
        #expect(result.first?.outcome.status == 0)
        try expectKilled(childInFile: pidFile)
    }

    /// The child whose pid is in `pidFile` went with its hook: reaped by init, a zombie until
    /// then, or not yet run since the SIGKILL sent to the whole group (pending, /proc says).
    func expectKilled(childInFile pidFile: String) throws {
        let child = try #require(Int32(try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        let status = (try? String(contentsOfFile: "/proc/\(child)/status", encoding: .utf8))?.split(separator: "\n") ?? []
        let field = { (name: String) in status.first { $0.hasPrefix(name + ":") }?.split(separator: "\t").last.map(String.init) }
        let state = field("State") ?? ""
        let pending = [field("ShdPnd"), field("SigPnd")].compactMap { $0.flatMap { UInt64($0, radix: 16) } }
        let killPending = pending.contains { $0 & (1 << UInt64(SIGKILL - 1)) != 0 }
        #expect(status.isEmpty || state.hasPrefix("Z") || killPending, "the background child \(child) is still \(state)")
    }

    @Test func aMissingProgramIsReportedAndTheNextHookStillRuns() async {
        let result = await run([job(["no-such-program-nudge"]), job(["true"])], limit: 1)
        let missing = result.first { $0.arguments == ["no-such-program-nudge"] }?.outcome
        #expect(missing?.status == nil)
        #expect(missing?.firstErrorLine.contains("cannot start no-such-program-nudge") == true)
        #expect(result.first { $0.arguments == ["true"] }?.outcome.status == 0)
    }

    @Test func aHookPrintingMegabytesOrIgnoringALargeInputEndsNormally() async {
        let large = String(repeating: "x", count: 1 << 20)
        let result = await run([
            job(["sh", "-c", "head -c 5000000 /dev/zero; head -c 5000000 /dev/zero >&2"]),
            job(["true"], input: large),
            job(["sh", "-c", "exec 0<&-; sleep 0.1"], input: large),
        ])
        #expect(result.count == 3)
        #expect(result.allSatisfy { $0.outcome.status == 0 })
    }

    @Test func noMoreThanTheLimitRunAtOnceAndTheyStartInOrder() async throws {
        let log = folder.file("log")
        let jobs = (0..<6).map { index in
            job(["sh", "-c", "echo start $1 >> \"$0\"; sleep 0.5; echo end $1 >> \"$0\"", log, String(index)])
        }
        let result = await run(jobs, limit: 2)
        #expect(result.count == 6)
        var running = 0, most = 0
        var starts: [String] = []
        for line in try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n") {
            let words = line.split(separator: " ")
            if words[0] == "start" {
                running += 1
                starts.append(String(words[1]))
            } else {
                running -= 1
            }
            most = max(most, running)
        }
        #expect(most == 2)
        // The first two start together; each later one only when one before it ended.
        #expect(Set(starts.prefix(2)) == ["0", "1"])
        #expect(Set(starts.suffix(4)) == ["2", "3", "4", "5"])
    }

    /// A hundred hooks submitted at once are started a few per turn of the queue, so that what
    /// was queued after them (a reminder falling due) runs before the last of them starts.
    @Test func aBurstOfHooksLeavesTheQueueBetweenStarts() async throws {
        /// Touched on the queue only.
        final class Burst: @unchecked Sendable {
            var runner: HookRunner?
            var ended = 0
            var startedWhenQueuedWorkRan = -1
        }
        nonisolated(unsafe) let jobs = (0..<30).map { _ in job(["true"]) }
        let queue = queue, burst = Burst()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async {
                burst.runner = HookRunner(queue: queue, limit: 64, timeout: 10) { _, _ in
                    burst.ended += 1
                    if burst.ended == jobs.count {
                        burst.runner = nil
                        continuation.resume()
                    }
                }
                for job in jobs { burst.runner?.submit(job) }
                queue.async { burst.startedWhenQueuedWorkRan = burst.runner?.runningCount ?? -1 }
            }
        }
        #expect(burst.ended == 30)
        #expect((0..<jobs.count).contains(burst.startedWhenQueuedWorkRan))
    }

    /// Each hook waits, after answering, for a file that only its answer creates: answered at
    /// its exit instead, it would wait until killed.
    @Test func anOnFireHookAnswersAsSoonAsItsFirstLineIsOutOrItsOutputCloses() async {
        let events = Events()
        let folder = folder
        func released(_ name: String) -> (Bool) -> Void {
            { suppress in
                events.add("\(name): \(suppress)")
                _ = FileManager.default.createFile(atPath: folder.file(name), contents: nil)
            }
        }
        let wait = #"while [ ! -e "$0" ]; do sleep 0.05; done"#
        let result = await run([
            job(["sh", "-c", "echo ' Suppress '; " + wait, folder.file("first")], answered: released("first")),
            job(["sh", "-c", "echo sent to the phone; " + wait + "; echo suppress", folder.file("second")], answered: released("second")),
            job(["sh", "-c", "exec >&-; " + wait, folder.file("third")], answered: released("third")),
        ], limit: 3, timeout: 30)
        #expect(result.count == 3)
        #expect(result.allSatisfy { !$0.outcome.killed && $0.outcome.status == 0 })
        #expect(result.first { $0.arguments[2].contains("Suppress") }?.outcome.suppressed == true)
        #expect(result.first { $0.arguments[2].contains("sent to the phone") }?.outcome.suppressed == false)
        #expect(Set(events.all) == ["first: true", "second: false", "third: false"])
    }

    /// What the callbacks saw; they run on the runner's queue, the test reads after the end.
    final class Events: @unchecked Sendable {
        private(set) var all: [String] = []
        func add(_ event: String) { all.append(event) }
    }
}

/// The hook recipes of docs/hooks.md, read from it and run as nudged runs them (curl stands in: no
/// network here).
struct HookRecipeTests {
    let queue = DispatchQueue(label: "nudge.test.recipes")
    let folder = TemporaryDirectory()

    /// Each `[hooks]` block of docs/hooks.md, parsed as a config file.
    func recipes() throws -> [NudgeConfig] {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/hooks.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        let blocks = text.components(separatedBy: "```ini\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        return try blocks.filter { $0.hasPrefix("[hooks]") }.map { try ConfigFile.parse(text: $0, path: "docs/hooks.md") }
    }

    func run(_ command: HookCommand, title: String, variables more: [String: String] = [:]) async -> HookOutcome {
        var variables = ["NUDGE_TITLE": title, "NUDGE_EVENT": "fire"]
        variables.merge(more) { $1 }
        let environment = ProcessInfo.processInfo.environment.merging(variables) { $1 }
        let job = HookJob(event: .fire, todoID: 1, command: command.text, arguments: command.arguments(environment: environment),
                          variables: variables, input: "{}")
        let queue = queue
        nonisolated(unsafe) let sent = job
        return await withCheckedContinuation { continuation in
            queue.async {
                var runner: HookRunner?
                runner = HookRunner(queue: queue, limit: 1, timeout: 10) { _, outcome in
                    runner = nil
                    continuation.resume(returning: outcome)
                }
                runner?.submit(sent)
            }
        }
    }

    @Test func theThreeRecipesParseAndDoWhatTheySay() async throws {
        let recipes = try recipes()
        try #require(recipes.count == 3)
        let title = #"Pay "rent" & $(reboot); `id`"#

        // To a phone: suppress first, then curl with the title as the message, untouched.
        let phone = try #require(recipes[0].hooks.commands[.fire])
        #expect(recipes[0].hooks.suppressWait == 2)
        let bin = folder.file("bin")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try folder.writeExecutable("bin/curl", "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > \"$CURL_ARGS\"\n")
        let sent = await run(phone, title: title, variables: ["PATH": bin + ":/usr/bin:/bin", "CURL_ARGS": folder.file("args")])
        #expect(sent.status == 0)
        #expect(sent.suppressed)
        let arguments = try String(contentsOfFile: folder.file("args"), encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(arguments.suffix(3) == ["--data-binary", title, "https://ntfy.sh/my-nudge-topic"])

        // A sound: paplay with a sound file of the freedesktop theme, but not in quiet hours.
        let sound = try #require(recipes[1].hooks.commands[.fire])
        try folder.writeExecutable("bin/paplay", "#!/bin/sh\nprintf '%s\\n' \"$@\" >> \"$PAPLAY_ARGS\"\n")
        let played = ["PATH": bin + ":/usr/bin:/bin", "PAPLAY_ARGS": folder.file("played")]
        #expect(await run(sound, title: title, variables: played.merging(["NUDGE_QUIET": "yes"]) { $1 }).status == 0)
        #expect(!FileManager.default.fileExists(atPath: folder.file("played")), "quiet hours play nothing")
        #expect(await run(sound, title: title, variables: played.merging(["NUDGE_QUIET": "no"]) { $1 }).status == 0)
        #expect(try String(contentsOfFile: folder.file("played"), encoding: .utf8) == "/usr/share/sounds/freedesktop/stereo/complete.oga\n")

        // A log of what got done.
        let log = try #require(recipes[2].hooks.commands[.done])
        let logged = await run(log, title: title, variables: ["HOME": folder.path])
        #expect(logged.status == 0)
        let line = try String(contentsOfFile: folder.file("nudge-done.log"), encoding: .utf8)
        #expect(line.hasSuffix("\t" + title + "\n"))
    }
}
