import Foundation
import NudgeCore
import Testing
@testable import NudgeTestSupport
@testable import NudgeStore
import NudgeSQLite

/// `nudge list` reads its pending rows in order from the list-order indexes (migration 009) and
/// its summary from searches of them; here both are checked against what `forEachSortedTodo`
/// (SQLite sorting every row) and a count over every todo say.
struct ListOrderIndexTests {
    let folder = TemporaryDirectory()
    var path: String { folder.file("nudge.db") }

    func open(_ access: StoreAccess = .plan, zone: TimeZone, now: Date) throws -> TodoStore {
        try TodoStore(path: path, planner: ReminderPlanner(config: NudgeConfig(), zone: zone), now: now, access: access)
    }

    static let titles = ["Zebra", "élan", "Éclair", "apple", "E\u{301}clair", "Apple", "straße", "日本語", "a\tb"]

    @Test func anOlderFileGetsTitleKeysAndListsInOrder() throws {
        let old = try Connection(path: path, create: true)
        try old.execute("CREATE TABLE nudge_migrations (name TEXT PRIMARY KEY, applied_at INTEGER NOT NULL); PRAGMA application_id = \(Schema.applicationID)")
        for migration in Schema.migrations.prefix(while: { $0.name < "009" }) {
            try old.execute(migration.sql)
            try old.run("INSERT INTO nudge_migrations VALUES (?, 0)", [.text(migration.name)])
        }
        for (index, title) in Self.titles.enumerated() {
            try old.run("""
                INSERT INTO todos (uuid, title, due_day, priority, created_at, updated_at) VALUES (?, ?, '2026-12-03', 1, 0, 0)
                """, [.text("uuid-\(index)"), .text(title)])
        }
        let zone = TimeZone(identifier: "Europe/Berlin")!, now = Date(timeIntervalSince1970: 1_796_126_400)
        // A reader upgrades a copy in memory; the writer after it, the file.
        for access in [StoreAccess.read, .plan] {
            let store = try open(access, zone: zone, now: now)
            let keys = try store.db.query("SELECT title, title_key FROM todos") { ($0.text(0) ?? "", $0.text(1) ?? "") }
            #expect(keys.allSatisfy { $0.1 == TodoStore.titleKey($0.0) && !$0.1.isEmpty })
            let listed = try lines(store, zone: zone, now: now, order: .due)
            #expect(listed.map(\.title) == ["a\tb", "apple", "Apple", "straße", "Zebra", "Éclair", "E\u{301}clair", "élan", "日本語"])
            #expect(listed == (try sortedBySQLite(store, zone: zone, now: now)))
        }
    }

    @Test func aTitleEditedOrImportedKeepsItsKey() throws {
        let zone = TimeZone(identifier: "UTC")!, now = Date(timeIntervalSince1970: 1_796_126_400)
        let store = try open(zone: zone, now: now)
        var todo = try store.add(NewTodo(title: "Zürich"), now: now)
        todo.title = "ÄRGER"
        _ = try store.update(todo, now: now)
        let key = try store.db.scalar("SELECT title_key FROM todos WHERE id = ?", [.integer(todo.id)])?.string
        #expect(key == "ärger")
    }

    static let scenarios = [
        ZoneMoment(zone: "Europe/Berlin", now: "2026-03-29T09:00:00Z"),
        ZoneMoment(zone: "America/New_York", now: "2026-11-01T05:30:00Z"),
        // Half an hour of daylight saving time, at 02:00.
        ZoneMoment(zone: "Australia/Lord_Howe", now: "2026-10-03T14:00:00Z"),
        ZoneMoment(zone: "Asia/Kolkata", now: "2026-06-15T20:00:00Z"),
    ]

    /// Hundreds of todos at random minutes over a week around an offset change, some all-day,
    /// some unscheduled, some done; a due width that changes with the day and the hour.
    @Test(arguments: scenarios)
    func summaryAndLinesAgreeWithEveryTodo(_ scenario: ZoneMoment) throws {
        let zone = try scenario.timeZone
        let now = try scenario.instant
        let store = try open(zone: zone, now: now)
        let agenda = Agenda(now: now, zone: zone)
        _ = try store.addCategory(name: "home", icon: nil, now: now)
        var random = SplitMix64(seed: 20261202)
        for index in 0..<400 {
            let offset = Int.random(in: -3 * 86_400...4 * 86_400, using: &random) / 60 * 60
            let day = agenda.today.adding(days: offset / 86_400)
            let due: Due? = switch index % 5 {
            case 0, 1: .at(now.addingTimeInterval(TimeInterval(offset)), zone: zone)
            case 2: .allDay(day)
            // At the midnight an all-day todo of the same day sorts at: only priority, title and
            // id tell them apart.
            case 3: .at(Date(timeIntervalSince1970: agenda.sortSeconds(.allDay(day))), zone: zone)
            default: nil
            }
            let title = Self.titles.randomElement(using: &random)! + " \(index % 7)"
            let priority = Priority(rawValue: Int.random(in: 0...2, using: &random))!
            let todo = try store.add(NewTodo(title: title, due: due, priority: priority,
                                             categoryName: index % 3 == 0 ? "home" : nil), now: now)
            if index % 9 == 0 { _ = try store.setCompleted(ids: [todo.id], done: true, now: now) }
        }
        let all = try store.todos(matching: TodoQuery(state: .all))
        let clock = WallClock(zone: zone)
        func width(_ due: Due) -> Int {
            switch due {
            case .allDay(let day): day.day % 5
            case .at(let instant, _): clock.dayAndTime(of: instant).day.day % 5 + clock.dayAndTime(of: instant).hour % 7
            }
        }
        for query in [TodoQuery(), TodoQuery(state: .all), TodoQuery(categoryName: "home"), TodoQuery(priority: .high),
                      TodoQuery(search: "É")] {
            let summary = try store.agendaSummary(matching: query, agenda: agenda, titleWidth: { $0.count },
                                                  dueWidth: width, dueWidthVariesByHour: true)
            let matching = try store.todos(matching: query)
            #expect(summary.counts == Dictionary(grouping: matching, by: { agenda.section(of: $0) }).mapValues(\.count))
            #expect(summary.highestID == matching.map(\.id).max() ?? 0)
            #expect(summary.widestDue == matching.compactMap(\.due).map(width).max() ?? 0)
            let expected = try sortedBySQLite(store, zone: zone, now: now, query: query)
            #expect(try lines(store, zone: zone, now: now, order: .due, query: query) == expected)
        }
        #expect(all.count == 400)
    }

