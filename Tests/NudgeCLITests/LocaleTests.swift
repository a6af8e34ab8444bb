import Foundation
import Testing
@testable import NudgeTestSupport

/// The locales `make deps` generates, and what the tests expect of them: en_US writes dates
/// month first with a 12-hour clock, de_DE day first with a 24-hour clock; C.UTF-8 keeps
/// Nudge's own style (24-hour, month names first, weeks from Monday).
let testedLocales = ["en_US.UTF-8", "de_DE.UTF-8", "C.UTF-8"]

/// Runs a tool from /usr/bin under a locale, in Nudge's test zone: the oracles.
func underLocale(_ locale: String, _ tool: String, _ arguments: String...) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/" + tool)
    process.arguments = arguments
    process.environment = ["LC_ALL": locale, "TZ": "Europe/Berlin", "PATH": "/usr/bin:/bin"]
    let run = try Run.launch(process)
    try #require(run.status == 0 && run.stderr.isEmpty, "\(tool) \(arguments) under \(locale): \(run.stderr)")
    return run.stdout.trimmingCharacters(in: .newlines)
}

/// The ISO weekday (1 = Monday) that weeks start on in a locale, by `locale -k` and `date`.
func firstWeekdayOracle(_ locale: String) throws -> Int {
    let items = try underLocale(locale, "locale", "-k", "week-1stday", "first_weekday").split(separator: "\n")
    let values = items.map { $0.split(separator: "=")[1] }
    let origin = String(values[0]), first = try #require(Int(values[1]))
    return try #require(Int(try underLocale(locale, "date", "-d", "\(origin) + \(first - 1) days", "+%u")))
}

struct LocaleTests {
    let nudge = Nudge()

    @discardableResult
    func run(_ locale: String, _ arguments: String...) throws -> Run {
        try nudge.run(arguments, environment: ["LANG": locale])
    }

    @Test("a date typed as the locale writes it (date +%x) is read as that date", arguments: ["en_US.UTF-8", "de_DE.UTF-8"])
    func readsTheLocalesNumericDates(locale: String) throws {
        let written = try underLocale(locale, "date", "-d", "2026-12-24", "+%x")
        // "12/24/2026" gives "12/24", "24.12.2026" gives "24.12." as Germans write it.
        var withoutYear = String(written.dropLast("2026".count))
        if withoutYear.hasSuffix("/") { withoutYear.removeLast() }
        let separator = try #require(written.first { !$0.isNumber })
        var fields = written.split(separator: separator).map(String.init)
        fields.swapAt(0, 1)
        let swapped = fields.joined(separator: String(separator))
        for text in [written, withoutYear] {
            let added = try run(locale, "add", "Party", "--due", text)
            #expect(added.status == 0, "\(text): \(added.stderr)")
        }
        for todo in try run(locale, "list", "--json").array() {
            #expect(todo["due"] as? String == "2026-12-24")
        }
        // Day and month the other way round: refused in one line, nothing stored.
        let refused = try run(locale, "add", "Party", "--due", swapped)
        #expect(refused.status == 2)
        #expect(refused.stderr.hasPrefix("nudge: '\(swapped)' is not a date: numeric dates are "))
        #expect(refused.stderr.filter { $0 == "\n" }.count == 1)
        #expect(try run(locale, "list", "--json").array().count == 2)
    }

    @Test func anAmbiguousDateInTheCLocaleIsRefusedWithBothReadings() throws {
        let refused = try run("C.UTF-8", "add", "Call", "--due", "3/4")
        #expect(refused.status == 2)
        #expect(refused.stderr == "nudge: '3/4' is ambiguous: Thursday March 4 2027 (month/day) or Saturday April 3 2027 (day/month); write 2027-03-04 or 2027-04-03, or set [display] date_format\n")
        #expect(try run("C.UTF-8", "list", "--json").array().isEmpty)
        // One that reads only one way is taken.
        #expect(try run("C.UTF-8", "add", "Party", "--due", "24/12").stdout == "Added 1: Party (due Dec 24)\n")
    }

