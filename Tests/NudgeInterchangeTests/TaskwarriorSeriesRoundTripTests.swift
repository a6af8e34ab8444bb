import Foundation
import NudgeCore
import Testing
@testable import NudgeInterchange

/// Series files the taskwarrior fuzz target found whose round trip did not settle: each must
/// read back to the same todos from its export, and its second export be its first.
extension TaskwarriorJSONTests {
    static let template = "b2b018f1-3b97-48f4-850c-17280d28b26f"

    /// The todos of `text`, after checking that they export and read back to the same.
    func settled(_ text: String) throws -> (todos: [TodoRecord], written: [[String: Any]]) {
        let todos = try decode(text).items.map { try $0.get() }
        let written = TaskwarriorJSON.encode(todos, options: options)
        let again = try decode(written).items.map { try $0.get() }
        #expect(again.map(\.uuid) == todos.map(\.uuid))
        #expect(again.map(\.due) == todos.map(\.due))
        #expect(TaskwarriorJSON.encode(again, options: options) == written, "\(written)")
        return (todos, try objects(written))
    }

    /// A pending task with a `recur` went as a template (status recurring), which the next read
    /// folded with its instance into one series: two todos out, one back.
    @Test func aPendingTaskWithRecurThatInstancesNameIsTheirTemplate() throws {
        let (todos, _) = try settled("""
            [{"description":"Pay rent","due":"20261201T090000Z","entry":"20261201T020050Z","recur":"monthly","uuid":"\(Self.template)"},
            {"description":"Pay rent","due":"20261215T090000Z","entry":"20261201T020051Z","imask":0,"parent":"\(Self.template)","recur":"monthly","status":"pending","uuid":"d4843d46-a159-4899-836e-0fb4d8e4b9eb"}]
            """)
        #expect(todos.map(\.uuid) == [Self.template])
    }

    /// The instance Nudge made was written after the others, and read back in its place.
    @Test func instancesGoOutInTheirPlaceInTheSeries() throws {
        let (_, written) = try settled("""
            [{"description":"Pay rent","due":"20261201T090000Z","entry":"20261201T020050Z","mask":"-","recur":"monthly","status":"recurring","uuid":"\(Self.template)"},
            {"description":"Pay rent","entry":"20261201T020051Z","imask":5,"parent":"\(Self.template)","recur":"weekly","status":"pending","uuid":"d4843d46-a318-4899-836e-0fb4d8e4b9eb"}]
            """)
        let places = written.compactMap { $0["imask"] as? Int }
        #expect(places.count == 2 && places.last == 5 && places == places.sorted(), "\(places)")
    }

    /// Nudge names the instance it makes by its series and place; a task of the file with that
    /// uuid made the export unreadable.
    @Test func anInstanceNudgeMakesTakesNoUUIDOfTheFile() throws {
        let taken = NameBasedUUID.url("urn:x-nudge:taskwarrior:\(Self.template):1")
        let (_, written) = try settled("""
            [{"description":"Pay rent","due":"20261201T090000Z","entry":"20261201T020050Z","mask":"+","recur":"monthly","status":"recurring","uuid":"\(Self.template)"},
            {"description":"Other","entry":"20261201T020050Z","status":"pending","uuid":"\(taken)"}]
            """)
        let uuids = written.compactMap { $0["uuid"] as? String }
        #expect(uuids.count == 3 && Set(uuids).count == 3, "\(uuids)")
    }

    /// A template without a due has no series to stand in; its instance was closed and copied.
    @Test func aTemplateWithoutADueKeepsItsInstancesAsTheyAre() throws {
        let instance = #"{"description":"Pay rent","due":"20261201T045000Z","entry":"20261201T020051Z","imask":0,"modified":"20261202T020050Z","parent":"\#(Self.template)","recur":"2w","status":"pending","uuid":"d4843d46-a159-4899-836e-0fb4d8e4b9eb"}"#
        let (todos, written) = try settled("""
            [{"description":"Pay rent","entry":"20261201T020050Z","mask":"-","recur":"monthly","status":"recurring","uuid":"\(Self.template)"},
            \(instance)]
            """)
        #expect(todos.first?.due == nil)
        #expect(written.count == 2)
        #expect(written.last?["status"] as? String == "pending")
    }
}
