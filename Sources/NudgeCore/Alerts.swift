/// `sound`: what a reminder's notification plays, as the freedesktop notification hints say it.
public enum ReminderSound: Hashable, Sendable, CustomStringConvertible {
    /// Silent: the `suppress-sound` hint.
    case none
    /// A name from the freedesktop sound theme ("message-new-instant", "bell"): `sound-name`.
    case name(String)
    /// A sound file, an absolute path or `~/...`: `sound-file`.
    case file(String)

    /// The sound when no section sets one: high priority rings, the others are silent.
    public static func standard(for priority: Priority) -> ReminderSound {
        priority == .high ? .name("message-new-instant") : .none
    }

    /// As written in the config file.
    public var description: String {
        switch self {
        case .none: "none"
        case .name(let name): name
        case .file(let path): path
        }
    }
}

/// `timeout`: how long a reminder's notification stays on screen.
public enum ReminderTimeout: Hashable, Sendable, CustomStringConvertible {
    /// The notification server's own timeout.
    case server
    /// Until it is answered or dismissed.
    case never
    case seconds(Double)

    /// The timeout when no section sets one: high-priority reminders stay until answered.
    public static func standard(for priority: Priority) -> ReminderTimeout {
        priority == .high ? .never : .server
    }

    /// The Notify call's `expire_timeout`: -1 lets the server decide, 0 never expires.
    public var expireMilliseconds: Int32 {
        switch self {
        case .server: -1
        case .never: 0
        case .seconds(let seconds): Int32(max(1, (seconds * 1000).rounded()))
        }
    }

    /// As written in the config file ("30s", "1.5s").
    public var description: String {
        switch self {
        case .server: "server"
        case .never: "never"
        case .seconds(let seconds): seconds == seconds.rounded() ? "\(Int(seconds))s" : "\(seconds)s"
        }
    }
}

/// How a todo's reminders get attention on screen and out loud: `sound`, `timeout`,
/// `resident`, `escalate_after` and `repeat_sound`, resolved for one todo's sections.
public struct AlertRules: Hashable, Sendable {
    public var sound: ReminderSound
    public var timeout: ReminderTimeout
    /// Asks the server to keep the notification, buttons and all, after an action.
    public var resident: Bool
    /// From this nag on, the notification is critical; nil never escalates.
    public var escalateAfter: Int?
    /// Nags play the sound too; otherwise only the first reminder of a stretch does.
    public var repeatSound: Bool

    public init(sound: ReminderSound, timeout: ReminderTimeout, resident: Bool = false,
                escalateAfter: Int? = nil, repeatSound: Bool = false) {
        self.sound = sound
        self.timeout = timeout
        self.resident = resident
        self.escalateAfter = escalateAfter
        self.repeatSound = repeatSound
    }

    /// Whether the reminder made by this rule (`nag` is the nag's number, nil for any other
    /// rule) is raised to critical.
    public func escalates(nag: Int?) -> Bool {
        guard let nag, let escalateAfter else { return false }
        return nag >= escalateAfter
    }

    /// What the reminder made by this rule plays: nags are silent unless `repeat_sound = yes`.
    public func sound(nag: Int?) -> ReminderSound {
        nag == nil || repeatSound ? sound : .none
    }
}

extension ReminderRules {
    /// The alert keys with the priority's defaults filled in where no section set them.
    public func alerts(for priority: Priority) -> AlertRules {
        AlertRules(sound: sound ?? .standard(for: priority), timeout: timeout ?? .standard(for: priority),
                   resident: resident, escalateAfter: escalateAfter, repeatSound: repeatSound)
    }
}

extension NudgeConfig {
    /// The alert rules of a todo of this priority, category and tags.
    public func alerts(priority: Priority, category: String?, tags: [String] = []) -> AlertRules {
        rules(priority: priority, category: category, tags: tags).alerts(for: priority)
    }

    /// The alert rules of this todo.
    public func alerts(for todo: Todo) -> AlertRules {
        alerts(priority: todo.priority, category: todo.category?.name, tags: todo.tags)
    }
}

extension ReminderRule {
    /// The number of a nag ("nag 3" as the store keeps the rule), nil for any other rule.
    public static func nagNumber(_ rule: String) -> Int? {
        guard rule.hasPrefix("nag ") else { return nil }
        return Int(rule.dropFirst(4))
    }
}
