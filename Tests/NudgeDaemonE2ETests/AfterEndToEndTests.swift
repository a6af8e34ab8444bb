import Foundation
import Testing
@testable import NudgeTestSupport

extension NudgedEndToEndTests {
    /// A todo after another pending one is held past its due, and shown at once, one
    /// notification for what fell due meanwhile, when `nudge done` finishes its blocker: as
    /// `[catchup] policy` says, one naming the todos (digest, the default) or the todo's own.
    @Test(arguments: [("", "Came due while blocked: 1 todo"), ("[catchup]\npolicy = all\n", "Deploy")])
    func aBlockedTodosReminderIsHeldAndComesWhenItsBlockerIsDone(catchUp: String, summary: String) async throws {
        let world = try NudgedWorld(config: NudgedWorld.quietConfig + catchUp)
        let daemon = try await world.startDaemonAndWait()
        let tests = try world.nudge("add", "Write tests", "--json")
        let blocker = try #require(try tests.object()["id"] as? Int)
        let due = world.secondsAhead(2)
        let deploy = try world.add("Deploy", due: due, "--after", String(blocker))
        // Past its due, and its reminder 10 minutes before that: nothing is shown.
        try await Task.sleep(for: .seconds(3))
        #expect(try world.server.records().isEmpty)
        let explain = try world.nudge("explain", String(deploy)).stdout
        #expect(explain.contains("held: after \(blocker) (Write tests)"), "\(explain)")

        let done = try world.nudge("done", String(blocker))
        #expect(done.status == 0, "\(done.stderr)")
        let finished = Date()
        try await world.waitForEvent("fired", of: daemon, matching: ["NUDGE_TODO_ID": String(deploy)], timeout: 3)
        let records = try await world.waitForRecords(count: 1)
        #expect(records.map { $0["DUNST_SUMMARY"] } == [summary])
        #expect([records[0]["DUNST_SUMMARY"], records[0]["DUNST_BODY"]].contains { $0?.contains("Deploy") == true }, "\(records[0])")
        let shown = try #require(NudgedWorld.shownAt(records[0]))
        #expect(shown.timeIntervalSince(finished) <= 1, "shown \(shown.timeIntervalSince(finished)) s after the blocker was done")
        // Once: the early reminder and the due come as one notification, and no more follow.
        try await Task.sleep(for: .seconds(1))
        #expect(try world.server.records().count == 1)
    }
}

extension NudgedEndToEndTests.Sync {
    /// A blocker added on A reaches B through Radicale and vdirsyncer, and holds B's reminder
    /// past its due; when the blocker is done on A, the pass that brings that to B releases
    /// it, one notification shown at once.
    @Test func aBlockerDoneOnOneMachineReleasesTheBlockedTodosReminderOnTheOther() async throws {
        let server = try RadicaleServer()
        let (a, b) = try await SyncMachine.pair(server: server)
        let blocker = try #require(try a.world.nudge("add", "Write tests", "--json").object()["id"] as? Int)
        let deploy = try #require(try a.world.nudge("add", "Deploy", "--json").object()["id"] as? Int)
        let uuids = try [blocker, deploy].map { try #require(try a.world.todo($0)["uuid"] as? String) }
        #expect(try await eventually(timeout: 5) { uuids.allSatisfy { a.file(uuid: $0) != nil } }, "\(a.log)")
        try a.vdir.sync()
        try b.vdir.sync()
        #expect(try await eventually(timeout: 5) { try b.todo(titled: "Deploy") != nil }, "\(b.log)")
        let copyID = try #require(try b.todo(titled: "Deploy")?["id"] as? Int)

        #expect(try a.world.nudge("edit", String(deploy), "--after", String(blocker)).status == 0)
        #expect(try await eventually(timeout: 5) { a.file(uuid: uuids[1])?.contains("DEPENDS-ON:" + uuids[0]) == true }, "\(a.log)")
        try a.vdir.sync()
        try b.vdir.sync()
        #expect(try await eventually(timeout: 5) { try b.world.todo(copyID)["after"] as? [String] == [uuids[0]] },
                "deploy on b: \(String(describing: try? b.world.todo(copyID))); \(b.log)")
        // Due on B in 2 s: held past it.
        #expect(try b.world.nudge("edit", String(copyID), "--due", NudgedWorld.dueText(b.world.secondsAhead(2))).status == 0)
        try await Task.sleep(for: .seconds(3))
        #expect(try b.world.server.records().isEmpty, "b showed: \(b.world.summaries)")
        #expect(try b.world.nudge("explain", String(copyID)).stdout.contains("held: after"))

        #expect(try a.world.nudge("done", String(blocker)).status == 0)
        #expect(try await eventually(timeout: 5) { a.file(uuid: uuids[0])?.contains("STATUS:COMPLETED") == true }, "\(a.log)")
        try a.vdir.sync()
        try b.vdir.sync()
        let arrived = Date()
        try await b.world.waitForEvent("fired", of: b.daemon, matching: ["NUDGE_TODO_ID": String(copyID)], timeout: 3)
        let records = try await b.world.waitForRecords(count: 1)
        // Caught up as [catchup] policy says (digest, the default): one notification naming it.
        #expect(records.map { $0["DUNST_SUMMARY"] } == ["Came due while blocked: 1 todo"])
        #expect(records[0]["DUNST_BODY"]?.contains("Deploy") == true, "\(records[0])")
        let shown = try #require(NudgedWorld.shownAt(records[0]))
        #expect(shown.timeIntervalSince(arrived) <= 1.5, "shown \(shown.timeIntervalSince(arrived)) s after the completion arrived")
        try await Task.sleep(for: .seconds(1))
        #expect(try b.world.server.records().count == 1)
    }
}
