import Foundation
import NudgeCore

/// Reads the values of config keys. Every refusal names the key, quotes the value and lists
/// what would be accepted.
enum ConfigValues {
    static let booleanForms = "yes, no, true, false, on, off, 1, 0"
    static let timeForms = "HH:MM (24-hour), e.g. 09:00, 17:30"
    static let snoozeForms = "a duration (\(TimeSpan.acceptedForms)) or a time to snooze until (tomorrow 09:00, tonight, fri 9am, 17:30, in 2h)"
    static let maximumSnoozeChoices = 5
    static let maximumCount = 1000

    /// `none`, `off` or nothing: the value that turns a setting off.
    static func isOff(_ value: String) -> Bool {
        ["", "none", "off"].contains(value.lowercased())
    }

    static func quoted(_ value: String) -> String {
        value.isEmpty ? "an empty value" : "'\(value)'"
    }

    static func boolean(_ key: String, _ value: String) throws(Problem) -> Bool {
        switch value.lowercased() {
        case "yes", "true", "on", "1": return true
        case "no", "false", "off", "0": return false
        default: throw Problem("\(key): \(quoted(value)) is not yes or no; accepted: \(booleanForms)")
        }
    }

    static func time(_ key: String, _ value: String) throws(Problem) -> TimeOfDay {
        guard let time = TimeOfDay(parsing: value) else {
            throw Problem("\(key): \(quoted(value)) is not a time of day; accepted: \(timeForms)")
        }
        return time
    }

    /// A duration; `orElse` names what else the key accepts (", or off for no nagging").
    static func span(_ key: String, _ value: String, orElse: String = "") throws(Problem) -> TimeSpan {
        do {
            return try TimeSpan(parsing: value)
        } catch {
            throw Problem("\(key): \(error.message)\(orElse)")
        }
    }

    /// `before`: comma-separated durations, or none.
    static func spanList(_ key: String, _ value: String) throws(Problem) -> [TimeSpan] {
        if isOff(value) { return [] }
        let orElse = "; a comma-separated list of these, or none for no early reminders"
        var spans: [TimeSpan] = []
        for item in value.split(separator: ",", omittingEmptySubsequences: false) {
            let text = item.trimmingWhitespace()
            if text.isEmpty {
                throw Problem("\(key): '\(value)' has an empty item; accepted: \(TimeSpan.acceptedForms)\(orElse)")
            }
            let span = try span(key, text, orElse: orElse)
            if spans.contains(span) {
                throw Problem("\(key): \(span) is listed twice in '\(value)'; give each offset once")
            }
            spans.append(span)
        }
        return spans
    }

    /// `nag_every`: a duration, or off (nil).
    static func optionalSpan(_ key: String, _ value: String) throws(Problem) -> TimeSpan? {
        if isOff(value) { return nil }
        return try span(key, value, orElse: ", or off for no nagging")
    }

    /// A whole number from 0 to `maximumCount`.
    static func count(_ key: String, _ value: String, orElse: String = "") throws(Problem) -> Int {
        guard !value.isEmpty, value.count <= 4, value.allSatisfy({ $0.isASCII && $0.isNumber }),
              let number = Int(value), number <= maximumCount else {
            throw Problem("\(key): \(quoted(value)) is not a whole number from 0 to \(maximumCount); accepted: e.g. 3\(orElse)")
        }
        return number
    }

    /// `nag_limit`: a count; 0, none or nothing is no limit (nil).
    static func limit(_ key: String, _ value: String) throws(Problem) -> Int? {
        if isOff(value) { return nil }
        let number = try count(key, value, orElse: ", or 0 or none for no limit")
        return number == 0 ? nil : number
    }

    /// `hours`: `HH:MM-HH:MM`, possibly spanning midnight, or none (nil).
    static func quietHours(_ key: String, _ value: String) throws(Problem) -> (start: TimeOfDay, end: TimeOfDay)? {
        if isOff(value) { return nil }
        let accepted = "accepted: HH:MM-HH:MM such as 22:00-07:00 (may span midnight), or none"
        let parts = value.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let start = TimeOfDay(parsing: parts[0].trimmingWhitespace()),
              let end = TimeOfDay(parsing: parts[1].trimmingWhitespace()) else {
            throw Problem("\(key): '\(value)' is not a range of times; \(accepted)")
        }
        if start == end {
            throw Problem("\(key): '\(value)' starts and ends at the same time; \(accepted)")
        }
        return (start, end)
    }

