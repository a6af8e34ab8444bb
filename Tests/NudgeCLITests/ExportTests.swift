import Foundation
import Testing
@testable import NudgeTestSupport

/// `nudge export`: Nudge's JSON, of pending todos or all, to stdout or a private file.
struct ExportTests {
    let nudge = Nudge()

    @Test func exportsPendingTodosWithEveryField() throws {
        try nudge("category", "add", "Home")
        try nudge("add", "Call mum", "--due", "2026-12-24 09:30", "--category", "Home", "--priority", "high",
                  "--notes", "line 1\nline 2", "--repeat", "weekly", "--repeat-from", "completion")
        try nudge("add", "Holiday", "--due", "2026-12-26")
        try nudge("add", "Finished")
        try nudge("done", "3")
        let items = try nudge("export").array()
        #expect(items.map { $0["title"] as? String } == ["Call mum", "Holiday"])
        let first = items[0]
        #expect(first["due"] as? String == "2026-12-24T09:30:00+01:00")
        #expect(first["zone"] as? String == "Europe/Berlin")
        #expect(first["allDay"] as? Bool == false)
        #expect(first["priority"] as? String == "high")
        #expect(first["category"] as? String == "Home")
        #expect(first["notes"] as? String == "line 1\nline 2")
        #expect(first["completed"] as? Bool == false)
        #expect(first["createdAt"] as? String == "2026-11-29T09:53:00+00:00")
        let repetition = try #require(first["repeat"] as? [String: Any])
        #expect(repetition["rule"] as? String == "FREQ=WEEKLY")
        #expect(repetition["from"] as? String == "completion")
        #expect(items[1]["due"] as? String == "2026-12-26")
        #expect(items[1]["allDay"] as? Bool == true)
        let uuid = try #require(first["uuid"] as? String)
        #expect(UUID(uuidString: uuid) != nil)
        #expect(try nudge("show", "1", "--json").object()["uuid"] as? String == uuid)
    }

    /// A timed due in the year 10000, as `postpone` could store it: the ics export wrote
    /// DUE:00000000T000000, Taskwarrior's 129891016T235900Z, and Nudge's JSON did not import back.
    @Test(arguments: ["json", "ics", "taskwarrior", "todotxt"])
    func aTodoDueAfterTheYear9999IsLeftOutAndSaid(format: String) throws {
        try nudge("add", "Far", "--due", "2026-12-31 23:59")
        try nudge("add", "Near", "--due", "2026-12-30 10:00")
        // 10000-01-07T23:59:00Z, stored by an older version.
        let stored = try nudge.shell("sqlite3 \"$NUDGE_DB\" \"UPDATE todos SET due_at = 253403459940 WHERE title = 'Far'\"")
        try #require(stored.status == 0, "\(stored.stderr)")
        let uuid = try #require(try nudge("show", "1", "--json").object()["uuid"] as? String)
        let run = try nudge("export", "--format", format)
        #expect(run.status == 1)
        #expect(run.stderr == "nudge: todo 'Far' (\(uuid)) was not exported: its due is outside the years 0001-9999\n")
        #expect(run.stdout.contains("Near"))
        for wrong in ["Far", "00000000T", "129891016", "10000-"] { #expect(!run.stdout.contains(wrong), "\(run.stdout)") }
        let other = Nudge()
        let imported = try other("import", "-", input: run.stdout)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try other("export").array().map { $0["title"] as? String } == ["Near"])
    }

