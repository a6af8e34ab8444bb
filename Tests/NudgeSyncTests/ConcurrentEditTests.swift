import Foundation
import NudgeCore
import NudgeInterchange
import Testing
@testable import NudgeStore
@testable import NudgeSync
@testable import NudgeTestSupport

/// Two machines, each with its own vdir, and files carried between the folders as vdirsyncer
/// carries them through a server: both machines' edits are in their folders before either
/// syncs, and vdirsyncer's conflict resolution puts one machine's file over the other's.
struct ConcurrentEditTests {
    let folder = TemporaryDirectory()
    let berlin = TimeZone(identifier: "Europe/Berlin")!
    let start = Date(timeIntervalSince1970: 1_796_126_400)
    let uuid = "0b8c5a0e-4f7e-4a53-9d0e-2b6f5a1c0001"
    let other = "0b8c5a0e-4f7e-4a53-9d0e-2b6f5a1c0002"
    var file: String { uuid + ".ics" }

    init() throws {
        for name in ["a", "b"] {
            try FileManager.default.createDirectory(atPath: vdir(name), withIntermediateDirectories: false)
        }
    }

    func vdir(_ machine: String) -> String { folder.path + "/" + machine }

    func at(_ minutes: Double) -> Date { start.addingTimeInterval(minutes * 60) }

    func pass(_ store: TodoStore, _ machine: String, at minutes: Double) throws -> SyncReport {
        try VdirSync(store: store, folder: vdir(machine), options: InterchangeOptions(zone: berlin, now: start))
            .pass(now: at(minutes))
    }

    func todo(_ store: TodoStore, _ uuid: String) throws -> Todo {
        try #require(try store.todos(matching: TodoQuery(state: .all)).first { $0.uuid == uuid })
    }

    func edit(_ store: TodoStore, at minutes: Double, _ change: (inout Todo) -> Void) throws {
        var todo = try todo(store, uuid)
        change(&todo)
        _ = try store.update(todo, now: at(minutes))
    }

    /// What vdirsyncer does with a file it takes from the other side: a new file renamed over.
    func carry(_ name: String, from source: String, to target: String) throws {
        let text = try String(contentsOfFile: vdir(source) + "/" + name, encoding: .utf8)
        let temporary = vdir(target) + "/.vdirsyncer.tmp"
        try text.write(toFile: temporary, atomically: false, encoding: .utf8)
        #expect(rename(temporary, vdir(target) + "/" + name) == 0)
    }

    func text(_ machine: String) throws -> String {
        try String(contentsOfFile: vdir(machine) + "/" + file, encoding: .utf8)
    }

    /// A with two todos, synced into its folder, carried to B's and synced into B.
    func twoMachines() throws -> (a: TodoStore, b: TodoStore) {
        let a = try TodoStore(path: folder.file("a.db"), planner: ReminderPlanner(config: NudgeConfig(), zone: berlin), now: start)
        let b = try TodoStore(path: folder.file("b.db"), planner: ReminderPlanner(config: NudgeConfig(), zone: berlin), now: start)
        let created = start.addingTimeInterval(-3600)
        _ = try a.importTodos([
            TodoRecord(uuid: uuid, title: "Buy milk", due: .at(at(24 * 60), zone: berlin), createdAt: created, updatedAt: created),
            TodoRecord(uuid: other, title: "Call Ann", priority: .high, createdAt: created, updatedAt: created),
        ], now: start)
        #expect(try pass(a, "a", at: 1).written == 2)
        for name in [file, other + ".ics"] { try carry(name, from: "a", to: "b") }
        #expect(try pass(b, "b", at: 2).imported == 2)
        return (a, b)
    }

    @Test func anotherMachinesFilePutOverAnEditHereIsMergedWithIt() throws {
        let (a, b) = try twoMachines()
        try edit(a, at: 5) { $0.title = "Buy milk and bread" }
        try edit(b, at: 5) { $0.priority = .high }
        #expect(try pass(a, "a", at: 6).written == 1)
        #expect(try pass(b, "b", at: 6).written == 1)
        // A synced first; B's vdirsyncer found both changed and took the server's copy.
        try carry(file, from: "a", to: "b")
        let merged = try pass(b, "b", at: 7)
        #expect(merged.conflicts == 0)
        #expect(merged.warnings.isEmpty)
        #expect(try todo(b, uuid).title == "Buy milk and bread")
        #expect(try todo(b, uuid).priority == .high)
        #expect(merged.written == 1)
        // B's merge goes up; A takes it without merging again.
        try carry(file, from: "b", to: "a")
        let taken = try pass(a, "a", at: 8)
        #expect(taken.imported == 1)
        #expect(taken.written == 0)
        #expect(try todo(a, uuid).title == "Buy milk and bread")
        #expect(try todo(a, uuid).priority == .high)
        #expect(try pass(a, "a", at: 9).changedNothing)
        #expect(try pass(b, "b", at: 9).changedNothing)
        #expect(try text("a") == text("b"))
    }

