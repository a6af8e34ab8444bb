import Foundation
import Testing
@testable import NudgeCLI
import NudgeCore
import NudgeStore
@testable import NudgeTestSupport

/// `nudge list` streams its rows in the order SQLite sorts them; here the same todos are
/// sorted in memory by Swift, with the sections worked out by Foundation's Calendar, and both
/// outputs, human and JSON, must come out byte for byte as that order prints.
struct ListOrderTests {
    static let scenarios = [
        // The spring-forward day: 02:00 to 03:00 does not exist.
        ZoneMoment(zone: "Europe/Berlin", now: "2026-03-29T09:00:00Z"),
        // The fall-back day: 01:00 to 02:00 happens twice.
        ZoneMoment(zone: "America/New_York", now: "2026-11-01T15:00:00Z"),
        // Half an hour off UTC, and already tomorrow there.
        ZoneMoment(zone: "Asia/Kolkata", now: "2026-06-15T20:00:00Z"),
        // New Year's Day: yesterday's dates show their year.
        ZoneMoment(zone: "Pacific/Auckland", now: "2026-12-31T12:00:00Z"),
        // Exactly midnight.
        ZoneMoment(zone: "UTC", now: "2026-07-01T00:00:00Z"),
    ]

    static let titles = [
        "Élan", "éclair", "Zebra", "ß", "zebra", "élan", "E\u{301}clair", "apple", "Apple", "İstanbul",
        "straße", "STRASSE", "日本語のタスク", "🎉 party", "Ölwechsel", "oil change", "milk run", "Zürich trip",
        "ǅemal", "ÉCLAIR", "a very long title that is certainly wider than forty-eight columns in all",
    ]

    static let queries: [[String]] = [
        [], ["--all"], ["--completed"],
        ["--sort", "priority"], ["--sort", "title"], ["--sort", "created"], ["--sort", "due"],
        ["--all", "--sort", "priority"], ["--all", "--sort", "title"], ["--all", "--sort", "created"],
        ["--category", "home"], ["--priority", "high"], ["--search", "milk"], ["--search", "MÏLK"],
        ["--all", "--search", "é", "--sort", "title"], ["--category", "work", "--priority", "low", "--all"],
    ]

    let folder = TemporaryDirectory()

    func run(_ words: [String], at now: Date, in zone: TimeZone) throws -> String {
        // A config named as --config names it must exist: an empty one, the defaults.
        _ = FileManager.default.createFile(atPath: folder.file("nudge.conf"), contents: nil)
        let context = Context(databasePath: folder.file("nudge.db"), configPath: folder.file("nudge.conf"),
                              now: now, zone: zone, environment: [:])
        #expect(try NudgeCLI.run(words, context: context) == 0)
        return context.output
    }

    @Test(arguments: scenarios)
    func streamedListMatchesTheOrderSortedInMemory(_ scenario: ZoneMoment) throws {
        let zone = try scenario.timeZone
        let now = try scenario.instant
        try addTodos(around: now, in: zone)
        // A config named as --config names it must exist: an empty one, the defaults.
        _ = FileManager.default.createFile(atPath: folder.file("nudge.conf"), contents: nil)
        let context = Context(databasePath: folder.file("nudge.db"), configPath: folder.file("nudge.conf"),
                              now: now, zone: zone, environment: [:])
        let todos = try context.store(.read).todos(matching: TodoQuery(state: .all))
        #expect(todos.count == Self.titles.count * 2)
        for words in Self.queries {
            let sections = Oracle(now: now, zone: zone).sections(todos, words: words)
            try #require(!sections.isEmpty, "\(words) should list something")
            let json = try run(["list", "--json"] + words, at: now, in: zone)
            #expect(json == JSON.array(sections.flatMap(\.todos).map(context.json)).text + "\n", "\(words)")
            let human = try run(["list"] + words, at: now, in: zone)
            #expect(human == Self.text(sections, context: context), "\(words)")
        }
        #expect(try run(["list", "--search", "nothing like this"], at: now, in: zone) == "No todos match.\n")
        #expect(try run(["list", "--json", "--search", "nothing like this"], at: now, in: zone) == "[]\n")
    }

