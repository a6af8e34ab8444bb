import NudgeCore

/// A `[section]` of the config file.
enum ConfigSection: Hashable {
    case reminders
    case priority(Priority)
    /// Keyed by the lowercased category name.
    case category(String)
    /// Keyed by the folded tag.
    case tag(String)
    case digest
    case quiet
    case snooze
    case catchUp
    case notifications
    case importing
    case list
    case sync
    case hooks
    case display

    static let knownSections = "reminders, priority.low|medium|high, category.NAME, tag.NAME, digest, quiet, snooze, catchup, notifications, import, list, sync, hooks, display"

    static let ruleKeys = ["at_due", "before", "all_day_time", "all_day_day_before", "nag_every", "nag_limit",
                           "sound", "timeout", "resident", "escalate_after", "repeat_sound"]

    /// Reads the name inside `[...]`; section names are case-insensitive.
    init(name: String) throws(Problem) {
        let lower = name.lowercased()
        switch lower {
        case "reminders": self = .reminders
        case "digest": self = .digest
        case "quiet": self = .quiet
        case "snooze": self = .snooze
        case "catchup": self = .catchUp
        case "notifications": self = .notifications
        case "import": self = .importing
        case "list": self = .list
        case "sync": self = .sync
        case "hooks": self = .hooks
        case "display": self = .display
        case "":
            throw Problem("a section header needs a name; known sections: \(Self.knownSections)")
        default:
            if lower.hasPrefix("priority.") {
                let level = lower.dropFirst("priority.".count).trimmingWhitespace()
                guard let priority = Priority.allCases.first(where: { $0.description == level }) else {
                    throw Problem("unknown priority '\(level)' in [\(name)]; known: priority.low, priority.medium, priority.high")
                }
                self = .priority(priority)
            } else if lower.hasPrefix("category.") {
                let category = name.dropFirst("category.".count).trimmingWhitespace()
                guard !category.isEmpty else {
                    throw Problem("[\(name)] needs a category name, e.g. [category.work]")
                }
                self = .category(category.lowercased())
            } else if lower.hasPrefix("tag.") {
                let tag = Self.spelledTag(name)
                guard !tag.isEmpty else {
                    throw Problem("[\(name)] needs a tag, e.g. [tag.money]")
                }
                do {
                    self = .tag(Tag.folded(try Tag.validated(tag)))
                } catch {
                    throw Problem("[\(name)]: \(error.message)")
                }
            } else {
                throw Problem("unknown section [\(name)]; known sections: \(Self.knownSections)")
            }
        }
    }

    /// The tag of a `[tag.NAME]` header, as written.
    static func spelledTag(_ header: String) -> String {
        String(header.dropFirst("tag.".count).trimmingWhitespace())
    }

    /// The name as messages quote it.
    var name: String {
        switch self {
        case .reminders: "reminders"
        case .priority(let priority): "priority.\(priority)"
        case .category(let category): "category.\(category)"
        case .tag(let tag): "tag.\(tag)"
        case .digest: "digest"
        case .quiet: "quiet"
        case .snooze: "snooze"
        case .catchUp: "catchup"
        case .notifications: "notifications"
        case .importing: "import"
        case .list: "list"
        case .sync: "sync"
        case .hooks: "hooks"
        case .display: "display"
        }
    }

    var keys: [String] {
        switch self {
        case .reminders: Self.ruleKeys + ["hold_blocked"]
        case .priority, .category, .tag: Self.ruleKeys
        case .digest: ["enabled", "time"]
        case .quiet: ["hours", "allow_high"]
        case .snooze: ["default", "choices"]
        case .catchUp: ["policy", "max_age"]
        case .notifications: ["group_above"]
        case .importing: ["timeout", "max_size"]
        case .list: ["quote"]
        case .sync: ["vdir", "command", "interval"]
        case .hooks: HookEvent.allCases.map(\.key) + ["max_running", "timeout", "suppress_wait"]
        case .display: ["week_start", "time_format", "date_format"]
        }
    }

    /// The message for a key this section does not have, with a guess at the one meant.
    func unknownKey(_ key: String) -> String {
        let known = keys
        var hint = ""
        let normalized = String(key.map { $0 == "-" || $0 == " " ? "_" : $0 })
        if let guess = known.first(where: { $0 == normalized })
            ?? known.min(by: { editDistance($0, key) < editDistance($1, key) }).flatMap({ editDistance($0, key) <= 2 ? $0 : nil }) {
            hint = " (did you mean \(guess)?)"
        }
        return "unknown key '\(key)' in [\(name)]\(hint); known keys: \(known.joined(separator: ", "))"
    }
}

/// Levenshtein distance, for "did you mean".
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
    var previous = Array(0...b.count)
    for i in 1...a.count {
        var current = [i] + Array(repeating: 0, count: b.count)
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        previous = current
    }
    return previous[b.count]
}
