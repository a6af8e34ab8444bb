import Foundation
import NudgeCore
import NudgeInterchange
import NudgeStore
import NudgeSync

/// A vdir pass over files another program wrote: the input is up to four .ics files,
/// separated by NUL bytes, in the vdir of a new store. Each pass goes on past a file it
/// cannot read, and a second pass with nothing changed changes nothing.
enum SyncTarget {
    /// One folder for the process, emptied before each input; in memory where there is
    /// /dev/shm, since each pass flushes its files and the database to disk.
    static let root: String = {
        let parent = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        var template = Array((parent + "/nudge-fuzz-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { violated("cannot make a temporary folder") }
        return String(cString: made)
    }()

    static func vdir(_ data: Data) {
        let folder = root + "/vdir"
        try? FileManager.default.removeItem(atPath: root)
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (index, body) in data.split(separator: 0, maxSplits: 3, omittingEmptySubsequences: false).enumerated() {
            _ = FileManager.default.createFile(atPath: folder + "/\(index).ics", contents: Data(body))
        }
        let store: TodoStore
        do {
            store = try TodoStore(path: root + "/nudge.db", planner: ReminderPlanner(config: NudgeConfig(), zone: Fixed.berlin),
                                  now: Fixed.now)
        } catch { violated("cannot make a store: \(error)") }
        let sync = VdirSync(store: store, folder: folder, options: InterchangeOptions(zone: Fixed.berlin, now: Fixed.now))
        do { _ = try sync.pass(now: Fixed.now) } catch { violated("a pass over files refuses the vdir: \(error)") }
        let todos: [Todo]
        do { todos = try store.todos(matching: TodoQuery(state: .all)) } catch { violated("cannot read the store: \(error)") }
        for todo in todos { checkInYears(TodoRecord(todo)) }

        let second: SyncReport
        do { second = try sync.pass(now: Fixed.now.addingTimeInterval(60)) } catch { violated("a second pass fails: \(error)") }
        check(second.imported == 0 && second.written == 0 && second.deletedTodos == 0 && second.deletedFiles == 0
              && second.conflicts == 0, "a second pass with nothing changed changes something: \(second)")
    }
}
