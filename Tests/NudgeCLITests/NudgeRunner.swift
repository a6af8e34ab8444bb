import Foundation
import Testing
@testable import NudgeTestSupport

/// What one run of the built `nudge` binary did.
struct Run {
    let status: Int32
    let stdout: String
    let stderr: String

    /// stdout parsed as JSON.
    func json() throws -> Any {
        try JSONSerialization.jsonObject(with: Data(stdout.utf8), options: [.fragmentsAllowed])
    }

    func object() throws -> [String: Any] {
        try #require(try json() as? [String: Any], "not a JSON object: \(stdout)")
    }

    func array() throws -> [[String: Any]] {
        try #require(try json() as? [[String: Any]], "not a JSON array: \(stdout)")
    }
}

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
        let process = Process()
        if let now {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/faketime")
            // -f: the clock stands still, so that a slow start does not move "now".
            process.arguments = ["-f", now, Self.binary] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: Self.binary)
            process.arguments = arguments
        }
        var env = ["PATH": "/usr/bin:/bin", "HOME": folder.path, "TZ": zone, "NUDGE_DB": database]
        env.merge(environment) { $1 }
        process.environment = env
        return try Self.launch(process, input: input)
    }

    /// Runs a shell command line with `nudge` set to the binary, for bytes no Swift string holds.
    func shell(_ script: String) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script]
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": folder.path, "TZ": zone,
                               "NUDGE_DB": database, "NUDGE": Self.binary]
        return try Self.launch(process, input: nil)
    }

    static func launch(_ process: Process, input: String?) throws -> Run {
        let out = Pipe(), err = Pipe(), stdin = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try stdin.fileHandleForWriting.close()
        // nudge writes at most a line or two to stderr, so reading stdout first cannot stall it.
        let outBytes = out.fileHandleForReading.readDataToEndOfFile()
        let errBytes = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus,
                   stdout: String(decoding: outBytes, as: UTF8.self),
                   stderr: String(decoding: errBytes, as: UTF8.self))
    }
}
