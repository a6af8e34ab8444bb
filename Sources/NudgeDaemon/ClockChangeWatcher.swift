import CLinux
import Dispatch
import Glibc
import NudgePlatform

/// Tells when the wall clock is set (by hand, NTP, or on resume from suspend): a CLOCK_REALTIME
/// timerfd armed far in the future with TFD_TIMER_CANCEL_ON_SET, as systemd does, becomes
/// readable (with ECANCELED) whenever the clock jumps. It never fires otherwise.
final class ClockChangeWatcher {
    private let timer: FileDescriptor
    private let source: DispatchSourceRead

    init(queue: DispatchQueue, _ changed: @escaping () -> Void) throws(DaemonError) {
        do throws(Errno) {
            timer = FileDescriptor(rawValue: try valueOrErrno { timerfd_create(CLOCK_REALTIME, Int32(TFD_NONBLOCK | TFD_CLOEXEC)) })
        } catch {
            throw DaemonError("timerfd_create: \(error)")
        }
        source = DispatchSource.makeReadSource(fileDescriptor: timer.rawValue, queue: queue)
        source.setEventHandler { [unowned self] in
            var expirations: UInt64 = 0
            _ = try? withUnsafeMutableBytes(of: &expirations) { try timer.read(into: $0) }
            try? schedule()
            changed()
        }
        source.setCancelHandler { [timer] in try? timer.close() }
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
        do throws(Errno) { _ = try valueOrErrno { timerfd_settime(timer.rawValue, flags, &spec, nil) } } catch {
            throw DaemonError("timerfd_settime: \(error)")
        }
    }
}
