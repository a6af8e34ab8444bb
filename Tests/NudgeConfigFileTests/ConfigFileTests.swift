import Foundation
import NudgeCore
import Testing
@testable import NudgeTestSupport
@testable import NudgeConfigFile

private func parse(_ text: String) throws(ConfigError) -> NudgeConfig {
    try ConfigFile.parse(text: text, path: "nudge.conf")
}

private func time(_ text: String) -> TimeOfDay { TimeOfDay(parsing: text)! }
private func minutes(_ count: Int) -> TimeSpan { TimeSpan(seconds: count * 60) }
private func hours(_ count: Int) -> TimeSpan { TimeSpan(seconds: count * 3600) }
private let berlin = TimeZone(identifier: "Europe/Berlin")!

/// A file that sets every key, none to its default.
private let fullText = """
    [reminders]
    at_due = no
    before = 1d, 1h, 10m
    all_day_time = 08:30
    all_day_day_before = yes
    nag_every = 30m
    nag_limit = 5
    sound = bell
    timeout = 45s
    resident = yes
    escalate_after = 2
    repeat_sound = yes

    [priority.high]
    nag_every = 15m
    nag_limit = none
    sound = none
    timeout = server

    [priority.low]
    at_due = no
    before = none
    nag_every = off

    [category.Work]
    all_day_day_before = no
    nag_limit = 0
    sound = ~/sounds/work.oga
    escalate_after = none

    [digest]
    enabled = no
    time = 07:15

    [quiet]
    hours = 22:00-07:00
    allow_high = no

    [snooze]
    default = tomorrow 09:00
    choices = 5m, 1h30m, tonight, fri 9am, 2d

    [catchup]
    policy = skip-older-than
    max_age = 6h

    [notifications]
    group_above = 5

    [import]
    timeout = 2.5s
    max_size = 512K

    [list]
    quote = ~/quotes

    [Display]
    Week_Start = Sunday
    time_format = 12H
    date_format = dmy
    """

private let fullConfig: NudgeConfig = {
    var config = NudgeConfig()
    config.reminders.atDue = false
    config.reminders.before = [TimeSpan(days: 1), hours(1), minutes(10)]
    config.reminders.allDayTime = time("08:30")
    config.reminders.allDayDayBefore = true
    config.reminders.nagEvery = minutes(30)
    config.reminders.nagLimit = 5
    config.reminders.sound = .name("bell")
    config.reminders.timeout = .seconds(45)
    config.reminders.resident = true
    config.reminders.escalateAfter = 2
    config.reminders.repeatSound = true
    config.byPriority[.high] = RuleOverrides(nagEvery: .some(minutes(15)), nagLimit: .some(nil), sound: .some(ReminderSound.none),
                                             timeout: .some(.server))
    config.byPriority[.low] = RuleOverrides(atDue: false, before: [], nagEvery: .some(nil))
    config.byCategory["work"] = RuleOverrides(allDayDayBefore: false, nagLimit: .some(nil), sound: .some(.file("~/sounds/work.oga")),
                                              escalateAfter: .some(nil))
    config.digest.enabled = false
    config.digest.time = time("07:15")
    config.quietHours = QuietHours(start: time("22:00"), end: time("07:00"), allowHigh: false)
    config.snooze.defaultChoice = .when("tomorrow 09:00")
    config.snooze.choices = [.span(minutes(5)), .span(minutes(90)), .when("tonight"), .when("fri 9am"),
                             .span(TimeSpan(days: 2))]
    config.catchUp = .skipOlderThan(hours(6))
    config.groupAbove = 5
    config.importing.timeout = 2.5
    config.importing.maxSize = 512 << 10
    config.quote = .file("~/quotes")
    config.display = DisplaySettings(weekStart: 7, timeFormat: .twelveHour, dateFormat: .dayMonthYear)
    return config
}()

/// The repository's config/nudge.conf, found from this file.
private let shippedConfigPath = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("config/nudge.conf").path

struct ConfigFileTests {
    // MARK: - Reading

    @Test func missingFileGivesTheDefaults() throws {
        let folder = TemporaryDirectory()
        #expect(try ConfigFile.load(path: folder.file("nudge.conf")) == NudgeConfig())
        #expect(try ConfigFile.load(path: folder.file("missing/folder/nudge.conf")) == NudgeConfig())
    }

    @Test func emptyAndCommentOnlyFilesGiveTheDefaults() throws {
        #expect(try parse("") == NudgeConfig())
        #expect(try parse("# nothing\n; at all\n\n   \n") == NudgeConfig())
        #expect(try parse("[reminders]\n[digest]\n") == NudgeConfig())
    }

    @Test func fullFileSetsEveryKey() throws {
        #expect(try parse(fullText) == fullConfig)
    }

