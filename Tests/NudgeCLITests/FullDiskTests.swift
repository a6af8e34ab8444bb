import Foundation
import Testing
@testable import NudgeTestSupport

/// A file system that fills up: every writing command fails in one line and changes nothing,
/// the database stays whole, and once space is freed the commands work again. A 2 MB tmpfs in
/// a mount namespace of the test's own (the tests run as root).
struct FullDiskTests {
    let nudge = Nudge()

    /// Every command that writes the store, with the options that take another way in.
    static let writingCommands = [
        "add New", "add New --category Work --due tomorrow --remind 1h --repeat weekly",
        "edit 1 --title Renamed", "edit 1 --due 'next friday'", "edit 1 --no-due", "edit 2 --repeat weekly",
        "edit 3 --no-repeat", "edit 1 --no-category", "edit 2 --category Work --priority high",
        "done 2", "done 3", "undo 4", "delete 1 --yes",
        "postpone 1 1d", "snooze 1 1h", "snooze 1 --until 'tomorrow 9am'",
        "remind 1 --add 2h", "remind 1 --clear",
        "category add Home", "category rename Work Job", "category delete Work",
        "import \"$TODOS\"", "import --format ics \"$ICS\"",
        // A file from elsewhere to import, which the store takes before any file is written.
        "sync",
    ]

