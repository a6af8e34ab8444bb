import Foundation
import NudgePlatform
import Testing
@testable import NudgeTestSupport

/// Output nudge cannot write: a full disk, a closed stderr, a reader that went away.
struct OutputTests {
    let nudge = Nudge()

    /// Runs nudge to its end with `stdout` as its stdout; how it ended, and its stderr (empty
    /// when `closesStderr`).
    func run(_ arguments: [String], stdout: Int32, closesStderr: Bool = false) throws -> (ending: WaitStatus?, stderr: String) {
        let log = nudge.folder.file("stderr-\(UUID().uuidString)")
        let child = try nudge.start(arguments, stdout: stdout, stderr: closesStderr ? nil : log)
        let status = child.wait(timeout: 30)
        let stderr = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        return (status.map(WaitStatus.init), stderr)
    }

    func open(_ path: String, _ flags: Int32) throws -> Int32 {
        let fd = Glibc.open(path, flags | O_CLOEXEC, 0o644)
        try #require(fd >= 0, "cannot open \(path)")
        return fd
    }

    @Test(arguments: [["list"], ["list", "--json"], ["show", "1"], ["upcoming"], ["explain", "1"], ["done", "1"],
                      ["category", "list"], ["help"], ["--version"]])
    func aFullDiskIsOneLineOnStderrAndStatus1(arguments: [String]) throws {
        try nudge("add", "Buy milk", "--due", "tomorrow 9am")
        let full = try open("/dev/full", O_WRONLY)
        defer { close(full) }
        let run = try run(arguments, stdout: full)
        #expect(run.ending == .exited(1))
        #expect(run.stderr == "nudge: cannot write output: No space left on device\n")
    }

    @Test func anAddThatCannotSaySoIsStillSavedExactlyOnce() throws {
        let full = try open("/dev/full", O_WRONLY)
        defer { close(full) }
        let run = try run(["add", "Buy milk", "--due", "tomorrow"], stdout: full)
        #expect(run.ending == .exited(1))
        #expect(run.stderr == "nudge: cannot write output: No space left on device\n")
        #expect(try nudge("list", "--json").array().map { $0["title"] as? String } == ["Buy milk"])
    }

    @Test(arguments: [
        (["list"], 0, "Buy milk"),
        (["frobnicate"], 2, ""),
        (["show", "42"], 1, ""),
        (["add", "x", "--due", "someday"], 2, ""),
    ] as [([String], Int32, String)])
    func aClosedStderrLosesTheMessageButNotTheExitStatus(arguments: [String], status: Int32, output: String) throws {
        try nudge("add", "Buy milk")
        let path = nudge.folder.file("out")
        let out = try open(path, O_WRONLY | O_CREAT | O_TRUNC)
        defer { close(out) }
        let run = try run(arguments, stdout: out, closesStderr: true)
        #expect(run.ending == .exited(status))
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(output.isEmpty ? written.isEmpty : written.contains(output), "\(written)")
    }

    @Test func aFullDiskWithAClosedStderrIsStatus1() throws {
        let full = try open("/dev/full", O_WRONLY)
        defer { close(full) }
        #expect(try run(["list"], stdout: full, closesStderr: true).ending == .exited(1))
    }

    @Test func aReaderThatGoesAwayEndsNudgeBySIGPIPEWithoutAWord() throws {
        // Far more than a pipe holds (64 KiB): nudge is still writing when the reader goes. The
        // title widens every row of a year of daily digests. The real clock, as for the child.
        var nudge = nudge
        nudge.now = nil
        let title = String(repeating: "a long title ", count: 70)
        try nudge("add", title, "--due", "tomorrow 9am")
        let log = nudge.folder.file("stderr")
        let fds = try ChildProcess.makePipe()
        let child = try nudge.start(["upcoming", "--within", "52w"], stdout: fds[1], stderr: log)
        close(fds[1])
        let first = ChildProcess.readAll(fds[0], line: true)
        close(fds[0])
        let ending = child.wait(timeout: 30).map(WaitStatus.init)
        #expect(first.hasPrefix("WHEN "))
        #expect(ending == .signalled(SIGPIPE))
        #expect(try String(contentsOfFile: log, encoding: .utf8) == "")
        let all = try nudge("upcoming", "--within", "52w").stdout
        #expect(all.utf8.count > 256 * 1024)
    }

    @Test func aPipeClosedBeforeNudgeWritesAlsoEndsItWithoutAWord() throws {
        try nudge("add", "Buy milk")
        let log = nudge.folder.file("stderr")
        let fds = try ChildProcess.makePipe()
        close(fds[0])
        let child = try nudge.start(["list"], stdout: fds[1], stderr: log)
        close(fds[1])
        #expect(child.wait(timeout: 30).map(WaitStatus.init) == .signalled(SIGPIPE))
        #expect(try String(contentsOfFile: log, encoding: .utf8) == "")
    }

    @Test func aReaderThatGoesAwayIsQuietAlsoWhenSIGPIPEIsIgnored() throws {
        try nudge("add", "Buy milk")
        let log = nudge.folder.file("stderr")
        let fds = try ChildProcess.makePipe()
        close(fds[0])
        // An ignored SIGPIPE is inherited through exec: nudge sees EPIPE from write(2) instead.
        let child = try ChildProcess("/bin/bash", ["-c", "trap '' PIPE; exec \"$NUDGE\" list"],
                                     environment: nudge.environment.merging(["NUDGE": Nudge.binary]) { $1 },
                                     stdout: fds[1], log: log)
        close(fds[1])
        #expect(child.wait(timeout: 30).map(WaitStatus.init) == .signalled(SIGPIPE))
        #expect(try String(contentsOfFile: log, encoding: .utf8) == "")
    }

    @Test func theDeletePromptWithAClosedStderrStillReadsTheAnswer() throws {
        try nudge("add", "Buy milk")
        // `script` gives nudge a terminal, so that it asks; the prompt goes to a closed stderr.
        let run = try nudge.shell("printf 'y\\n' | script -qec \(shellQuote("\"$NUDGE\" delete 1 2>&-")) /dev/null")
        #expect(run.status == 0)
        #expect(run.stdout.contains("Deleted 1: Buy milk"), "\(run.stdout)")
        #expect(try nudge("list", "--json").array().isEmpty)
    }
}
