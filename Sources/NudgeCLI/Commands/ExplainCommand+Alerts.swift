import NudgeCore

extension ExplainCommand {
    /// The lines on how the todo's reminders get attention: sound, timeout, resident and
    /// escalation, each with the section that set it.
    static func alertLines(_ todo: Todo, config: NudgeConfig) -> [String] {
        let rules = config.rules(priority: todo.priority, category: todo.category?.name)
        let alerts = rules.alerts(for: todo.priority)
        func origin(_ isSet: (RuleOverrides) -> Bool) -> String {
            if let name = todo.category?.name, let overrides = config.byCategory[name.lowercased()], isSet(overrides) {
                return "[category.\(name.lowercased())]"
            }
            if let overrides = config.byPriority[todo.priority], isSet(overrides) { return "[priority.\(todo.priority)]" }
            return "[reminders]"
        }
        let byPriority = "the default for \(todo.priority) priority"
        let soundOrigin = rules.sound == nil ? byPriority : "set in " + origin { $0.sound != nil }
        let timeoutOrigin = rules.timeout == nil ? byPriority : "set in " + origin { $0.timeout != nil }

        let sound = switch alerts.sound {
        case .none: "none"
        case .name(let name): name
        case .file(let path): path
        }
        let nags = alerts.sound == .none ? ""
            : alerts.repeatSound ? "; every nag plays it (repeat_sound = yes in \(origin { $0.repeatSound != nil }))"
            : "; nags are silent"
        let timeout = switch alerts.timeout {
        case .never: "never: it stays until answered"
        case .server: "server: the notification server decides"
        case .seconds: "\(alerts.timeout) on screen"
        }
        let resident = alerts.resident
            ? "yes: it stays after a button is pressed, where the server can (resident = yes in \(origin { $0.resident != nil }))"
            : "no"
        let escalation: String
        if let after = alerts.escalateAfter {
            let set = "escalate_after = \(after) in \(origin { $0.escalateAfter != nil })"
            if rules.nagEvery == nil {
                escalation = "never: it does not nag (\(set))"
            } else if let limit = rules.nagLimit, limit < after {
                escalation = "never: nag_limit = \(limit) stops the nags first (\(set))"
            } else {
                escalation = "to critical from nag \(after) on (\(set))"
            }
        } else {
            escalation = "no"
        }
        return [
            "  Sound     " + Terminal.visible(sound + " (" + soundOrigin + ")" + nags),
            "  Timeout   " + timeout + " (" + timeoutOrigin + ")",
            "  Resident  " + resident,
            "  Escalate  " + escalation,
        ]
    }
}
