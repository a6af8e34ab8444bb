import NudgePlatform

/// A desktop notification as `org.freedesktop.Notifications.Notify` takes it.
///
/// The server treats `body` as markup (dunst parses it and shows a broken body for a raw `<`
/// or `&`), so text from the user belongs in the body only through `markupEscaped(_:)`. The
/// summary is plain text.
public struct DesktopNotification: Equatable, Sendable {
    /// How insistent the notification is; sent as the `urgency` hint (a byte).
    public enum Urgency: UInt8, Sendable {
        case low = 0, normal = 1, critical = 2
    }

    /// A button: the server shows `label` and reports `key` in `ActionInvoked`. The key
    /// `"default"` is the action for clicking the notification itself.
    public struct Action: Equatable, Sendable {
        public var key: String
        public var label: String

        public init(key: String, label: String) {
            self.key = key
            self.label = label
        }
    }

    public var appName = "Nudge"
    /// The id of a shown notification to replace, or 0 for a new one.
    public var replacesID: UInt32 = 0
    /// An icon name from the theme ("appointment-soon") or an absolute path or file:// URI.
    public var icon = ""
    public var summary: String
    public var body = ""
    public var actions: [Action] = []
    public var urgency: Urgency = .normal
    /// The `category` hint, e.g. "x-nudge.reminder".
    public var category: String? = nil
    /// The `desktop-entry` hint: the desktop file's name without ".desktop".
    public var desktopEntry: String? = nil
    /// Milliseconds; -1 lets the server decide, 0 never expires.
    public var expireTimeout: Int32 = -1
    /// What it plays: nil leaves it to the server.
    public var sound: Sound? = nil
    /// The `resident` hint: the server keeps it after an action, until closed.
    public var resident = false

    /// The sound hints.
    public enum Sound: Equatable, Sendable {
        /// `sound-name`: a name from the freedesktop sound theme, e.g. "message-new-instant".
        case name(String)
        /// `sound-file`: an absolute path.
        case file(String)
        /// `suppress-sound`: play nothing, not even the server's own sound.
        case silent
    }

    public init(summary: String, body: String = "", actions: [Action] = [],
                urgency: Urgency = .normal, category: String? = nil, desktopEntry: String? = nil,
                icon: String = "", appName: String = "Nudge", replacesID: UInt32 = 0,
                expireTimeout: Int32 = -1) {
        self.summary = summary
        self.body = body
        self.actions = actions
        self.urgency = urgency
        self.category = category
        self.desktopEntry = desktopEntry
        self.icon = icon
        self.appName = appName
        self.replacesID = replacesID
        self.expireTimeout = expireTimeout
    }

    /// `text` with `&`, `<`, `>`, `"` and `'` written as entities, for a markup body.
    public static func markupEscaped(_ text: String) -> String {
        TextEscaping.escaped(text) { scalar in
            switch scalar {
            case "&": "&amp;"
            case "<": "&lt;"
            case ">": "&gt;"
            case "\"": "&quot;"
            case "'": "&apos;"
            default: nil
            }
        }
    }
}