    /// A snooze choice: a duration, else a WHEN that WhenParser reads (kept as written). A WHEN
    /// that lies in the past whenever it is chosen ("yesterday") is refused; a fixed date is
    /// checked against a moment by `pastSnooze`.
    static func snoozeChoice(_ key: String, _ value: String) throws(Problem) -> SnoozeChoice {
        let text = value.trimmingWhitespace()
        if let span = try? TimeSpan(parsing: text) { return .span(span) }
        let readings = trialMoments.map { now in
            (now, try? WhenParser(now: now, calendar: .nudge(zone: utc), style: .standard).parse(text))
        }
        guard !text.isEmpty, readings[0].1 != nil else {
            throw Problem("\(key): \(quoted(text)) is neither a duration nor a time to snooze until; accepted: \(snoozeForms)")
        }
        let canLieAhead = readings.contains { now, due in
            switch due {
            case .at(let instant, _)?: instant > now
            // Its all_day_time is not known here: any time of the day may lie ahead.
            case .allDay(let day)?: day >= LocalDate(now, in: .nudge(zone: utc))
            case nil: false
            }
        }
        if !isFixed(text), !canLieAhead {
            throw Problem("\(key): \(quoted(text)) is always in the past when a snooze is chosen; accepted: \(snoozeForms)")
        }
        return .when(text)
    }

    private static let utc = TimeZone(identifier: "UTC")!

    /// Midnight on each day of one week (from Monday 2026-01-05): a choice that can lie ahead
    /// does at one of them.
    private static let trialMoments = (0..<7).map { Date(timeIntervalSince1970: 1_767_571_200 + Double($0) * 86_400) }

    /// Whether a WHEN names the same moment whenever it is read ("2026-12-24 09:00"), unlike
    /// "tomorrow 9am" or "dec 24".
    static func isFixed(_ text: String) -> Bool {
        let century = TimeInterval(36_525 * 86_400)
        let readings = [trialMoments[0], trialMoments[0].addingTimeInterval(century)].map { now in
            try? WhenParser(now: now, calendar: .nudge(zone: utc), style: .standard).parse(text)
        }
        return readings[0] != nil && readings[0] == readings[1]
    }

    /// Why a snooze until a fixed date cannot be chosen at `now` in `zone` (an all-day date at
    /// `allDayTime`, as a snooze places it), or nil when it lies ahead.
    static func pastSnooze(_ key: String, _ text: String, now: Date, zone: TimeZone, allDayTime: TimeOfDay) -> String? {
        let calendar = Calendar.nudge(zone: zone)
        let moment: Date
        switch try? WhenParser(now: now, calendar: calendar, style: .standard).parse(text) {
        case .at(let instant, _)?: moment = instant
        case .allDay(let day)?: moment = day.at(hour: allDayTime.hour, minute: allDayTime.minute, in: calendar)
        case nil: return nil
        }
        guard moment <= now else { return nil }
        return "\(key): '\(text)' has already passed, so a snooze until it would end at once; accepted: \(snoozeForms)"
    }

    /// `choices`: 1 to 5 comma-separated snooze choices.
    static func snoozeChoices(_ key: String, _ value: String) throws(Problem) -> [SnoozeChoice] {
        let listForms = "1 to \(maximumSnoozeChoices) comma-separated choices, each \(snoozeForms)"
        if value.trimmingWhitespace().isEmpty {
            throw Problem("\(key): no choices are given; accepted: \(listForms)")
        }
        var choices: [SnoozeChoice] = []
        for item in value.split(separator: ",", omittingEmptySubsequences: false) {
            let text = item.trimmingWhitespace()
            if text.isEmpty {
                throw Problem("\(key): '\(value)' has an empty item; accepted: \(listForms)")
            }
            let choice = try snoozeChoice(key, text)
            if choices.contains(choice) {
                throw Problem("\(key): \(choice) is listed twice in '\(value)'; give each choice once")
            }
            choices.append(choice)
        }
        if choices.count > maximumSnoozeChoices {
            throw Problem("\(key): \(choices.count) choices are given, a notification offers at most \(maximumSnoozeChoices); accepted: \(listForms)")
        }
        return choices
    }

