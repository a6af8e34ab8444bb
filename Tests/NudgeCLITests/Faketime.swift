import Foundation
@testable import NudgeTestSupport

/// The one way the tests run a program at a fixed time. faketime names its semaphore by its own
/// pid and leaves it behind when it is killed (by any run on the machine); a later faketime
/// given that pid stops before starting the program, and a test saw one of its commands fail.
/// Nothing ran: the command is run again, under another pid.
enum Faketime {
    static let refusal = "faketime: sem_open: File exists"

    /// `faketime -f now executable arguments`; -f: the clock stands still, so that a slow start
    /// does not move "now".
    static func arguments(at now: String, _ executable: String, _ arguments: [String]) -> [String] {
        ["/usr/bin/faketime", "-f", now, executable] + arguments
    }

    /// Runs `executable arguments` at `now`.
    static func run(at now: String, _ executable: String, _ arguments: [String], environment: [String: String],
                    input: String? = nil) throws -> Run {
        try retried(refused: { $0.stdout.isEmpty && $0.stderr.hasPrefix(refusal) }) {
            let process = Process()
            let all = Self.arguments(at: now, executable, arguments)
            process.executableURL = URL(fileURLWithPath: all[0])
            process.arguments = Array(all.dropFirst())
            process.environment = environment
            return try Run.launch(process, input: input)
        }
    }

    /// Runs `executable arguments` at `now` on a pseudo-terminal (`script`), where its stdout and
    /// stderr both go: what the terminal got is the run's stdout, faketime's refusal included.
    static func runOnATerminal(at now: String, _ executable: String, _ arguments: [String],
                               environment: [String: String], input: String? = nil) throws -> Run {
        try retried(refused: { $0.stdout.hasPrefix(refusal) || $0.stdout.contains("\n" + refusal) }) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
            let command = Self.arguments(at: now, executable, arguments).map(shellQuote).joined(separator: " ")
            process.arguments = ["-qec", command, "/dev/null"]
            process.environment = environment
            return try Run.launch(process, input: input)
        }
    }

    /// Runs `launch` again while faketime refused to start (it exits 1 having printed only its
    /// refusal); a few times at most, so that a refusal for another cause shows in the test.
    private static func retried(refused: (Run) -> Bool, _ launch: () throws -> Run) throws -> Run {
        var run = try launch(), attempts = 1
        while run.status == 1, refused(run), attempts < 20 {
            run = try launch()
            attempts += 1
        }
        return run
    }
}
