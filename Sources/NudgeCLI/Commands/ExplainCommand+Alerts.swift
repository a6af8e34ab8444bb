import NudgeCore

extension ExplainCommand {
    /// How a todo's reminders get attention, each setting with the section that set it (nil:
    /// the default for the todo's priority).
    struct AlertFacts {
        let alerts: AlertRules
        let soundFrom: String?
        let repeatSoundFrom: String
        let timeoutFrom: String?
        let residentFrom: String
        /// "escalate_after = 2 in [priority.high]" when set.
        let escalation: String?
        /// Why the nags never reach escalate_after, when they do not.
        let neverEscalates: String?

        init(_ todo: Todo, config: NudgeConfig) {
            let rules = config.rules(for: todo)
            alerts = rules.alerts(for: todo.priority)
            func origin(_ isSet: (RuleOverrides) -> Bool) -> String {
                ExplainCommand.section(setting: isSet, todo: todo, config: config)
            }
            soundFrom = rules.sound == nil ? nil : origin { $0.sound != nil }
            repeatSoundFrom = origin { $0.repeatSound != nil }
            timeoutFrom = rules.timeout == nil ? nil : origin { $0.timeout != nil }
            residentFrom = origin { $0.resident != nil }
            if let after = alerts.escalateAfter {
                escalation = "escalate_after = \(after) in \(origin { $0.escalateAfter != nil })"
                if rules.nagEvery == nil {
                    neverEscalates = "it does not nag"
                } else if let limit = rules.nagLimit, limit < after {
                    neverEscalates = "nag_limit = \(limit) stops the nags first"
                } else {
                    neverEscalates = nil
                }
            } else {
                escalation = nil
                neverEscalates = nil
            }
        }

        /// The sound as the config names it: a name, a file's path, or none.
        var sound: String {
            switch alerts.sound {
            case .none: "none"
            case .name(let name): name
            case .file(let path): path
            }
        }

        var timeout: String {
            switch alerts.timeout {
            case .never: "never"
            case .server: "server"
            case .seconds: alerts.timeout.description
            }
        }
    }

    /// The lines on how the todo's reminders get attention: sound, timeout, resident and
    /// escalation, each with the section that set it.
    static func alertLines(_ todo: Todo, config: NudgeConfig) -> [String] {
        let facts = AlertFacts(todo, config: config)
        let alerts = facts.alerts
        let byPriority = "the default for \(todo.priority) priority"
        let nags = alerts.sound == .none ? ""
            : alerts.repeatSound ? "; every nag plays it (repeat_sound = yes in \(facts.repeatSoundFrom))"
            : "; nags are silent"
        // Quiet hours silence what they let through and what they held back (NotificationContent).
        let quiet = silencedHours(alerts, config: config).map { "; silent in quiet hours " + $0 } ?? ""
        let timeout = switch alerts.timeout {
        case .never: "never: it stays until answered"
        case .server: "server: the notification server decides"
        case .seconds: "\(alerts.timeout) on screen"
        }
        let resident = alerts.resident
            ? "yes: it stays after a button is pressed, where the server can (resident = yes in \(facts.residentFrom))"
            : "no"
        var escalation = "no"
        if let set = facts.escalation, let after = alerts.escalateAfter {
            escalation = facts.neverEscalates.map { "never: \($0) (\(set))" } ?? "to critical from nag \(after) on (\(set))"
        }
        return [
            "  Sound     " + Terminal.visible(facts.sound + " (" + (facts.soundFrom.map { "set in " + $0 } ?? byPriority) + ")" + nags + quiet),
            "  Timeout   " + timeout + " (" + (facts.timeoutFrom.map { "set in " + $0 } ?? byPriority) + ")",
            "  Resident  " + resident,
            "  Escalate  " + escalation,
        ]
    }

    /// The quiet hours, as `22:00-07:00`, when there is a sound for them to silence.
    private static func silencedHours(_ alerts: AlertRules, config: NudgeConfig) -> String? {
        guard alerts.sound != .none, let quiet = config.quietHours else { return nil }
        return "\(quiet.start)-\(quiet.end)"
    }

    /// explain --json's alerts: the same facts as the lines.
    static func alertJSON(_ todo: Todo, config: NudgeConfig) -> JSON {
        let facts = AlertFacts(todo, config: config)
        let alerts = facts.alerts
        let soundKind = switch alerts.sound {
        case .none: "none"
        case .name: "name"
        case .file: "file"
        }
        return .object([
            ("sound", .string(facts.sound)), ("soundKind", .string(soundKind)), ("soundFrom", .string(facts.soundFrom)),
            ("repeatSound", .bool(alerts.repeatSound)), ("silentInQuietHours", .string(silencedHours(alerts, config: config))),
            ("timeout", .string(facts.timeout)), ("timeoutFrom", .string(facts.timeoutFrom)),
            ("resident", .bool(alerts.resident)),
            ("escalateAfter", alerts.escalateAfter.map { JSON.int(Int64($0)) } ?? .null),
            ("escalates", .bool(alerts.escalateAfter != nil && facts.neverEscalates == nil)),
        ])
    }
}
