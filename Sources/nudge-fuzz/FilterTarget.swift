import Foundation
import NudgeCore
import NudgeFilter
import NudgeStore

/// A filter as `nudge list FILTER` takes it: the input is its words, separated by NUL bytes as
/// a command line's arguments are. What parses runs as SQL against a small store, where it
/// selects todos or names a category there is none of, and nothing else.
enum FilterTarget {
    static let parsers = CoreTargets.whenParsers.prefix(2).map { FilterParser(when: $0) }

    /// A store of a few todos, with the tags, parent, blocker and repeat the terms look at,
    /// opened once: each input only reads it.
    nonisolated(unsafe) static let store: TodoStore = {
        let folder = SyncTarget.root + "-filter"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/nudge.db"
        try? FileManager.default.removeItem(atPath: path)
        do {
            let store = try TodoStore(path: path, planner: SyncTarget.planner, now: Fixed.now)
            _ = try store.addCategory(name: "Work", icon: nil, now: Fixed.now)
            let parent = try store.add(NewTodo(title: "Plan trip", notes: "oat milk", due: .at(Fixed.now, zone: Fixed.berlin),
                                               priority: .high, categoryName: "Work", tags: ["trip", "Ünï"]), now: Fixed.now)
            var child = NewTodo(title: "Book 100% _train_", due: .allDay(LocalDate(year: 2026, month: 12, day: 24)!))
            child.parentID = parent.id
            child.after = [parent.id]
            _ = try store.add(child, now: Fixed.now)
            return store
        } catch { violated("cannot make the filter's store: \(error)") }
    }()

    static func filter(_ data: Data) {
        let words = data.split(separator: 0, maxSplits: 64, omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        for parser in parsers {
            guard let parsed = try? parser.parse(words) else { continue }
            check((try? parser.parse(words)) == parsed, "filter \(words) reads differently the second time")
            for term in parsed.filter?.terms ?? [] {
                if case .due(let window) = term { checkInYears(window, "filter \(words)") }
                if case .overdue(let window) = term { checkInYears(window, "filter \(words)") }
                if case .ids(let ranges) = term {
                    check(ranges.allSatisfy { $0.lowerBound > 0 }, "filter \(words) has ids \(ranges)")
                }
            }
            var query = TodoQuery(state: .all)
            query.filter = parsed.filter
            do {
                _ = try store.todos(matching: query)
            } catch .noSuchCategory {
            } catch {
                violated("filter \(words) fails in the store: \(error)")
            }
        }
    }

    static func checkInYears(_ window: DueWindow, _ what: String) {
        for day in [window.firstDay, window.lastDay].compactMap({ $0 }) {
            check((1...9999).contains(day.year), "\(what): day \(day) is out of 0001-9999")
        }
    }
}