    @Test func tagsAddedOnEachMachineBothSurviveAndOneRemovedIsGoneOnBoth() throws {
        let (a, b) = try twoMachines()
        try edit(a, at: 3) { $0.tags = ["milk", "shop"] }
        _ = try pass(a, "a", at: 4)
        try carry(file, from: "a", to: "b")
        _ = try pass(b, "b", at: 4)
        #expect(try todo(b, uuid).tags == ["milk", "shop"])
        try edit(a, at: 5) { $0.tags = ["milk", "urgent"] }
        try edit(b, at: 5) { $0.tags = ["milk", "shop", "weekly"] }
        _ = try pass(a, "a", at: 6)
        _ = try pass(b, "b", at: 6)
        // A's file won on the server: B merges it with its own edit.
        try carry(file, from: "a", to: "b")
        let merged = try pass(b, "b", at: 7)
        #expect(merged.conflicts == 0)
        #expect(try todo(b, uuid).tags == ["milk", "weekly", "urgent"])
        try carry(file, from: "b", to: "a")
        _ = try pass(a, "a", at: 8)
        #expect(try todo(a, uuid).tags == ["milk", "weekly", "urgent"])
        #expect(try pass(a, "a", at: 9).changedNothing)
        #expect(try pass(b, "b", at: 9).changedNothing)
        #expect(try text("a") == text("b"))
        #expect(try text("a").contains("CATEGORIES:milk,weekly,urgent"))
    }

    @Test func theOtherWayRoundToo() throws {
        let (a, b) = try twoMachines()
        try edit(a, at: 5) { $0.title = "Buy milk and bread" }
        try edit(b, at: 5) { $0.priority = .high }
        _ = try pass(a, "a", at: 6)
        _ = try pass(b, "b", at: 6)
        // B won on the server: A's vdirsyncer puts B's file over A's edit.
        try carry(file, from: "b", to: "a")
        #expect(try pass(a, "a", at: 7).conflicts == 0)
        #expect(try todo(a, uuid).title == "Buy milk and bread")
        #expect(try todo(a, uuid).priority == .high)
        try carry(file, from: "a", to: "b")
        #expect(try pass(b, "b", at: 8).imported == 1)
        #expect(try todo(b, uuid).title == "Buy milk and bread")
        #expect(try todo(b, uuid).priority == .high)
    }

    @Test func theSameFieldEditedOnBothKeepsBothVersionsOnBoth() throws {
        let (a, b) = try twoMachines()
        try edit(a, at: 5) { $0.notes = "semi-skimmed" }
        try edit(b, at: 5) { $0.notes = "oat milk" }
        _ = try pass(a, "a", at: 6)
        _ = try pass(b, "b", at: 6)
        try carry(file, from: "a", to: "b")
        let report = try pass(b, "b", at: 7)
        #expect(report.conflicts == 1)
        #expect(report.conflicted.first?.message.contains("notes") == true)
        #expect(report.conflicted.first?.uuid == uuid)
        for name in try FileManager.default.contentsOfDirectory(atPath: vdir("b")) where name.hasSuffix(".ics") {
            try carry(name, from: "b", to: "a")
        }
        _ = try pass(a, "a", at: 8)
        for store in [a, b] {
            let notes = try store.todos(matching: TodoQuery(state: .all)).compactMap(\.notes).sorted()
            #expect(notes == ["oat milk", "semi-skimmed"])
            #expect(try store.count() == 3)
        }
    }

    @Test func severalEditsHereBeforeTheOtherMachinesVersionArrivesAreAllKept() throws {
        let (a, b) = try twoMachines()
        try edit(a, at: 5) { $0.title = "Buy milk and bread" }
        _ = try pass(a, "a", at: 6)
        try edit(a, at: 7) { $0.notes = "from the market" }
        _ = try pass(a, "a", at: 8)
        try edit(b, at: 5) { $0.priority = .low }
        _ = try pass(b, "b", at: 6)
        try carry(file, from: "b", to: "a")
        #expect(try pass(a, "a", at: 9).conflicts == 0)
        let merged = try todo(a, uuid)
        #expect(merged.title == "Buy milk and bread")
        #expect(merged.notes == "from the market")
        #expect(merged.priority == .low)
    }