    /// A hook's command line; none or off runs nothing.
    static func hook(_ key: String, _ value: String) throws(Problem) -> HookCommand? {
        guard !isOff(value) else { return nil }
        do { return try HookCommand(parsing: value) } catch { throw Problem("\(key): \(error.message)") }
    }

    /// `max_running`: 1 to 64 hooks at once.
    static func hookLimit(_ key: String, _ value: String) throws(Problem) -> Int {
        guard let count = Int(value), (1...64).contains(count) else {
            throw Problem("\(key): \(quoted(value)) is not a number of hooks from 1 to 64")
        }
        return count
    }

    static let secondsForms = "a time from 0.1 s to 1 h, e.g. 15s, 1.5s, 500ms, 2m, 1m30s, 1h"

    /// The units of a time limit, in seconds.
    private static let timeUnits: [String: Double] = [
        "ms": 0.001, "s": 1, "sec": 1, "second": 1, "seconds": 1,
        "m": 60, "min": 60, "minute": 60, "minutes": 60, "h": 3600, "hr": 3600, "hour": 3600, "hours": 3600,
    ]

    /// `timeout`: a time limit, written `15s`, `15` (seconds), `500ms`, `2m`, `1m30s` or `1h`:
    /// numbers each with a unit, each unit at most once, as DURATION is written.
    static func seconds(_ key: String, _ value: String) throws(Problem) -> Double {
        let refusal = Problem("\(key): \(quoted(value)) is not a time limit; accepted: \(secondsForms)")
        var rest = Substring(value.lowercased().replacingOccurrences(of: " ", with: ""))
        if !rest.isEmpty, rest.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }) { rest += "s" }
        var total = 0.0, used: Set<Double> = []
        while !rest.isEmpty {
            let number = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
            rest = rest.dropFirst(number.count)
            let unit = rest.prefix { $0.isASCII && $0.isLetter }
            rest = rest.dropFirst(unit.count)
            guard let amount = Double(number), let scale = timeUnits[String(unit)], used.insert(scale).inserted else { throw refusal }
            total += amount * scale
        }
        guard (0.1...3600).contains(total) else { throw refusal }
        return total
    }

    /// "15s", "1.5s": seconds as `seconds` reads them back.
    static func secondsText(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? "\(Int(seconds))s" : "\(seconds)s"
    }

    static let sizeForms = "a size from 1K to 1G, e.g. 10M, 512K, 1G"

    /// `max_size`: bytes, with K, M or G for units of 1024 (`10M`, `512KB`).
    static func size(_ key: String, _ value: String) throws(Problem) -> Int {
        var text = value.uppercased().replacingOccurrences(of: " ", with: "")
        if text.hasSuffix("B") { text.removeLast() }
        let scale = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30][text.last.map(String.init) ?? ""] ?? 1
        if scale > 1 { text.removeLast() }
        guard !text.isEmpty, text.count <= 10, text.allSatisfy({ $0.isASCII && $0.isNumber }), let amount = Int(text),
              ((1 << 10)...(1 << 30)).contains(amount * scale) else {
            throw Problem("\(key): \(quoted(value)) is not a size; accepted: \(sizeForms)")
        }
        return amount * scale
    }

    /// "10M": bytes as `size` reads them back.
    static func sizeText(_ bytes: Int) -> String {
        for (unit, scale) in [("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)] where bytes % scale == 0 {
            return "\(bytes / scale)\(unit)"
        }
        return String(bytes)
    }

    static let quoteForms = "an http or https URL, a file in fortune format (an absolute path or ~/...), or off"

    /// `quote`: a URL, a fortune file, or off.
    static func quote(_ key: String, _ value: String) throws(Problem) -> QuoteSource {
        if isOff(value) { return .off }
        let lower = value.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") {
            guard !value.contains(where: { $0.isWhitespace }) else {
                throw Problem("\(key): '\(value)' is not a URL (it holds a space); accepted: \(quoteForms)")
            }
            return .url(value)
        }
        guard value.hasPrefix("/") || value.hasPrefix("~/") else {
            throw Problem("\(key): '\(value)' is neither a URL nor an absolute path; accepted: \(quoteForms)")
        }
        return .file(value)
    }

    enum Policy: String, CaseIterable {
        case all, digest, skipOlderThan = "skip-older-than"
    }

    static func policy(_ key: String, _ value: String) throws(Problem) -> Policy {
        guard let policy = Policy(rawValue: value.lowercased()) else {
            throw Problem("\(key): \(quoted(value)) is not a catch-up policy; accepted: all, digest, skip-older-than")
        }
        return policy
    }

    /// The word that leaves `sound` and `timeout` to the todo's priority.
    static let priorityDefault = "default"

    static let soundForms = "a sound theme name such as message-new-instant or bell, a sound file (an absolute path or ~/...), none, or default (message-new-instant for high priority, none otherwise)"

    /// `sound`: a theme name, a file, none (`.none`), or default (nil).
    static func sound(_ key: String, _ value: String) throws(Problem) -> ReminderSound? {
        if isOff(value) { return ReminderSound.none }
        if value.lowercased() == priorityDefault { return nil }
        if value.hasPrefix("/") || value.hasPrefix("~/") { return .file(value) }
        // Theme names are ASCII words joined by dashes (the sound naming specification); a
        // dot is refused so that a bare file name ("ding.oga") is not sent as a theme name.
        guard value.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_".contains($0)) }) else {
            throw Problem("\(key): '\(value)' is neither a sound name nor an absolute path; accepted: \(soundForms)")
        }
        return .name(value)
    }

    static let timeoutForms = "never, server, default (never for high priority, server otherwise), or \(secondsForms)"

    /// `timeout`: never, server, default (nil), or seconds.
    static func timeout(_ key: String, _ value: String) throws(Problem) -> ReminderTimeout? {
        switch value.lowercased() {
        case "never": return .never
        case "server": return .server
        case priorityDefault: return nil
        default:
            guard let seconds = try? seconds(key, value) else {
                throw Problem("\(key): \(quoted(value)) is not a timeout; accepted: \(timeoutForms)")
            }
            return .seconds(seconds)
        }
    }

    /// `escalate_after`: a nag's number from 1; 0, none or off never escalates (nil).
    static func escalation(_ key: String, _ value: String) throws(Problem) -> Int? {
        if isOff(value) { return nil }
        let number = try count(key, value, orElse: ", or none for no escalation")
        return number == 0 ? nil : number
    }

    /// The weekdays a week can start on, by ISO number, as `week_start` names them.
    static let weekStarts = [1: "monday", 6: "saturday", 7: "sunday"]

    /// `week_start`: monday, sunday or saturday; locale (nil) keeps the locale's.
    static func weekStart(_ key: String, _ value: String) throws(Problem) -> Int? {
        let lower = value.lowercased()
        if lower == "locale" { return nil }
        guard let day = weekStarts.first(where: { $0.value == lower })?.key else {
            throw Problem("\(key): \(quoted(value)) is not a first day of the week; accepted: locale, monday, sunday, saturday")
        }
        return day
    }

    /// `time_format`, `date_format`: one of the type's values; locale (nil) keeps the locale's.
    static func choice<Choice: RawRepresentable & CaseIterable>(_ key: String, _ value: String, _: Choice.Type) throws(Problem) -> Choice?
    where Choice.RawValue == String {
        let lower = value.lowercased()
        if lower == "locale" { return nil }
        guard let choice = Choice(rawValue: lower) else {
            let accepted = (["locale"] + Choice.allCases.map(\.rawValue)).joined(separator: ", ")
            throw Problem("\(key): \(quoted(value)) is not one of the choices; accepted: \(accepted)")
        }
        return choice
    }

    /// A key of `[reminders]`, `[priority.*]` or `[category.*]`.
    static func rule(_ key: String, _ value: String, into overrides: inout RuleOverrides) throws(Problem) {
        switch key {
        case "at_due": overrides.atDue = try boolean(key, value)
        case "before": overrides.before = try spanList(key, value)
        case "all_day_time": overrides.allDayTime = try time(key, value)
        case "all_day_day_before": overrides.allDayDayBefore = try boolean(key, value)
        case "nag_every": overrides.nagEvery = .some(try optionalSpan(key, value))
        case "nag_limit": overrides.nagLimit = .some(try limit(key, value))
        case "sound": overrides.sound = .some(try sound(key, value))
        case "timeout": overrides.timeout = .some(try timeout(key, value))
        case "resident": overrides.resident = try boolean(key, value)
        case "escalate_after": overrides.escalateAfter = .some(try escalation(key, value))
        case "repeat_sound": overrides.repeatSound = try boolean(key, value)
        default: preconditionFailure("not a rule key: \(key)")
        }
    }
}
