import NudgeSystem

/// The notification server over D-Bus.
final class DBusNotificationServer: NotificationServer {
    private let client: NotificationClient

    init(client: NotificationClient) {
        self.client = client
    }

    var onActionInvoked: ((UInt32, String, String) -> Void)? {
        get { client.onActionInvoked }
        set { client.onActionInvoked = newValue }
    }

    var onClosed: ((UInt32, CloseReason, String) -> Void)? {
        get { client.onClosed }
        set { client.onClosed = newValue }
    }

    var onServerChanged: ((String?) -> Void)? {
        get { client.onServerChanged }
        set { client.onServerChanged = newValue }
    }

    func serverOwner() -> String? { client.serverOwner() }

    func capabilities(_ completion: @escaping (Result<[String], SystemError>) -> Void) {
        client.capabilities(completion)
    }

    func show(_ content: NotificationContent, replacing id: UInt32, markup: Bool, late: @escaping (UInt32) -> Void,
              _ completion: @escaping (Result<UInt32, SystemError>) -> Void) {
        var notification = DesktopNotification(summary: content.summary)
        notification.appName = "Nudge"
        notification.replacesID = id
        notification.icon = content.icon
        notification.body = markup ? DesktopNotification.markupEscaped(content.body) : content.body
        notification.actions = content.actions.map { DesktopNotification.Action(key: $0.key, label: $0.label) }
        notification.urgency = DesktopNotification.Urgency(rawValue: content.urgency.rawValue) ?? .normal
        notification.category = "x-nudge.reminder"
        notification.desktopEntry = "nudge"
        notification.expireTimeout = content.expireTimeout
        notification.resident = content.resident
        notification.sound = switch content.sound {
        case .name(let name)?: .name(name)
        case .file(let path)?: .file(path)
        case .silent?: .silent
        case nil: nil
        }
        client.notify(notification, late: late, completion)
    }

    func close(id: UInt32) { client.close(id: id) }
}
