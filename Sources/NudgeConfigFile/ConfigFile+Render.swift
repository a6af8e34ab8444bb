import NudgeCore

extension ConfigFile {
    /// The effective configuration as INI text that parses back to the same NudgeConfig (for
    /// `nudge config show`): every section and key with its value, and the priority, category and
    /// tag sections that were set (with only the keys they set).
    public static func render(_ config: NudgeConfig) -> String {
        renderedSections(config).map { name, lines in
            (["[\(name)]"] + lines.map { "\($0.key) = \($0.value)" }).joined(separator: "\n") + "\n"
        }.joined(separator: "\n")
    }

    /// What `render` writes, as sections of keys and values: for `nudge config show --json`.
    public static func renderedSections(_ config: NudgeConfig) -> [(name: String, lines: [(key: String, value: String)])] {
        var out: [(name: String, lines: [(key: String, value: String)])] = []
        func section(_ name: String, _ lines: [(String, String)]) {
            out.append((name, lines.map { (key: $0.0, value: $0.1) }))
        }

        let rules = config.reminders
        section("reminders", ruleLines(RuleOverrides(
            atDue: rules.atDue, before: rules.before, allDayTime: rules.allDayTime,
            allDayDayBefore: rules.allDayDayBefore, nagEvery: .some(rules.nagEvery),
            nagLimit: .some(rules.nagLimit), sound: .some(rules.sound), timeout: .some(rules.timeout),
            resident: rules.resident, escalateAfter: .some(rules.escalateAfter), repeatSound: rules.repeatSound))
            + [("hold_blocked", yesNo(config.holdBlocked))])
        for priority in Priority.allCases {
            if let overrides = config.byPriority[priority] {
                section("priority.\(priority)", ruleLines(overrides))
            }
        }
        for name in config.byCategory.keys.sorted() {
            section("category.\(name)", ruleLines(config.byCategory[name]!))  // name: one of its keys
        }
        // In their order: it decides between two tags of one todo.
        for tagRules in config.byTag {
            section("tag.\(tagRules.name)", ruleLines(tagRules.overrides))
        }
        section("digest", [("enabled", yesNo(config.digest.enabled)), ("time", config.digest.time.description)])
        section("quiet", [
            ("hours", config.quietHours.map { "\($0.start)-\($0.end)" } ?? "none"),
            ("allow_high", yesNo(config.quietHours?.allowHigh ?? true)),
        ])
        section("snooze", [
            ("default", config.snooze.defaultChoice.description),
            ("choices", config.snooze.choices.map(\.description).joined(separator: ", ")),
        ])
        switch config.catchUp {
        case .all: section("catchup", [("policy", "all")])
        case .digest: section("catchup", [("policy", "digest")])
        case .skipOlderThan(let span): section("catchup", [("policy", "skip-older-than"), ("max_age", span.description)])
        }
        section("notifications", [("group_above", String(config.groupAbove))])
        section("import", [("timeout", ConfigValues.secondsText(config.importing.timeout)),
                           ("max_size", ConfigValues.sizeText(config.importing.maxSize))])
        section("list", [("quote", config.quote.description)])
        section("sync", [("vdir", config.sync.vdir ?? "off"), ("command", config.sync.command ?? "off"),
                         ("interval", config.sync.interval.description)])
        section("hooks", HookEvent.allCases.map { ($0.key, config.hooks.commands[$0]?.text ?? "none") } + [
            ("max_running", String(config.hooks.maxRunning)),
            ("timeout", ConfigValues.secondsText(config.hooks.timeout)),
            ("suppress_wait", config.hooks.suppressWait == 0 ? "0" : ConfigValues.secondsText(config.hooks.suppressWait)),
        ])
        section("display", [("week_start", config.display.weekStart.flatMap { ConfigValues.weekStarts[$0] } ?? "locale"),
                            ("time_format", config.display.timeFormat?.rawValue ?? "locale"),
                            ("date_format", config.display.dateFormat?.rawValue ?? "locale")])
        return out
    }

    private static func yesNo(_ value: Bool) -> String { value ? "yes" : "no" }

    /// The keys an override sets, in the documented order.
    private static func ruleLines(_ rules: RuleOverrides) -> [(String, String)] {
        var lines: [(String, String)] = []
        if let value = rules.atDue { lines.append(("at_due", yesNo(value))) }
        if let value = rules.before {
            lines.append(("before", value.isEmpty ? "none" : value.map(\.description).joined(separator: ", ")))
        }
        if let value = rules.allDayTime { lines.append(("all_day_time", value.description)) }
        if let value = rules.allDayDayBefore { lines.append(("all_day_day_before", yesNo(value))) }
        if let value = rules.nagEvery { lines.append(("nag_every", value?.description ?? "off")) }
        if let value = rules.nagLimit { lines.append(("nag_limit", value.map(String.init) ?? "none")) }
        if let value = rules.sound { lines.append(("sound", value?.description ?? ConfigValues.priorityDefault)) }
        if let value = rules.timeout { lines.append(("timeout", value?.description ?? ConfigValues.priorityDefault)) }
        if let value = rules.resident { lines.append(("resident", yesNo(value))) }
        if let value = rules.escalateAfter { lines.append(("escalate_after", value.map(String.init) ?? "none")) }
        if let value = rules.repeatSound { lines.append(("repeat_sound", yesNo(value))) }
        return lines
    }
}

extension PlanRecording {
    /// The plan of record's rules kept as the config file would set them.
    public static let configFile = PlanRecording(
        write: { ConfigFile.render($0) },
        read: { try? ConfigFile.parse(text: $0, path: "the plan of record") })
}
