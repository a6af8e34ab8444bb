import Foundation
import Testing
@testable import NudgeTestSupport

/// With the real `task` (Debian's taskwarrior 2.6): its export goes through Nudge and back into
/// a fresh Taskwarrior without losing anything.
struct TaskwarriorTests {
    /// A Taskwarrior with its own data folder and rc file in `folder`.
    struct Taskwarrior {
        let folder: String
        /// "2026-12-04 10:00:00" style local time to run at (through libfaketime), or nil for the real clock.
        var now: String?

        init(in parent: String, name: String) throws {
            folder = parent + "/" + name
            try FileManager.default.createDirectory(atPath: folder + "/data", withIntermediateDirectories: true)
            try "data.location=\(folder)/data\nconfirmation=off\nverbose=nothing\njson.array=on\nhooks=off\n"
                .write(toFile: folder + "/rc", atomically: true, encoding: .utf8)
        }

        @discardableResult
        func callAsFunction(_ arguments: String...) throws -> Run {
            let environment = ["PATH": "/usr/bin:/bin", "HOME": folder, "TZ": "Europe/Berlin",
                               "TASKRC": folder + "/rc", "TASKDATA": folder + "/data"]
            let run: Run
            if let now {
                run = try Faketime.run(at: now, "/usr/bin/task", arguments, environment: environment)
            } else {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/task")
                process.arguments = arguments
                process.environment = environment
                run = try Run.launch(process)
            }
            try #require(run.status == 0, "task \(arguments): \(run.stderr)")
            return run
        }

        /// `task export`, by uuid, without what Taskwarrior computes (`id`, `urgency`).
        func tasks() throws -> [String: NSDictionary] {
            let array = try self("export").array()
            var tasks: [String: NSDictionary] = [:]
            for var task in array {
                task.removeValue(forKey: "id")
                task.removeValue(forKey: "urgency")
                tasks[task["uuid"] as? String ?? ""] = task as NSDictionary
            }
            return tasks
        }
    }

    static let words = ["Milch kaufen 🥛", "日本語のタスク", "Ünïcødé “quotes” and \"plain\"", "back\\slash", "RTL שלום",
                        "call mum", "a/b path", "pay rent", "x", "review PR #12"]
    static let projects = ["Home", "Work.Reports", "Garden", "Ä-Projekt"]
    static let recurs = ["daily", "weekly", "monthly", "yearly", "3d", "2w", "biweekly", "quarterly", "weekdays", "2h",
                         "PT2H", "3 days"]

    /// `count` varied tasks as JSON for `task import`: every attribute Nudge maps, and tags,
    /// annotations, dependencies, wait, scheduled, until, recurrence, deleted tasks and a UDA.
    static func generate(count: Int, seed: UInt64) -> [[String: Any]] {
        var random = SplitMix64(seed: seed)
        func stamp(_ seconds: Int) -> String {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(secondsFromGMT: 0)
            formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
            return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
        }
        let base = 1_780_000_000 // 2026-05-28
        var uuids: [String] = []
        var tasks: [[String: Any]] = []
        for index in 0..<count {
            var uuid = [UInt8](repeating: 0, count: 16)
            for i in 0..<16 { uuid[i] = UInt8(truncatingIfNeeded: random.next()) }
            uuid[6] = uuid[6] & 0x0F | 0x40
            uuid[8] = uuid[8] & 0x3F | 0x80
            let text = UUID(uuid: (uuid[0], uuid[1], uuid[2], uuid[3], uuid[4], uuid[5], uuid[6], uuid[7], uuid[8], uuid[9],
                                   uuid[10], uuid[11], uuid[12], uuid[13], uuid[14], uuid[15])).uuidString.lowercased()
            let entry = base + Int.random(in: 0...10_000_000, using: &random)
            var task: [String: Any] = [
                "uuid": text,
                "description": Self.words.randomElement(using: &random)! + " \(index)",
                "entry": stamp(entry),
                "modified": stamp(entry + Int.random(in: 0...100_000, using: &random)),
                "status": "pending",
            ]
            // Days at Berlin midnight (all-day in Nudge), or any second.
            let dueDay = 1_796_079_600 + 86_400 * Int.random(in: 0...200, using: &random) // 2026-12-01 00:00 +01:00
            switch Int.random(in: 0...3, using: &random) {
            case 0: break
            case 1: task["due"] = stamp(dueDay)
            default: task["due"] = stamp(dueDay + Int.random(in: 1...86_399, using: &random))
            }
            if let priority = ["H", "M", "L", nil].randomElement(using: &random)! { task["priority"] = priority }
            if Bool.random(using: &random) { task["project"] = Self.projects.randomElement(using: &random)! }
            if Int.random(in: 0...2, using: &random) == 0 {
                task["tags"] = Array(["next", "phone", "errand", "waiting_on"].shuffled(using: &random).prefix(Int.random(in: 1...3, using: &random)))
            }
            let annotations = Int.random(in: 0...5, using: &random) < 3 ? 0 : Int.random(in: 1...3, using: &random)
            if annotations > 0 {
                task["annotations"] = (0..<annotations).map { n in
                    ["entry": stamp(entry + 60 * (n + 1)), "description": "note \(n) of \(index) ✓"]
                }
            }
            if Int.random(in: 0...9, using: &random) == 0, !uuids.isEmpty {
                task["depends"] = [uuids.randomElement(using: &random)!]
            }
            if Int.random(in: 0...14, using: &random) == 0 { task["scheduled"] = stamp(dueDay - 86_400 * 3) }
            if Int.random(in: 0...14, using: &random) == 0 { task["wait"] = stamp(dueDay - 86_400) }
            if Int.random(in: 0...19, using: &random) == 0 { task["estimate"] = "PT\(Int.random(in: 1...8, using: &random))H" }
            switch Int.random(in: 0...9, using: &random) {
            case 0, 1: task["status"] = "completed"; task["end"] = stamp(entry + 200_000)
            case 2: task["status"] = "deleted"; task["end"] = stamp(entry + 300_000)
            case 3 where task["due"] != nil && task["wait"] == nil:
                task["recur"] = Self.recurs.randomElement(using: &random)!
                if Bool.random(using: &random) { task["until"] = stamp(dueDay + 86_400 * 400) }
            default: break
            }
            uuids.append(text)
            tasks.append(task)
        }
        return tasks
    }

