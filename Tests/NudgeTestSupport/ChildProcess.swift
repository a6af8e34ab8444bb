import Foundation
import NudgePlatform

/// A child process started with posix_spawn, with an empty signal mask and default signal
/// actions, in the process group of the `DeathWatch`, so that it dies with the test process.
///
/// Foundation's `Process` passes on the spawning thread's signal mask, and Swift Testing runs
/// tests on libdispatch threads that block nearly every signal: a child started that way
/// never sees SIGTERM (dunst would not stop; a daemon under test could not be told to quit).
final class ChildProcess {
    let pid: pid_t
    let path: String
    private(set) var exitStatus: Int32?
    /// The most resident memory `waitBounded` saw the child have, in bytes.
    private(set) var peakResidentBytes = 0

    /// Starts `path`. Its stdin is `stdin` (a descriptor) or else /dev/null; its stderr goes to
    /// `stderr` (a descriptor) or else the file `log` (/dev/null when nil), its stdout to `stdout`
    /// (a descriptor) or else where stderr goes; the caller closes the descriptors in the parent.
    /// `closesStderr` starts it with descriptor 2 closed.
    init(_ path: String, _ arguments: [String], environment: [String: String], stdin: Int32? = nil,
         stdout: Int32? = nil, stderr: Int32? = nil, log: String? = nil, closesStderr: Bool = false) throws {
        self.path = path
        pid = try Self.spawn(path, arguments, environment: environment, stdin: stdin, stdout: stdout, stderr: stderr,
                             log: log, closesStderr: closesStderr, processGroup: DeathWatch.shared.processGroup)
    }

    /// posix_spawn with a clean signal mask (`Spawn`), in `processGroup` (0: a group of its
    /// own), inheriting the test process's descriptors.
    static func spawn(_ path: String, _ arguments: [String], environment: [String: String], stdin: Int32? = nil,
                      stdout: Int32? = nil, stderr: Int32? = nil, log: String? = nil, closesStderr: Bool = false,
                      processGroup: pid_t) throws -> pid_t {
        var spawn = Spawn([path] + arguments, environment: SanitizerOptions.added(to: environment).map { "\($0.key)=\($0.value)" })
        spawn.searchesPath = false
        spawn.closesOtherDescriptors = false
        spawn.processGroup = processGroup
        let errors = stderr.map { Spawn.Stream.descriptor(FileDescriptor(rawValue: $0)) } ?? .file(log ?? "/dev/null")
        spawn.stdin = stdin.map { .descriptor(FileDescriptor(rawValue: $0)) } ?? .null
        spawn.stderr = closesStderr ? .closed : errors
        spawn.stdout = stdout.map { .descriptor(FileDescriptor(rawValue: $0)) } ?? (closesStderr ? errors : .sameAs(2))
        do { return try spawn.start().pid } catch { throw HarnessError(error.description) }
    }

    deinit {
        stop()
    }

    /// Whether the child has not been reaped yet.
    var isRunning: Bool {
        reap(blocking: false)
        return exitStatus == nil
    }

    func send(_ signal: Int32) {
        if exitStatus == nil { kill(pid, signal) }
    }

    /// Waits up to `timeout` seconds for the child to exit; its wait status, or nil.
    @discardableResult
    func wait(timeout: Double) -> Int32? {
        _ = NotificationServerHarness.waitUntil(timeout: timeout) { !isRunning }
        return exitStatus
    }

    /// SIGCONT and SIGTERM, then SIGKILL after 3 s; waits for the exit.
    func stop() {
        guard isRunning else { return }
        send(SIGCONT)
        send(SIGTERM)
        if wait(timeout: 3) == nil {
            send(SIGKILL)
            reap(blocking: true)
        }
    }

    private func reap(blocking: Bool) {
        guard exitStatus == nil else { return }
        var status: Int32 = 0
        do {
            if try retryingOnInterrupt({ waitpid(pid, &status, blocking ? 0 : WNOHANG) }) == pid { exitStatus = status }
        } catch {
            if error == .noChild { exitStatus = status }
        }
    }

