import Dispatch
import NudgePlatform

/// How a command ended.
struct CommandResult: Equatable {
    /// The exit status, or 128 + the signal that ended it (as a shell says); nil when it could
    /// not be started.
    var status: Int32?
    /// The last line it wrote to stderr (or why it could not be started).
    var lastLine: String
    /// Its last lines on stderr, up to five (vdirsyncer's last one is only a hint to `-vdebug`).
    var tail: [String] = []

    var succeeded: Bool { status == 0 }
}

/// Runs a shell command line as a child process and calls back on the queue when it ends,
/// without blocking the queue and without any other thread (`SupervisedProcess`), its stderr
/// read through a pipe as a read source on the queue.
final class CommandRunner {
    /// A command still running after this long is killed (a hung network sync would otherwise
    /// hold every later run): 10 minutes in nudged.
    let timeout: DispatchTimeInterval

    private let queue: DispatchQueue
    private var running: SupervisedProcess?

    init(queue: DispatchQueue, timeout: DispatchTimeInterval = .seconds(600)) {
        self.queue = queue
        self.timeout = timeout
    }

    /// Runs `/bin/sh -c command` with nudged's environment, stdin and stdout on /dev/null.
    /// One at a time: the caller waits for the completion before running the next.
    func run(_ command: String, _ completion: @escaping (CommandResult) -> Void) {
        dispatchPrecondition(condition: .onQueue(queue))
        precondition(running == nil, "one command at a time")
        var spawn = Spawn(["/bin/sh", "-c", command])
        spawn.stderr = .pipe
        var stderr: DispatchSourceRead?
        var tail = PipeReader(keep: 8192, .last)
        do {
            running = try SupervisedProcess(spawn, queue: queue, deadline: .now() + timeout, started: { child in
                // Non-nil: stderr is a pipe.
                let source = DispatchSource.makeReadSource(fileDescriptor: child.stderr!.rawValue, queue: queue)
                source.setEventHandler { _ = tail.drain(source) }
                source.setCancelHandler { try? child.stderr?.close() }
                source.resume()
                stderr = source
            }) { [unowned self] status in
                if let stderr { _ = tail.drain(stderr) }
                stderr?.cancel()
                running = nil
                let lines = String(decoding: tail.bytes, as: UTF8.self).split(whereSeparator: \.isNewline)
                    .filter { !$0.allSatisfy(\.isWhitespace) }.map(String.init)
                completion(CommandResult(status: status.shellStatus, lastLine: lines.last ?? "", tail: Array(lines.suffix(5))))
            }
        } catch {
            completion(CommandResult(status: nil, lastLine: error.description))
        }
    }

    /// Kills the running command and what it started (its process group); its completion
    /// then comes as for any other end, with status 137.
    func terminate() {
        dispatchPrecondition(condition: .onQueue(queue))
        running?.kill()
    }
}