    @Test("times follow the locale's clock as date +%X shows it", arguments: testedLocales)
    func clock(locale: String) throws {
        try run(locale, "add", "Call", "--due", "tomorrow at 9")
        try run(locale, "add", "Meet", "--due", "fri 14:00")
        // A 12-hour locale writes its PM in %X. C.UTF-8 has a PM but writes %X on a 24-hour
        // clock, and so does Nudge there.
        let pm = try underLocale(locale, "date", "-d", "2026-12-04 14:00", "+%p")
        let twelveHour = try !pm.isEmpty && underLocale(locale, "date", "-d", "2026-12-04 14:00", "+%X").contains(pm)
        func expected(_ time: String) throws -> String {
            try underLocale(locale, "date", "-d", "2026-12-04 " + time, twelveHour ? "+%-I:%M %p" : "+%H:%M")
        }
        let list = try run(locale, "list").stdout
        #expect(list.contains("Tomorrow " + (try expected("09:00")) + " "), "\(list)")
        #expect(list.contains("Fri " + (try expected("14:00")) + " "), "\(list)")
        // JSON stays ISO 8601 whatever the locale.
        #expect(try run(locale, "show", "1", "--json").object()["due"] as? String == "2026-11-30T09:00:00+01:00")
    }

    @Test("show writes day and month in the locale's order", arguments: [
        ("en_US.UTF-8", "  Due       Dec 24 (Thursday, December 24, 2026)", "  Created   November 29, 2026 at 10:53 AM"),
        ("de_DE.UTF-8", "  Due       24 Dec (Thursday, 24 December 2026)", "  Created   29 November 2026 at 10:53"),
        ("C.UTF-8", "  Due       Dec 24 (Thursday, December 24, 2026)", "  Created   November 29, 2026 at 10:53"),
    ])
    func show(locale: String, due: String, created: String) throws {
        try run(locale, "add", "Party", "--due", "2026-12-24")
        let lines = try run(locale, "show", "1").stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains(due), "\(lines)")
        #expect(lines.contains(created), "\(lines)")
        // The oracle agrees on the order: the day comes first exactly where %x writes it first.
        let dayFirst = try underLocale(locale, "date", "-d", "2026-12-24", "+%x").hasPrefix("24")
        #expect(due.contains("24 Dec") == dayFirst)
    }

    @Test("upcoming and explain write their dates in the locale's order", arguments: [
        ("en_US.UTF-8", "Thu Dec  3 8:00 AM"), ("de_DE.UTF-8", "Thu  3 Dec 08:00"), ("C.UTF-8", "Thu Dec  3 08:00"),
    ])
    func upcomingAndExplain(locale: String, when: String) throws {
        try run(locale, "add", "Gym", "--due", "2026-12-03 09:00", "--repeat", "weekly", "--no-default-reminders", "--remind", "1h")
        #expect(try run(locale, "upcoming", "--within", "5d").stdout.contains("\n" + when + "  "))
        #expect(try run(locale, "explain", "1").stdout.contains("\n" + when + "  "))
        // [display] date_format = ymd writes them year first, whatever the locale.
        let config = nudge.folder.file("ymd.conf")
        try "[display]\ndate_format = ymd\n".write(toFile: config, atomically: true, encoding: .utf8)
        #expect(try run(locale, "--config", config, "upcoming", "--within", "5d").stdout.contains("\nThu 2026-12-03 "))
    }

    @Test("next week and eow follow the locale's first weekday (locale -k)", arguments: ["en_US.UTF-8", "de_DE.UTF-8"])
    func weekStart(locale: String) throws {
        let first = try firstWeekdayOracle(locale)
        try run(locale, "add", "Plan", "--due", "next week")
        try run(locale, "add", "Review", "--due", "eow")
        let todos = try run(locale, "list", "--json").array()
        let next = try #require(todos.first { $0["title"] as? String == "Plan" }?["due"] as? String)
        #expect(Int(try underLocale(locale, "date", "-d", next, "+%u")) == first)
        let days = try #require(Int(try underLocale(locale, "date", "-d", next, "+%s"))) / 86_400
            - (try #require(Int(try underLocale(locale, "date", "-d", "2026-11-29", "+%s"))) / 86_400)
        #expect((1...7).contains(days), "next week is \(next)")
        let lastDay = try underLocale(locale, "date", "-d", "\(next) - 1 day", "+%F")
        #expect(todos.first { $0["title"] as? String == "Review" }?["due"] as? String == lastDay + "T23:59:00+01:00")
    }

    @Test func theCLocaleKeepsWeeksFromMonday() throws {
        try run("C.UTF-8", "add", "Plan", "--due", "next week")
        try run("C.UTF-8", "add", "Review", "--due", "eow")
        let dues = try run("C.UTF-8", "list", "--json").array().compactMap { $0["due"] as? String }
        #expect(Set(dues) == ["2026-11-30", "2026-11-29T23:59:00+01:00"])
    }

    @Test func displayKeysOverrideTheLocale() throws {
        let config = nudge.folder.file("nudge.conf")
        try "[display]\nweek_start = monday\ntime_format = 24h\ndate_format = dmy\n".write(toFile: config, atomically: true, encoding: .utf8)
        for arguments in [["add", "Call", "--due", "tomorrow 9pm"], ["add", "Party", "--due", "24/12"], ["add", "Plan", "--due", "next week"]] {
            #expect(try nudge.run(["--config", config] + arguments, environment: ["LANG": "en_US.UTF-8"]).status == 0)
        }
        let list = try nudge.run(["--config", config, "list"], environment: ["LANG": "en_US.UTF-8"]).stdout
        #expect(list.contains("Tomorrow 21:00 "), "\(list)")
        #expect(list.contains("24 Dec "), "\(list)")
        let dues = try nudge.run(["--config", config, "list", "--json"], environment: ["LANG": "en_US.UTF-8"]).array()
            .compactMap { $0["due"] as? String }
        #expect(dues.contains("2026-11-30"))
        let shown = try nudge.run(["--config", config, "config", "show"], environment: ["LANG": "en_US.UTF-8"]).stdout
        #expect(shown.hasSuffix("[display]\nweek_start = monday\ntime_format = 24h\ndate_format = dmy\n"
                                + "# In effect, with the locale en_US.UTF-8 (LANG): weeks from monday, 24h clock, dmy dates\n"))
        let defaults = try nudge.run(["config", "show"], environment: ["LANG": "en_US.UTF-8", "LC_TIME": "de_DE.UTF-8"]).stdout
        #expect(defaults.hasSuffix("[display]\nweek_start = locale\ntime_format = locale\ndate_format = locale\n"
                                   + "# In effect, with the locale de_DE.UTF-8 (LC_TIME): weeks from monday, 24h clock, dmy dates\n"))
        let c = try nudge.run(["config", "show"], environment: [:]).stdout
        #expect(c.hasSuffix("# In effect, with no locale set (C): weeks from monday, 24h clock, month names first and numeric dates refused when they read two ways\n"))
    }

    @Test func aBadDisplayValueNamesTheFileAndLine() throws {
        let config = nudge.folder.file("nudge.conf")
        try "[display]\n\ntime_format = 25h\n".write(toFile: config, atomically: true, encoding: .utf8)
        let check = try nudge("--config", config, "config", "check")
        #expect(check.status != 0)
        #expect(check.stderr.contains("nudge.conf:3: time_format: '25h' is not one of the choices; accepted: locale, 24h, 12h"), "\(check.stderr)")
    }
}
