import Foundation
import Testing
@testable import NudgeTestSupport

/// The filter language against an oracle: random todos and random filters, the ids
/// `nudge list --json FILTER` gives compared with filter_oracle.py's reading of the same
/// filter over `nudge list --all --json`, a second implementation of `nudge help filter`.
struct FilterOracleTests {
    let nudge = Nudge()

    static let words = ["milk", "Oat milk", "bank", "call", "rent", "trip", "Ünïcode", "50%_off"]
    static let tags = ["a", "b", "Trip"]
    /// Days around Sunday 2026-11-29, the runner's today.
    static let days = ["2026-11-26", "2026-11-28", "2026-11-29", "2026-11-30", "2026-12-01", "2026-12-04"]
    static let times = ["00:00", "09:30", "10:53", "23:59"]

    @Test(arguments: [1, 2, 3] as [UInt64])
    func listMatchesWhatTheOracleReadsTheFilterAs(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        for name in ["work", "Home"] { try #require(nudge("category", "add", name).status == 0) }
        var repeating: [Int] = []
        let count = 36
        for id in 1...count {
            var words = ["add", (0..<Int.random(in: 1...2, using: &random)).map { _ in Self.words.randomElement(using: &random)! }
                .joined(separator: " ")]
            if Bool.random(using: &random) { words += ["--notes", Self.words.randomElement(using: &random)!] }
            let due = Int.random(in: 0...2, using: &random)
            if due > 0 {
                let day = Self.days.randomElement(using: &random)!
                words += ["--due", due == 1 ? day : day + " " + Self.times.randomElement(using: &random)!]
                if Int.random(in: 0...4, using: &random) == 0 {
                    words += ["--repeat", "daily"]
                    repeating.append(id)
                }
            }
            words += ["--priority", ["low", "medium", "high"].randomElement(using: &random)!]
            if let category = ["work", "Home", nil].randomElement(using: &random)! { words += ["--category", category] }
            for tag in Self.tags where Int.random(in: 0...2, using: &random) == 0 { words.append("+" + tag) }
            if id > 3, Int.random(in: 0...4, using: &random) == 0 { words += ["--after", String(Int.random(in: 1..<id, using: &random))] }
            if id > 3, Int.random(in: 0...5, using: &random) == 0 { words += ["--parent", String(Int.random(in: 1..<id, using: &random))] }
            let added = try nudge.run(words)
            try #require(added.status == 0, "\(words): \(added.stderr)")
        }
        for id in 1...count where Int.random(in: 0...4, using: &random) == 0 && !repeating.contains(id) {
            _ = try nudge("done", String(id))
        }
        var filters: [[String]] = []
        for _ in 0..<60 { filters.append(Self.filter(using: &random)) }
        filters += [["(+a", "or", "+b)", "-Trip"], ["status:all", "overdue"], ["OAT MILK"], ["1-5", "9", "or", "+a"], ["status:completed"]]

        let all = try nudge("list", "--all", "--json")
        try #require(all.status == 0, "\(all.stderr)")
        let todos = try JSONSerialization.jsonObject(with: Data(all.stdout.utf8))
        let input: [String: Any] = ["now": "2026-11-29T10:53:00", "zone": nudge.zone, "repeating": repeating,
                                    "todos": todos, "filters": filters]
        let expected = try Self.oracle(input)
        try #require(expected.count == filters.count)
        // The filters tell todos apart: most match some and not all.
        #expect(expected.filter { !$0.isEmpty && $0.count < count }.count > filters.count / 3, "\(expected)")
        for (filter, wanted) in zip(filters, expected) {
            let run = try nudge.run(["list", "--json"] + filter)
            try #require(run.status == 0, "nudge list \(filter): \(run.stderr)")
            let ids = try run.array().compactMap { $0["id"] as? Int }.sorted()
            #expect(ids == wanted, "nudge list --json \(filter.map { "'\($0)'" }.joined(separator: " ")) (seed \(seed))")
        }
    }

    /// One to four groups joined by and or or, a group being a term or two in parentheses.
    static func filter(using random: inout SplitMix64) -> [String] {
        var words: [String] = []
        if Int.random(in: 0...5, using: &random) == 0 { words.append(["status:all", "status:completed", "status:pending"].randomElement(using: &random)!) }
        for index in 0..<Int.random(in: 1...4, using: &random) {
            if index > 0, Bool.random(using: &random) { words.append(["or", "and", "OR"].randomElement(using: &random)!) }
            if Int.random(in: 0...3, using: &random) == 0 {
                words += ["(", term(using: &random), "or", term(using: &random), ")"]
            } else {
                words.append(term(using: &random))
            }
        }
        return words
    }

    static func term(using random: inout SplitMix64) -> String {
        let when = Bool.random(using: &random) ? ["today", "tomorrow"].randomElement(using: &random)! : days.randomElement(using: &random)!
            + (Bool.random(using: &random) ? "" : " " + times.randomElement(using: &random)!)
        switch Int.random(in: 0...15, using: &random) {
        case 0: return String(Int.random(in: 1...36, using: &random))
        case 1: let low = Int.random(in: 1...30, using: &random); return "\(low)-\(low + Int.random(in: 0...8, using: &random))"
        case 2: return "+" + tags.randomElement(using: &random)!
        case 3: return "-" + tags.randomElement(using: &random)!.uppercased()
        case 4: return "category:" + ["work", "HOME"].randomElement(using: &random)!
        case 5: return "priority:" + ["low", "medium", "high"].randomElement(using: &random)!
        case 6: return "due:" + (Int.random(in: 0...3, using: &random) == 0 ? "none" : when)
        case 7: return "due.before:" + when
        case 8: return "due.after:" + when
        case 9: return "overdue"
        case 10: return "blocked"
        case 11: return "repeating"
        case 12: return "parent:" + String(Int.random(in: 1...36, using: &random))
        default: return words.randomElement(using: &random)!.lowercased()
        }
    }

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("filter_oracle.py").path

    /// Debian's python3 on purpose, with its zoneinfo. A missing oracle fails the test.
    static func oracle(_ input: [String: Any]) throws -> [[Int]] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script]
        process.environment = ["PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"]
        let data = try JSONSerialization.data(withJSONObject: input)
        let run = try Run.launch(process, input: String(decoding: data, as: UTF8.self))
        try #require(run.status == 0, "the oracle failed: \(run.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[Int]])
    }
}
