import Foundation
import NudgeCore
import NudgeInterchange
import Testing
@testable import NudgeStore
@testable import NudgeSync
@testable import NudgeTestSupport

/// Two stores (two machines) and one vdir between them, with real files.
struct VdirSyncTests {
    let folder = TemporaryDirectory()
    let berlin = TimeZone(identifier: "Europe/Berlin")!
    let start = Date(timeIntervalSince1970: 1_796_126_400)
    var vdir: String { folder.path + "/todos" }

    init() throws {
        try FileManager.default.createDirectory(atPath: folder.path + "/todos", withIntermediateDirectories: false)
    }

    func makeStore(_ name: String) throws -> TodoStore {
        try TodoStore(path: folder.file(name + ".db"), planner: ReminderPlanner(config: NudgeConfig(), zone: berlin), now: start)
    }

    func sync(_ store: TodoStore) -> VdirSync {
        VdirSync(store: store, folder: vdir, options: InterchangeOptions(zone: berlin, now: start))
    }

    func at(_ minutes: Double) -> Date { start.addingTimeInterval(minutes * 60) }

    func record(_ uuid: String, _ title: String, priority: Priority = .medium, dueIn hours: Double = 24) -> TodoRecord {
        TodoRecord(uuid: uuid, title: title, due: .at(start.addingTimeInterval(hours * 3600), zone: berlin), priority: priority,
                   createdAt: start.addingTimeInterval(-3600), updatedAt: start.addingTimeInterval(-3600))
    }

    func todo(_ store: TodoStore, _ uuid: String) throws -> Todo? {
        try store.todos(matching: TodoQuery(state: .all)).first { $0.uuid == uuid }
    }