    /// Each title twice, with dues around the scenario's day, priorities, categories, notes and
    /// creation times picked at random (a fixed seed), some of them completed.
    func addTodos(around now: Date, in zone: TimeZone) throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let day = LocalDate(now, in: calendar)
        let (before, after, later) = (day.adding(days: -1), day.adding(days: 1), day.adding(days: 40))
        let dues: [String?] = [
            "\(before)", "\(day)", "\(after)", "\(later)", "\(before) 12:00", "\(day) 00:00", "\(day) 01:30",
            "\(day) 23:59", "\(after) 00:00", "\(after) 09:00", "\(later) 00:00", nil, nil,
        ]
        let notes: [String?] = [nil, "buy MILK", "Mïlk", "nothing"]
        var random = SplitMix64(seed: 20261201)
        _ = try run(["category", "add", "Home"], at: now, in: zone)
        _ = try run(["category", "add", "Work"], at: now, in: zone)
        for title in Self.titles + Self.titles {
            var words = ["add", title, "--priority", ["low", "medium", "high"].randomElement(using: &random)!]
            if let due = dues.randomElement(using: &random)! { words += ["--due", due] }
            if let category = [nil, "Home", "Work"].randomElement(using: &random)! { words += ["--category", category] }
            if let note = notes.randomElement(using: &random)! { words += ["--notes", note] }
            // Whole hours before now, so that some todos share a creation time.
            let created = now.addingTimeInterval(-3600 * Double(Int.random(in: 0...2, using: &random)))
            _ = try run(words, at: created, in: zone)
        }
        _ = try run(["done", "3", "8", "15", "22", "30"], at: now, in: zone)
    }

    /// The list as `Context.printSections` printed it before it streamed.
    static func text(_ sections: [(section: AgendaSection, todos: [Todo])], context: Context) -> String {
        let dueText = context.dueText
        let all = sections.flatMap(\.todos)
        let idWidth = String(all.map(\.id).max() ?? 0).count
        let titleWidth = min(all.map { displayWidth(Terminal.visible($0.title)) }.max() ?? 0, 48)
        let dueWidth = all.map { $0.due.map(dueText.relative)?.utf8.count ?? 0 }.max() ?? 0
        func spaces(_ count: Int) -> String { String(repeating: " ", count: max(0, count)) }
        var lines: [String] = []
        for (index, (section, todos)) in sections.enumerated() {
            if index > 0 { lines.append("") }
            lines.append("\(section.title) (\(todos.count))")
            for todo in todos {
                let title = Terminal.visible(todo.title)
                let due = todo.due.map(dueText.relative) ?? ""
                let mark = Context.priorityMark(todo.priority)
                var line = (todo.isCompleted ? "  [x] " : "  [ ] ") + spaces(idWidth - String(todo.id).count) + String(todo.id)
                line += "  " + title + spaces(max(0, titleWidth - displayWidth(title)) + 2) + due + spaces(dueWidth - due.utf8.count + 2) + mark
                if let category = todo.category { line += spaces(5 - mark.count) + category.name }
                lines.append(line)
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// The list's filters, sections and order, worked out in memory with Foundation's Calendar.
private struct Oracle {
    let now: Date
    let zone: TimeZone
    let calendar: Calendar
    let today: LocalDate

    init(now: Date, zone: TimeZone) {
        self.now = now
        self.zone = zone
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        self.calendar = calendar
        today = LocalDate(now, in: calendar)
    }

    func sections(_ todos: [Todo], words: [String]) -> [(section: AgendaSection, todos: [Todo])] {
        func value(_ option: String) -> String? {
            words.firstIndex(of: option).map { words[$0 + 1] }
        }
        let matching = todos.filter { todo in
            if words.contains("--completed") { guard todo.isCompleted else { return false } }
            else if !words.contains("--all") { guard !todo.isCompleted else { return false } }
            if let name = value("--category"), todo.category?.name.lowercased() != name.lowercased() { return false }
            if let priority = value("--priority"), todo.priority.description != priority { return false }
            if let needle = value("--search") {
                return [todo.title, todo.notes].contains { $0?.range(of: needle, options: .caseInsensitive) != nil }
            }
            return true
        }
        let order = value("--sort") ?? "due"
        let sorted = matching.sorted { precedes($0, $1, order: order) }
        return AgendaSection.allCases.compactMap { section in
            let todos = sorted.filter { self.section(of: $0) == section }
            return todos.isEmpty ? nil : (section, todos)
        }
    }

    func section(of todo: Todo) -> AgendaSection {
        if todo.isCompleted { return .completed }
        switch todo.due {
        case nil: return .unscheduled
        case .allDay(let day)?: return day < today ? .overdue : day == today ? .today : .upcoming
        case .at(let instant, _)?:
            return instant < now ? .overdue : calendar.isDate(instant, inSameDayAs: now) ? .today : .upcoming
        }
    }

    /// An all-day todo sorts at its day's midnight in UTC, moved by the zone's offset then.
    func dueSeconds(_ todo: Todo) -> Double {
        switch todo.due {
        case nil: return .infinity
        case .at(let instant, _)?: return instant.timeIntervalSince1970
        case .allDay(let day)?:
            var utc = Calendar(identifier: .gregorian)
            utc.timeZone = TimeZone(identifier: "UTC")!
            let midnight = utc.date(from: DateComponents(year: day.year, month: day.month, day: day.day))!
            return midnight.timeIntervalSince1970 - Double(zone.secondsFromGMT(for: midnight))
        }
    }

    func precedes(_ a: Todo, _ b: Todo, order: String) -> Bool {
        let (aDue, bDue) = (dueSeconds(a), dueSeconds(b))
        let (aTitle, bTitle) = (a.title.lowercased(), b.title.lowercased())
        let (aPriority, bPriority) = (a.priority.rawValue, b.priority.rawValue)
        switch order {
        case "priority": return (bPriority, aDue, aTitle, a.id) < (aPriority, bDue, bTitle, b.id)
        case "title": return (aTitle, aDue, bPriority, a.id) < (bTitle, bDue, aPriority, b.id)
        case "created": return (a.createdAt, a.id) < (b.createdAt, b.id)
        default: return (aDue, bPriority, aTitle, a.id) < (bDue, aPriority, bTitle, b.id)
        }
    }
}
