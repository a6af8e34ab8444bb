import Foundation
import NudgeCore
import Testing
@testable import NudgeSync

struct FieldMergeTests {
    let moment = Date(timeIntervalSince1970: 1_796_126_400)

    func record(_ tags: [String]?, title: String = "Buy milk") -> TodoRecord {
        TodoRecord(uuid: "0b8c5a0e-4f7e-4a53-9d0e-2b6f5a1c0001", title: title, tags: tags, createdAt: moment, updatedAt: moment)
    }

    @Test func tagsAddedOnEachSideBothSurviveAndOneRemovedOnOneSideIsGone() {
        let base = record(["milk", "shop", "later"])
        let local = record(["milk", "later", "urgent"])            // shop removed, urgent added
        let remote = record(["milk", "shop", "later", "weekly"], title: "Buy oat milk") // weekly added
        let result = FieldMerge.merge(base: base, local: local, remote: remote)
        #expect(result.merged.tags == ["milk", "later", "urgent", "weekly"])
        #expect(result.merged.title == "Buy oat milk")
        #expect(result.overlapping.isEmpty)
        // The same the other way round, but in the other side's order.
        #expect(FieldMerge.merge(base: base, local: remote, remote: local).merged.tags == ["milk", "later", "weekly", "urgent"])
    }

    @Test func aTagRemovedOnBothOrAddedOnBothIsOnceAndCaseDoesNotMakeAnotherTag() {
        let base = record(["milk", "shop"])
        let result = FieldMerge.merge(base: base, local: record(["milk", "Urgent"]), remote: record(["MILK", "urgent"]))
        #expect(result.merged.tags == ["milk", "Urgent"])
        #expect(result.overlapping.isEmpty)
        // Only the spelling differs: nothing to merge, nothing to tell.
        #expect(FieldMerge.differing(record(["Milk"]), record(["milk"])).isEmpty)
        #expect(FieldMerge.differing(record(["milk"]), record(["milk", "shop"])) == ["tags"])
    }

    @Test func withoutABaseBothSidesTagsAreKept() {
        let result = FieldMerge.merge(base: nil, local: record(["a", "b"]), remote: record(["c", "a"]))
        #expect(result.merged.tags == ["a", "b", "c"])
        #expect(result.overlapping.isEmpty)
    }

    @Test func theFingerprintOfAnUntaggedTodoIsAsBeforeTagsAndTagsChangeIt() {
        // As written before tags: the other fields alone.
        #expect(FieldMerge.fingerprint(record([])) == FieldMerge.fingerprint(record(nil)))
        #expect(FieldMerge.fingerprint(record(["a"])) != FieldMerge.fingerprint(record([])))
        #expect(FieldMerge.fingerprint(record(["A"])) == FieldMerge.fingerprint(record(["a"])))
    }

    @Test func theFingerprintOfATodoAfterNoneIsAsBeforeBlockersAndTheirOrderDoesNotCount() {
        var after = record(nil), reordered = record(nil), none = record(nil)
        after.after = ["b", "a"]
        reordered.after = ["a", "b"]
        none.after = []
        #expect(FieldMerge.fingerprint(none) == FieldMerge.fingerprint(record(nil)))
        #expect(FieldMerge.fingerprint(after) != FieldMerge.fingerprint(none))
        #expect(FieldMerge.fingerprint(after) == FieldMerge.fingerprint(reordered))
        #expect(FieldMerge.differing(after, reordered).isEmpty)
        #expect(FieldMerge.differing(after, none) == ["blockers"])
    }
}