    @Test func aThousandTasksGoThroughNudgeAndBackUnchanged() throws {
        let nudge = Nudge()
        let first = try Taskwarrior(in: nudge.folder.path, name: "first")
        let second = try Taskwarrior(in: nudge.folder.path, name: "second")
        let generated = nudge.folder.file("generated.json")
        try JSONSerialization.data(withJSONObject: Self.generate(count: 1000, seed: 7)).write(to: URL(fileURLWithPath: generated))
        try first("import", generated)
        let original = try first.tasks()
        #expect(original.count >= 1000)
        #expect(original.values.contains { $0["status"] as? String == "recurring" })
        #expect(original.values.contains { $0["parent"] != nil })

        let exported = nudge.folder.file("tasks.json")
        try first("export").stdout.write(toFile: exported, atomically: true, encoding: .utf8)
        let imported = try nudge("import", exported)
        #expect(imported.status == 0, "\(imported.stderr)")
        // Instances are their template's one todo.
        let todos = original.values.count { $0["parent"] == nil }
        #expect(imported.stdout.hasPrefix("Imported \(todos): \(todos) added, 0 updated, 0 skipped"), "\(imported.stdout)")
        #expect(try nudge("import", exported).stdout.contains("0 added, 0 updated, \(todos) skipped"))

        let back = nudge.folder.file("back.json")
        let export = try nudge("export", "--format", "taskwarrior", "--all", "-o", back)
        #expect(export.status == 0, "\(export.stderr)")
        try second("import", back)
        let returned = try second.tasks()
        #expect(Set(returned.keys) == Set(original.keys))
        var differences = 0
        for (uuid, task) in original where !(returned[uuid]?.isEqual(task) ?? false) {
            differences += 1
            if differences <= 5 { Issue.record("\(uuid):\n\(task)\nbecame\n\(returned[uuid] ?? [:])") }
        }
        #expect(differences == 0)
    }

    /// The instances of a template, by their place in the series.
    static func instances(_ tasks: [String: NSDictionary], of template: String) -> [NSDictionary] {
        tasks.values.filter { $0["parent"] as? String == template }
            .sorted { (($0["imask"] as? NSNumber)?.intValue ?? 0) < (($1["imask"] as? NSNumber)?.intValue ?? 0) }
    }

    /// The dues of the pending instances of a template, in order.
    static func pendingDues(_ tasks: [String: NSDictionary], of template: String) -> [String] {
        instances(tasks, of: template).filter { $0["status"] as? String == "pending" }.compactMap { $0["due"] as? String }
    }