    /// The most resident memory the child has had since it started its program, in bytes
    /// (VmHWM in /proc); nil once it is gone. wait4's ru_maxrss would not do: it counts the
    /// memory of the test process that the child shared until its exec.
    var peakResidentNow: Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else { return nil }
        return kilobytes * 1024
    }

    /// Waits for the child to exit, killing it once its resident memory passes `memoryLimit`
    /// bytes or after `timeout` seconds: a bound that holds under the sanitizers too, which
    /// reserve terabytes of address space (so `ulimit -v` stops them at start). Its exit code as
    /// a shell reports it; `peakResidentBytes` is the most memory seen meanwhile.
    func waitBounded(memoryLimit: Int, timeout: Double) -> Int32 {
        let end = Date().addingTimeInterval(timeout)
        while isRunning {
            peakResidentBytes = max(peakResidentBytes, peakResidentNow ?? 0)
            if peakResidentBytes > memoryLimit || Date() > end {
                send(SIGKILL)
                reap(blocking: true)
                break
            }
            usleep(2_000)
        }
        return WaitStatus(exitStatus ?? -1).shellStatus
    }

    /// Runs a command to its end and returns its stdout.
    static func output(_ path: String, _ arguments: [String], environment: [String: String]) throws -> String {
        try run(path, arguments, environment: environment).stdout
    }

    /// Runs a command to its end and returns its exit status, stdout and stderr. `start` is
    /// handed what starts it, to call where it should start (`JournaldHarness.run`).
    static func run(_ path: String, _ arguments: [String], environment: [String: String],
                    start: (@escaping () throws -> ChildProcess) throws -> ChildProcess = { try $0() }) throws -> Run {
        let out = try makePipe()
        let err: [Int32]
        do { err = try makePipe() } catch {
            out.forEach { close($0) }
            throw error
        }
        let started = Result {
            try start { try ChildProcess(path, arguments, environment: environment, stdout: out[1], stderr: err[1]) }
        }
        close(out[1])
        close(err[1])
        defer {
            close(out[0])
            close(err[0])
        }
        let child = try started.get()
        let (stdout, stderr) = readBoth(out[0], err[0])
        child.reap(blocking: true)
        let status = child.exitStatus ?? -1
        return Run(status: WaitStatus(status).shellStatus, stdout: stdout, stderr: stderr)
    }

    /// A pipe whose ends are closed on exec (a child gets one only through dup2), from the
    /// start: a child that another thread starts meanwhile must not keep the writing end open.
    static func makePipe() throws -> [Int32] {
        do {
            let pipe = try FileDescriptor.pipe()
            return [pipe.read.rawValue, pipe.write.rawValue]
        } catch {
            throw HarnessError("pipe2: \(error)")
        }
    }

    /// Reads `out` and `err` to end of file together, so that a child filling one pipe while
    /// the other is read never stalls (a sanitizer writes its whole report to stderr at exit).
    static func readBoth(_ out: Int32, _ err: Int32) -> (out: String, err: String) {
        var polled = [out, err].map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        var bytes: [[UInt8]] = [[], []]
        var buffer = [UInt8](repeating: 0, count: 65536)
        while polled.contains(where: { $0.fd >= 0 }) {
            guard (try? retryingOnInterrupt({ poll(&polled, nfds_t(polled.count), -1) })) != nil else { break }
            // poll(2) skips a negative descriptor: each one at end of file is set to -1.
            for index in polled.indices where polled[index].fd >= 0 && polled[index].revents != 0 {
                let fd = FileDescriptor(rawValue: polled[index].fd)
                let count = (try? buffer.withUnsafeMutableBytes { bytes in
                    Result { () throws(Errno) in try fd.read(into: bytes) }
                }.get()) ?? 0
                if count > 0 { bytes[index] += buffer[..<count] } else { polled[index].fd = -1 }
            }
        }
        return (String(decoding: bytes[0], as: UTF8.self), String(decoding: bytes[1], as: UTF8.self))
    }

    /// Reads `fd` up to end of file, or up to the first newline when `line` is set.
    static func readAll(_ fd: Int32, line: Bool = false) -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let wanted = line ? 1 : buffer.count
            let count = (try? buffer.withUnsafeMutableBytes { bytes in
                Result { () throws(Errno) in try FileDescriptor(rawValue: fd).read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[..<wanted])) }
            }.get()) ?? 0
            if count <= 0 { break }
            bytes += buffer[0..<count]
            if line && bytes.last == UInt8(ascii: "\n") { break }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
