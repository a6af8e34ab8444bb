import Foundation
import Testing
@testable import NudgeTestSupport

/// Runs the real `nudge` binary against a database in a temporary folder, in a fixed zone,
/// optionally at a fixed time through libfaketime.
struct Nudge {
    static let binary: String = {
        if let path = ProcessInfo.processInfo.environment["NUDGE_BIN"] { return path }
        let tests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        return tests.appendingPathComponent("nudge").path
    }()

    let folder = TemporaryDirectory()
    var zone = "Europe/Berlin"
    /// "2026-11-29 10:53:00" style local time to run at, or nil for the real clock.
    var now: String? = "2026-11-29 10:53:00"

    var database: String { folder.file("nudge.db") }

    @discardableResult
    func callAsFunction(_ arguments: String..., input: String? = nil, environment: [String: String] = [:]) throws -> Run {
        try run(arguments, input: input, environment: environment)
    }

    func run(_ arguments: [String], input: String? = nil, environment: [String: String] = [:]) throws -> Run {
        let environment = self.environment.merging(environment) { $1 }
        if let now {
            return try Faketime.run(at: now, Self.binary, arguments, environment: environment, input: input)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = arguments
        process.environment = environment
        return try Run.launch(process, input: input)
    }

    /// Runs `nudge arguments` at `now` on a pseudo-terminal (`script`), as a person would: what
    /// the terminal got is the run's stdout.
    func onATerminal(_ arguments: String..., input: String? = nil, environment: [String: String] = [:]) throws -> Run {
        let now = try #require(now, "a terminal run is at a fixed time")
        return try Faketime.runOnATerminal(at: now, Self.binary, arguments,
                                           environment: self.environment.merging(environment) { $1 }, input: input)
    }

    var environment: [String: String] {
        ["PATH": "/usr/bin:/bin", "HOME": folder.path, "TZ": zone, "NUDGE_DB": database]
    }

    /// Starts the binary itself (the real clock) as a shell would, SIGPIPE not ignored, with
    /// `stdout` as its stdout (a descriptor the caller closes) and its stderr in the file
    /// `stderr`, or closed when nil.
    func start(_ arguments: [String], stdout: Int32, stderr: String?) throws -> ChildProcess {
        try ChildProcess(Self.binary, arguments, environment: environment, stdout: stdout, log: stderr,
                         closesStderr: stderr == nil)
    }

    /// Runs a shell command line with `nudge` set to the binary, for bytes no Swift string holds.
    func shell(_ script: String) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script]
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": folder.path, "TZ": zone,
                               "NUDGE_DB": database, "NUDGE": Self.binary]
        return try Run.launch(process, input: nil)
    }
}
