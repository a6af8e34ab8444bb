/// The reminder rules and service settings from the config file (`nudge.conf`), with the
/// documented defaults for everything the file leaves out. Pure data: reading the file is
/// NudgeConfigFile's job.
public struct NudgeConfig: Equatable, Sendable {
    /// The global reminder rules, `[reminders]`.
    public var reminders = ReminderRules()
    /// `[priority.low]`, `[priority.medium]`, `[priority.high]`: override the global rules.
    public var byPriority: [Priority: RuleOverrides] = [:]
    /// `[category.NAME]`, keyed by the lowercased name: override the priority and global rules.
    public var byCategory: [String: RuleOverrides] = [:]
    /// `[tag.NAME]`, in the order of the file: override the category, priority and global rules.
    public var byTag: [TagRules] = []
    public var digest = Digest()
    public var quietHours: QuietHours?
    public var snooze = Snooze()
    public var catchUp = CatchUp.digest
    /// `[reminders] hold_blocked`: a todo after another that is pending reminds only once
    /// that one is done; what fell due meanwhile is caught up then.
    public var holdBlocked = true
    /// `[notifications] group_above`: more reminders than this at one moment arrive as one
    /// grouped notification.
    public var groupAbove = 3
    /// `[import]`: how `nudge import URL` fetches.
    public var importing = ImportSettings()
    /// `[list] quote`: the quote of the day above `nudge list` and at the end of the digest.
    public var quote = QuoteSource.off
    /// `[sync]`: the vdir mirrored two ways, and the command that syncs it with a server.
    public var sync = SyncSettings()
    /// `[hooks]`: commands nudged runs when a reminder fires, a todo is done, snoozed or added.
    public var hooks = HookSettings()
    /// `[display]`: the clock, date order and first weekday, where they differ from the locale's.
    public var display = DisplaySettings()

    public init() {}

    /// The rules for one todo: global, then its priority's section, its category's, and its
    /// tags' (where two of its tags set a key, the section nearer the top of the file wins).
    public func rules(priority: Priority, category: String?, tags: [String] = []) -> ReminderRules {
        var rules = reminders
        for section in sections(priority: priority, category: category, tags: tags) { rules.apply(section.overrides) }
        return rules
    }

    /// The rules for this todo, by its priority, category and tags.
    public func rules(for todo: Todo) -> ReminderRules {
        rules(priority: todo.priority, category: todo.category?.name, tags: todo.tags)
    }

    /// The sections besides `[reminders]` that set rules for a todo, the weakest first: each
    /// overrides the ones before it.
    public func sections(priority: Priority, category: String?, tags: [String]) -> [RuleSection] {
        var sections: [RuleSection] = []
        if let overrides = byPriority[priority] { sections.append(RuleSection(name: "[priority.\(priority)]", overrides: overrides)) }
        if let category, let overrides = byCategory[category.lowercased()] {
            sections.append(RuleSection(name: "[category.\(category.lowercased())]", overrides: overrides))
        }
        if !byTag.isEmpty, !tags.isEmpty {
            let folded = Set(tags.map(Tag.folded))
            for section in byTag.reversed() where folded.contains(section.tag) {
                sections.append(RuleSection(name: "[tag.\(section.tag)]", overrides: section.overrides))
            }
        }
        return sections
    }
}

/// A `[tag.NAME]` section.
public struct TagRules: Equatable, Sendable {
    /// The tag as the file first spells it: written back so, since folding may lengthen it.
    public let name: String
    /// The tag folded (`Tag.folded`), as todos' tags are matched and messages name it.
    public let tag: String
    public var overrides: RuleOverrides

    public init(_ name: String, overrides: RuleOverrides = RuleOverrides()) {
        self.name = name
        self.tag = Tag.folded(name)
        self.overrides = overrides
    }
}

/// A section that overrides `[reminders]` for some todos, with its name as messages show it
/// ("[category.work]").
public struct RuleSection: Equatable, Sendable {
    public var name: String
    public var overrides: RuleOverrides
}