    /// `nudge list --search` searches once, into a table of ids, for its summary and its rows:
    /// both as the search itself gives them, one search after another on the same store.
    @Test func aSearchMadeOnceFindsWhatTheSearchFinds() throws {
        let zone = TimeZone(identifier: "Europe/Berlin")!, now = Date(timeIntervalSince1970: 1_796_126_400)
        let store = try open(zone: zone, now: now)
        let agenda = Agenda(now: now, zone: zone)
        for (index, title) in ["Buy milk", "MILK the cow", "100% done", "Crème BRÛLÉE", "snake_case", "Call mum"].enumerated() {
            let todo = try store.add(NewTodo(title: title, notes: index == 5 ? "and ask about the milk" : nil,
                                             due: index % 2 == 0 ? .allDay(agenda.today.adding(days: index - 2)) : nil), now: now)
            if index == 1 { _ = try store.setCompleted(ids: [todo.id], done: true, now: now) }
        }
        func summaryAndLines(_ query: TodoQuery) throws -> (AgendaSummary, [AgendaLine]) {
            let summary = try store.agendaSummary(matching: query, agenda: agenda, titleWidth: { $0.count },
                                                  dueWidth: { _ in 3 }, dueWidthVariesByHour: false)
            return (summary, try lines(store, zone: zone, now: now, order: .due, query: query))
        }
        for query in [TodoQuery(search: "milk"), TodoQuery(state: .all, search: "Milk"), TodoQuery(search: "0%"),
                      TodoQuery(search: "brûlée"), TodoQuery(search: "nothing like it"), TodoQuery()] {
            let (summary, listed) = try summaryAndLines(query)
            try store.reading {
                try store.searchingOnce(query) { found in
                    let (foundSummary, foundLines) = try summaryAndLines(found)
                    #expect(foundSummary == summary)
                    #expect(foundLines == listed)
                }
            }
        }
        #expect(try summaryAndLines(TodoQuery(state: .all, search: "milk")).1.count == 3)
    }

    func lines(_ store: TodoStore, zone: TimeZone, now: Date, order: TodoOrder, query: TodoQuery = TodoQuery()) throws -> [AgendaLine] {
        var lines: [AgendaLine] = []
        try store.forEachAgendaLine(matching: query, agenda: Agenda(now: now, zone: zone), order: order) { _, line in
            lines.append(line)
        }
        return lines
    }

    /// The same todos as SQLite sorts them, with their dues in the list's zone.
    func sortedBySQLite(_ store: TodoStore, zone: TimeZone, now: Date, query: TodoQuery = TodoQuery()) throws -> [AgendaLine] {
        var lines: [AgendaLine] = []
        try store.forEachSortedTodo(matching: query, agenda: Agenda(now: now, zone: zone), order: .due) { _, todo in
            let due: Due? = switch todo.due {
            case .at(let instant, _)?: .at(instant, zone: zone)
            case let other: other
            }
            lines.append(AgendaLine(id: todo.id, title: todo.title, due: due, priority: todo.priority,
                                    categoryName: todo.category?.name, isCompleted: todo.isCompleted))
        }
        return lines
    }
}

struct WallClockBoundaryTests {
    /// The next local hour or midnight is never overshot, across offset changes of an hour and
    /// of half an hour; the true one is found by walking a minute at a time.
    @Test(arguments: ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "America/Santiago"])
    func nextBoundaryIsNeverLate(_ name: String) throws {
        let zone = try #require(TimeZone(identifier: name))
        let clock = WallClock(zone: zone)
        var random = SplitMix64(seed: 7)
        // Random moments of 2026, and every half hour of the day before each of its changes.
        var instants = (0..<200).map { _ in Int64.random(in: 1_767_225_600...1_798_761_600, using: &random) }
        var change = zone.nextDaylightSavingTimeTransition(after: Date(timeIntervalSince1970: 1_767_225_600))
        while let moment = change, moment.timeIntervalSince1970 < 1_798_761_600 {
            instants += (1...48).map { Int64(moment.timeIntervalSince1970) - 1800 * $0 + 7 }
            change = zone.nextDaylightSavingTimeTransition(after: moment)
        }
        #expect(instants.count > 200 || name == "Asia/Kolkata")
        for instant in instants {
            for period: Int64 in [3600, 86_400] {
                func bucket(_ seconds: Int64) -> String {
                    let (day, hour, _) = clock.dayAndTime(of: Date(timeIntervalSince1970: TimeInterval(seconds)))
                    return period == 3600 ? "\(day) \(hour)" : "\(day)"
                }
                var trueBoundary = instant + 60 - (instant % 60)
                while bucket(trueBoundary) == bucket(instant) { trueBoundary += 60 }
                let found = clock.nextBoundary(after: instant, every: period)
                #expect(found > instant && found <= trueBoundary, "\(name) \(instant) every \(period)")
            }
        }
    }
}
