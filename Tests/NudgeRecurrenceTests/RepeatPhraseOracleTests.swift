import Foundation
import NudgeCore
import NudgeRecurrence
import Testing
@testable import NudgeTestSupport

/// The phrases' rules against python3-dateutil (rrule_oracle.py), from many seeded starts in
/// Europe/Berlin, a third of them around the two DST nights of 2027. A start the rule does not
/// match is the todo's first due all the same; the occurrences compared are the ones after it.
struct RepeatPhraseOracleTests {
    static let phrases = [
        "every mon,thu", "every sat, sun", "every monday", "every 2 weeks on fri", "every weekday",
        "every 2nd tue", "last fri of month", "every 5th sat", "every first sun of the month",
        "every month on the 15th", "every month on the 31st", "every month on the last day", "every 3 months on the 22nd",
        "hourly", "every 2h", "every 3h between 09:00-18:00", "hourly between 22-24", "every 5h between 0-24",
        "every 2h between 1-4",
    ]

    /// How many occurrences after the start are compared.
    static let count = 12

    @Test func phrasesMatchTheOracleFromSeededStarts() throws {
        var rng = SplitMix64(seed: 2_027_0328)
        let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
        let dstNights = [LocalDate(year: 2027, month: 3, day: 26)!, LocalDate(year: 2027, month: 10, day: 29)!]
        var cases: [(rule: RepeatRule, start: SeriesStart)] = []
        for _ in 0..<400 {
            let rule = try RepeatRule(parsing: Self.phrases[Int(rng.next() % UInt64(Self.phrases.count))])
            let day = rng.next() % 3 == 0
                ? dstNights[Int(rng.next() % 2)].adding(days: Int(rng.next() % 4))
                : LocalDate(year: 2027, month: 1, day: 1)!.adding(days: Int(rng.next() % 365))
            let allDay = !rule.isHourly && rng.next() % 5 == 0
            let time = allDay ? nil : TimeOfDay(hour: Int(rng.next() % 24), minute: Int(rng.next() % 4) * 15)
            cases.append((rule, SeriesStart(day: day, time: time)))
        }
        let expected = try oracle(cases.map { ($0.rule.rrule, $0.start) }, zone: "Europe/Berlin")
        var mismatches: [String] = []
        for ((rule, start), oracle) in zip(cases, expected) {
            let nudge = occurrences(rule, from: start, in: berlin)
            let after = Array(oracle.filter { $0 > (nudge.first ?? "") }.prefix(Self.count))
            if Array(nudge.dropFirst()) != after {
                mismatches.append("\(rule) from \(start): nudge \(nudge.dropFirst()), oracle \(after)")
            }
        }
        #expect(expected.count == cases.count)
        #expect(mismatches.isEmpty, "\(mismatches.count): \(mismatches.prefix(40).map { $0.prefix(60) })")
    }

    /// The todo's first due (the start, placed in `zone`) and the `count` dues after it, each
    /// completed when due; instants as "2027-03-28T01:30:00Z", days as "2027-03-28".
    func occurrences(_ rule: RepeatRule, from start: SeriesStart, in zone: TimeZone) -> [String] {
        var due: Due = start.time.map { .at(start.day.at(hour: $0.hour, minute: $0.minute, in: .nudge(zone: zone)), zone: zone) }
            ?? .allDay(start.day)
        var result: [String] = []
        while result.count <= Self.count {
            let done: Date
            switch due {
            case .at(let instant, _):
                result.append(instant.ISO8601Format())
                done = instant
            case .allDay(let day):
                result.append(day.description)
                done = day.at(hour: 12, minute: 0, in: .nudge(zone: zone))
            }
            guard let next = rule.nextDue(after: due, completedAt: done, from: .due, now: done, localZone: zone,
                                          seriesStart: start) else { break }
            due = next
        }
        return result
    }

    /// One oracle run for all cases: for each, its first `count` + 1 occurrences.
    func oracle(_ cases: [(rrule: String, start: SeriesStart)], zone: String) throws -> [[String]] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [RepeatRuleOracleTests.script]
        process.environment = ["PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"]
        let input = cases.map { rrule, start in
            let dtstart = "\(start.day)".filter { $0 != "-" } + (start.time.map { "T" + "\($0)".filter { $0 != ":" } + "00" } ?? "")
            return "\(zone) \(dtstart) \(Self.count + 1) \(rrule)\n"
        }.joined()
        let run = try Run.launch(process, input: input)
        try #require(run.status == 0, "the oracle failed (is python3-dateutil installed?): \(run.stderr)")
        return run.stdout.split(separator: "\n").map { line in
            line == "-" ? [] : line.split(separator: " ").map(String.init)
        }
    }
}