/// When a todo's reminders fire, relative to its due date.
public struct ReminderRules: Hashable, Sendable {
    /// `at_due`: remind at the due time.
    public var atDue = true
    /// `before`: remind this long before the due time, e.g. `1d, 1h, 10m`.
    public var before: [TimeSpan] = [TimeSpan(seconds: 600)]
    /// `all_day_time`: the time an all-day todo's reminder fires on its day.
    public var allDayTime = TimeOfDay(hour: 9, minute: 0)!
    /// `all_day_day_before`: also remind at `all_day_time` the day before.
    public var allDayDayBefore = false
    /// `nag_every`: repeat while overdue, until done or snoozed; nil is off.
    public var nagEvery: TimeSpan? = TimeSpan(seconds: 3600)
    /// `nag_limit`: at most this many nags; nil is no limit.
    public var nagLimit: Int? = 3
    /// `sound`; nil (`default`) is the priority's: message-new-instant for high, none otherwise.
    public var sound: ReminderSound?
    /// `timeout`; nil (`default`) is the priority's: never for high, the server's otherwise.
    public var timeout: ReminderTimeout?
    /// `resident`: ask the server to keep the notification after an action.
    public var resident = false
    /// `escalate_after`: from this nag on the notification is critical; nil never.
    public var escalateAfter: Int?
    /// `repeat_sound`: every nag plays the sound, not only the first reminder.
    public var repeatSound = false

    public init() {}

    public mutating func apply(_ overrides: RuleOverrides) {
        if let value = overrides.atDue { atDue = value }
        if let value = overrides.before { before = value }
        if let value = overrides.allDayTime { allDayTime = value }
        if let value = overrides.allDayDayBefore { allDayDayBefore = value }
        if let value = overrides.nagEvery { nagEvery = value }
        if let value = overrides.nagLimit { nagLimit = value }
        if let value = overrides.sound { sound = value }
        if let value = overrides.timeout { timeout = value }
        if let value = overrides.resident { resident = value }
        if let value = overrides.escalateAfter { escalateAfter = value }
        if let value = overrides.repeatSound { repeatSound = value }
    }
}

/// The keys a `[priority.*]`, `[category.*]` or `[tag.*]` section sets; nil keeps the inherited value.
/// The double optionals say "set to off" (`.some(nil)`) apart from "not set" (`nil`).
public struct RuleOverrides: Equatable, Sendable {
    public var atDue: Bool?
    public var before: [TimeSpan]?
    public var allDayTime: TimeOfDay?
    public var allDayDayBefore: Bool?
    public var nagEvery: TimeSpan??
    public var nagLimit: Int??
    /// `.some(nil)` is `default`: the priority's sound.
    public var sound: ReminderSound??
    /// `.some(nil)` is `default`: the priority's timeout.
    public var timeout: ReminderTimeout??
    public var resident: Bool?
    public var escalateAfter: Int??
    public var repeatSound: Bool?

    public init(atDue: Bool? = nil, before: [TimeSpan]? = nil, allDayTime: TimeOfDay? = nil,
                allDayDayBefore: Bool? = nil, nagEvery: TimeSpan?? = nil, nagLimit: Int?? = nil,
                sound: ReminderSound?? = nil, timeout: ReminderTimeout?? = nil, resident: Bool? = nil,
                escalateAfter: Int?? = nil, repeatSound: Bool? = nil) {
        self.atDue = atDue
        self.before = before
        self.allDayTime = allDayTime
        self.allDayDayBefore = allDayDayBefore
        self.nagEvery = nagEvery
        self.nagLimit = nagLimit
        self.sound = sound
        self.timeout = timeout
        self.resident = resident
        self.escalateAfter = escalateAfter
        self.repeatSound = repeatSound
    }
}

/// `[digest]`: one reminder a day listing what is overdue and due today; skipped when empty.
public struct Digest: Hashable, Sendable {
    public var enabled = true
    public var time = TimeOfDay(hour: 8, minute: 0)!

    public init() {}
}

/// `[import]`: the limits of `nudge import URL`.
public struct ImportSettings: Hashable, Sendable {
    /// `timeout`: the longest wait to connect, and the longest the answer may stall, in seconds.
    public var timeout: Double = 15
    /// `max_size`: the most bytes read; a larger answer imports nothing.
    public var maxSize = 10 << 20

    public init() {}
}

/// `[sync]`: the vdir (a folder of `UID.ics` files, one VTODO each) that `nudge sync` and
/// `nudged` keep in step with the store, and the command that syncs that folder elsewhere.
public struct SyncSettings: Hashable, Sendable {
    /// `vdir`: the folder, `~/` being the home folder; nil (`off`) syncs nothing.
    public var vdir: String?
    /// `command`: run after a local change and every `interval` (e.g. `vdirsyncer sync`).
    public var command: String?
    /// `interval`: how often `command` runs without a local change.
    public var interval = TimeSpan(seconds: 15 * 60)

