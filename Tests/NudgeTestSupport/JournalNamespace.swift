import CLinux
import Foundation
import Synchronization

/// A thread in a mount namespace of its own, in which the journal's folders
/// (/run/systemd/journal, /run/log/journal and /var/log/journal) are empty tmpfs: what runs on
/// it, and every process started from it, sends to and reads from only a journald started
/// there, never the machine's. Needs root.
///
/// libsystemd always sends to /run/systemd/journal/socket (no variable moves it), so the tests
/// give that path another meaning rather than the library another path. A mount namespace
/// belongs to a thread, not to the process (unshare(CLONE_NEWNS) moves the calling thread
/// only), so the namespace lives on a thread of its own that runs what `perform` hands it; a
/// child inherits the namespace of the thread that started it.
///
/// The tmpfs go away with the namespace, when the process and every child in it have ended.
final class JournalNamespace: Sendable {
    static let folders = ["/run/systemd/journal", "/run/log/journal", "/var/log/journal"]

    private final class Job: @unchecked Sendable {
        let work: () -> Void
        let done = DispatchSemaphore(value: 0)

        init(_ work: @escaping () -> Void) { self.work = work }
    }

    private final class Outcome<T>: @unchecked Sendable {
        var result: Result<T, any Error>?
    }

    private let jobs = Mutex<[Job]>([])
    private let pending = DispatchSemaphore(value: 0)
    private let failure = Mutex<String?>(nil)

    init() throws {
        let ready = DispatchSemaphore(value: 0)
        Thread { [self] in
            do {
                try Self.enter()
            } catch {
                failure.withLock { $0 = "\(error)" }
                ready.signal()
                return
            }
            ready.signal()
            while true {
                pending.wait()
                let job = jobs.withLock { $0.removeFirst() }
                job.work()
                job.done.signal()
            }
        }.start()
        ready.wait()
        if let failure = failure.withLock({ $0 }) { throw HarnessError(failure) }
    }

    /// Runs `body` on the namespace's thread and returns what it returns; it waits meanwhile.
    @discardableResult
    func perform<T>(_ body: @escaping () throws -> T) throws -> T {
        let outcome = Outcome<T>()
        let job = Job { outcome.result = Result(catching: body) }
        jobs.withLock { $0.append(job) }
        pending.signal()
        job.done.wait()
        return try outcome.result!.get()
    }

    /// Moves the calling thread into a new mount namespace with the journal's folders empty.
    private static func enter() throws {
        // Mount points: where no journald ever ran, the first two may be missing. Empty folders
        // change nothing for the machine (journald makes them itself); /var/log/journal is left
        // alone, as its existence turns on persistent storage.
        for folder in folders.prefix(2) {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        guard unshare(CLONE_NEWNS) == 0 else {
            throw HarnessError("unshare(CLONE_NEWNS): \(String(cString: strerror(errno))); the tests' journal needs root")
        }
        // Nothing mounted here may show outside.
        guard mount("none", "/", nil, UInt(MS_REC | MS_PRIVATE), nil) == 0 else {
            throw HarnessError("mount --make-rprivate /: \(String(cString: strerror(errno)))")
        }
        for folder in folders where FileManager.default.fileExists(atPath: folder) {
            guard mount("tmpfs", folder, "tmpfs", UInt(MS_NOSUID | MS_NODEV), "mode=0755") == 0 else {
                throw HarnessError("mount tmpfs on \(folder): \(String(cString: strerror(errno)))")
            }
        }
    }
}
