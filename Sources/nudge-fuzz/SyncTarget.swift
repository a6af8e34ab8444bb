import Foundation
import NudgeCore
import NudgeInterchange
import NudgePlatform
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

    static let planner = ReminderPlanner(config: NudgeConfig(), zone: Fixed.berlin)

    /// The file of a new store, made once: making one runs every migration, whose statements
    /// SQLite parses with thousands of allocations, each slow under the sanitizer.
    /// Bytes rather than Data, whose storage LeakSanitizer does not see a global hold.
    static let newStore: [UInt8] = {
        let path = root + "/new.db"
        do {
            let store = try TodoStore(path: path, planner: planner, now: Fixed.now)
            // What opening wrote is in the log: into the file, which alone is then the store.
            try store.checkpointLog()
        } catch { violated("cannot make a store: \(error)") }
        do {
            let descriptor = try FileDescriptor.open(path, O_RDONLY)
            return try descriptor.closeAfter { () throws(BoundedReadError) in [UInt8](try BoundedRead.read(descriptor, limit: 1 << 24)) }
        } catch { violated("cannot read the new store: \(error)") }
    }()

    static func vdir(_ data: Data) {
        let folder = root + "/vdir", path = root + "/nudge.db"
        let newStore = newStore  // made in the folder, before it is emptied
        try? FileManager.default.removeItem(atPath: root)
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: path, contents: Data(newStore), attributes: [.posixPermissions: 0o600]) else {
            violated("cannot write the new store")
        }
        for (index, body) in data.split(separator: 0, maxSplits: 3, omittingEmptySubsequences: false).enumerated() {
            _ = FileManager.default.createFile(atPath: folder + "/\(index).ics", contents: Data(body))
        }
        let store: TodoStore
        do {
            store = try TodoStore(path: path, planner: planner, now: Fixed.now)
        } catch { violated("cannot open a new store: \(error)") }
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