    @Test func loadsAFileFromDisk() throws {
        let folder = TemporaryDirectory()
        let path = folder.file("nudge.conf")
        try fullText.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try ConfigFile.load(path: path) == fullConfig)
    }

    @Test func shippedConfigIsTheDefaults() throws {
        #expect(FileManager.default.fileExists(atPath: shippedConfigPath))
        #expect(try ConfigFile.load(path: shippedConfigPath) == NudgeConfig())
    }

    @Test func shippedConfigNamesEverySectionAndKey() throws {
        let text = try String(contentsOfFile: shippedConfigPath, encoding: .utf8)
        let sections: [ConfigSection] = [.reminders, .digest, .quiet, .snooze, .catchUp, .notifications, .importing, .list, .sync]
        for section in sections {
            #expect(text.contains("\n[\(section.name)]\n"), "missing [\(section.name)]")
            for key in section.keys {
                #expect(text.contains("\n\(key) = "), "missing \(key) in [\(section.name)]")
            }
        }
        #expect(text.contains("# [priority.high]\n"))
        #expect(text.contains("# [category.work]\n"))
        #expect(text.contains("# [tag.money]\n"))
    }

    @Test("defaults are NudgeConfig()'s documented values")
    func defaults() {
        let config = NudgeConfig()
        #expect(config.reminders.before == [minutes(10)])
        #expect(config.reminders.nagEvery == hours(1))
        #expect(config.reminders.nagLimit == 3)
        #expect(config.digest.enabled && config.digest.time == time("08:00"))
        #expect(config.quietHours == nil)
        #expect(config.snooze.defaultChoice == .span(minutes(10)))
        #expect(config.snooze.choices == [.span(minutes(10)), .span(hours(1)), .when("tomorrow 09:00")])
        #expect(config.catchUp == .digest)
        #expect(config.groupAbove == 3)
    }

    @Test("values", arguments: [
        ("[reminders]\nat_due = off", { @Sendable (c: inout NudgeConfig) in c.reminders.atDue = false }),
        ("[reminders]\nat_due = 0", { @Sendable (c: inout NudgeConfig) in c.reminders.atDue = false }),
        ("[reminders]\nat_due = FALSE", { @Sendable (c: inout NudgeConfig) in c.reminders.atDue = false }),
        ("[reminders]\nall_day_day_before = true", { @Sendable (c: inout NudgeConfig) in c.reminders.allDayDayBefore = true }),
        ("[reminders]\nall_day_day_before = On", { @Sendable (c: inout NudgeConfig) in c.reminders.allDayDayBefore = true }),
        ("[reminders]\nall_day_day_before = 1", { @Sendable (c: inout NudgeConfig) in c.reminders.allDayDayBefore = true }),
        ("[reminders]\nbefore =", { @Sendable (c: inout NudgeConfig) in c.reminders.before = [] }),
        ("[reminders]\nbefore = None", { @Sendable (c: inout NudgeConfig) in c.reminders.before = [] }),
        ("[reminders]\nbefore = 2 hours,1w", { @Sendable (c: inout NudgeConfig) in c.reminders.before = [hours(2), TimeSpan(days: 7)] }),
        ("[reminders]\nall_day_time = 7:05", { @Sendable (c: inout NudgeConfig) in c.reminders.allDayTime = time("07:05") }),
        ("[reminders]\nnag_every = off", { @Sendable (c: inout NudgeConfig) in c.reminders.nagEvery = nil }),
        ("[reminders]\nnag_every = none", { @Sendable (c: inout NudgeConfig) in c.reminders.nagEvery = nil }),
        ("[reminders]\nnag_every =", { @Sendable (c: inout NudgeConfig) in c.reminders.nagEvery = nil }),
        ("[reminders]\nnag_every = 1d", { @Sendable (c: inout NudgeConfig) in c.reminders.nagEvery = TimeSpan(days: 1) }),
        ("[reminders]\nnag_limit = 0", { @Sendable (c: inout NudgeConfig) in c.reminders.nagLimit = nil }),
        ("[reminders]\nnag_limit = none", { @Sendable (c: inout NudgeConfig) in c.reminders.nagLimit = nil }),
        ("[reminders]\nnag_limit = 1000", { @Sendable (c: inout NudgeConfig) in c.reminders.nagLimit = 1000 }),
        ("[quiet]\nhours = 09:00 - 17:30", { @Sendable (c: inout NudgeConfig) in c.quietHours = QuietHours(start: time("09:00"), end: time("17:30")) }),
        ("[quiet]\nallow_high = no\nhours = none", { @Sendable (c: inout NudgeConfig) in c.quietHours = nil }),
        ("[snooze]\ndefault = 2h", { @Sendable (c: inout NudgeConfig) in c.snooze.defaultChoice = .span(hours(2)) }),
        ("[snooze]\ndefault =   Tomorrow  9am  ", { @Sendable (c: inout NudgeConfig) in c.snooze.defaultChoice = .when("Tomorrow  9am") }),
        ("[snooze]\nchoices = 1h", { @Sendable (c: inout NudgeConfig) in c.snooze.choices = [.span(hours(1))] }),
        ("[snooze]\nchoices = in 2h, 60 min", { @Sendable (c: inout NudgeConfig) in c.snooze.choices = [.when("in 2h"), .span(hours(1))] }),
        ("[catchup]\npolicy = all", { @Sendable (c: inout NudgeConfig) in c.catchUp = .all }),
        ("[import]\ntimeout = 500ms", { @Sendable (c: inout NudgeConfig) in c.importing.timeout = 0.5 }),
        ("[import]\ntimeout = 2m", { @Sendable (c: inout NudgeConfig) in c.importing.timeout = 120 }),
        ("[import]\ntimeout = 20", { @Sendable (c: inout NudgeConfig) in c.importing.timeout = 20 }),
        ("[import]\nmax_size = 1g", { @Sendable (c: inout NudgeConfig) in c.importing.maxSize = 1 << 30 }),
        ("[import]\nmax_size = 100 KB", { @Sendable (c: inout NudgeConfig) in c.importing.maxSize = 100 << 10 }),
        ("[list]\nquote = https://zenquotes.io/api/today", { @Sendable (c: inout NudgeConfig) in c.quote = .url("https://zenquotes.io/api/today") }),
        ("[list]\nquote = /usr/share/games/fortunes/fortunes", { @Sendable (c: inout NudgeConfig) in c.quote = .file("/usr/share/games/fortunes/fortunes") }),
        ("[list]\nquote = none", { @Sendable (c: inout NudgeConfig) in c.quote = .off }),
        ("[catchup]\npolicy = Digest\nmax_age = 1d", { @Sendable (c: inout NudgeConfig) in c.catchUp = .digest }),
        ("[catchup]\nmax_age = 2h\npolicy = skip-older-than", { @Sendable (c: inout NudgeConfig) in c.catchUp = .skipOlderThan(hours(2)) }),
        ("[notifications]\ngroup_above = 0", { @Sendable (c: inout NudgeConfig) in c.groupAbove = 0 }),
        ("[digest]\nenabled = no", { @Sendable (c: inout NudgeConfig) in c.digest.enabled = false }),
        ("[reminders]\nsound = None", { @Sendable (c: inout NudgeConfig) in c.reminders.sound = ReminderSound.none }),
        ("[reminders]\nsound = off", { @Sendable (c: inout NudgeConfig) in c.reminders.sound = ReminderSound.none }),
        ("[reminders]\nsound = Default", { @Sendable (c: inout NudgeConfig) in c.reminders.sound = nil }),
        ("[reminders]\nsound = dialog-warning", { @Sendable (c: inout NudgeConfig) in c.reminders.sound = .name("dialog-warning") }),
        ("[reminders]\nsound = /usr/share/sounds/freedesktop/stereo/bell.oga",
         { @Sendable (c: inout NudgeConfig) in c.reminders.sound = .file("/usr/share/sounds/freedesktop/stereo/bell.oga") }),
        ("[reminders]\ntimeout = NEVER", { @Sendable (c: inout NudgeConfig) in c.reminders.timeout = .never }),
        ("[reminders]\ntimeout = server", { @Sendable (c: inout NudgeConfig) in c.reminders.timeout = .server }),
        ("[reminders]\ntimeout = 1.5s", { @Sendable (c: inout NudgeConfig) in c.reminders.timeout = .seconds(1.5) }),
        ("[reminders]\ntimeout = 2m", { @Sendable (c: inout NudgeConfig) in c.reminders.timeout = .seconds(120) }),
        ("[reminders]\ntimeout = 1h", { @Sendable (c: inout NudgeConfig) in c.reminders.timeout = .seconds(3600) }),
        ("[reminders]\ntimeout = 1m 30s", { @Sendable (c: inout NudgeConfig) in c.reminders.timeout = .seconds(90) }),
        ("[import]\ntimeout = 2 min", { @Sendable (c: inout NudgeConfig) in c.importing.timeout = 120 }),
        ("[reminders]\nresident = yes", { @Sendable (c: inout NudgeConfig) in c.reminders.resident = true }),
        ("[reminders]\nescalate_after = 0", { @Sendable (c: inout NudgeConfig) in c.reminders.escalateAfter = nil }),
        ("[reminders]\nescalate_after = 3", { @Sendable (c: inout NudgeConfig) in c.reminders.escalateAfter = 3 }),
        ("[reminders]\nrepeat_sound = on", { @Sendable (c: inout NudgeConfig) in c.reminders.repeatSound = true }),
        ("[category.meds]\nsound = default\ntimeout = default",
         { @Sendable (c: inout NudgeConfig) in c.byCategory["meds"] = RuleOverrides(sound: .some(nil), timeout: .some(nil)) }),
        ("[priority.medium]", { @Sendable (c: inout NudgeConfig) in c.byPriority[.medium] = RuleOverrides() }),
        ("[category.Home Stuff]\n[category.home stuff]", { @Sendable (c: inout NudgeConfig) in c.byCategory["home stuff"] = RuleOverrides() }),
        ("[tag.Money]\nbefore = 1d\n[tag.phone]\n[tag.MONEY]\nnag_every = off",
         { @Sendable (c: inout NudgeConfig) in
             c.byTag = [TagRules("Money", overrides: RuleOverrides(before: [TimeSpan(days: 1)], nagEvery: .some(nil))),
                        TagRules("phone")] }),
        ("[tag.Ärger_2]\ntimeout = never", { @Sendable (c: inout NudgeConfig) in
            c.byTag = [TagRules("Ärger_2", overrides: RuleOverrides(timeout: .some(.never)))] }),
    ] as [(String, @Sendable (inout NudgeConfig) -> Void)])
    func values(text: String, change: @Sendable (inout NudgeConfig) -> Void) throws {
        var expected = NudgeConfig()
        change(&expected)
        #expect(try parse(text) == expected)
    }

    @Test("syntax: comments, indentation, case, line endings", arguments: [
        "[reminders]\nnag_every = 2h   # a comment\n",
        "[reminders]\nnag_every = 2h ; a comment\n",
        "[reminders]\nnag_every = 2h\t# a comment\n",
        "[reminders]   # the global rules\nnag_every = 2h\n",
        "[Reminders]\nNag_Every = 2h\n",
        "  [reminders]\n    at_due = yes\n    nag_every = 2h\n",
        "[reminders]\r\nnag_every = 2h\r\n",
        "\u{FEFF}[reminders]\nnag_every = 2h",
        "[reminders]\nnag_every: 2h\n",
        "[ reminders ]\nnag_every=2h\n",
        "# top\n; comments\n[reminders]\n# nag_every = 5m\nnag_every = 2h\n",
        "[reminders]\nat_due = yes\n[digest]\n[reminders]\nnag_every = 2h\n",
    ])
    func syntax(text: String) throws {
        var expected = NudgeConfig()
        expected.reminders.nagEvery = hours(2)
        #expect(try parse(text) == expected)
    }

    @Test func quietHoursMaySpanMidnight() throws {
        let quiet = try #require(try parse("[quiet]\nhours = 22:00-07:00\n").quietHours)
        #expect(quiet == QuietHours(start: time("22:00"), end: time("07:00"), allowHigh: true))
        #expect(quiet.contains(time("23:30")))
        #expect(quiet.contains(time("00:00")))
        #expect(quiet.contains(time("06:59")))
        #expect(!quiet.contains(time("07:00")))
        #expect(!quiet.contains(time("12:00")))
        #expect(!quiet.contains(time("21:59")))
    }

    // MARK: - Overrides

    @Test func tagBeatsCategoryBeatsPriorityAndTheFirstTagSectionBeatsTheNext() throws {
        let config = try parse("""
            [reminders]
            nag_every = 1h
            [tag.phone]
            nag_every = 2m
            [priority.high]
            nag_every = 15m
            before = 1d
            [tag.Money]
            nag_every = 3m
            timeout = 30s
            [category.work]
            nag_every = 5m
            sound = bell
            """)
        func rules(_ tags: [String]) -> ReminderRules { config.rules(priority: .high, category: "work", tags: tags) }
        #expect(rules([]).nagEvery == minutes(5))
        #expect(rules(["money"]).nagEvery == minutes(3))
        #expect(rules(["MONEY", "phone"]).nagEvery == minutes(2))
        #expect(rules(["money", "Phone"]).nagEvery == minutes(2))
        #expect(rules(["other"]).nagEvery == minutes(5))
        let both = rules(["phone", "money"])
        #expect(both.before == [TimeSpan(days: 1)] && both.sound == .name("bell") && both.timeout == .seconds(30))
        #expect(config.alerts(priority: .high, category: "work", tags: ["money"]).timeout == .seconds(30))
    }

    @Test("category beats priority beats global", arguments: [
        (Priority.low, nil as String?, 60, true, [minutes(10)]),
        (.medium, nil, 30, true, [minutes(10)]),
        (.high, nil, 15, true, [TimeSpan(days: 1), minutes(10)]),
        (.high, "other", 15, true, [TimeSpan(days: 1), minutes(10)]),
        (.high, "work", 5, true, [TimeSpan(days: 1), minutes(10)]),
        (.high, "WORK", 5, true, [TimeSpan(days: 1), minutes(10)]),
        (.low, "Work", 5, true, [minutes(10)]),
        (.medium, "home", 30, false, []),
        (.high, "home", 15, false, []),
    ])
    func precedence(priority: Priority, category: String?, nagMinutes: Int, atDue: Bool, before: [TimeSpan]) throws {
        let config = try parse("""
            [reminders]
            nag_every = 1h
            [priority.medium]
            nag_every = 30m
            [priority.high]
            nag_every = 15m
            before = 1d, 10m
            [category.work]
            nag_every = 5m
            [category.home]
            at_due = no
            before = none
            """)
        let rules = config.rules(priority: priority, category: category)
        #expect(rules.nagEvery == minutes(nagMinutes))
        #expect(rules.atDue == atDue)
        #expect(rules.before == before)
        #expect(rules.nagLimit == 3)
        #expect(rules.allDayTime == time("09:00"))
    }

    @Test func alertsDefaultByPriorityUnlessASectionSetsThem() throws {
        let defaults = NudgeConfig()
        #expect(defaults.alerts(priority: .high, category: nil)
            == AlertRules(sound: .name("message-new-instant"), timeout: .never))
        #expect(defaults.alerts(priority: .medium, category: nil) == AlertRules(sound: .none, timeout: .server))
        #expect(defaults.alerts(priority: .low, category: nil) == AlertRules(sound: .none, timeout: .server))

        let config = try parse("""
            [reminders]
            timeout = 20s
            escalate_after = 3
            [priority.low]
            sound = bell
            repeat_sound = yes
            [category.meds]
            sound = ~/pills.oga
            timeout = default
            resident = yes
            escalate_after = none
            """)
        // [reminders] timeout applies to every priority; sound stays the priority's.
        #expect(config.alerts(priority: .high, category: nil)
            == AlertRules(sound: .name("message-new-instant"), timeout: .seconds(20), escalateAfter: 3))
        #expect(config.alerts(priority: .low, category: nil)
            == AlertRules(sound: .name("bell"), timeout: .seconds(20), escalateAfter: 3, repeatSound: true))
        // A category's `default` goes back to the priority's timeout.
        #expect(config.alerts(priority: .high, category: "Meds")
            == AlertRules(sound: .file("~/pills.oga"), timeout: .never, resident: true))
        #expect(config.alerts(priority: .low, category: "meds")
            == AlertRules(sound: .file("~/pills.oga"), timeout: .server, resident: true, repeatSound: true))
    }

    @Test func aMissingSoundFileIsAWarningNotAnError() throws {
        let folder = TemporaryDirectory()
        try Data("RIFF".utf8).write(to: URL(fileURLWithPath: folder.file("ding.wav")))
        let path = folder.file("nudge.conf")
        try """
            [reminders]
            sound = ~/ding.wav
            [priority.high]
            sound = ~/missing.oga
            [category.meds]
            sound = \(folder.file("gone.oga"))
            [category.work]
            sound = bell
            """.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try ConfigFile.load(path: path).byCategory["meds"]?.sound == .some(.file(folder.file("gone.oga"))))
        let warnings = ConfigFile.warnings(path: path, home: folder.path, searchPath: "")
        #expect(warnings.map(\.description) == [
            "\(path):4: sound: ~/missing.oga does not exist; the notification server will play nothing",
            "\(path):6: sound: \(folder.file("gone.oga")) does not exist; the notification server will play nothing",
        ])
    }

    @Test func aHookProgramThatCannotBeFoundIsAWarningNotAnError() throws {
        let folder = TemporaryDirectory()
        try Data("not a program".utf8).write(to: URL(fileURLWithPath: folder.file("notes.txt")))
        let path = folder.file("nudge.conf")
        try """
            [hooks]
            on_fire = nudge-no-such-hook-program --flag
            on_done = sh -c 'true'
            on_snooze = ~/bin/snoozed
            on_add = \(folder.file("notes.txt"))
            """.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try ConfigFile.load(path: path).hooks.commands.count == 4)
        #expect(ConfigFile.warnings(path: path, home: folder.path, searchPath: "/usr/bin:/bin").map(\.description) == [
            "\(path):2: on_fire: nudge-no-such-hook-program is not found on PATH; the hook will not start",
            "\(path):4: on_snooze: ~/bin/snoozed starts with ~, which only a shell expands; write the full path; the hook will not start",
            "\(path):5: on_add: \(folder.file("notes.txt")) is not an executable file; the hook will not start",
        ])
        try """
            [hooks]
            on_fire = ${HOOK} fire
            on_done = \(folder.path)
            on_snooze = /nudge/no/such/program
            on_add = none
            """.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(ConfigFile.warnings(path: path, home: folder.path, searchPath: "/usr/bin:/bin").map(\.description) == [
            "\(path):3: on_done: \(folder.path) is not an executable file; the hook will not start",
            "\(path):4: on_snooze: /nudge/no/such/program does not exist; the hook will not start",
        ])
    }

    @Test func nagOffInACategoryOverridesTheGlobalNag() throws {
        let config = try parse("""
            [reminders]
            nag_every = 30m
            nag_limit = 10
            [priority.high]
            nag_every = 10m
            [category.someday]
            nag_every = off
            nag_limit = none
            """)
        #expect(config.byCategory["someday"] == RuleOverrides(nagEvery: .some(nil), nagLimit: .some(nil)))
        #expect(config.rules(priority: .medium, category: nil).nagEvery == minutes(30))
        #expect(config.rules(priority: .medium, category: nil).nagLimit == 10)
        #expect(config.rules(priority: .medium, category: "Someday").nagEvery == nil)
        #expect(config.rules(priority: .high, category: "someday").nagEvery == nil)
        #expect(config.rules(priority: .high, category: "someday").nagLimit == nil)
        #expect(config.rules(priority: .high, category: nil).nagEvery == minutes(10))
    }

    // MARK: - Rendering

    @Test("render parses back to the same configuration", arguments: [
        NudgeConfig(),
        fullConfig,
        {
            var config = NudgeConfig()
            config.reminders.before = []
            config.reminders.nagEvery = nil
            config.reminders.nagLimit = nil
            config.byPriority[.medium] = RuleOverrides()
            config.byPriority[.high] = RuleOverrides(atDue: true, before: [TimeSpan(days: 9, seconds: 5400)],
                                                     allDayTime: time("00:00"), allDayDayBefore: true,
                                                     nagEvery: .some(minutes(1)), nagLimit: .some(1))
            config.byCategory["errands"] = RuleOverrides(before: [], nagEvery: .some(nil))
            config.byCategory["a b"] = RuleOverrides(allDayTime: time("23:59"))
            config.byTag = [TagRules("phone", overrides: RuleOverrides(sound: .some(.name("bell")), resident: true)),
                            TagRules("money", overrides: RuleOverrides(before: [TimeSpan(days: 1)])), TagRules("Café")]
            config.quietHours = QuietHours(start: time("13:00"), end: time("14:00"), allowHigh: true)
            config.snooze.defaultChoice = .when("next mon 8am")
            config.snooze.choices = [.when("eod")]
            config.catchUp = .all
            config.groupAbove = 0
            config.sync.vdir = "~/.local/share/vdirsyncer/todos/personal"
            config.sync.command = "vdirsyncer sync"
            config.sync.interval = TimeSpan(seconds: 30 * 60)
            config.hooks.commands[.fire] = try! HookCommand(parsing: #"notify-phone --title "${NUDGE_TITLE}" 100$$"#)
            config.hooks.commands[.add] = try! HookCommand(parsing: "logger -t nudge added")
            config.hooks.maxRunning = 2
            config.hooks.timeout = 2.5
            config.hooks.suppressWait = 0.5
            config.display = DisplaySettings(weekStart: 7, timeFormat: .twelveHour, dateFormat: .dayMonthYear)
            return config
        }(),
    ])
    func roundTrip(config: NudgeConfig) throws {
        let text = ConfigFile.render(config)
        #expect(try parse(text) == config, "\(text)")
        #expect(ConfigFile.render(try parse(text)) == text)
    }

    /// Found by the config fuzz target: `key=#x` read `#x` while the rendered `key = #x` is a
    /// comment, and a line just under inih's buffer grew past it by the rendered spaces.
    @Test("what reads, renders as lines that read the same", arguments: [
        "[hooks]\non_add=# Nudge\n", "[hooks]\non_add =;e%TODO_ID\n", "[hooks]\non_add:#x\n",
        "[hooks]\non_add=logger " + String(repeating: "@", count: 184) + "\n",
        "[tag.İstanbul]\nbefore = 1d\n", "[tag.ΌΣΟΣ]\n[tag.όσος]\n", "[tag.ǅemal]\n", "[tag.Cafe\u{301}]\n[tag.CAFÉ]\n",
        "[tag." + String(repeating: "İ", count: 64) + "]\n", "[tag." + String(repeating: "ǅ", count: 64) + "]\n",
    ])
    func readTextRendersAsTextThatReadsTheSame(text: String) throws {
        let config: NudgeConfig
        do { config = try parse(text) } catch { return }  // refusing is fine; reading otherwise is not
        #expect(try parse(ConfigFile.render(config)) == config)
    }

    @Test func aValueStartingWithACommentSignIsACommentWithOrWithoutSpaces() throws {
        for text in ["[sync]\nvdir=#/tmp/x\n", "[sync]\nvdir = #/tmp/x\n", "[sync]\nvdir=;x\n"] {
            #expect(try parse(text) == parse("[sync]\nvdir =\n"), "\(text)")
        }
        #expect(try parse("[sync]\nvdir=/tmp/#x\n").sync.vdir == "/tmp/#x")
    }

    @Test func theSpacesAroundTheSeparatorDoNotCountAgainstTheLineLimit() throws {
        let command = "logger " + String(repeating: "@", count: 184)  // with "on_add=", 198 bytes: the most
        let spaced = try parse("[hooks]\non_add    =    \(command)\n")
        #expect(spaced.hooks.commands[.add]?.text == command)
        #expect(throws: ConfigError.self) { try parse("[hooks]\non_add=\(command)@\n") }
    }

    @Test func holdBlockedIsAKeyOfRemindersAloneAndPlansDifferentlyWhenOff() throws {
        let off = try parse("[reminders]\nhold_blocked = no\n")
        #expect(off.holdBlocked == false)
        #expect(try parse("").holdBlocked == true)
        #expect(off.canonicalText != NudgeConfig().canonicalText)
        #expect(try parse(ConfigFile.render(off)) == off)
        #expect(throws: ConfigError.self) { try parse("[priority.high]\nhold_blocked = no\n") }
    }

    @Test func renderWritesEverySectionAndKey() {
        #expect(ConfigFile.render(NudgeConfig()) == """
            [reminders]
            at_due = yes
            before = 10m
            all_day_time = 09:00
            all_day_day_before = no
            nag_every = 1h
            nag_limit = 3
            sound = default
            timeout = default
            resident = no
            escalate_after = none
            repeat_sound = no
            hold_blocked = yes

            [digest]
            enabled = yes
            time = 08:00

            [quiet]
            hours = none
            allow_high = yes

            [snooze]
            default = 10m
            choices = 10m, 1h, tomorrow 09:00

            [catchup]
            policy = digest

            [notifications]
            group_above = 3

            [import]
            timeout = 15s
            max_size = 10M

            [list]
            quote = off

            [sync]
            vdir = off
            command = off
            interval = 15m

            [hooks]
            on_fire = none
            on_done = none
            on_snooze = none
            on_add = none
            max_running = 4
            timeout = 10s
            suppress_wait = 0

            [display]
            week_start = locale
            time_format = locale
            date_format = locale

            """)
        let overrides = ConfigFile.render(fullConfig)
        #expect(overrides.contains("\n[priority.low]\nat_due = no\nbefore = none\nnag_every = off\n\n[priority.high]\nnag_every = 15m\nnag_limit = none\nsound = none\ntimeout = server\n\n[category.work]\nall_day_day_before = no\nnag_limit = none\nsound = ~/sounds/work.oga\nescalate_after = none\n\n[digest]\n"))
        #expect(overrides.contains("\n[catchup]\npolicy = skip-older-than\nmax_age = 6h\n"))
        #expect(overrides.contains("\nhours = 22:00-07:00\nallow_high = no\n"))
    }

    // MARK: - Refusals

    @Test("exact messages", arguments: [
        ("[reminders]\nat_due = yes\nnag_every = 1h\n\n# early\n\nbefore = 10x\n",
         "nudge.conf:7: before: '10x' is not a duration: unknown unit 'x'; accepted: 10m, 2h, 1h30m, 3d, 1w; a comma-separated list of these, or none for no early reminders"),
        ("# Nudge\n[reminders]\nnag_evry = 1h\n",
         "nudge.conf:3: unknown key 'nag_evry' in [reminders] (did you mean nag_every?); known keys: at_due, before, all_day_time, all_day_day_before, nag_every, nag_limit, sound, timeout, resident, escalate_after, repeat_sound, hold_blocked"),
        ("[reminders]\n\n\n\n\n\n\n\n\n\n\n[quite]\nhours = none\n",
         "nudge.conf:12: unknown section [quite]; known sections: reminders, priority.low|medium|high, category.NAME, tag.NAME, digest, quiet, snooze, catchup, notifications, import, list, sync, hooks, display"),
        ("[reminders]\nbefore = 10m\nBefore = 1h\n",
         "nudge.conf:3: duplicate key 'before' in [reminders]; it is already set on line 2"),
        ("nag_every = 1h\n",
         "nudge.conf:1: 'nag_every' is outside any section; put it under a section header such as [reminders]"),
        ("[hooks]\non_fire = notify \"${NUDGE_TITLE}\n",
         "nudge.conf:2: on_fire: a quote (\") is not closed in hook command: notify \"${NUDGE_TITLE}"),
        ("[hooks]\non_add = echo id=$NUDGE_TODO_ID\n",
         "nudge.conf:2: on_add: '$' in a hook command starts ${NAME}, $NAME as a word of its own, or $$ for a dollar sign: echo id=$NUDGE_TODO_ID"),
        ("[hooks]\n\nmax_running = 0\n",
         "nudge.conf:3: max_running: '0' is not a number of hooks from 1 to 64"),
        ("[hooks]\non_snoze = true\n",
         "nudge.conf:2: unknown key 'on_snoze' in [hooks] (did you mean on_snooze?); known keys: on_fire, on_done, on_snooze, on_add, max_running, timeout, suppress_wait"),
    ])
    func exactMessages(text: String, description: String) {
        #expect(throws: ConfigError.self) { try parse(text) }
        do {
            _ = try parse(text)
        } catch {
            #expect(error.description == description)
        }
    }

    @Test("broken files: the line, the key and what is accepted", arguments: [
        // Sections
        ("[reminders]\nat_due = yes\n[remiders]\n", 3, ["unknown section [remiders]", "known sections: reminders, priority.low|medium|high, category.NAME"]),
        ("[reminders\nat_due = yes\n", 1, ["'[reminders' has no closing ']'"]),
        ("[]\n", 1, ["needs a name", "known sections: reminders"]),
        ("[priority.urgent]\n", 1, ["unknown priority 'urgent'", "priority.low, priority.medium, priority.high"]),
        ("[priority.h]\n", 1, ["unknown priority 'h'"]),
        ("[category.]\n", 1, ["needs a category name", "[category.work]"]),
        ("[tag.]\n", 1, ["[tag.] needs a tag, e.g. [tag.money]"]),
        ("[tag.+money]\n", 1, ["[tag.+money]: '+money' is not a tag: it holds '+'"]),
        ("[reminders]\n[tag.two words]\n", 2, ["[tag.two words]: 'two words' is not a tag: it holds a space"]),
        ("[tag.-x]\n", 1, ["'-x' is not a tag: a tag starts with a letter, a digit or _"]),
        ("[reminders] at_due = yes\n", 1, ["unexpected 'at_due = yes' after [reminders]"]),
        // Lines
        ("[reminders]\nat_due yes\n", 2, ["'at_due yes' is not a setting", "expected 'key = value'"]),
        ("[reminders]\nall_day_time 09:00\n", 2, ["'all_day_time 09:00' is not a setting", "expected 'key = value'"]),
        ("[reminders]\n= yes\n", 2, ["no key before '='"]),
        ("[reminders]\nat_due = yes\n  continued\n", 3, ["'continued' is not a setting"]),
        ("[reminders]\nbefore = " + String(repeating: "1m,", count: 70) + "1m\n", 2, ["too long", "at most 198 bytes"]),
        ("[reminders]\nat_due = y\u{0}es\n", 2, ["NUL"]),
        // Keys
        ("[reminders]\nnag-every = 1h\n", 2, ["unknown key 'nag-every' in [reminders] (did you mean nag_every?)", "known keys: at_due, before"]),
        ("[digest]\nenabled = yes\ntime = 08:00\nwhen = 09:00\n", 4, ["unknown key 'when' in [digest]", "known keys: enabled, time"]),
        ("[category.work]\nenabled = yes\n", 2, ["unknown key 'enabled' in [category.work]", "known keys: at_due, before, all_day_time"]),
        ("[tag.Money]\nbefor = 1d\n", 2, ["unknown key 'befor' in [tag.money] (did you mean before?)", "known keys: at_due, before, all_day_time"]),
        ("[tag.money]\nbefore = 1d\n[tag.MONEY]\nbefore = 2d\n", 4, ["duplicate key 'before' in [tag.money]", "already set on line 2"]),
        ("[quiet]\nhours = none\n[snooze]\n[quiet]\nhours = 22:00-06:00\n", 5, ["duplicate key 'hours' in [quiet]", "already set on line 2"]),
        ("[priority.high]\nnag_limit = 1\nnag_limit = 2\n", 3, ["duplicate key 'nag_limit' in [priority.high]"]),
        // Values
        ("[reminders]\nat_due = maybe\n", 2, ["at_due: 'maybe' is not yes or no", "accepted: yes, no, true, false, on, off, 1, 0"]),
        ("[reminders]\nat_due =\n", 2, ["at_due: an empty value is not yes or no", "accepted: yes, no"]),
        ("[reminders]\nbefore = 10m,,1h\n", 2, ["before: '10m,,1h' has an empty item", "accepted: 10m, 2h, 1h30m, 3d, 1w"]),
        ("[reminders]\nbefore = 10m, 1h, 60m\n", 2, ["before: 1h is listed twice"]),
        ("[reminders]\nbefore = 1.5h\n", 2, ["before: '1.5h' is not a duration", "whole numbers", "accepted: 10m, 2h"]),
        ("[reminders]\nall_day_time = 9am\n", 2, ["all_day_time: '9am' is not a time of day", "accepted: HH:MM (24-hour), e.g. 09:00"]),
        ("[reminders]\nall_day_time = 24:00\n", 2, ["all_day_time: '24:00' is not a time of day"]),
        ("[reminders]\nall_day_day_before = sometimes\n", 2, ["all_day_day_before: 'sometimes' is not yes or no"]),
        ("[reminders]\nnag_every = never\n", 2, ["nag_every: 'never' is not a duration", "accepted: 10m, 2h, 1h30m, 3d, 1w, or off for no nagging"]),
        ("[reminders]\nnag_every = 30s\n", 2, ["nag_every: '30s' is not a duration", "smallest unit is a minute"]),
        ("[reminders]\nnag_limit = -1\n", 2, ["nag_limit: '-1' is not a whole number from 0 to 1000", "or 0 or none for no limit"]),
        ("[reminders]\nnag_limit = 1001\n", 2, ["nag_limit: '1001' is not a whole number"]),
        ("[reminders]\nnag_limit = three\n", 2, ["nag_limit: 'three'"]),
        ("[category.work]\nnag_every = 1 fortnight\n", 2, ["nag_every: '1 fortnight' is not a duration: unknown unit 'fortnight'"]),
        ("[tag.money]\nbefore = 1d\nat_due = maybe\n", 3, ["at_due: 'maybe' is not yes or no"]),
        ("[tag.money]\nnag_limit = many\n", 2, ["nag_limit: 'many' is not a whole number"]),
        ("[digest]\ntime = noon\n", 2, ["time: 'noon' is not a time of day", "HH:MM"]),
        ("[digest]\nenabled = enabled\n", 2, ["enabled: 'enabled' is not yes or no"]),
        ("[quiet]\nhours = 22:00\n", 2, ["hours: '22:00' is not a range of times", "accepted: HH:MM-HH:MM such as 22:00-07:00 (may span midnight), or none"]),
        ("[quiet]\nhours = 22-7\n", 2, ["hours: '22-7' is not a range of times"]),
        ("[quiet]\nhours = 22:00-22:00\n", 2, ["starts and ends at the same time"]),
        ("[quiet]\nallow_high = high\n", 2, ["allow_high: 'high' is not yes or no"]),
        ("[snooze]\ndefault = later\n", 2, ["default: 'later' is neither a duration nor a time to snooze until", "accepted: a duration (10m, 2h, 1h30m, 3d, 1w) or a time to snooze until (tomorrow 09:00"]),
        ("[snooze]\ndefault =\n", 2, ["default: an empty value is neither a duration nor a time"]),
        ("[snooze]\nchoices =\n", 2, ["choices: no choices are given", "accepted: 1 to 5 comma-separated choices"]),
        ("[snooze]\nchoices = 10m, 1h, 2h, 3h, 4h, 5h\n", 2, ["choices: 6 choices are given", "at most 5"]),
        ("[snooze]\nchoices = 10m, soonish\n", 2, ["choices: 'soonish' is neither a duration nor a time"]),
        ("[snooze]\nchoices = 10m, 10 min\n", 2, ["choices: 10m is listed twice"]),
        ("[snooze]\nchoices = 10m,\n", 2, ["choices: '10m,' has an empty item"]),
        ("[snooze]\nchoices = 10m, yesterday\n", 2, ["choices: 'yesterday' is always in the past when a snooze is chosen",
                                                     "accepted: a duration (10m, 2h, 1h30m, 3d, 1w) or a time to snooze until"]),
        ("[snooze]\ndefault = Yesterday 9am\n", 2, ["default: 'Yesterday 9am' is always in the past when a snooze is chosen"]),
        ("[snooze]\ndefault = yesterday midnight\n", 2, ["default: 'yesterday midnight' is always in the past"]),
        ("[catchup]\npolicy = some\n", 2, ["policy: 'some' is not a catch-up policy", "accepted: all, digest, skip-older-than"]),
        ("[catchup]\npolicy = skip-older-than\n", 2, ["policy: skip-older-than needs max_age in [catchup]", "max_age = 6h"]),
        ("[catchup]\n\npolicy = skip-older-than\n[notifications]\ngroup_above = 2\n", 3, ["policy: skip-older-than needs max_age"]),
        ("[catchup]\nmax_age = old\n", 2, ["max_age: 'old' is not a duration", "accepted: 10m, 2h"]),
        ("[notifications]\ngroup_above = many\n", 2, ["group_above: 'many' is not a whole number from 0 to 1000"]),
        ("[import]\ntimeout = forever\n", 2, ["timeout: 'forever' is not a time limit; accepted: a time from 0.1 s to 1 h"]),
        ("[import]\ntimeout = 0s\n", 2, ["timeout: '0s' is not a time limit"]),
        ("[import]\ntimeout = 2h\n", 2, ["timeout: '2h' is not a time limit"]),
        ("[import]\ntimeout = 1m1m\n", 2, ["timeout: '1m1m' is not a time limit"]),
        ("[import]\ntimeout = 1m30\n", 2, ["timeout: '1m30' is not a time limit"]),
        ("[hooks]\ntimeout = 1x\n", 2, ["timeout: '1x' is not a time limit"]),
        ("[import]\nmax_size = 10T\n", 2, ["max_size: '10T' is not a size; accepted: a size from 1K to 1G"]),
        ("[list]\nquote = quotes.txt\n", 2, ["quote: 'quotes.txt' is neither a URL nor an absolute path"]),
        ("[list]\nquotes = off\n", 2, ["unknown key 'quotes' in [list] (did you mean quote?)"]),
        ("[reminders]\nsound = my bell\n", 2, ["sound: 'my bell' is neither a sound name nor an absolute path", "accepted: a sound theme name such as message-new-instant"]),
        ("[reminders]\nsound = ding.oga\n", 2, ["sound: 'ding.oga' is neither a sound name nor an absolute path"]),
        ("[category.meds]\nsound = sounds/pill.oga\n", 2, ["sound: 'sounds/pill.oga' is neither a sound name nor an absolute path", "(an absolute path or ~/...)"]),
        ("[reminders]\ntimeout = forever\n", 2, ["timeout: 'forever' is not a timeout; accepted: never, server, default"]),
        ("[priority.high]\ntimeout = 0\n", 2, ["timeout: '0' is not a timeout", "never"]),
        ("[reminders]\nresident = always\n", 2, ["resident: 'always' is not yes or no"]),
        ("[reminders]\nescalate_after = soon\n", 2, ["escalate_after: 'soon' is not a whole number", "or none for no escalation"]),
        ("[reminders]\nrepeat_sound = twice\n", 2, ["repeat_sound: 'twice' is not yes or no"]),
        ("[priority.low]\nsound = bell\nsound = none\n", 3, ["duplicate key 'sound' in [priority.low]"]),
        ("[digest]\nsound = bell\n", 2, ["unknown key 'sound' in [digest]"]),
        ("[display]\nweek_start = tuesday\n", 2, ["week_start: 'tuesday' is not a first day of the week", "accepted: locale, monday, sunday, saturday"]),
        ("[display]\ntime_format = 24\n", 2, ["time_format: '24' is not one of the choices; accepted: locale, 24h, 12h"]),
        ("[display]\ndate_format = d/m/y\n", 2, ["date_format: 'd/m/y' is not one of the choices; accepted: locale, mdy, dmy, ymd"]),
        ("[display]\nweek_start = monday\nweek_start = sunday\n", 3, ["duplicate key 'week_start' in [display]; it is already set on line 2"]),
        ("[display]\nweekstart = monday\n", 2, ["unknown key 'weekstart' in [display] (did you mean week_start?)"]),
        // The first problem wins, whoever finds it.
        ("[reminders]\nat_due = maybe\ngarbage\n[nope]\n", 2, ["at_due: 'maybe'"]),
        ("[reminders]\ngarbage\nat_due = maybe\n", 2, ["'garbage' is not a setting"]),
        ("[nope]\nat_due = maybe\n", 1, ["unknown section [nope]"]),
    ] as [(String, Int, [String])])
    func refusals(text: String, line: Int, fragments: [String]) {
        do {
            let config = try parse(text)
            Issue.record("accepted: \(config)")
        } catch {
            #expect(error.path == "nudge.conf")
            #expect(error.line == line, "\(error)")
            for fragment in fragments {
                #expect(error.message.contains(fragment), "\(error)")
            }
            #expect(!error.description.contains("\n"))
            #expect(error.description.hasPrefix("nudge.conf:\(line): "))
        }
    }

    @Test("snooze choices that lie ahead at some time are read", arguments: [
        "tonight", "today", "today 23:00", "this mon", "eod", "17:30", "dec 24", "next fri 8am", "in 2h",
        // Fixed dates are checked against a moment only (see below): a date that passes does
        // not break a running Nudge.
        "2026-12-24", "1900-01-01", "2026-12-24 09:00",
    ])
    func snoozeChoicesThatCanLieAhead(text: String) throws {
        #expect(try parse("[snooze]\ndefault = \(text)\nchoices = 10m, \(text)\n").snooze.defaultChoice == .when(text))
    }

    /// At Sunday 2026-11-29 10:53 in Berlin, as `nudge config check` reads the file.
    @Test("a snooze until a fixed date is refused once it has passed", arguments: [
        ("[snooze]\ndefault = 1900-01-01\n", 2, "default: '1900-01-01' has already passed"),
        ("[snooze]\nchoices = 10m, 2026-11-29 10:53\n", 2, "choices: '2026-11-29 10:53' has already passed"),
        ("[snooze]\nchoices = 10m, 2026-11-28\n", 2, "choices: '2026-11-28' has already passed"),
        // An all-day date is snoozed until all_day_time, wherever the key is.
        ("[snooze]\nchoices = 2026-11-29\n[reminders]\nall_day_time = 09:00\n", 2, "choices: '2026-11-29' has already passed"),
        ("[snooze]\nchoices = 2026-11-29\n[reminders]\nall_day_time = 12:00\n", nil, nil),
        ("[snooze]\nchoices = 10m, 2026-11-29 10:54\n", nil, nil),
        ("[snooze]\ndefault = dec 24 2026\n", nil, nil),
    ] as [(String, Int?, String?)])
    func pastFixedSnoozes(text: String, line: Int?, fragment: String?) {
        let now = Calendar.nudge(zone: berlin).date(from: DateComponents(year: 2026, month: 11, day: 29, hour: 10, minute: 53))!
        do {
            _ = try ConfigFile.parse(text: text, path: "nudge.conf", checking: (now, berlin))
            #expect(line == nil, "accepted")
        } catch {
            #expect(error.line == line)
            #expect(fragment.map(error.message.contains) == true, "\(error)")
            #expect(error.message.hasSuffix("accepted: \(ConfigValues.snoozeForms)"))
        }
        // Without a moment to check against, the file reads.
        #expect(throws: Never.self) { try ConfigFile.parse(text: text, path: "nudge.conf") }
    }

    // MARK: - Files

    @Test func aDirectoryIsRefused() throws {
        let folder = TemporaryDirectory()
        #expect(throws: ConfigError(path: folder.path, line: nil, message: "cannot read: it is a directory, not a config file")) {
            try ConfigFile.load(path: folder.path)
        }
    }

    @Test func otherUnreadableFilesAreRefused() throws {
        let folder = TemporaryDirectory()
        let dangling = folder.file("dangling.conf")
        symlink(folder.file("nowhere"), dangling)
        #expect(throws: ConfigError(path: dangling, line: nil, message: "cannot read: it is a symbolic link to a missing file")) {
            try ConfigFile.load(path: dangling)
        }

        let binary = folder.file("binary.conf")
        try Data([0x5B, 0xFF, 0xFE, 0x5D]).write(to: URL(fileURLWithPath: binary))
        #expect(throws: ConfigError(path: binary, line: nil, message: "cannot read: the file is not UTF-8 text")) {
            try ConfigFile.load(path: binary)
        }

        let fifo = folder.file("fifo.conf")
        mkfifo(fifo, 0o600)
        #expect(throws: ConfigError(path: fifo, line: nil, message: "cannot read: it is not a regular file")) {
            try ConfigFile.load(path: fifo)
        }

        let inFile = binary + "/nudge.conf"
        #expect(throws: ConfigError(path: inFile, line: nil, message: "cannot read: Not a directory")) {
            try ConfigFile.load(path: inFile)
        }
    }

    @Test func errorsInAFileNameItsPath() throws {
        let folder = TemporaryDirectory()
        let path = folder.file("nudge.conf")
        try "[reminders]\nnag_every = soon\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: ConfigError.self) { try ConfigFile.load(path: path) }
        do {
            _ = try ConfigFile.load(path: path)
        } catch {
            #expect(error.path == path)
            #expect(error.line == 2)
            #expect(error.description.hasPrefix("\(path):2: nag_every: 'soon' is not a duration"))
        }
    }

    @Test func descriptions() {
        #expect(ConfigError(path: "a.conf", line: 3, message: "bad").description == "a.conf:3: bad")
        #expect(ConfigError(path: "a.conf", line: nil, message: "bad").description == "a.conf: bad")
    }

    // MARK: - Where the file is

    @Test("default path", arguments: [
        (["NUDGE_CONFIG": "/etc/my.conf", "XDG_CONFIG_HOME": "/x", "HOME": "/home/a"], "/etc/my.conf"),
        (["NUDGE_CONFIG": "", "XDG_CONFIG_HOME": "/x", "HOME": "/home/a"], "/x/nudge/nudge.conf"),
        (["XDG_CONFIG_HOME": "/x", "HOME": "/home/a"], "/x/nudge/nudge.conf"),
        (["XDG_CONFIG_HOME": "relative", "HOME": "/home/a"], "/home/a/.config/nudge/nudge.conf"),
        (["XDG_CONFIG_HOME": "", "HOME": "/home/a"], "/home/a/.config/nudge/nudge.conf"),
        (["HOME": "/home/a"], "/home/a/.config/nudge/nudge.conf"),
    ])
    func defaultPath(environment: [String: String], expected: String) {
        #expect(ConfigFile.defaultPath(environment: environment) == expected)
    }
}