    @Test func aRecurringTaskIsOneRepeatingTodoThatGoesBackWhereItStands() throws {
        var nudge = Nudge()
        nudge.now = "2026-12-04 10:30:00"
        var task = try Taskwarrior(in: nudge.folder.path, name: "tw")
        task.now = "2026-12-04 10:00:00"
        try task("add", "Water plants", "due:2026-11-10", "recur:weekly")
        try task("list")
        let template = try #require(try task.tasks().values.first { $0["status"] as? String == "recurring" })
        let uuid = try #require(template["uuid"] as? String)
        // Nov 10, 17, 24, Dec 1 and the first after now, Dec 8: the first done, the second deleted.
        let made = Self.instances(try task.tasks(), of: uuid).compactMap { $0["uuid"] as? String }
        try #require(made.count == 5)
        task.now = "2026-12-04 10:05:00"
        try task(made[0], "done")
        try task("rc.recurrence.confirmation=no", made[1], "delete")

        let file = nudge.folder.file("tasks.json")
        try task("export").stdout.write(toFile: file, atomically: true, encoding: .utf8)
        let imported = try nudge("import", file)
        #expect(imported.stdout == "Imported 1: 1 added, 0 updated, 0 skipped as unchanged or older\n", "\(imported.stdout)\(imported.stderr)")
        var todos = try nudge("export", "--all").array()
        #expect(todos.count == 1)
        #expect(todos.first?["uuid"] as? String == uuid)
        #expect(todos.first?["due"] as? String == "2026-11-24")
        #expect((todos.first?["repeat"] as? [String: Any])?["rule"] as? String == "FREQ=WEEKLY")
        let again = try nudge("import", file)
        #expect(again.stdout == "Imported 0: 0 added, 0 updated, 1 skipped as unchanged or older\n", "\(again.stdout)\(again.stderr)")

        // Nov 24 done in Taskwarrior.
        task.now = "2026-12-04 10:10:00"
        try task(made[2], "done")
        try task("export").stdout.write(toFile: file, atomically: true, encoding: .utf8)
        let updated = try nudge("import", file)
        #expect(updated.stdout == "Imported 1: 0 added, 1 updated, 0 skipped as unchanged or older\n", "\(updated.stdout)\(updated.stderr)")
        #expect(try nudge("export", "--all").array().map { $0["due"] as? String } == ["2026-12-01"])
        // Dec 1 annotated alone: its template stays as it was, yet the series changed.
        task.now = "2026-12-04 10:15:00"
        try task("rc.recurrence.confirmation=no", made[3], "annotate", "moved to the balcony")
        try task("export").stdout.write(toFile: file, atomically: true, encoding: .utf8)
        let annotated = try nudge("import", file)
        #expect(annotated.stdout.hasPrefix("Imported 1: 0 added, 1 updated"), "\(annotated.stdout)\(annotated.stderr)")

        // Dec 1 and Dec 8 done in Nudge: it stands at Dec 15, which Taskwarrior has not made yet.
        try nudge("done", "1")
        try nudge("done", "1")
        let back = nudge.folder.file("back.json")
        let export = try nudge("export", "--format", "taskwarrior", "-o", back)
        #expect(export.status == 0, "\(export.stderr)")
        var fresh = try Taskwarrior(in: nudge.folder.path, name: "fresh")
        fresh.now = "2026-12-04 10:40:00"
        task.now = "2026-12-04 10:40:00"
        for taskwarrior in [task, fresh] {
            try taskwarrior("rc.recurrence.confirmation=no", "import", back)
            try taskwarrior("list")
            let tasks = try taskwarrior.tasks()
            #expect(Self.pendingDues(tasks, of: uuid) == ["20261214T230000Z"], "\(taskwarrior.folder)")
            #expect(tasks[uuid]?["status"] as? String == "recurring")
            #expect(tasks.values.filter { $0["status"] as? String == "pending" }.count == 1)
            #expect((tasks[made[3]]?["annotations"] as? [[String: Any]])?.first?["description"] as? String == "moved to the balcony")
            #expect(tasks[made[3]]?["status"] as? String == "completed")
        }
        // Done in Taskwarrior, it makes the next one.
        fresh.now = "2026-12-15 10:00:00"
        let pending = try #require(Self.instances(try fresh.tasks(), of: uuid).first { $0["status"] as? String == "pending" })
        try fresh(try #require(pending["uuid"] as? String), "done")
        try fresh("list")
        let after = try fresh("export").stdout
        #expect(Self.pendingDues(try fresh.tasks(), of: uuid) == ["20261221T230000Z"], "\(after)")
        try fresh("export").stdout.write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try nudge("import", file).stdout.hasPrefix("Imported 1: 0 added, 1 updated"))
        todos = try nudge("export", "--all").array()
        #expect(todos.map { $0["due"] as? String } == ["2026-12-22"])
    }

