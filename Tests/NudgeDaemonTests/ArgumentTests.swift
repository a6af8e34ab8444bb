import Testing
import NudgeHelp
@testable import NudgeDaemon

/// nudged reads --db and --config as nudge does, from the same declaration.
struct ArgumentTests {
    @Test func pathsAreReadInBothSpellings() throws {
        #expect(try NudgeDaemonMain.parse(["--db=/tmp/a.db", "--config", "/tmp/c.conf"]) == [.db: "/tmp/a.db", .config: "/tmp/c.conf"])
        #expect(try NudgeDaemonMain.parse([]) == [:])
    }

    @Test func anEmptyPathIsRefusedAsNudgeRefusesIt() {
        #expect(throws: PathOptionError.self) { try NudgeDaemonMain.parse(["--db="]) }
        #expect(throws: PathOptionError.self) { try NudgeDaemonMain.parse(["--config", ""]) }
    }

    @Test func anythingElseIsRefused() {
        #expect(throws: DaemonError.self) { try NudgeDaemonMain.parse(["--db", "/tmp/a.db", "--verbose"]) }
        #expect(throws: DaemonError.self) { try NudgeDaemonMain.parse(["--", "--db"]) }
    }
}
