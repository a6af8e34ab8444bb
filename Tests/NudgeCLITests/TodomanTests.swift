import Foundation
import Testing
@testable import NudgeTestSupport

/// The real todoman (Debian's `todoman`) in a temporary folder: its config, its vdir of one
/// UID.ics per todo, and a home and XDG folders of its own, so the real ones are not touched.
struct Todoman {
    static let binary = "/usr/bin/todoman"

    let folder = TemporaryDirectory()
    /// The vdir folder of the one list, "list".
    var list: String { folder.file("calendars/list") }
    var config: String { folder.file("config.py") }

    /// todoman 4 reads its config as Python.
    init() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Todoman.binary),
                     "todoman is not installed (apt-get install todoman; make check installs it)")
        try FileManager.default.createDirectory(atPath: list, withIntermediateDirectories: true)
        for name in ["home", "config", "data", "cache"] {
            try FileManager.default.createDirectory(atPath: folder.file(name), withIntermediateDirectories: true)
        }
        try """
            path = "\(folder.file("calendars"))/*"
            date_format = "%Y-%m-%d"
            time_format = "%H:%M"
            default_list = "list"
            default_due = 0
            cache_path = "\(folder.file("cache/cache.sqlite3"))"

            """.write(toFile: config, atomically: true, encoding: .utf8)
    }

    @discardableResult
    func callAsFunction(_ arguments: String..., input: String? = nil) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Todoman.binary)
        process.arguments = ["--config", config] + arguments
        process.environment = [
            "PATH": "/usr/bin:/bin", "HOME": folder.file("home"), "TZ": "Europe/Berlin", "LC_ALL": "C.UTF-8",
            "XDG_CONFIG_HOME": folder.file("config"), "XDG_DATA_HOME": folder.file("data"),
            "XDG_CACHE_HOME": folder.file("cache"),
        ]
        let run = try Run.launch(process, input: input)
        try #require(run.status == 0, "todoman \(arguments): \(run.stderr)")
        return run
    }

    /// Every todo, done ones too, as todoman's JSON, by summary.
    func todos() throws -> [String: [String: Any]] {
        let items = try self("--porcelain", "list", "--status", "ANY").array()
        return Dictionary(items.map { ($0["summary"] as! String, $0) }, uniquingKeysWith: { first, _ in first })
    }
}

struct TodomanTests {
    /// RFC 5545's 0-9 as Nudge's names, as `nudge import` reads them.
    static func priorityName(_ value: Int) -> String {
        switch value {
        case 1...4: "high"
        case 6...9: "low"
        default: "medium"
        }
    }

    static let titles = ["Buy milk", "All day thing", "No due", "Described", "Finished"]

    /// Todos made by todoman as a person would.
    func addTodos(to todoman: Todoman) throws {
        try todoman("new", "--due", "2026-12-24 09:00", "--priority", "high", "--location", "Kitchen", "Buy milk")
        try todoman("new", "--due", "2026-12-25", "--priority", "low", "All day thing")
        try todoman("new", "No due")
        try todoman("new", "-r", "--start", "2026-12-01 08:00", "--due", "2026-12-03 17:30", "--priority", "medium",
                    "Described", input: "first line\nsecond line")
        try todoman("new", "--priority", "high", "Finished")
        let id = try #require(try todoman.todos()["Finished"]?["id"] as? Int)
        try todoman("done", "\(id)")
    }

    func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withFullDate]
        formatter.timeZone = TimeZone(identifier: "Europe/Berlin")
        return formatter.date(from: text)
    }

    @Test func todomansFilesImportFieldByField() throws {
        let todoman = try Todoman()
        try addTodos(to: todoman)
        var nudge = Nudge()
        nudge.now = nil
        let imported = try nudge.shell("cat '\(todoman.list)'/*.ics | \"$NUDGE\" import -")
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.hasPrefix("Imported 5: 5 added"), "\(imported.stdout)")

        let theirs = try todoman.todos()
        let ours = Dictionary(try nudge("export", "--all").array().map { ($0["title"] as! String, $0) },
                              uniquingKeysWith: { first, _ in first })
        #expect(Set(ours.keys) == Set(Self.titles))
        #expect(Set(theirs.keys) == Set(Self.titles))
        for title in Self.titles {
            let their = try #require(theirs[title]), our = try #require(ours[title])
            let theirDue = (their["due"] as? Int).map { Date(timeIntervalSince1970: TimeInterval($0)) }
            #expect((our["due"] as? String).flatMap(date) == theirDue, "\(title): due")
            #expect(our["allDay"] as? Bool == (title == "All day thing"), "\(title): allDay")
            #expect(our["priority"] as? String == Self.priorityName(their["priority"] as! Int), "\(title): priority")
            #expect(our["completed"] as? Bool == their["completed"] as? Bool, "\(title): completed")
            let theirDone = (their["completed_at"] as? Int).map { Date(timeIntervalSince1970: TimeInterval($0)) }
            #expect((our["completedAt"] as? String).flatMap(date) == theirDone, "\(title): completedAt")
            #expect((our["notes"] as? String ?? "") == their["description"] as? String, "\(title): notes")
        }
        // What Nudge has no field for is kept, to be written back.
        let kept = try #require(ours["Buy milk"]?["kept"] as? [String: String])
        #expect(kept["ics"]?.contains("LOCATION:Kitchen") == true)
    }

    /// Nudge's export, split into one UID.ics per todo as todoman keeps them, reads the same in
    /// a second todoman as the todos did in the first.
    @Test func nudgesExportReadsTheSameInTodoman() throws {
        let first = try Todoman()
        try addTodos(to: first)
        var nudge = Nudge()
        nudge.now = nil
        let imported = try nudge.shell("cat '\(first.list)'/*.ics | \"$NUDGE\" import -")
        try #require(imported.status == 0, "\(imported.stderr)")
        let exported = try nudge("export", "--all", "--format", "ics")
        try #require(exported.status == 0, "\(exported.stderr)")

        let second = try Todoman()
        let files = try Self.split(exported.stdout)
        #expect(files.count == Self.titles.count)
        for (uid, text) in files {
            try text.write(toFile: second.list + "/" + uid + ".ics", atomically: true, encoding: .utf8)
        }
        let before = try first.todos(), after = try second.todos()
        #expect(Set(after.keys) == Set(Self.titles))
        for title in Self.titles {
            let old = try #require(before[title]), new = try #require(after[title])
            for field in ["due", "priority", "completed", "completed_at", "description", "location", "percent"] {
                #expect("\(old[field] ?? "nil")" == "\(new[field] ?? "nil")", "\(title): \(field)")
            }
        }
    }

    /// One VCALENDAR per VTODO, with the VTIMEZONEs of the export: content lines are split
    /// where BEGIN:VTODO and END:VTODO stand, not parsed.
    static func split(_ text: String) throws -> [(uid: String, text: String)] {
        let lines = text.components(separatedBy: "\r\n")
        var header: [String] = [], todos: [[String]] = [], current: [String]?
        for line in lines.dropFirst().dropLast(2) where line != "" {
            if line == "BEGIN:VTODO" { current = [] }
            if current != nil { current!.append(line) } else { header.append(line) }
            if line == "END:VTODO" { todos.append(current!); current = nil }
        }
        return try todos.map { todo in
            let uidLine = try #require(todo.first { $0.hasPrefix("UID:") })
            let body = ["BEGIN:VCALENDAR"] + header + todo + ["END:VCALENDAR"]
            return (String(uidLine.dropFirst(4)), body.map { $0 + "\r\n" }.joined())
        }
    }
}