    @Test func aRepeatingTodoGoesToTaskwarriorAsATemplateAndComesBackOne() throws {
        var nudge = Nudge()
        nudge.now = "2026-12-04 10:00:00"
        try nudge("add", "Pay rent", "--due", "2026-12-01 09:00", "--repeat", "RRULE:FREQ=MONTHLY")
        let uuid = try #require(try nudge("export").array().first?["uuid"] as? String)
        let file = nudge.folder.file("tasks.json")
        try nudge("export", "--format", "taskwarrior", "-o", file)
        var task = try Taskwarrior(in: nudge.folder.path, name: "tw")
        task.now = "2026-12-04 10:05:00"
        try task("import", file)
        try task("list")
        let tasks = try task.tasks()
        #expect(tasks[uuid]?["status"] as? String == "recurring")
        #expect(Self.pendingDues(tasks, of: uuid) == ["20261201T080000Z", "20270101T080000Z"])

        try task("export").stdout.write(toFile: file, atomically: true, encoding: .utf8)
        let imported = try nudge("import", file)
        #expect(imported.stdout == "Imported 1: 0 added, 1 updated, 0 skipped as unchanged or older\n", "\(imported.stdout)\(imported.stderr)")
        let todos = try nudge("export", "--all").array()
        #expect(todos.map { $0["uuid"] as? String } == [uuid])
        #expect(todos.first?["due"] as? String == "2026-12-01T09:00:00+01:00")
        #expect(todos.first?["completed"] as? Bool == false)
    }

