import Foundation
import Testing
@testable import NudgeTestSupport

/// With the real todo.txt-cli (Debian's todotxt-cli, command `todo-txt`): what it writes
/// imports as the same todos, and what Nudge writes it lists the same.
struct TodoTxtCLITests {
    /// todo.txt-cli with its files in `folder`.
    struct TodoTxtCLI {
        let folder: String

        init(in parent: String, name: String) throws {
            folder = parent + "/" + name
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try """
                export TODO_DIR=\(folder)
                export TODO_FILE=$TODO_DIR/todo.txt
                export DONE_FILE=$TODO_DIR/done.txt
                export REPORT_FILE=$TODO_DIR/report.txt

                """.write(toFile: folder + "/config", atomically: true, encoding: .utf8)
        }

        @discardableResult
        func callAsFunction(_ arguments: String...) throws -> Run {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/todo-txt")
            process.arguments = ["-d", folder + "/config", "-p"] + arguments
            process.environment = ["PATH": "/usr/bin:/bin", "HOME": folder, "TZ": "Europe/Berlin"]
            let run = try Run.launch(process)
            try #require(run.status == 0, "todo-txt \(arguments): \(run.stdout)\(run.stderr)")
            return run
        }
    }

    @Test func whatTodoTxtWritesImportsAndWhatNudgeWritesListsTheSame() throws {
        let nudge = Nudge()
        let cli = try TodoTxtCLI(in: nudge.folder.path, name: "cli")
        try cli("-t", "add", "Buy milk +Home @shop due:2026-12-24")
        try cli("add", "Call mum @phone")
        try cli("-t", "add", "Pay rent +Flat due:2026-12-01 rec:+1m")
        try cli("-t", "add", "Renew passport +Admin")
        try cli("-t", "add", "Water plants +Home rec:1w due:2026-12-03")
        try cli("pri", "1", "A")
        try cli("pri", "3", "B")
        try cli("pri", "4", "D")
        try cli("do", "2")
        let listed = try cli("ls").stdout
        let listedPriorities = try cli("listpri").stdout
        let today = try #require(try String(contentsOfFile: cli.folder + "/done.txt", encoding: .utf8).split(separator: " ").dropFirst().first)

        let imported = try nudge("import", cli.folder + "/todo.txt")
        #expect(imported.stdout == "Imported 4: 4 added, 0 updated, 0 skipped as unchanged or older; 3 categories created: Home, Flat, Admin\n",
                "\(imported.stdout)\(imported.stderr)")
        let done = try nudge("import", "--format", "todotxt", cli.folder + "/done.txt")
        #expect(done.stdout.hasPrefix("Imported 1: 1 added"), "\(done.stdout)\(done.stderr)")
        #expect(try nudge("import", cli.folder + "/todo.txt").stdout.contains("0 added, 0 updated, 4 skipped"))

        let todos = try nudge("export", "--all").array()
        #expect(todos.map { $0["title"] as? String } == ["Buy milk", "Pay rent", "Renew passport", "Water plants", "Call mum"])
        #expect(todos.map { $0["tags"] as? [String] } == [["shop"], [], [], [], ["phone"]])
        #expect(todos.map { $0["priority"] as? String } == ["high", "medium", "low", "medium", "medium"])
        #expect(todos.map { $0["category"] as? String } == ["Home", "Flat", "Admin", "Home", nil])
        #expect(todos.map { $0["due"] as? String } == ["2026-12-24", "2026-12-01", nil, "2026-12-03", nil])
        #expect(todos.map { ($0["repeat"] as? [String: Any])?["rule"] as? String } == [nil, "FREQ=MONTHLY", nil, "FREQ=WEEKLY", nil])
        #expect(todos.map { ($0["repeat"] as? [String: Any])?["from"] as? String } == [nil, "due", nil, "completion", nil])
        #expect(todos.map { $0["completed"] as? Bool } == [false, false, false, false, true])

        // Nudge's export, as todo.txt-cli's file, lists the same.
        let other = try TodoTxtCLI(in: nudge.folder.path, name: "other")
        let exported = try nudge("export", "--format", "todotxt", "-o", other.folder + "/todo.txt")
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(try other("ls").stdout == listed)
        #expect(try other("listpri").stdout == listedPriorities)

        // A todo made in Nudge carries its uuid, and comes back as the same todo.
        let added = try nudge("add", "Dentist", "--due", "2026-12-10 09:30", "--priority", "high", "--category", "home")
        #expect(added.status == 0, "\(added.stderr)")
        let all = nudge.folder.file("all.txt")
        try nudge("export", "--format", "todotxt", "--all", "-o", all)
        let lines = try String(contentsOfFile: all, encoding: .utf8)
        #expect(lines.contains("\nx \(today) Call mum @phone\n"), "\(lines)")
        #expect(lines.contains("\n(A) 2026-11-29 Dentist +Home due:2026-12-10 at:09:30 nudge:"), "\(lines)")
        let again = try nudge("import", all)
        #expect(again.stdout.contains("0 added, 0 updated, 6 skipped"), "\(again.stdout)\(again.stderr)")
        try FileManager.default.removeItem(atPath: other.folder + "/todo.txt")
        try FileManager.default.copyItem(atPath: all, toPath: other.folder + "/todo.txt")
        #expect(try other("listproj").stdout == "+Admin\n+Flat\n+Home\n")
        #expect(try other("ls", "Dentist").stdout.hasPrefix("6 (A) 2026-11-29 Dentist +Home due:2026-12-10 at:09:30 nudge:"))
    }

    @Test func aTitleWithLineBreaksIsOneTaskAndImportingItBackChangesNothing() throws {
        let nudge = Nudge()
        let json = #"[{"uuid": "0f8fad5b-d9cb-469f-a165-70867728950e", "title": "Buy milk\nand bread\r\n\u001b[2Jnow", "#
            + #""createdAt": "2026-11-01T10:00:00Z", "updatedAt": "2026-11-01T10:00:00Z"}]"#
        #expect(try nudge("import", "-", input: json).status == 0)
        let cli = try TodoTxtCLI(in: nudge.folder.path, name: "cli")
        let exported = try nudge("export", "--format", "todotxt", "-o", cli.folder + "/todo.txt")
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(try cli("ls").stdout.hasSuffix("--\nTODO: 1 of 1 tasks shown\n"))
        let again = try nudge("import", cli.folder + "/todo.txt")
        #expect(again.stdout == "Imported 0: 0 added, 0 updated, 1 skipped as unchanged or older\n", "\(again.stderr)")
        #expect(try nudge("export", "--all").array().count == 1)
    }
}
