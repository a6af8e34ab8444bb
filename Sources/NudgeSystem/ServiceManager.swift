import CSystemd
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Talking to the service manager that started us (systemd with `Type=notify`), when there is one.
public enum ServiceManager {
    /// Tells the service manager about our state, and returns true when it was sent.
    ///
    /// `state` is newline-separated assignments: `READY=1` once started, `STATUS=Next: Buy milk
    /// at 18:00` for `systemctl status`, `WATCHDOG=1` to show we are alive, `RELOADING=1` and
    /// then `READY=1` around a reload, `STOPPING=1` when shutting down.
    ///
    /// Returns false, and does nothing, when no service manager asked for it (`NOTIFY_SOCKET`
    /// unset), and also when sending failed: the caller carries on either way.
    /// `NOTIFY_SOCKET` stays set, so child processes could notify too; the unit's
    /// `NotifyAccess=main` makes systemd ignore them.
    ///
    /// The corresponding C function is `sd_notify`.
    @discardableResult
    public static func notify(_ state: String) -> Bool {
        guard systemdIsOpen else { return false }
        return systemd.sd_notify(0, state) > 0
    }

    /// The watchdog interval the service manager asked for (`WatchdogSec=`, seen as
    /// `WATCHDOG_USEC`), in seconds, or nil when there is no watchdog for this process.
    ///
    /// Send `WATCHDOG=1` more often than this; systemd recommends every half interval.
    ///
    /// The corresponding C function is `sd_watchdog_enabled`.
    public static func watchdogInterval() -> TimeInterval? {
        var microseconds: UInt64 = 0
        guard systemdIsOpen else { return nil }
        guard systemd.sd_watchdog_enabled(0, &microseconds) > 0, microseconds > 0 else { return nil }
        return TimeInterval(microseconds) / 1_000_000
    }
}
