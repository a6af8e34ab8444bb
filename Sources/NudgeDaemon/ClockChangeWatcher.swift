import CLinux
import Dispatch
import Glibc

/// Tells when the wall clock is set (by hand, NTP, or on resume from suspend): a CLOCK_REALTIME
/// timerfd armed far in the future with TFD_TIMER_CANCEL_ON_SET, as systemd does, becomes
/// readable (with ECANCELED) whenever the clock jumps. It never fires otherwise.
final class ClockChangeWatcher {
    private let fd: Int32
    private let source: DispatchSourceRead

    init(queue: DispatchQueue, _ changed: @escaping () -> Void) throws {
        fd = timerfd_create(CLOCK_REALTIME, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        guard fd >= 0 else { throw DaemonError("timerfd_create: \(String(cString: strerror(errno)))") }
        source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        source.setEventHandler { [unowned self] in
            var expirations: UInt64 = 0
            _ = read(fd, &expirations, MemoryLayout<UInt64>.size)
            try? schedule()
            changed()
        }
        source.setCancelHandler { [fd] in close(fd) }
        try schedule()
        source.resume()
    }

    deinit {
        source.cancel()
    }

    private func schedule() throws(DaemonError) {
        var spec = itimerspec()
        spec.it_value.tv_sec = 7_258_118_400 // 2200-01-01: never, in practice
        let flags = Int32(TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET)
        guard timerfd_settime(fd, flags, &spec, nil) == 0 else {
            throw DaemonError("timerfd_settime: \(String(cString: strerror(errno)))")
        }
    }
}
