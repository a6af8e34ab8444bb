import Foundation
import NudgeCore

/// Collects the sections and keys the scanner reports, in file order, into a NudgeConfig.
final class ConfigBuilder {
    private let path: String
    private var config = NudgeConfig()
    private var global = RuleOverrides()
    /// For each section, the keys set so far and their lines.
    private var seen: [ConfigSection: [String: Int]] = [:]
    private var quietRange: (start: TimeOfDay, end: TimeOfDay)?
    private var allowHigh: Bool?
    private var policy: (value: ConfigValues.Policy, line: Int)?
    private var maxAge: TimeSpan?
    /// Snooze choices naming a fixed date, with their key and line: checked against `checking`.
    private var fixedSnoozes: [(key: String, text: String, line: Int)] = []
    private let checking: (now: Date, zone: TimeZone)?

    init(path: String, checking: (now: Date, zone: TimeZone)? = nil) {
        self.path = path
        self.checking = checking
    }

    /// A header: `[priority.*]`, `[category.*]` and `[tag.*]` exist from here on, even with no
    /// keys; a tag's place among the tag sections is that of its first header.
    func begin(_ name: String) throws(Problem) {
        switch try ConfigSection(name: name) {
        case .priority(let priority) where config.byPriority[priority] == nil:
            config.byPriority[priority] = RuleOverrides()
        case .category(let category) where config.byCategory[category] == nil:
            config.byCategory[category] = RuleOverrides()
        case .tag(let tag):
            _ = tagIndex(tag, header: name)
        default:
            break
        }
    }

    /// The folded tag's section in `byTag`, added at the end, spelled as in `header`, when it is new.
    private func tagIndex(_ tag: String, header: String) -> Int {
        if let index = config.byTag.firstIndex(where: { $0.tag == tag }) { return index }
        config.byTag.append(TagRules(ConfigSection.spelledTag(header)))
        return config.byTag.count - 1
    }

    func set(section name: String, key rawKey: String, value: String, line: Int) throws(Problem) {
        let section = try ConfigSection(name: name)
        let key = rawKey.lowercased()
        guard section.keys.contains(key) else { throw Problem(section.unknownKey(rawKey)) }
        if let first = seen[section]?[key] {
            throw Problem("duplicate key '\(key)' in [\(section.name)]; it is already set on line \(first)")
        }
        seen[section, default: [:]][key] = line

        switch section {
        case .reminders where key == "hold_blocked":
            config.holdBlocked = try ConfigValues.boolean(key, value)
        case .reminders:
            try ConfigValues.rule(key, value, into: &global)
        case .priority(let priority):
            try ConfigValues.rule(key, value, into: &config.byPriority[priority, default: RuleOverrides()])
        case .category(let category):
            try ConfigValues.rule(key, value, into: &config.byCategory[category, default: RuleOverrides()])
        case .tag(let tag):
            try ConfigValues.rule(key, value, into: &config.byTag[tagIndex(tag, header: name)].overrides)
        case .digest:
            if key == "enabled" {
                config.digest.enabled = try ConfigValues.boolean(key, value)
            } else {
                config.digest.time = try ConfigValues.time(key, value)
            }
        case .quiet:
            if key == "hours" {
                quietRange = try ConfigValues.quietHours(key, value)
            } else {
                allowHigh = try ConfigValues.boolean(key, value)
            }
        case .snooze:
            if key == "default" {
                config.snooze.defaultChoice = try ConfigValues.snoozeChoice(key, value)
            } else {
                config.snooze.choices = try ConfigValues.snoozeChoices(key, value)
            }
            let chosen = key == "default" ? [config.snooze.defaultChoice] : config.snooze.choices
            for case .when(let text) in chosen where ConfigValues.isFixed(text) {
                fixedSnoozes.append((key, text, line))
            }
        case .catchUp:
            if key == "policy" {
                policy = (try ConfigValues.policy(key, value), line)
            } else {
                maxAge = try ConfigValues.span(key, value)
            }
        case .notifications:
            config.groupAbove = try ConfigValues.count(key, value)
        case .importing:
            if key == "timeout" {
                config.importing.timeout = try ConfigValues.seconds(key, value)
            } else {
                config.importing.maxSize = try ConfigValues.size(key, value)
            }
        case .list:
            config.quote = try ConfigValues.quote(key, value)
        case .sync:
            switch key {
            case "vdir": config.sync.vdir = ConfigValues.isOff(value) ? nil : value
            case "command": config.sync.command = ConfigValues.isOff(value) ? nil : value
            default: config.sync.interval = try ConfigValues.span(key, value)
            }
        case .hooks:
            switch key {
            case "max_running": config.hooks.maxRunning = try ConfigValues.hookLimit(key, value)
            case "timeout": config.hooks.timeout = try ConfigValues.seconds(key, value)
            case "suppress_wait": config.hooks.suppressWait = ConfigValues.isOff(value) || value == "0" ? 0 : try ConfigValues.seconds(key, value)
            default:
                let event = HookEvent.allCases.first { $0.key == key }!  // the section's keys were checked: a hook's
                config.hooks.commands[event] = try ConfigValues.hook(key, value)
            }
        case .display:
            switch key {
            case "week_start": config.display.weekStart = try ConfigValues.weekStart(key, value)
            case "time_format": config.display.timeFormat = try ConfigValues.choice(key, value, ClockFormat.self)
            default: config.display.dateFormat = try ConfigValues.choice(key, value, DateOrder.self)
            }
        }
    }

    /// The configuration, once every line is read; checks what spans several keys.
    func finish() throws(ConfigError) -> NudgeConfig {
        var result = config
        result.reminders.apply(global)
        if let checking {
            for snooze in fixedSnoozes {
                if let message = ConfigValues.pastSnooze(snooze.key, snooze.text, now: checking.now, zone: checking.zone,
                                                         allDayTime: result.reminders.allDayTime) {
                    throw ConfigError(path: path, line: snooze.line, message: message)
                }
            }
        }
        if let quietRange {
            result.quietHours = QuietHours(start: quietRange.start, end: quietRange.end, allowHigh: allowHigh ?? true)
        }
        if let policy {
            switch policy.value {
            case .all: result.catchUp = .all
            case .digest: result.catchUp = .digest
            case .skipOlderThan:
                guard let maxAge else {
                    throw ConfigError(path: path, line: policy.line, message: "policy: skip-older-than needs max_age in [catchup]; accepted: a duration such as max_age = 6h")
                }
                result.catchUp = .skipOlderThan(maxAge)
            }
        }
        return result
    }
}
