import Foundation
import NudgeCore
import NudgeInterchange
import Testing
@testable import NudgeStore
@testable import NudgeSync
@testable import NudgeTestSupport

/// Blockers (`after`) through a vdir two stores share, as RELATED-TO;RELTYPE=DEPENDS-ON.
extension VdirSyncTests {
    func id(_ store: TodoStore, _ uuid: String) throws -> Int64 {
        try #require(try todo(store, uuid)).id
    }

    func blockers(_ store: TodoStore, _ uuid: String) throws -> Set<String> {
        Set(try #require(try todo(store, uuid)).after)
    }

    @Test func aBlockerAddedOnOneMachineIsOnTheOtherAndSoIsItsRemoval() throws {
        let (a, b) = try twoMachines()
        _ = try a.changeBlockers(todoID: try id(a, uuidA), adding: [try id(a, uuidB)], removing: [], now: at(3))
        #expect(try sync(a).pass(now: at(4)).written == 1)
        #expect(try text(uuidA + ".ics").contains("RELATED-TO;RELTYPE=DEPENDS-ON:" + uuidB))
        #expect(try sync(b).pass(now: at(5)).imported == 1)
        #expect(try blockers(b, uuidA) == [uuidB])
        #expect(try b.blockers(of: [try id(b, uuidA)])[try id(b, uuidA)]?.map(\.title) == ["Call Ann"])
        #expect(try sync(b).pass(now: at(6)).changedNothing)

        _ = try a.changeBlockers(todoID: try id(a, uuidA), adding: [], removing: [try id(a, uuidB)], now: at(7))
        #expect(try sync(a).pass(now: at(8)).written == 1)
        #expect(try sync(b).pass(now: at(9)).imported == 1)
        #expect(try blockers(b, uuidA).isEmpty)
        #expect(try sync(a).pass(now: at(10)).changedNothing)
        #expect(try sync(b).pass(now: at(10)).changedNothing)
    }

    /// vdirsyncer may bring the blocked todo's file in one run and its blocker's in a later one.
    @Test func aBlockerWhoseTodoArrivesLaterIsLinkedWhenItArrivesAndKeptMeanwhile() throws {
        let a = try makeStore("a"), b = try makeStore("b")
        var blocked = record(uuidA, "Deploy")
        blocked.after = [uuidB]
        _ = try a.importTodos([record(uuidB, "Write tests"), blocked], now: start)
        _ = try sync(a).pass(now: at(1))
        let away = folder.file(uuidB + ".ics")
        #expect(rename(vdir + "/" + uuidB + ".ics", away) == 0)
        #expect(try sync(b).pass(now: at(2)).imported == 1)
        #expect(try b.count() == 1)
        // An edit of the blocked todo here meanwhile writes its blocker back with it.
        var deploy = try #require(try todo(b, uuidA))
        deploy.title = "Deploy to production"
        _ = try b.update(deploy, now: at(3))
        #expect(try sync(b).pass(now: at(4)).written == 1)
        #expect(try text(uuidA + ".ics").contains("RELATED-TO;RELTYPE=DEPENDS-ON:" + uuidB))

        #expect(rename(away, vdir + "/" + uuidB + ".ics") == 0)
        #expect(try sync(b).pass(now: at(5)).imported == 1)
        #expect(try blockers(b, uuidA) == [uuidB])
        #expect(try b.blockers(of: [try id(b, uuidA)])[try id(b, uuidA)]?.map(\.title) == ["Write tests"])
        _ = try sync(b).pass(now: at(6))
        #expect(try sync(b).pass(now: at(7)).changedNothing)
        #expect(try sync(a).pass(now: at(8)).imported == 1)
        #expect(try blockers(a, uuidA) == [uuidB])
        #expect(try todo(a, uuidA)?.title == "Deploy to production")
    }
}

extension ConcurrentEditTests {
    /// A blocker added on each machine before either has seen the other's survives on both; one
    /// removed on one machine stays removed, as tags merge.
    @Test func blockersAddedOnEachMachineBothSurviveAndOneRemovedStaysRemoved() throws {
        let (a, b) = try twoMachines()
        let cash = "0b8c5a0e-4f7e-4a53-9d0e-2b6f5a1c0003", car = "0b8c5a0e-4f7e-4a53-9d0e-2b6f5a1c0004"
        let created = start.addingTimeInterval(-3600)
        _ = try a.importTodos([TodoRecord(uuid: cash, title: "Get cash", createdAt: created, updatedAt: created),
                               TodoRecord(uuid: car, title: "Fill the car", createdAt: created, updatedAt: created)], now: at(2))
        _ = try pass(a, "a", at: 3)
        for name in [cash, car].map({ $0 + ".ics" }) { try carry(name, from: "a", to: "b") }
        _ = try pass(b, "b", at: 3)
        func blockers(_ store: TodoStore) throws -> Set<String> { Set(try todo(store, uuid).after) }
        func block(_ store: TodoStore, adding: [String], removing: [String], at minutes: Double) throws {
            let ids = { (uuids: [String]) in try uuids.map { try self.todo(store, $0).id } }
            _ = try store.changeBlockers(todoID: try todo(store, uuid).id, adding: try ids(adding), removing: try ids(removing),
                                         now: at(minutes))
        }
        try block(a, adding: [other], removing: [], at: 4)
        _ = try pass(a, "a", at: 5)
        try carry(file, from: "a", to: "b")
        _ = try pass(b, "b", at: 5)
        #expect(try blockers(b) == [other])

        try block(a, adding: [cash], removing: [other], at: 6)
        try block(b, adding: [car], removing: [], at: 6)
        _ = try pass(a, "a", at: 7)
        _ = try pass(b, "b", at: 7)
        // A's file won on the server: B merges it with its own edit.
        try carry(file, from: "a", to: "b")
        let merged = try pass(b, "b", at: 8)
        #expect(merged.conflicts == 0)
        #expect(try blockers(b) == [cash, car])
        try carry(file, from: "b", to: "a")
        _ = try pass(a, "a", at: 9)
        #expect(try blockers(a) == [cash, car])
        #expect(try pass(a, "a", at: 10).changedNothing)
        #expect(try pass(b, "b", at: 10).changedNothing)
        #expect(try text("a") == text("b"))
    }
}