    @Test func tagsGoToTaskwarriorAndBackAndTaskSelectsTheSameTodosByThem() throws {
        let nudge = Nudge()
        try nudge("add", "Call bank", "+money", "+phone")
        try nudge("add", "Pay rent", "+Money", "--due", "2026-12-24")
        try nudge("add", "Water plants", "+garden", "+日本語", "--due", "2026-12-01 09:00", "--repeat", "RRULE:FREQ=WEEKLY")
        try nudge("add", "Read", "--due", "2026-12-02")
        let todos = try nudge("export").array()
        let tagsByUUID = Dictionary(uniqueKeysWithValues: todos.map { ($0["uuid"] as? String ?? "", $0["tags"] as? [String] ?? []) })
        // A tag is stored as another todo spells it.
        #expect(Set(tagsByUUID.values) == [[], ["money"], ["money", "phone"], ["garden", "日本語"]])

        let file = nudge.folder.file("tasks.json")
        try nudge("export", "--format", "taskwarrior", "-o", file)
        let task = try Taskwarrior(in: nudge.folder.path, name: "tw")
        try task("import", file)
        try task("list")
        func selected(_ filter: String) throws -> Set<String> {
            // A series' todo is its template in Nudge; `task` lists its instances by their parent.
            Set(try task(filter, "export").array().compactMap { ($0["parent"] ?? $0["uuid"]) as? String })
        }
        for tag in ["money", "phone", "garden", "日本語"] {
            let inNudge = Set(tagsByUUID.filter { $0.value.contains(tag) }.keys)
            #expect(try selected("+" + tag) == inNudge, "+\(tag)")
            #expect(try selected("-" + tag).isDisjoint(with: inNudge), "-\(tag)")
        }

        try task("export").stdout.write(toFile: file, atomically: true, encoding: .utf8)
        let fresh = Nudge()
        let imported = try fresh("import", file)
        #expect(imported.status == 0, "\(imported.stderr)")
        let back = try fresh("export").array()
        #expect(Dictionary(uniqueKeysWithValues: back.map { ($0["uuid"] as? String ?? "", $0["tags"] as? [String] ?? []) }) == tagsByUUID)
        #expect(try fresh("list", "+money").stdout.contains("Pay rent"))

        // A tag removed in Taskwarrior is removed by the next import, one added is added.
        let pay = try #require(tagsByUUID.first { $0.value == ["money"] }?.key)
        try task(pay, "modify", "-money", "+bills")
        try task("export").stdout.write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try fresh("import", file).stdout.hasPrefix("Imported"))
        #expect(try fresh("export").array().first { $0["uuid"] as? String == pay }?["tags"] as? [String] == ["bills"])
    }

    @Test func aSubtaskKeepsItsParentThroughTaskwarriorAndAnEditThere() throws {
        let nudge = Nudge()
        try nudge("add", "Paint walls")
        try nudge("add", "Buy paint", "--parent", "1")
        let todos = try nudge("export").array()
        let parent = try #require(todos.first { $0["title"] as? String == "Paint walls" }?["uuid"] as? String)
        let child = try #require(todos.first { $0["title"] as? String == "Buy paint" }?["uuid"] as? String)
        let file = nudge.folder.file("tasks.json")
        try nudge("export", "--format", "taskwarrior", "-o", file)
        let task = try Taskwarrior(in: nudge.folder.path, name: "tw")
        try task("import", file)
        // `task` keeps the attribute it has no definition for, and an edit there keeps it too.
        try task(child, "modify", "priority:H")
        let tasks = try task.tasks()
        #expect(tasks[child]?["nudgeparent"] as? String == parent)
        #expect(tasks[child]?["parent"] == nil)

        try task("export").stdout.write(toFile: file, atomically: true, encoding: .utf8)
        let imported = try nudge("import", file)
        #expect(imported.stdout.hasPrefix("Imported 1: 0 added, 1 updated, 1 skipped"), "\(imported.stdout)\(imported.stderr)")
        let back = try nudge("show", "2", "--json").object()
        #expect(back["priority"] as? String == "high")
        #expect(back["parent"] as? String == parent)
        #expect(try nudge("list").stdout.contains("[ ] 2    Buy paint"))
    }

    @Test func blockersAreTaskwarriorsDependsBothWays() throws {
        let nudge = Nudge()
        try nudge("add", "Write tests")
        try nudge("add", "Deploy", "--after", "1")
        try nudge("add", "Water plants")
        let todos = try nudge("export").array()
        let blocker = try #require(todos.first { $0["title"] as? String == "Write tests" }?["uuid"] as? String)
        let blocked = try #require(todos.first { $0["title"] as? String == "Deploy" }?["uuid"] as? String)
        let file = nudge.folder.file("tasks.json")
        try nudge("export", "--format", "taskwarrior", "-o", file)
        let task = try Taskwarrior(in: nudge.folder.path, name: "tw")
        try task("import", file)
        #expect(try task.tasks()[blocked]?["depends"] as? [String] == [blocker])
        let report = try task("blocked").stdout
        #expect(report.contains("Deploy") && !report.contains("Write tests") && !report.contains("Water plants"), "\(report)")

        // An edit in Taskwarrior keeps the dependency, and a fresh Nudge reads it.
        try task(blocked, "modify", "priority:H")
        try task("export").stdout.write(toFile: file, atomically: true, encoding: .utf8)
        let other = Nudge()
        #expect(try other("import", file).status == 0)
        let back = try other("export").array()
        #expect(back.first { $0["uuid"] as? String == blocked }?["after"] as? [String] == [blocker])
        #expect(back.first { $0["uuid"] as? String == blocker }?["after"] as? [String] == [])
        #expect(try other("list").stdout.contains("after "))
    }

    @Test func theImportGuessesTheFormatAndSaysWhatItDid() throws {
        let nudge = Nudge()
        let task = try Taskwarrior(in: nudge.folder.path, name: "tw")
        try task("add", "Buy milk", "due:2026-12-24", "priority:H", "project:Home", "+shop")
        try task("add", "Call mum", "due:2026-12-02T18:30")
        try task("1", "annotate", "the oat one")
        let file = nudge.folder.file("tasks.json")
        try task("export").stdout.write(toFile: file, atomically: true, encoding: .utf8)
        let imported = try nudge("import", file)
        #expect(imported.stdout == "Imported 2: 2 added, 0 updated, 0 skipped as unchanged or older; 1 category created: Home\n",
                "\(imported.stdout)\(imported.stderr)")
        let todos = try nudge("export").array()
        let milk = try #require(todos.first { $0["title"] as? String == "Buy milk" })
        #expect(milk["due"] as? String == "2026-12-24")
        #expect(milk["allDay"] as? Bool == true)
        #expect(milk["priority"] as? String == "high")
        #expect(milk["notes"] as? String == "the oat one")
        let call = try #require(todos.first { $0["title"] as? String == "Call mum" })
        #expect(call["due"] as? String == "2026-12-02T18:30:00+01:00")

        // One object a line, as json.array=off writes, reads the same.
        let lines = nudge.folder.file("tasks.jsonl")
        try task("rc.json.array=off", "export").stdout.write(toFile: lines, atomically: true, encoding: .utf8)
        #expect(try String(contentsOfFile: lines, encoding: .utf8).hasPrefix("{"))
        let again = try nudge("import", lines)
        #expect(again.stdout == "Imported 0: 0 added, 0 updated, 2 skipped as unchanged or older\n", "\(again.stdout)\(again.stderr)")
        let fresh = Nudge()
        let other = try fresh("import", lines)
        #expect(other.stdout.hasPrefix("Imported 2: 2 added"), "\(other.stdout)\(other.stderr)")
        #expect(try fresh("export").array().map { $0["uuid"] as? String } == todos.map { $0["uuid"] as? String })
    }
}
