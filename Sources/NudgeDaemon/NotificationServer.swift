import Foundation
import NudgeSystem

/// The desktop's notification server as the service uses it: NotificationClient over D-Bus in
/// production, a fake in unit tests. Callbacks run on the service's queue.
protocol NotificationServer: AnyObject {
    /// (notification id, action key, sender's unique bus name)
    var onActionInvoked: ((UInt32, String, String) -> Void)? { get set }
    /// (notification id, reason, sender)
    var onClosed: ((UInt32, CloseReason, String) -> Void)? { get set }
    /// The new owner of org.freedesktop.Notifications, or nil when it went away.
    var onServerChanged: ((String?) -> Void)? { get set }

    func serverOwner() -> String?
    func capabilities(_ completion: @escaping (Result<[String], SystemError>) -> Void)
    /// `late`: the id, when the server answers after the call failed for want of an answer.
    func show(_ content: NotificationContent, replacing id: UInt32, markup: Bool, late: @escaping (UInt32) -> Void,
              _ completion: @escaping (Result<UInt32, SystemError>) -> Void)
    func close(id: UInt32)
}