    func files() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: vdir).sorted()
    }

    func text(_ name: String) throws -> String {
        try String(contentsOfFile: vdir + "/" + name, encoding: .utf8)
    }

    /// As todoman and vdirsyncer write: a new file renamed over the old one.
    func replace(_ name: String, with text: String) throws {
        let temporary = vdir + "/.edit.tmp"
        try text.write(toFile: temporary, atomically: false, encoding: .utf8)
        #expect(rename(temporary, vdir + "/" + name) == 0)
    }

    func modificationTimes() throws -> [String: Date] {
        var times: [String: Date] = [:]
        for name in try files() {
            times[name] = try FileManager.default.attributesOfItem(atPath: vdir + "/" + name)[.modificationDate] as? Date
        }
        return times
    }

    /// Machine A with two todos, synced into the vdir and from there into machine B.
    func twoMachines() throws -> (a: TodoStore, b: TodoStore) {
        let a = try makeStore("a"), b = try makeStore("b")
        _ = try a.importTodos([record(uuidA, "Buy milk"), record(uuidB, "Call Ann", priority: .high)], now: start)
        let first = try sync(a).pass(now: at(1))
        #expect(first.written == 2)
        let second = try sync(b).pass(now: at(2))
        #expect(second.imported == 2)
        return (a, b)
    }

    /// A series and an override of one of its occurrences (RECURRENCE-ID) in one file, as a
    /// CalDAV server keeps them: the file is the series' todo, and a pass that rewrites it
    /// after an edit here writes the override back.
    @Test func anOverrideOfAnOccurrenceSurvivesAPassThatRewritesItsFile() throws {
        let uid = "series-1@example.org"
        let file = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN", "BEGIN:VTODO", "UID:\(uid)",
            "DTSTAMP:20261101T100000Z", "SUMMARY:Water the plants", "DTSTART;TZID=Europe/Berlin:20261210T090000",
            "DUE;TZID=Europe/Berlin:20261210T090000", "RRULE:FREQ=DAILY;COUNT=5", "END:VTODO",
            "BEGIN:VTODO", "UID:\(uid)", "DTSTAMP:20261101T100000Z", "SUMMARY:Water the big plants",
            "RECURRENCE-ID;TZID=Europe/Berlin:20261212T090000", "DUE;TZID=Europe/Berlin:20261212T180000", "END:VTODO",
            "END:VCALENDAR", "",
        ].joined(separator: "\r\n")
        try replace("series.ics", with: file)
        let store = try makeStore("a")
        let report = try sync(store).pass(now: at(1))
        #expect(report.imported == 1)
        #expect(report.warnings.isEmpty)
        var plants = try #require(try store.todos(matching: TodoQuery(state: .all)).first)
        #expect(plants.title == "Water the plants")
        plants.title = "Water the plants twice"
        _ = try store.update(plants, now: at(2))
        #expect(try sync(store).pass(now: at(3)).written == 1)
        let rewritten = try text("series.ics")
        #expect(rewritten.contains("SUMMARY:Water the plants twice"))
        for line in ["RECURRENCE-ID;TZID=Europe/Berlin:20261212T090000", "SUMMARY:Water the big plants",
                     "DUE;TZID=Europe/Berlin:20261212T180000"] {
            #expect(rewritten.contains(line + "\r\n"))
        }
        // Read again, by a second machine, it is still one todo with its override.
        let other = try makeStore("b")
        #expect(try sync(other).pass(now: at(4)).imported == 1)
        #expect(try other.todos(matching: TodoQuery(state: .all)).map(\.title) == ["Water the plants twice"])
    }

    let uuidA = "0b8c5a0e-4f7e-4a53-9d0e-2b6f5a1c0001"
    let uuidB = "0b8c5a0e-4f7e-4a53-9d0e-2b6f5a1c0002"

    @Test func aReportOfNothingDoneChangedNothing() {
        var report = SyncReport()
        #expect(report.changedNothing)
        report.written = 1
        #expect(!report.changedNothing)
    }

    @Test func theFirstPassWritesOneFileNamedByUIDForEachTodoAndTheOtherMachineReadsThem() throws {
        let (_, b) = try twoMachines()
        #expect(try files() == [uuidA + ".ics", uuidB + ".ics"])
        #expect(try text(uuidA + ".ics").contains("SUMMARY:Buy milk"))
        #expect(try text(uuidA + ".ics").contains("UID:" + uuidA))
        let call = try #require(try todo(b, uuidB))
        #expect(call.title == "Call Ann")
        #expect(call.priority == .high)
        #expect(call.due == .at(start.addingTimeInterval(86_400), zone: berlin))
    }

    @Test func manyTodosAreWrittenTogetherAndNoTemporaryFileStays() throws {
        let store = try makeStore("a")
        let uuids = (1...40).map { String(format: "0b8c5a0e-4f7e-4a53-9d0e-2b6f5a1c%04d", $0) }
        _ = try store.importTodos(uuids.map { record($0, "Todo \($0.suffix(4))") }, now: start)
        let report = try sync(store).pass(now: at(1))
        #expect(report.written == 40)
        #expect(try files() == uuids.map { $0 + ".ics" })
        let other = try makeStore("b")
        #expect(try sync(other).pass(now: at(2)).imported == 40)
        #expect(try sync(store).pass(now: at(3)).changedNothing)
    }

    @Test func theEtagIsVdirsyncersModificationTimeInNanosecondsAndInode() throws {
        let (a, _) = try twoMachines()
        var info = stat()
        #expect(stat(vdir + "/" + uuidA + ".ics", &info) == 0)
        let nanoseconds = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        #expect(try a.syncItems(folder: vdir)[uuidA + ".ics"]?.etag == "\(nanoseconds).000000000;\(info.st_ino)")
    }

    @Test func aPassWithNothingChangedReadsNoFileAndWritesNothing() throws {
        let (a, b) = try twoMachines()
        let before = try modificationTimes()
        let items = try a.syncItems(folder: vdir)
        for store in [a, b] {
            let sync = sync(store)
            let report = try sync.pass(now: at(10))
            #expect(report.changedNothing)
            #expect(report.warnings.isEmpty)
            #expect(sync.bodiesRead == 0)
            #expect(sync.filesWritten == 0)
        }
        #expect(try modificationTimes() == before)
        #expect(try a.syncItems(folder: vdir) == items)
    }

    /// A subtask given in Nudge a parent from tasks.org names it by tasks.org's UID in its file,
    /// which holds the subtask alone: tasks.org knows the parent by nothing else.
    @Test func aSubtaskOfATodoFromAnotherProgramNamesItByTheUIDOfItsFile() throws {
        let store = try makeStore("a")
        try replace("7438299214580284731.ics", with: ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//tasks.org//EN", "BEGIN:VTODO",
                                                      "UID:7438299214580284731", "DTSTAMP:20261118T100000Z", "SUMMARY:Paint walls",
                                                      "END:VTODO", "END:VCALENDAR", ""].joined(separator: "\r\n"))
        #expect(try sync(store).pass(now: at(1)).imported == 1)
        let parent = try #require(try store.todos(matching: TodoQuery(state: .all)).first)
        var child = record(uuidA, "Buy paint")
        child.parentUUID = parent.uuid
        _ = try store.importTodos([child], now: at(2))
        #expect(try sync(store).pass(now: at(3)).written == 1)
        let written = try text(uuidA + ".ics")
        #expect(written.contains("RELATED-TO;RELTYPE=PARENT:7438299214580284731\r\n"), "\(written)")
    }

    @Test func editsTravelBothWays() throws {
        let (a, b) = try twoMachines()
        var milk = try #require(try todo(a, uuidA))
        milk.title = "Buy oat milk"
        _ = try a.update(milk, now: at(5))
        let written = try sync(a).pass(now: at(6))
        #expect(written.written == 1)
        #expect(written.imported == 0)
        let read = try sync(b).pass(now: at(7))
        #expect(read.imported == 1)
        #expect(read.written == 0)
        #expect(try todo(b, uuidA)?.title == "Buy oat milk")

        // Edited in the file, as todoman does.
        try replace(uuidB + ".ics", with: try text(uuidB + ".ics").replacingOccurrences(of: "PRIORITY:1", with: "PRIORITY:9"))
        let back = try sync(a).pass(now: at(8))
        #expect(back.imported == 1)
        #expect(try todo(a, uuidB)?.priority == .low)
        #expect(try sync(a).pass(now: at(9)).changedNothing)
    }

    @Test func deletionsTravelBothWays() throws {
        let (a, b) = try twoMachines()
        let milk = try #require(try todo(a, uuidA))
        _ = try a.delete(ids: [milk.id])
        let deleted = try sync(a).pass(now: at(5))
        #expect(deleted.deletedFiles == 1)
        #expect(try files() == [uuidB + ".ics"])
        let gone = try sync(b).pass(now: at(6))
        #expect(gone.deletedTodos == 1)
        #expect(gone.finishedElsewhere == [uuidA])
        #expect(try todo(b, uuidA) == nil)

        try FileManager.default.removeItem(atPath: vdir + "/" + uuidB + ".ics")
        // The last file went: as for an unmounted disk, nothing is deleted.
        let removed = try sync(b).pass(now: at(7))
        #expect(removed.warnings.count == 1)
        #expect(try b.count() == 1)
    }

    @Test func aFileRewrittenWithNothingNewIsReadOnceAndImportsNothing() throws {
        let (a, _) = try twoMachines()
        let original = try text(uuidA + ".ics")
        let stamp = try #require(original.split(separator: "\r\n").first { $0.hasPrefix("DTSTAMP:") })
        try replace(uuidA + ".ics", with: original.replacingOccurrences(of: stamp, with: "DTSTAMP:20270101T000000Z"))
        let sync = sync(a)
        let report = try sync.pass(now: at(5))
        #expect(report.changedNothing)
        #expect(sync.bodiesRead == 1)
        _ = try sync.pass(now: at(6))
        #expect(sync.bodiesRead == 0)
    }

    @Test func aFileDeletedElsewhereDeletesItsTodo() throws {
        let (_, b) = try twoMachines()
        try FileManager.default.removeItem(atPath: vdir + "/" + uuidA + ".ics")
        let report = try sync(b).pass(now: at(5))
        #expect(report.deletedTodos == 1)
        #expect(report.finishedElsewhere == [uuidA])
        #expect(try todo(b, uuidA) == nil)
        #expect(try todo(b, uuidB) != nil)
    }

    /// A second file with a todo's UID (a copy made beside it, a Syncthing conflict copy) is
    /// left alone with a warning, as vdirsyncer refuses two items with one UID: its content
    /// does not go over the todo's, no pass rewrites a file, and deleting it deletes nothing.
    @Test func aSecondFileWithATodosUIDIsLeftAloneAndDeletingItDeletesNothing() throws {
        let (a, _) = try twoMachines()
        let original = try text(uuidA + ".ics")
        let copyName = uuidA + ".sync-conflict-20261203-ABC.ics"
        let copy = original.replacingOccurrences(of: "SUMMARY:Buy milk", with: "SUMMARY:Buy milk (copy)")
        try copy.write(toFile: vdir + "/" + copyName, atomically: false, encoding: .utf8)
        let report = try sync(a).pass(now: at(5))
        #expect(report.changedNothing, "\(report)")
        #expect(report.warnings == ["\(copyName) has the UID of \(uuidA).ics, the file of that todo: left as it is"])
        #expect(try todo(a, uuidA)?.title == "Buy milk")
        #expect(try text(uuidA + ".ics") == original)
        #expect(try text(copyName) == copy)
        let again = sync(a)
        #expect(try again.pass(now: at(6)).changedNothing)
        #expect(again.bodiesRead == 0)

        try FileManager.default.removeItem(atPath: vdir + "/" + copyName)
        let removed = try sync(a).pass(now: at(7))
        #expect(removed.changedNothing, "\(removed)")
        #expect(try todo(a, uuidA)?.title == "Buy milk")
        #expect(try files().contains(uuidA + ".ics"))
    }

    /// When the todo's own file goes, the second file with its UID is its file from then on.
    @Test func whenATodosFileGoesTheSecondFileWithItsUIDTakesItsPlace() throws {
        let (a, _) = try twoMachines()
        let copyName = uuidA + " (copy).ics"
        let copy = try text(uuidA + ".ics").replacingOccurrences(of: "SUMMARY:Buy milk", with: "SUMMARY:Buy milk (copy)")
        try copy.write(toFile: vdir + "/" + copyName, atomically: false, encoding: .utf8)
        _ = try sync(a).pass(now: at(5))
        try FileManager.default.removeItem(atPath: vdir + "/" + uuidA + ".ics")
        let report = try sync(a).pass(now: at(6))
        #expect(report.deletedTodos == 0, "\(report)")
        #expect(report.imported == 1)
        #expect(try todo(a, uuidA)?.title == "Buy milk (copy)")
        #expect(try sync(a).pass(now: at(7)).changedNothing)
    }

    @Test func anEmptiedFolderDeletesNothingAndIsReported() throws {
        let (a, _) = try twoMachines()
        for name in try files() { try FileManager.default.removeItem(atPath: vdir + "/" + name) }
        let report = try sync(a).pass(now: at(5))
        #expect(report.changedNothing)
        #expect(report.warnings.count == 1)
        #expect(report.warnings.first?.contains("nothing deleted") == true)
        #expect(report.refused)
        #expect(try a.count() == 2)
        #expect(try files().isEmpty)
    }

    @Test func anEmptiedFolderOfOneTodoSaysOneTodo() throws {
        let a = try makeStore("a")
        _ = try a.importTodos([record(uuidA, "Buy milk")], now: start)
        _ = try sync(a).pass(now: at(1))
        for name in try files() { try FileManager.default.removeItem(atPath: vdir + "/" + name) }
        let report = try sync(a).pass(now: at(2))
        #expect(report.refused)
        #expect(report.warnings.first?.contains("holds no .ics files, but 1 todo was synced with it") == true, "\(report)")
    }

    /// nudged passes at every change: an emptied folder is said once, as a link named .ics is,
    /// until what it says changes.
    @Test func anEmptiedFolderStandsUntilItChanges() throws {
        let a = try makeStore("a")
        _ = try a.importTodos([record(uuidA, "Buy milk")], now: start)
        _ = try sync(a).pass(now: at(1))
        for name in try files() { try FileManager.default.removeItem(atPath: vdir + "/" + name) }
        let first = try sync(a).pass(now: at(2))
        let second = try sync(a).pass(now: at(3))
        let warning = try #require(first.warnings.first)
        #expect(first.warnings == [warning] && second.warnings == [warning])
        let key = try #require(first.standingWarnings[warning])
        #expect(second.standingWarnings == [warning: key])
    }

    @Test func twoPassesOverOneFolderTakeTurns() throws {
        let store = try makeStore("a")
        _ = try store.importTodos([record(uuidA, "Buy milk")], now: start)
        // O_CLOEXEC: a child another test starts meanwhile must not inherit, and keep, the lock.
        let held = open(vdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        #expect(flock(held, LOCK_EX) == 0)
        let done = DispatchSemaphore(value: 0)
        let path = folder.file("a.db"), zone = berlin, when = start, vdir = vdir
        Thread.detachNewThread {
            // A store of its own, as another process would have.
            let other = try? TodoStore(path: path, planner: ReminderPlanner(config: NudgeConfig(), zone: zone), now: when)
            _ = other.map { try? VdirSync(store: $0, folder: vdir, options: InterchangeOptions(zone: zone, now: when)).pass(now: when) }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 0.5) == .timedOut)
        #expect(try files().isEmpty)
        close(held)
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(try files() == [uuidA + ".ics"])
    }

    /// A pass lists the folder on a thread of its own while it reads the store: passes run at
    /// once from every thread of Dispatch's pool (as parallel tests run them) all finish.
    @Test func passesFromEveryThreadOfDispatchsPoolFinish() throws {
        let passes = ProcessInfo.processInfo.activeProcessorCount * 2
        let root = folder.path, zone = berlin, when = start
        for index in 0..<passes {
            try FileManager.default.createDirectory(atPath: root + "/vdir-\(index)", withIntermediateDirectories: false)
        }
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            DispatchQueue.concurrentPerform(iterations: passes) { index in
                let store = try? TodoStore(path: root + "/pool-\(index).db",
                                           planner: ReminderPlanner(config: NudgeConfig(), zone: zone), now: when)
                _ = try? store?.add(NewTodo(title: "Todo \(index)"), now: when)
                _ = store.map { try? VdirSync(store: $0, folder: root + "/vdir-\(index)", options: InterchangeOptions(zone: zone, now: when)).pass(now: when) }
            }
            finished.signal()
        }
        #expect(finished.wait(timeout: .now() + 60) == .success)
        for index in 0..<passes {
            #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/vdir-\(index)").count == 1)
        }
    }

    @Test func halfAWriteOfACrashedPassIsRemovedAndOthersFilesAreNot() throws {
        let store = try makeStore("a")
        try "BEGIN:VCALENDAR\r\n".write(toFile: vdir + "/.\(uuidA).ics.nudge-12345.tmp", atomically: false, encoding: .utf8)
        try "theirs".write(toFile: vdir + "/.vdirsyncer-tmp", atomically: false, encoding: .utf8)
        _ = try sync(store).pass(now: at(1))
        #expect(try files() == [".vdirsyncer-tmp"])
    }

    @Test func aMissingFolderIsAnError() throws {
        let store = try makeStore("a")
        let sync = VdirSync(store: store, folder: vdir + "/nowhere", options: InterchangeOptions(zone: berlin, now: start))
        #expect(throws: SyncError.self) { try sync.pass(now: start) }
    }

    @Test func changesToDifferentFieldsOnBothSidesAreMerged() throws {
        let (a, b) = try twoMachines()
        var mine = try #require(try todo(a, uuidA))
        mine.title = "Buy milk and bread"
        _ = try a.update(mine, now: at(5))
        var theirs = try #require(try todo(b, uuidA))
        theirs.priority = .high
        _ = try b.update(theirs, now: at(5))
        _ = try sync(b).pass(now: at(6))
        let merged = try sync(a).pass(now: at(7))
        #expect(merged.conflicts == 0)
        #expect(merged.warnings.isEmpty)
        let onA = try #require(try todo(a, uuidA))
        #expect(onA.title == "Buy milk and bread")
        #expect(onA.priority == .high)
        _ = try sync(b).pass(now: at(8))
        #expect(try todo(b, uuidA)?.title == "Buy milk and bread")
        #expect(try todo(b, uuidA)?.priority == .high)
        #expect(try a.count() == 2)
        #expect(try b.count() == 2)
    }

    @Test func changesToTheSameFieldKeepBothVersions() throws {
        let (a, b) = try twoMachines()
        var mine = try #require(try todo(a, uuidA))
        mine.title = "Buy milk at the market"
        _ = try a.update(mine, now: at(5))
        var theirs = try #require(try todo(b, uuidA))
        theirs.title = "Buy milk at the shop"
        _ = try b.update(theirs, now: at(5))
        _ = try sync(b).pass(now: at(6))
        let report = try sync(a).pass(now: at(7))
        let conflict = try #require(report.conflicted.first)
        #expect(report.conflicts == 1 && report.warnings.isEmpty)
        #expect(conflict.message.contains("title"))
        #expect(conflict.uuid == uuidA)
        #expect(try a.todos(matching: TodoQuery(state: .all)).first { $0.uuid == conflict.copyUUID }?.title == "Buy milk at the shop (conflict)")
        let titles = try a.todos(matching: TodoQuery(state: .all)).map(\.title).sorted()
        #expect(titles == ["Buy milk at the market", "Buy milk at the shop (conflict)", "Call Ann"])
        #expect(try todo(a, uuidA)?.title == "Buy milk at the market")
        #expect(try files().count == 3)
        _ = try sync(b).pass(now: at(8))
        let onB = try b.todos(matching: TodoQuery(state: .all)).map(\.title).sorted()
        #expect(onB == titles)
        #expect(try sync(a).pass(now: at(9)).changedNothing)
        #expect(try sync(b).pass(now: at(10)).changedNothing)
    }

    @Test func theSameTodoOnBothSidesBeforeTheFirstPassIsTakenAsOne() throws {
        let a = try makeStore("a"), b = try makeStore("b")
        let records = [record(uuidA, "Buy milk"), record(uuidB, "Call Ann", priority: .high)]
        _ = try a.importTodos(records, now: start)
        _ = try b.importTodos(records, now: start)
        _ = try sync(a).pass(now: at(1))
        let report = try sync(b).pass(now: at(2))
        #expect(report.changedNothing)
        #expect(report.warnings.isEmpty)
        #expect(try b.count() == 2)
        #expect(try sync(b).pass(now: at(3)).changedNothing)
    }

    @Test func differentVersionsBeforeTheFirstPassAreBothKept() throws {
        let a = try makeStore("a"), b = try makeStore("b")
        _ = try a.importTodos([record(uuidA, "Buy milk")], now: start)
        _ = try b.importTodos([record(uuidA, "Buy oat milk")], now: start)
        _ = try sync(a).pass(now: at(1))
        let report = try sync(b).pass(now: at(2))
        #expect(report.conflicts == 1)
        #expect(try b.todos(matching: TodoQuery(state: .all)).map(\.title).sorted() == ["Buy milk (conflict)", "Buy oat milk"])
    }

    @Test func anEditWinsOverADeletionOnTheOtherSide() throws {
        let (a, b) = try twoMachines()
        _ = try a.delete(ids: [try #require(try todo(a, uuidA)).id])
        _ = try sync(a).pass(now: at(5))
        var theirs = try #require(try todo(b, uuidA))
        theirs.title = "Buy milk, really"
        _ = try b.update(theirs, now: at(5))
        let report = try sync(b).pass(now: at(6))
        #expect(report.written == 1)
        #expect(report.deletedTodos == 0)
        #expect(try files().contains(uuidA + ".ics"))
        _ = try sync(a).pass(now: at(7))
        #expect(try todo(a, uuidA)?.title == "Buy milk, really")
    }

    @Test func aCalendarEventIsLeftAloneByteForByte() throws {
        let event = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//EN", "BEGIN:VEVENT", "UID:event-1",
            "DTSTAMP:20261101T100000Z", "DTSTART:20261201T100000Z", "SUMMARY:Dentist", "END:VEVENT", "END:VCALENDAR", "",
        ].joined(separator: "\r\n")
        try event.write(toFile: vdir + "/event-1.ics", atomically: false, encoding: .utf8)
        let before = try modificationTimes()["event-1.ics"]
        let (a, _) = try twoMachines()
        var milk = try #require(try todo(a, uuidA))
        milk.title = "Buy more milk"
        _ = try a.update(milk, now: at(5))
        _ = try sync(a).pass(now: at(6))
        #expect(try text("event-1.ics") == event)
        #expect(try modificationTimes()["event-1.ics"] == before)
        #expect(try a.count() == 2)
        let again = sync(a)
        _ = try again.pass(now: at(7))
        #expect(again.bodiesRead == 0)
    }

    @Test func propertiesNudgeHasNoFieldForAreKeptWhenItRewritesTheFile() throws {
        let uid = "20261201-todoman@example.com"
        let file = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//todoman//EN", "BEGIN:VTODO", "UID:\(uid)",
            "DTSTAMP:20261101T100000Z", "SUMMARY:Water the plants", "LOCATION:Balcony", "X-FOO;X-BAR=baz:qux",
            "PRIORITY:5", "STATUS:NEEDS-ACTION", "END:VTODO", "END:VCALENDAR", "",
        ].joined(separator: "\r\n")
        try replace("todoman-item.ics", with: file)
        let store = try makeStore("a")
        let report = try sync(store).pass(now: at(1))
        #expect(report.imported == 1)
        #expect(report.written == 0)
        #expect(try text("todoman-item.ics") == file)
        var plants = try #require(try store.todos(matching: TodoQuery(state: .all)).first)
        plants.title = "Water the plants twice"
        _ = try store.update(plants, now: at(2))
        let written = try sync(store).pass(now: at(3))
        #expect(written.written == 1)
        #expect(try files() == ["todoman-item.ics"])
        let rewritten = try text("todoman-item.ics")
        for line in ["SUMMARY:Water the plants twice", "LOCATION:Balcony", "X-FOO;X-BAR=baz:qux", "UID:\(uid)"] {
            #expect(rewritten.contains(line))
        }
    }

    /// RFC 9073's PARTICIPANT (or any component libical does not know) inside a todo: written
    /// back as it was when an edit here rewrites the file, so that vdirsyncer pushes no loss.
    @Test func aComponentOfAnotherKindInATodoSurvivesAPassThatRewritesItsFile() throws {
        let participant = [
            "BEGIN:PARTICIPANT", "UID:participant-1@example.org", "PARTICIPANT-TYPE:ACTIVE",
            "CALENDAR-ADDRESS:mailto:ann@example.org", "BEGIN:VLOCATION", "UID:place-1", "NAME:Kitchen", "END:VLOCATION",
            "END:PARTICIPANT",
        ]
        let file = ([
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//server//EN", "BEGIN:VTODO", "UID:meeting-1@example.org",
            "DTSTAMP:20261101T100000Z", "SUMMARY:Plan the party", "DUE:20261210T090000Z",
        ] + participant + ["END:VTODO", "END:VCALENDAR", ""]).joined(separator: "\r\n")
        try replace("meeting.ics", with: file)
        let store = try makeStore("a")
        let report = try sync(store).pass(now: at(1))
        #expect(report.imported == 1)
        #expect(report.warnings.isEmpty)
        var party = try #require(try store.todos(matching: TodoQuery(state: .all)).first)
        party.title = "Plan the big party"
        _ = try store.update(party, now: at(2))
        #expect(try sync(store).pass(now: at(3)).written == 1)
        let rewritten = try text("meeting.ics")
        #expect(rewritten.contains("SUMMARY:Plan the big party"))
        #expect(rewritten.contains("\r\n" + (participant + ["END:VTODO"]).joined(separator: "\r\n") + "\r\n"), "\(rewritten)")
        // Another machine reads it, changes it, and writes it back with the participant still.
        let other = try makeStore("b")
        #expect(try sync(other).pass(now: at(4)).imported == 1)
        var theirs = try #require(try other.todos(matching: TodoQuery(state: .all)).first)
        theirs.title = "Plan the biggest party"
        _ = try other.update(theirs, now: at(5))
        #expect(try sync(other).pass(now: at(6)).written == 1)
        #expect(try text("meeting.ics").contains((participant + ["END:VTODO"]).joined(separator: "\r\n")))
    }

    /// The copy a conflict makes has its own UID, and its PARTICIPANT keeps its UID.
    @Test func aConflictCopyKeepsTheUIDOfAComponentItHolds() throws {
        let file = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VTODO", "UID:meeting-2@example.org", "SUMMARY:Plan",
            "BEGIN:PARTICIPANT", "UID:participant-2@example.org", "PARTICIPANT-TYPE:ACTIVE", "END:PARTICIPANT",
            "END:VTODO", "END:VCALENDAR", "",
        ].joined(separator: "\r\n")
        try replace("meeting.ics", with: file)
        let a = try makeStore("a"), b = try makeStore("b")
        #expect(try sync(a).pass(now: at(1)).imported == 1)
        #expect(try sync(b).pass(now: at(2)).imported == 1)
        for (store, title) in [(a, "Plan here"), (b, "Plan there")] {
            var todo = try #require(try store.todos(matching: TodoQuery(state: .all)).first)
            todo.title = title
            _ = try store.update(todo, now: at(3))
        }
        _ = try sync(b).pass(now: at(4))
        let report = try sync(a).pass(now: at(5))
        #expect(report.conflicts == 1)
        let copy = try #require(try files().first { $0 != "meeting.ics" })
        let text = try text(copy)
        #expect(text.contains("SUMMARY:Plan there (conflict)"))
        #expect(!text.contains("UID:meeting-2@example.org"))
        #expect(text.contains("BEGIN:PARTICIPANT\r\nUID:participant-2@example.org\r\n"), "\(text)")
    }

    /// A rule Nudge cannot follow comes in without repeating, and the pass says so.
    @Test func aRuleNudgeCannotFollowIsAWarningOfThePass() throws {
        let file = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VTODO", "UID:tick", "SUMMARY:Tick", "DUE:20261210T090000Z",
            "RRULE:FREQ=SECONDLY", "END:VTODO", "END:VCALENDAR", "",
        ].joined(separator: "\r\n")
        try replace("tick.ics", with: file)
        let report = try sync(try makeStore("a")).pass(now: at(1))
        #expect(report.imported == 1)
        #expect(report.warnings == ["tick.ics: todo 1: \"RRULE\" 'FREQ=SECONDLY' is not a repeat nudge can follow:"
                                    + " imported without repeating (kept for export)"])
    }

    /// A calendar file of RFC 9073 locations in the vdir: left alone, and the pass goes on.
    @Test func aFileOfComponentsOfAnotherKindIsLeftAlone() throws {
        let file = "BEGIN:VCALENDAR\nBEGIN:VLOCATION\nEND:VLOCATION\nEND:VCALENDAR\n"
        try replace("loc.ics", with: file)
        let store = try makeStore("a")
        _ = try store.importTodos([record(uuidA, "Buy milk")], now: start)
        let report = try sync(store).pass(now: at(1))
        #expect(report.written == 1)
        #expect(report.imported == 0)
        #expect(try text("loc.ics") == file)
    }

    @Test func completionTravelsAndFinishesTheTodoElsewhere() throws {
        let (a, b) = try twoMachines()
        _ = try a.setCompleted(ids: [try #require(try todo(a, uuidA)).id], done: true, now: at(5))
        _ = try sync(a).pass(now: at(6))
        let report = try sync(b).pass(now: at(7))
        #expect(report.finishedElsewhere == [uuidA])
        #expect(try todo(b, uuidA)?.completedAt != nil)
    }

    @Test func aSnoozeTravelsAsAnRFC9074SnoozeAlarm() throws {
        let (a, b) = try twoMachines()
        let until = at(90)
        _ = try a.snooze(todoID: try #require(try todo(a, uuidA)).id, until: until, now: at(5))
        #expect(try sync(a).pass(now: at(6)).written == 1)
        #expect(try text(uuidA + ".ics").contains("RELATED-TO;RELTYPE=SNOOZE:"))
        let report = try sync(b).pass(now: at(7))
        #expect(report.acknowledgedElsewhere == [uuidA])
        let subject = try b.reminderSubject(id: try #require(try todo(b, uuidA)).id)
        #expect(subject.snoozedUntil == until)
    }

    @Test func aReminderFiredOnOneMachineIsAcknowledgedOnTheOther() throws {
        let (a, b) = try twoMachines()
        // Due in 24 hours: the default reminder at the due fires on A.
        let due = start.addingTimeInterval(86_400)
        let fired = try a.dueReminders(through: due).filter { $0.at <= due }
        #expect(!fired.isEmpty)
        try a.recordFired(fired, firedAt: due)
        let written = try sync(a).pass(now: due.addingTimeInterval(60))
        #expect(written.written >= 1)
        #expect(try text(uuidA + ".ics").contains("ACKNOWLEDGED:"))
        let read = try sync(b).pass(now: due.addingTimeInterval(120))
        #expect(read.acknowledgedElsewhere.contains(uuidA))
        let subject = try b.reminderSubject(id: try #require(try todo(b, uuidA)).id)
        #expect((subject.remindedThrough ?? .distantPast) >= due)
        #expect(try b.upcoming(from: start, through: due).filter { $0.todoID == subject.todo.id }.isEmpty)
    }
}