    @Test func writingCommandsOnAFullDiskFailInOneLineAndTheDatabaseStaysWhole() throws {
        let disk = nudge.folder.file("disk")
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: false)
        let vdir = nudge.folder.file("vdir")
        try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: false)
        try "[sync]\nvdir = \(vdir)\n".write(toFile: nudge.folder.file("nudge.conf"), atomically: true, encoding: .utf8)
        let todos = nudge.folder.file("in.json")
        try """
            [{"uuid": "00000000-0000-4000-8000-000000000009", "title": "Imported", "createdAt": "2026-10-01T10:00:00Z",
              "updatedAt": "2026-10-01T10:00:00Z"}]
            """.write(toFile: todos, atomically: true, encoding: .utf8)
        let ics = nudge.folder.file("elsewhere.ics")
        try """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            PRODID:-//test//EN\r
            BEGIN:VTODO\r
            UID:from-elsewhere-1\r
            DTSTAMP:20261201T100000Z\r
            SUMMARY:From elsewhere\r
            END:VTODO\r
            END:VCALENDAR\r

            """.write(toFile: ics, atomically: true, encoding: .utf8)
        let titles = "sqlite3 \"$NUDGE_DB\" 'SELECT group_concat(title, \",\") FROM (SELECT title FROM todos ORDER BY id)'"
        // Each command's status and stderr, one line each; the database's dump before and after.
        let script = """
            set -u
            mount -t tmpfs -o size=2M tmpfs '\(disk)' || exit 90
            export NUDGE_DB='\(disk)/nudge.db' NUDGE_CONFIG='\(nudge.folder.file("nudge.conf"))' TODOS='\(todos)' ICS='\(ics)'
            {
                "$NUDGE" category add Work && "$NUDGE" add 'Old one' --due tomorrow --category Work --remind 1h &&
                "$NUDGE" add 'Old two' && "$NUDGE" add Daily --due tomorrow --repeat daily &&
                "$NUDGE" add Finished && "$NUDGE" done 4 && "$NUDGE" sync
            } >/dev/null || exit 91
            dd if=/dev/zero of='\(disk)/fill' bs=4k 2>/dev/null
            cp "$ICS" '\(vdir)/from-elsewhere-1.ics'
            before=$(sqlite3 "$NUDGE_DB" .dump | md5sum)
            while IFS= read -r command; do
                eval "\\"\\$NUDGE\\" $command" >/dev/null 2>'\(disk)/../err'
                echo "$? $command: $(cat '\(disk)/../err')"
            done <<'COMMANDS'
            \(Self.writingCommands.joined(separator: "\n"))
            COMMANDS
            "$NUDGE" export -o '\(disk)/out.json' 2>&1; echo "$? export"
            for command in list 'show 1' upcoming status 'explain 1' 'history 1' 'category list'; do
                "$NUDGE" $command >/dev/null 2>&1; echo "$? $command"
            done
            [ "$(sqlite3 "$NUDGE_DB" .dump | md5sum)" = "$before" ] && echo unchanged
            echo "integrity $(sqlite3 "$NUDGE_DB" 'PRAGMA integrity_check')"
            echo "disk $(ls '\(disk)')"
            rm '\(disk)/fill'
            "$NUDGE" add New >/dev/null && "$NUDGE" done 2 >/dev/null && "$NUDGE" import "$TODOS" >/dev/null &&
                "$NUDGE" sync || exit 92
            echo "after $(\(titles))"
            """
        let run = try nudge.shell("unshare -m --propagation private bash -c \(script.shellQuotedForTest)")
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let message = "nudge: cannot write the database \(disk)/nudge.db: No space left on device; nothing was changed (free some space and try again)"
        let failures = Self.writingCommands.map { "1 \($0): \(message)\n" }.joined()
        #expect(run.stdout == failures + """
            nudge: cannot write \(disk)/out.json: No space left on device
            1 export
            0 list
            0 show 1
            0 upcoming
            0 status
            0 explain 1
            0 history 1
            0 category list
            unchanged
            integrity ok
            disk fill
            nudge.db
            nudge.db-checked
            Synced with \(vdir): 1 imported, 3 written, 0 deleted, 0 conflicts
            after Old one,Old two,Daily,Finished,New,Imported,From elsewhere

            """)
    }

    /// A new database that cannot be made for want of space leaves nothing behind: an empty
    /// file (and its record) would be taken for a database cut short by the next command.
    @Test func aNewDatabaseOnAFullDiskLeavesNoFileBehind() throws {
        let disk = nudge.folder.file("disk")
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: false)
        let script = """
            set -u
            mount -t tmpfs -o size=2M tmpfs '\(disk)' || exit 90
            dd if=/dev/zero of='\(disk)/fill' bs=4k 2>/dev/null
            NUDGE_DB='\(disk)/new.db' "$NUDGE" add New 2>&1; echo "$? add"
            echo "disk $(ls '\(disk)')"
            rm '\(disk)/fill'
            NUDGE_DB='\(disk)/new.db' "$NUDGE" add New >/dev/null || exit 92
            echo "after $(sqlite3 '\(disk)/new.db' 'SELECT title FROM todos')"
            """
        let run = try nudge.shell("unshare -m --propagation private bash -c \(script.shellQuotedForTest)")
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first?.hasPrefix("nudge: ") == true && lines.first?.contains("No space left on device") == true, "\(run.stdout)")
        #expect(lines.dropFirst() == ["1 add", "disk fill", "after New", ""], "\(run.stdout)")
    }

    /// A sync that wrote the todos changed here to the folder and then could not record it says
    /// so; the next sync, with space, matches the files with the todos and writes none again.
    @Test func aSyncThatWroteFilesBeforeTheDiskFilledSaysTheFolderChanged() throws {
        let disk = nudge.folder.file("disk")
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: false)
        let vdir = nudge.folder.file("vdir")
        try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: false)
        try "[sync]\nvdir = \(vdir)\n".write(toFile: nudge.folder.file("nudge.conf"), atomically: true, encoding: .utf8)
        let script = """
            set -u
            mount -t tmpfs -o size=2M tmpfs '\(disk)' || exit 90
            export NUDGE_DB='\(disk)/nudge.db' NUDGE_CONFIG='\(nudge.folder.file("nudge.conf"))'
            { "$NUDGE" add 'Old one' && "$NUDGE" sync && "$NUDGE" add Pending; } >/dev/null || exit 91
            dd if=/dev/zero of='\(disk)/fill' bs=4k 2>/dev/null
            "$NUDGE" sync 2>&1; echo "$? sync"
            echo "files $(ls '\(vdir)' | wc -l)"
            echo "integrity $(sqlite3 "$NUDGE_DB" 'PRAGMA integrity_check')"
            rm '\(disk)/fill'
            "$NUDGE" sync 2>&1; echo "$? sync"
            echo "files $(ls '\(vdir)' | wc -l)"
            """
        let run = try nudge.shell("unshare -m --propagation private bash -c \(script.shellQuotedForTest)")
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout == """
            nudge: cannot write the database \(disk)/nudge.db: No space left on device; the folder was changed already, and the next sync matches it with the todos (free some space and try again)
            1 sync
            files 2
            integrity ok
            Synced with \(vdir): 0 imported, 0 written, 0 deleted, 0 conflicts
            0 sync
            files 2

            """)
    }
}

extension String {
    /// In single quotes for bash -c.
    var shellQuotedForTest: String { "'" + replacingOccurrences(of: "'", with: "'\\''") + "'" }
}
