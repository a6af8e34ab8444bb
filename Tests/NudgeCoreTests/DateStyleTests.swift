import Foundation
import Testing
@testable import NudgeCore
@testable import NudgeTestSupport

/// What `locale -k LC_TIME` prints for a locale, keyed by item name ("d_fmt", "first_weekday").
func localeItems(_ name: String) throws -> [String: String] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/locale")
    process.arguments = ["-k", "LC_TIME"]
    process.environment = ["LC_ALL": name, "PATH": "/usr/bin:/bin"]
    let run = try Run.launch(process)
    try #require(run.status == 0, "locale -k failed: \(run.stderr)")
    var items: [String: String] = [:]
    for line in run.stdout.split(separator: "\n") {
        guard let equals = line.firstIndex(of: "=") else { continue }
        items[String(line[..<equals])] = String(line[line.index(after: equals)...]).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
    }
    return items
}

struct DateStyleTests {
    @Test("installed locales read as `locale -k LC_TIME` describes them", arguments: ["en_US.UTF-8", "de_DE.UTF-8"])
    func readsTheLocale(name: String) throws {
        let style = try #require(DateStyle(localeNamed: name), "\(name) is not installed: run make deps")
        let items = try localeItems(name)
        // The oracle's own reading: a clock with %I (directly or through %r) is a 12-hour one;
        // the weekday counted first_weekday - 1 days from week-1stday is the first.
        let ampm = try #require(items["t_fmt_ampm"])
        let timeFormat = try #require(items["t_fmt"]).replacingOccurrences(of: "%r", with: ampm)
        #expect(style.clock == (timeFormat.contains("%I") ? .twelveHour : .twentyFourHour))
        let originText = try #require(items["week-1stday"])
        let origin = try #require(Int(originText).flatMap { LocalDate(year: $0 / 10000, month: $0 / 100 % 100, day: $0 % 100) })
        let firstWeekday = try #require(items["first_weekday"].flatMap { Int($0) })
        #expect(style.weekStart == origin.adding(days: firstWeekday - 1).isoWeekday)
        let dateFormat = try #require(items["d_fmt"])
        let day = try #require(dateFormat.range(of: "%d"))
        let month = try #require(dateFormat.range(of: "%m"))
        #expect(style.dateOrder == (day.lowerBound < month.lowerBound ? .dayMonthYear : .monthDayYear))
    }

    @Test("the locales the tests rely on say what people there expect")
    func knownLocales() {
        #expect(DateStyle(localeNamed: "en_US.UTF-8") == DateStyle(clock: .twelveHour, dateOrder: .monthDayYear, weekStart: 7))
        #expect(DateStyle(localeNamed: "de_DE.UTF-8") == DateStyle(clock: .twentyFourHour, dateOrder: .dayMonthYear, weekStart: 1))
    }

    @Test("C, POSIX and locales that are not installed keep the standard style",
          arguments: ["C", "POSIX", "C.UTF-8", "C.utf8", "xx_YY.UTF-8", "de_DE.NOSUCHCODESET"])
    func standardWithoutALocale(name: String) {
        #expect(DateStyle(localeNamed: name) == nil)
        #expect(DateStyle(environment: ["LANG": name]) == .standard)
    }

    @Test("LC_ALL beats LC_TIME beats LANG; empty ones do not count")
    func environmentOrder() {
        let us = DateStyle(localeNamed: "en_US.UTF-8")
        let de = DateStyle(localeNamed: "de_DE.UTF-8")
        #expect(DateStyle(environment: [:]) == .standard)
        #expect(DateStyle(environment: ["LANG": "en_US.UTF-8"]) == us)
        #expect(DateStyle(environment: ["LANG": "en_US.UTF-8", "LC_TIME": "de_DE.UTF-8"]) == de)
        #expect(DateStyle(environment: ["LANG": "de_DE.UTF-8", "LC_TIME": "de_DE.UTF-8", "LC_ALL": "en_US.UTF-8"]) == us)
        #expect(DateStyle(environment: ["LANG": "de_DE.UTF-8", "LC_TIME": "", "LC_ALL": ""]) == de)
        #expect(DateStyle(environment: ["LANG": "de_DE.UTF-8", "LC_ALL": "C"]) == .standard)
    }

    @Test("the order of day and month in a strftime date format", arguments: [
        ("%m/%d/%Y", DateOrder.monthDayYear), ("%d.%m.%Y", .dayMonthYear), ("%d/%m/%y", .dayMonthYear),
        ("%Y-%m-%d", .yearMonthDay), ("%F", .yearMonthDay), ("%D", .monthDayYear), ("%e %b %Y", .dayMonthYear),
        ("%Y年%m月%d日", .yearMonthDay), ("%b %e, %Y", .monthDayYear),
    ])
    func dateFormatOrder(format: String, order: DateOrder) {
        #expect(DateStyle.order(ofDateFormat: format) == order)
    }

    @Test("[display] keys replace only what they set")
    func overrides() {
        let us = DateStyle(clock: .twelveHour, dateOrder: .monthDayYear, weekStart: 7)
        #expect(us.overridden(by: DisplaySettings()) == us)
        #expect(us.overridden(by: DisplaySettings(weekStart: 1)) == DateStyle(clock: .twelveHour, dateOrder: .monthDayYear, weekStart: 1))
        #expect(DateStyle.standard.overridden(by: DisplaySettings(timeFormat: .twelveHour, dateFormat: .dayMonthYear))
                == DateStyle(clock: .twelveHour, dateOrder: .dayMonthYear, weekStart: 1))
    }

    @Test("the week holding a day starts on the style's first weekday")
    func weekFirstDay() throws {
        let sunday = try #require(LocalDate(iso: "2026-11-29"))
        #expect(DateStyle(clock: .twentyFourHour, dateOrder: nil, weekStart: 1).weekFirstDay(of: sunday) == LocalDate(iso: "2026-11-23"))
        #expect(DateStyle(clock: .twentyFourHour, dateOrder: nil, weekStart: 7).weekFirstDay(of: sunday) == sunday)
        #expect(DateStyle(clock: .twentyFourHour, dateOrder: nil, weekStart: 6).weekFirstDay(of: sunday) == LocalDate(iso: "2026-11-28"))
    }
}
