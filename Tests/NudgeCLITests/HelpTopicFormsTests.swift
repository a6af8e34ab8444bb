import Foundation
import NudgeCore
import NudgeFilter
import NudgeHelp
import NudgeRecurrence
import Testing
@testable import NudgeCLI

/// Every form that `nudge help when` and `nudge help rule` (and so nudge(1)) list is one the
/// parsers take, so that the grammar the page gives cannot fall behind what nudge reads.
struct HelpTopicFormsTests {
    /// The forms an entry lists: "today, tomorrow, yesterday" is three; "mon ... sun" and
    /// "every N days|weeks|months|years" are patterns, not forms.
    static func forms(of topic: HelpTopic) -> [String] {
        topic.entries.flatMap { $0.term.components(separatedBy: ", ") }
            .filter { !$0.contains("...") && !$0.contains("|") }
    }

    /// Thursday 2026-12-03 10:53 in Berlin, read as under en_US (month/day, weeks from Sunday)
    /// and as under de_DE (day/month, weeks from Monday): each form reads under one of them.
    static let parsers = [
        DateStyle(clock: .twelveHour, dateOrder: .monthDayYear, weekStart: 7),
        DateStyle(clock: .twentyFourHour, dateOrder: .dayMonthYear, weekStart: 1),
    ].map { WhenParser(now: Date(timeIntervalSince1970: 1_796_291_580), calendar: .nudge(zone: TimeZone(identifier: "Europe/Berlin")!), style: $0) }

    @Test func everyFormOfWhenIsRead() {
        let forms = Self.forms(of: HelpTopics.when)
        #expect(forms.count > 20)
        for form in forms {
            let read = Self.parsers.contains { (try? $0.parse(form)) != nil }
            #expect(read, "nudge help when lists \(form), which nudge does not read")
        }
    }

    @Test func everyFormOfRuleIsRead() {
        let forms = Self.forms(of: HelpTopics.rule)
        #expect(forms.count > 15)
        for form in forms {
            #expect((try? RepeatRule(parsing: form)) != nil, "nudge help rule lists \(form), which nudge does not read")
        }
    }
}

extension HelpTopicFormsTests {
    @Test func everyFormOfFilterIsRead() throws {
        let forms = Self.forms(of: HelpTopics.filter).filter { $0.rangeOfCharacter(from: .uppercaseLetters) == nil }
        #expect(forms.count > 5)
        let parser = FilterParser(when: Self.parsers[1])
        for form in forms {
            // 'oat milk' is one word of the command line; 3 5-8 two.
            let words = form.hasPrefix("'") ? [form.trimmingCharacters(in: ["'"])] : form.components(separatedBy: " ")
            #expect((try? parser.parse(words))?.filter != nil, "nudge help filter lists \(form), which nudge does not read")
        }
    }
}
