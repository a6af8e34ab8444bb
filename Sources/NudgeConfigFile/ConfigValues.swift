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

    /// A snooze choice: a duration, else a WHEN that WhenParser reads (kept as written).
    static func snoozeChoice(_ key: String, _ value: String) throws(Problem) -> SnoozeChoice {
        let text = value.trimmingWhitespace()
        if let span = try? TimeSpan(parsing: text) { return .span(span) }
        // Only whether it parses matters: any fixed moment and zone will do.
        let parser = WhenParser(now: Date(timeIntervalSince1970: 1_767_225_600),
                                calendar: .nudge(zone: TimeZone(identifier: "UTC")!))
        guard !text.isEmpty, (try? parser.parse(text)) != nil else {
            throw Problem("\(key): \(quoted(text)) is neither a duration nor a time to snooze until; accepted: \(snoozeForms)")
        }
        return .when(text)
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

    enum Policy: String, CaseIterable {
        case all, digest, skipOlderThan = "skip-older-than"
    }

    static func policy(_ key: String, _ value: String) throws(Problem) -> Policy {
        guard let policy = Policy(rawValue: value.lowercased()) else {
            throw Problem("\(key): \(quoted(value)) is not a catch-up policy; accepted: all, digest, skip-older-than")
        }
        return policy
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
        default: preconditionFailure("not a rule key: \(key)")
        }
    }
}
