import Foundation
import NudgeCore
import NudgeRecurrence

/// The `--repeat` texts in `paths`: a folder holds one per file (a fuzz corpus), a file one per
/// line (blank lines and lines starting with # left out).
func ruleTexts(_ paths: [String]) -> [String] {
    paths.flatMap { path -> [String] in
        var folder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &folder) else {
            FileHandle.standardError.write(Data("nudge-schedule-bench: no file or folder \(path)\n".utf8))
            exit(1)
        }
        if folder.boolValue {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            return names.sorted().compactMap { name in
                FileManager.default.contents(atPath: path + "/" + name).map { String(decoding: $0, as: UTF8.self) }
            }
        }
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init).filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }
}

/// Times, for each rule, reading it (or refusing it) and each question asked of it: the next
/// due of a timed and of an all-day todo, repeating from the due and from completion, and the
/// first due of a new todo with and without a time of day. Each is the fastest of 3 runs, so
/// that a moment the machine spent elsewhere is not taken for a slow rule (one run when it
/// takes `slow` ms or more, and is then named on stderr). Prints the slowest.
func timeRules(_ paths: [String], slow: Double = 50) {
    let zone = TimeZone.current
    let now = Date()
    let clock = WallClock(zone: zone)
    let dues: [Due] = [.at(now, zone: zone), .allDay(clock.day(of: now))]
    var slowest = (ms: 0.0, what: "none")
    func time(_ what: @autoclosure () -> String, _ body: () -> Void) {
        let first = milliseconds(body)
        // A slow one is timed once: it is slow every time.
        let ms = first < slow ? min(first, milliseconds(body), milliseconds(body)) : first
        if ms >= slow { FileHandle.standardError.write(Data("nudge-schedule-bench: \(String(format: "%.1f", ms)) ms for \(what())\n".utf8)) }
        if ms > slowest.ms { slowest = (ms, what()) }
    }
    let texts = ruleTexts(paths)
    for text in texts {
        let shown = text.debugDescription
        time("reading \(shown)") { _ = try? RepeatRule.read(text) }
        guard let reading = try? RepeatRule.read(text) else { continue }
        let rule = reading.rule
        for due in dues where (try? rule.check(for: due)) != nil {
            for from in RepeatFrom.allCases {
                time("the next due of \(shown) after \(due) from \(from)") {
                    _ = rule.nextDue(after: due, completedAt: now, from: from, now: now, localZone: zone)
                }
            }
        }
        // As `add` asks it: with the text's own time of day, or none, and at 9:00.
        var timesOfDay = [reading.time]
        if !rule.isHourly, reading.time == nil { timesOfDay.append(TimeOfDay(hour: 9, minute: 0)) }
        for timeOfDay in timesOfDay {
            let label = timeOfDay.map { "at \($0.hour):\($0.minute)" } ?? "without a time"
            time("the first due of \(shown) \(label)") { _ = rule.firstDue(now: now, zone: zone, time: timeOfDay) }
        }
    }
    print("rules \(texts.count)")
    print("rule-slowest \(String(format: "%.2f", slowest.ms))")
    print("rule-slowest-what \(slowest.what)")
}
