import Foundation
import NudgeCore
import NudgeInterchange
import Testing
@testable import NudgeStore
@testable import NudgeSync
@testable import NudgeTestSupport

struct VdirSyncTests {
    @Test func aReportOfNothingDoneChangedNothing() {
        var report = SyncReport()
        #expect(report.changedNothing)
        report.written = 1
        #expect(!report.changedNothing)
    }
}
