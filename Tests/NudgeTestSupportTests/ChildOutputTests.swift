import Foundation
import Testing
@testable import NudgeTestSupport

/// A child that writes more to stderr than a pipe holds before it ends (as a sanitizer's report
/// does, at exit) is read to its end by the helpers that run commands, not waited on for ever.
struct ChildOutputTests {
    // timeout(1) kills the writer, and itself, after 20 s: a helper that read stdout to its end
    // before stderr would wait that long and then see it killed, rather than hang.
    static let arguments = ["-s", "KILL", "20", "/bin/sh", "-c", "head -c 1048576 /dev/zero >&2; echo done"]
    static let environment = ["PATH": "/usr/bin:/bin"]

    @Test func aChildFillingStderrIsReadToItsEnd() throws {
        let run = try ChildProcess.run("/usr/bin/timeout", Self.arguments, environment: Self.environment)
        #expect(run.status == 0)
        #expect(run.stdout == "done\n")
        #expect(run.stderr.utf8.count == 1 << 20)
    }

    @Test func aProcessFillingStderrIsReadToItsEnd() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = Self.arguments
        process.environment = Self.environment
        let run = try Run.launch(process)
        #expect(run.status == 0)
        #expect(run.stdout == "done\n")
        #expect(run.stderr.utf8.count == 1 << 20)
    }
}
