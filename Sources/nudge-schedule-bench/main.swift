// Times the schedule in-process, for bench/run: how long the questions the service asks take
// on a real database, without process start-up in the way; and how long hostile repeat rules
// take to be refused or to find their next occurrence.
//
//     nudge-schedule-bench DATABASE
//     nudge-schedule-bench --rules FILE|FOLDER...
//
// Prints "name value" lines: milliseconds unless the name says otherwise.
import Foundation
import NudgeCore
import NudgeRecurrence
import NudgeStore

func milliseconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}

if CommandLine.arguments.count > 2, CommandLine.arguments[1] == "--rules" {
    timeRules(Array(CommandLine.arguments.dropFirst(2)))
    exit(0)
}
guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: nudge-schedule-bench DATABASE | --rules FILE|FOLDER...\n".utf8))
    exit(2)
}
let zone = TimeZone.current
let planner = ReminderPlanner(config: NudgeConfig(), zone: zone)
do {
    let now = Date()
    var store: TodoStore!  // set by `open` below, which throws when it cannot
    let open = try milliseconds { store = try TodoStore(path: CommandLine.arguments[1], planner: planner, now: now) }
    print("open-and-plan \(String(format: "%.2f", open))")
    var next: [Double] = []
    for _ in 0..<200 { next.append(try milliseconds { _ = try store.nextReminderTime() }) }
    print("next-reminder \(String(format: "%.3f", median(next)))")
    var week: [Double] = []
    var count = 0
    for _ in 0..<5 {
        week.append(try milliseconds { count = try store.forecast(from: now, through: now.addingTimeInterval(7 * 86_400)).count })
    }
    print("upcoming-7d \(String(format: "%.2f", median(week)))")
    print("upcoming-7d-reminders \(count)")

    // The planner alone on random todos: the slowest single case and the mean.
    var seed: UInt64 = 42
    func random() -> UInt64 {
        seed &+= 0x9E37_79B9_7F4A_7C15
        var z = seed
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    var slowest = 0.0
    let total = milliseconds {
        for index in 0..<100_000 {
            let moment = now.addingTimeInterval(Double(random() % (365 * 86_400)))
            let due: Due = random() % 3 == 0
                ? .allDay(WallClock(zone: zone).day(of: moment.addingTimeInterval(Double(random() % 86_400))))
                : .at(moment.addingTimeInterval(Double(Int(random() % 172_800) - 86_400)), zone: zone)
            let todo = Todo(id: Int64(index), title: "t", due: due, createdAt: now, updatedAt: now)
            let one = milliseconds {
                _ = planner.pending(ReminderSubject(todo: todo, reminderState: ReminderState(remindedThrough: moment))).first
            }
            slowest = max(slowest, one)
        }
    }
    print("plan-one-mean \(String(format: "%.4f", total / 100_000))")
    print("plan-one-max \(String(format: "%.3f", slowest))")
} catch {
    FileHandle.standardError.write(Data("nudge-schedule-bench: \(error)\n".utf8))
    exit(1)
}