    /// 9999-12-31 23:30 at UTC-5 is in the year 10000 in UTC, where Taskwarrior's export writes it.
    @Test func anImportedDueThatIsInTheYear10000InUTCIsRefused() throws {
        let run = try nudge("import", "-", input: #"""
            [{"uuid": "153bf7e0-1927-4e47-acfe-ea65d470533e", "title": "Late", "due": "9999-12-31T23:30:00-05:00",
              "allDay": false, "zone": "America/New_York", "createdAt": "2026-12-05T00:37:20+00:00",
              "updatedAt": "2026-12-05T00:37:20+00:00"}]
            """#)
        #expect(run.status == 1)
        #expect(run.stderr == "nudge: item 1: \"due\" is outside the years 0001-9999; nothing was imported (--skip-bad imports the rest)\n")
    }

    @Test func allIncludesCompletedTodos() throws {
        try nudge("add", "Open")
        try nudge("add", "Finished")
        try nudge("done", "2")
        let items = try nudge("export", "--all").array()
        #expect(items.map { $0["title"] as? String } == ["Open", "Finished"])
        #expect(items[1]["completed"] as? Bool == true)
        #expect(items[1]["completedAt"] as? String == "2026-11-29T09:53:00+00:00")
    }

    @Test func anEmptyDatabaseExportsAnEmptyArray() throws {
        let run = try nudge("export")
        #expect(run.status == 0)
        #expect(run.stdout == "[]\n")
    }

    @Test func writesAPrivateFileWholeWithDashO() throws {
        try nudge("add", "Buy milk")
        let path = nudge.folder.file("out/todos.json")
        try FileManager.default.createDirectory(atPath: nudge.folder.file("out"), withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: path, contents: Data("old and longer than the new export ".utf8 + Data(count: 4000)),
                                               attributes: [.posixPermissions: 0o644]))
        let run = try nudge("export", "-o", path)
        #expect(run.status == 0)
        #expect(run.stdout == "")
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(written == (try nudge("export").stdout))
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
        // No temporary file is left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: nudge.folder.file("out")) == ["todos.json"])
    }

    @Test func whatIsNotAFileIsWrittenToNotReplaced() throws {
        try nudge("add", "Buy milk")
        let export = try nudge("export").stdout
        // A FIFO, as a reader started first sees it.
        // (Its spare link lets the reader end should nudge not write: the tests' children
        // inherit blocked signals, so timeout(1) could not end it.)
        let fifo = try nudge.shell("""
            cd "$HOME" && mkfifo pipe && ln pipe spare && { cat pipe > from-pipe & }
            "$NUDGE" export -o pipe; status=$?; exec 3<>spare; exec 3>&-; wait
            test $status = 0 && test -p pipe && cat from-pipe
            """)
        #expect(fifo.status == 0, "\(fifo.stderr)")
        #expect(fifo.stdout == export)
        // A process substitution (/dev/fd/63), and stdout after >>, appended to. (Not named
        // /dev/stdout: a nudge that replaced files would replace the machine's.)
        let substituted = try nudge.shell("cd \"$HOME\" && \"$NUDGE\" export -o >(cat > substituted) && wait $! && cat substituted")
        #expect(substituted.status == 0, "\(substituted.stderr)")
        #expect(substituted.stdout == export)
        let appended = try nudge.shell("cd \"$HOME\" && echo before > log && \"$NUDGE\" export -o /dev/fd/1 >> log && cat log")
        #expect(appended.stdout == "before\n" + export)
        // A symbolic link: its target gets the export, the link stays.
        let linked = try nudge.shell("cd \"$HOME\" && mkdir -p real && ln -s real/todos.json link && \"$NUDGE\" export -o link && test -L link && cat real/todos.json")
        #expect(linked.status == 0, "\(linked.stderr)")
        #expect(linked.stdout == export)
    }

    @Test func aFolderThatCannotBeWrittenIsOneLine() throws {
        try nudge("add", "Buy milk")
        let run = try nudge("export", "--output", nudge.folder.file("missing/todos.json"))
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("nudge: cannot write "))
        #expect(run.stderr.filter { $0 == "\n" }.count == 1)
        #expect(!FileManager.default.fileExists(atPath: nudge.folder.file("missing")))
    }

    @Test func anUnknownFormatNamesTheAcceptedOnes() throws {
        let run = try nudge("export", "--format", "csv")
        #expect(run.status == 2)
        #expect(run.stderr == "nudge: 'csv' is not a format nudge reads or writes; use json, ics, taskwarrior, todotxt\n")
        #expect(run.stdout == "")
    }

    @Test func helpListsExportAndImport() throws {
        let help = try nudge("help").stdout
        #expect(help.contains("export"))
        #expect(help.contains("import"))
        #expect(try nudge("help", "export").stdout.contains("-o, --output FILE"))
    }
}
