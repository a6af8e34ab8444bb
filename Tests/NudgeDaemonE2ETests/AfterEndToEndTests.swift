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