    public init() {}
}

/// `[list] quote`: where the quote of the day comes from.
public enum QuoteSource: Hashable, Sendable, CustomStringConvertible {
    case off
    /// An http or https URL answering JSON (`[{"q", "a"}]`, `{"content", "author"}`, `[{"text", "author"}]`).
    case url(String)
    /// A file in `fortune` format; `~/` is the home folder.
    case file(String)

    /// As written in the config file.
    public var description: String {
        switch self {
        case .off: "off"
        case .url(let url): url
        case .file(let path): path
        }
    }
}

/// `[quiet]`: reminders falling inside are held until the end and released together.
public struct QuietHours: Hashable, Sendable {
    public var start: TimeOfDay
    public var end: TimeOfDay
    /// `allow_high`: high-priority reminders are not held.
    public var allowHigh: Bool

    public init(start: TimeOfDay, end: TimeOfDay, allowHigh: Bool = true) {
        self.start = start
        self.end = end
        self.allowHigh = allowHigh
    }

    /// Whether a wall-clock time is inside; a range like 22:00-07:00 spans midnight.
    public func contains(_ time: TimeOfDay) -> Bool {
        if start == end { return false }
        return start < end ? (start <= time && time < end) : (time >= start || time < end)
    }
}

/// `[snooze]`: what Snooze does when no duration is given, and the choices a notification offers.
public struct Snooze: Hashable, Sendable {
    public var defaultChoice = SnoozeChoice.span(TimeSpan(seconds: 600))
    public var choices: [SnoozeChoice] = [
        .span(TimeSpan(seconds: 600)), .span(TimeSpan(seconds: 3600)), .when("tomorrow 09:00"),
    ]

    public init() {}
}

/// One way to snooze: for a while (`10m`), or until a moment read by WhenParser when chosen
/// (`tomorrow 09:00`).
public enum SnoozeChoice: Hashable, Sendable, CustomStringConvertible {
    case span(TimeSpan)
    case when(String)

    /// As written in the config file.
    public var description: String {
        switch self {
        case .span(let span): span.description
        case .when(let text): text
        }
    }
}

/// `[catchup] policy`: what happens to reminders that came due while the service was not running.
public enum CatchUp: Hashable, Sendable {
    /// Deliver every missed reminder.
    case all
    /// Deliver one digest naming them all (the default).
    case digest
    /// Deliver those missed for at most this long; drop older ones.
    case skipOlderThan(TimeSpan)
}

extension NudgeConfig {
    /// Every setting that moves reminders, as stable text (String(describing:) goes through
    /// reflection, which is slow at start-up, and dictionary order varies between runs).
    public var canonicalText: String {
        func rules(_ r: ReminderRules) -> String {
            "\(r.atDue),\(r.before.map(\.description).joined(separator: "+")),\(r.allDayTime),\(r.allDayDayBefore),"
                + "\(r.nagEvery?.description ?? "-"),\(r.nagLimit.map(String.init) ?? "-")"
        }
        func overrides(_ o: RuleOverrides) -> String {
            [o.atDue.map { "\($0)" }, o.before.map { $0.map(\.description).joined(separator: "+") },
             o.allDayTime?.description, o.allDayDayBefore.map { "\($0)" },
             o.nagEvery.map { $0?.description ?? "off" }, o.nagLimit.map { $0.map(String.init) ?? "none" }]
                .map { $0 ?? "_" }.joined(separator: ",")
        }
        var parts = ["r:" + rules(reminders)]
        // Each looked up by one of its own keys.
        parts += byPriority.keys.sorted().map { "p.\($0):" + overrides(byPriority[$0]!) }
        parts += byCategory.keys.sorted().map { "c.\($0):" + overrides(byCategory[$0]!) }
        parts += byTag.map { "g.\($0.tag):" + overrides($0.overrides) }
        parts.append("d:\(digest.enabled),\(digest.time)")
        parts.append("q:" + (quietHours.map { "\($0.start)-\($0.end),\($0.allowHigh)" } ?? "-"))
        if !holdBlocked { parts.append("h:no") }
        return parts.joined(separator: ";")
    }
}
