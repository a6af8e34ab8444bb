import Foundation
import Testing
@testable import NudgeTestSupport

/// A file system that fills up: every writing command fails in one line and changes nothing,
/// the database stays whole, and once space is freed the commands work again. A 2 MB tmpfs in
/// a mount namespace of the test's own (the tests run as root).
struct FullDiskTests {
    let nudge = Nudge()

    @Test func writingCommandsOnAFullDiskFailInOneLineAndTheDatabaseStaysWhole() throws {
        let disk = nudge.folder.file("disk")
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: false)
        let todos = nudge.folder.file("in.json")
        try """
            [{"uuid": "00000000-0000-4000-8000-000000000009", "title": "Imported", "createdAt": "2026-10-01T10:00:00Z",
              "updatedAt": "2026-10-01T10:00:00Z"}]
            """.write(toFile: todos, atomically: true, encoding: .utf8)
        // Each command's status and stderr, one line each, between markers.
        let script = """
            set -u
            mount -t tmpfs -o size=2M tmpfs '\(disk)' || exit 90
            export NUDGE_DB='\(disk)/nudge.db'
            "$NUDGE" add 'Old one' --due tomorrow >/dev/null && "$NUDGE" add 'Old two' >/dev/null || exit 91
            dd if=/dev/zero of='\(disk)/fill' bs=4k 2>/dev/null
            for command in "add New" "edit 1 --title Renamed" "done 2" "import \(todos)" "delete 1 --yes"; do
                "$NUDGE" $command >/dev/null 2>'\(disk)/../err'
                echo "$? $command: $(cat '\(disk)/../err')"
            done
            echo "integrity $(sqlite3 "$NUDGE_DB" 'PRAGMA integrity_check')"
            echo "titles $(sqlite3 "$NUDGE_DB" 'SELECT group_concat(title, ",") FROM (SELECT title FROM todos ORDER BY id)')"
            rm '\(disk)/fill'
            "$NUDGE" add New >/dev/null && "$NUDGE" done 2 >/dev/null && "$NUDGE" import '\(todos)' >/dev/null || exit 92
            echo "after $(sqlite3 "$NUDGE_DB" 'SELECT group_concat(title, ",") FROM (SELECT title FROM todos ORDER BY id)')"
            """
        let run = try nudge.shell("unshare -m --propagation private bash -c \(script.shellQuotedForTest)")
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let message = "nudge: cannot write the database \(disk)/nudge.db: No space left on device; nothing was changed (free some space and try again)"
        #expect(run.stdout == """
            1 add New: \(message)
            1 edit 1 --title Renamed: \(message)
            1 done 2: \(message)
            1 import \(todos): \(message)
            1 delete 1 --yes: \(message)
            integrity ok
            titles Old one,Old two
            after Old one,Old two,New,Imported

            """)
    }
}

extension String {
    /// In single quotes for bash -c.
    var shellQuotedForTest: String { "'" + replacingOccurrences(of: "'", with: "'\\''") + "'" }
}