    @Test func editsTakingTurnsThroughTheServerNeverConflict() throws {
        let (a, b) = try twoMachines()
        for round in 0..<3 {
            let minutes = Double(10 * round + 5)
            try edit(a, at: minutes) { $0.title = "Buy milk, round \(round)" }
            #expect(try pass(a, "a", at: minutes + 1).written == 1)
            try carry(file, from: "a", to: "b")
            let onB = try pass(b, "b", at: minutes + 2)
            #expect(onB.imported == 1 && onB.conflicts == 0)
            try edit(b, at: minutes + 3) { $0.notes = "round \(round)" }
            #expect(try pass(b, "b", at: minutes + 4).written == 1)
            try carry(file, from: "b", to: "a")
            let onA = try pass(a, "a", at: minutes + 5)
            #expect(onA.imported == 1 && onA.conflicts == 0 && onA.written == 0)
        }
        #expect(try todo(a, uuid).title == "Buy milk, round 2")
        #expect(try todo(a, uuid).notes == "round 2")
        #expect(try store(a, equals: b))
    }

    @Test func anotherProgramsEditOfAFileWrittenHereIsTakenWithoutAConflict() throws {
        let (a, _) = try twoMachines()
        try edit(a, at: 5) { $0.title = "Buy milk and bread" }
        _ = try pass(a, "a", at: 6)
        let written = try text("a")
        #expect(written.contains(Ancestry.selfName + ":"))
        #expect(written.contains(Ancestry.baseName + ":"))
        // As todoman edits: the same field changed again, the properties it does not know kept.
        let edited = written.replacingOccurrences(of: "SUMMARY:Buy milk and bread", with: "SUMMARY:Buy oat milk")
        #expect(edited != written)
        try edited.write(toFile: vdir("a") + "/.todoman.tmp", atomically: false, encoding: .utf8)
        #expect(rename(vdir("a") + "/.todoman.tmp", vdir("a") + "/" + file) == 0)
        let report = try pass(a, "a", at: 7)
        #expect(report.conflicts == 0)
        #expect(report.imported == 1)
        #expect(try todo(a, uuid).title == "Buy oat milk")
    }

    @Test func theAncestryPropertiesNeverReachTheStore() throws {
        let (a, b) = try twoMachines()
        try edit(a, at: 5) { $0.title = "Buy milk and bread" }
        _ = try pass(a, "a", at: 6)
        try carry(file, from: "a", to: "b")
        _ = try pass(b, "b", at: 7)
        let record = try #require(try b.records(.all).first { $0.uuid == uuid })
        #expect(!(record.kept["ics"] ?? "").contains("X-NUDGE-SELF"))
        #expect(!(record.kept["ics"] ?? "").contains("X-NUDGE-BASE"))
    }

    @Test func aReminderShownHereTravelsEvenWhenAnotherMachinesFileIsPutOverIt() throws {
        let (a, b) = try twoMachines()
        // The default reminder at the due (in 24 hours) fires on B, which writes it to its file.
        let due = at(24 * 60)
        let fired = try b.dueReminders(through: due).filter { $0.at <= due && $0.todoID == (try? todo(b, uuid).id) }
        try #require(!fired.isEmpty)
        try b.recordFired(fired, firedAt: due)
        #expect(try pass(b, "b", at: 24 * 60 + 1).written == 1)
        // A edited the title meanwhile; the server's copy (A's) goes over B's file.
        try edit(a, at: 24 * 60) { $0.title = "Buy oat milk" }
        _ = try pass(a, "a", at: 24 * 60 + 1)
        try carry(file, from: "a", to: "b")
        let onB = try pass(b, "b", at: 24 * 60 + 2)
        #expect(try todo(b, uuid).title == "Buy oat milk")
        #expect(onB.written == 1)
        #expect(try text("b").contains("ACKNOWLEDGED:"))
        try carry(file, from: "b", to: "a")
        let onA = try pass(a, "a", at: 24 * 60 + 3)
        #expect(onA.acknowledgedElsewhere == [uuid])
        #expect(try pass(a, "a", at: 24 * 60 + 4).changedNothing)
        #expect(try pass(b, "b", at: 24 * 60 + 4).changedNothing)
    }

    func store(_ a: TodoStore, equals b: TodoStore) throws -> Bool {
        let left = try a.records(.all).sorted { $0.uuid < $1.uuid }
        let right = try b.records(.all).sorted { $0.uuid < $1.uuid }
        return left.map { FieldMerge.fingerprint($0) } == right.map { FieldMerge.fingerprint($0) }
    }
}
