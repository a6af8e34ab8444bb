import Foundation
import NudgePlatform
@testable import NudgeTestSupport
import Testing

struct FileDescriptorTests {
    @Test func writeAllWritesMoreThanAPipeHoldsAtOnce() throws {
        let pipe = try FileDescriptor.pipe()
        let text = String(repeating: "nudge ", count: 100_000)
        let received = Handed<String>()
        Thread { received.hand(pipe.read.closeAfter { ChildProcess.readAll(pipe.read.rawValue) }) }.start()
        try pipe.write.writeAll(text)
        try pipe.write.close()
        #expect(received.take() == text)
    }

    @Test func aFullDeviceIsAnErrnoWithItsMessage() throws {
        let full = try FileDescriptor.open("/dev/full", O_WRONLY)
        defer { try? full.close() }
        #expect(throws: Errno.noSpace) { try full.writeAll("x") }
        #expect(Errno.noSpace.description == "No space left on device")
    }

    @Test func aMissingFileIsNoSuchFile() {
        #expect(throws: Errno.noSuchFile) { try FileDescriptor.open("/nonexistent/nudge", O_RDONLY) }
    }

    @Test func descriptorsAreClosedOnExec() throws {
        let pipe = try FileDescriptor.pipe()
        defer {
            try? pipe.read.close()
            try? pipe.write.close()
        }
        #expect(fcntl(pipe.read.rawValue, F_GETFD) & FD_CLOEXEC != 0)
        #expect(fcntl(pipe.write.rawValue, F_GETFD) & FD_CLOEXEC != 0)
        let file = try FileDescriptor.open("/dev/null", O_RDONLY)
        defer { try? file.close() }
        #expect(fcntl(file.rawValue, F_GETFD) & FD_CLOEXEC != 0)
    }

    @Test func aReadInterruptedByASignalIsTriedAgain() throws {
        // A handler without SA_RESTART: the blocked read returns EINTR when the signal comes.
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in }
        action.sa_flags = 0
        var previous = sigaction()
        sigaction(SIGUSR2, &action, &previous)
        defer { sigaction(SIGUSR2, &previous, nil) }
        let pipe = try FileDescriptor.pipe()
        defer {
            try? pipe.read.close()
            try? pipe.write.close()
        }
        let reader = Handed<pthread_t>()
        let result = Handed<Result<Int, Errno>>()
        Thread {
            var mask = sigset_t()
            sigemptyset(&mask)
            sigaddset(&mask, SIGUSR2)
            pthread_sigmask(SIG_UNBLOCK, &mask, nil)
            reader.hand(pthread_self())
            let byte = UnsafeMutableRawBufferPointer.allocate(byteCount: 1, alignment: 1)
            defer { byte.deallocate() }
            result.hand(Result { () throws(Errno) in try pipe.read.read(into: byte) })
        }.start()
        let thread = reader.take()
        usleep(100_000)
        pthread_kill(thread, SIGUSR2)
        usleep(100_000)
        try pipe.write.writeAll("x")
        #expect(try result.take().get() == 1)
    }
}

/// A value one thread hands to another, which waits for it.
final class Handed<Value>: @unchecked Sendable {
    // Written once before `ready` is signalled, read after it is waited for.
    private var value: Value?
    private let ready = DispatchSemaphore(value: 0)

    func hand(_ value: Value) {
        self.value = value
        ready.signal()
    }

    func take() -> Value {
        ready.wait()
        // Set before the signal.
        return value!
    }
}
