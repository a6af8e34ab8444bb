import Foundation
import Testing

/// What one run of a command (`nudge`, mostly) did.
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

    /// Runs `process` to the end, with `input` on its stdin (none: an empty one).
    static func launch(_ process: Process, input: String? = nil) throws -> Run {
        let out = Pipe(), err = Pipe(), stdin = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = stdin
        if let environment = process.environment { process.environment = SanitizerOptions.added(to: environment) }
        try process.run()
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try stdin.fileHandleForWriting.close()
        // read(2) again after EINTR: FileHandle.readDataToEndOfFile traps on it.
        let (outText, errText) = ChildProcess.readBoth(out.fileHandleForReading.fileDescriptor,
                                                       err.fileHandleForReading.fileDescriptor)
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: outText, stderr: errText)
    }
}
