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
        while true {
            let process = Process()
            if let now {
                process.executableURL = URL(fileURLWithPath: "/usr/bin/faketime")
                // -f: the clock stands still, so that a slow start does not move "now".
                process.arguments = ["-f", now, Self.binary] + arguments
            } else {
                process.executableURL = URL(fileURLWithPath: Self.binary)
                process.arguments = arguments
            }
            process.environment = self.environment.merging(environment) { $1 }
            let run = try Run.launch(process, input: input)
            guard now != nil, Self.faketimeFoundAStaleSemaphore(run) else { return run }
        }
    }

    /// faketime names its semaphore by its own pid and leaves it behind when it is killed (by
    /// any run on the machine); a later faketime given that pid stops before starting nudge,
    /// and a test saw one of its commands fail, a todo missing. Nothing ran: it is run again,
    /// under another pid.
    static func faketimeFoundAStaleSemaphore(_ run: Run) -> Bool {
        run.status == 1 && run.stdout.isEmpty && run.stderr.hasPrefix("faketime: sem_open: File exists")
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
