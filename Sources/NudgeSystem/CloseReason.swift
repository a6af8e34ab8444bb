/// Why a notification went away, as the NotificationClosed signal says (the Desktop
/// Notifications Specification's reasons 1 to 4).
public enum CloseReason: UInt32, Sendable {
    case expired = 1
    case dismissed = 2
    /// By a CloseNotification call.
    case closedByCall = 3
    case undefined = 4

    /// The reason `code` names; a code the specification does not define is `undefined`.
    public init(code: UInt32) {
        self = Self(rawValue: code) ?? .undefined
    }
}
