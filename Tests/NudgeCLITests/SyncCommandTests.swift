import Foundation
import Testing
@testable import NudgeTestSupport

/// `nudge sync` run as a person would, with a config file naming the vdir.
struct SyncCommandTests {
    /// A nudge whose config names `vdir`.
    func nudge(vdir: String?) throws -> Nudge {
        let nudge = Nudge()
        let configFolder = nudge.folder.file(".config/nudge")
        try FileManager.default.createDirectory(atPath: configFolder, withIntermediateDirectories: true)
        try "[sync]\nvdir = \(vdir ?? "off")\n".write(toFile: configFolder + "/nudge.conf", atomically: true, encoding: .utf8)
        return nudge
    }

    func files(_ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    }

    @Test func withoutAVdirItSaysHowToSetOne() throws {
        let nudge = try nudge(vdir: nil)
        let run = try nudge("sync")
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.hasPrefix("nudge: no vdir to sync with: set vdir in the [sync] section"), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1)
    }

    /// A file its user cannot read is one warning; the pass goes on (before, it failed whole).
    /// Run as nobody, since root reads any file.
    @Test func aFileThatCannotBeReadIsAWarningAndThePassGoesOn() throws {
        let nudge = try nudge(vdir: "~/todos")
        let vdir = nudge.folder.file("todos")
        try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: false)
        for uid in ["locked", "open"] {
            try "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Test//EN\r\nBEGIN:VTODO\r\nUID:\(uid)\r\nSUMMARY:\(uid)\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
                .write(toFile: vdir + "/\(uid).ics", atomically: false, encoding: .utf8)
        }
        #expect(chmod(vdir + "/locked.ics", 0) == 0)
        let run = try nudge.shell("chown -R 65534:65534 \"$HOME\" && cd / && setpriv --reuid=65534 --regid=65534 --clear-groups \"$NUDGE\" sync")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "Synced with ~/todos: 1 imported, 0 written, 0 deleted, 0 conflicts\n")
        #expect(run.stderr == "nudge: locked.ics cannot be read (Permission denied): left as it is\n")
    }

    /// A Latin-1 file (an old editor's "Café") is one warning, not a todo titled "Caf\u{FFFD}".
    @Test func aFileThatIsNotUTF8IsAWarningAndThePassGoesOn() throws {
        let nudge = try nudge(vdir: "~/todos")
        let vdir = nudge.folder.file("todos")
        try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: false)
        for (uid, title) in [("latin", "Caf\u{E9}"), ("fine", "Tea")] {
            let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Test//EN\r\nBEGIN:VTODO\r\nUID:\(uid)\r\nSUMMARY:\(title)\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
            try #require(text.data(using: .isoLatin1)).write(to: URL(fileURLWithPath: vdir + "/\(uid).ics"))
        }
        let run = try nudge("sync")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "Synced with ~/todos: 1 imported, 0 written, 0 deleted, 0 conflicts\n")
        #expect(run.stderr == "nudge: latin.ics is not UTF-8 text: left as it is\n")
        #expect(try nudge("export", "--all").array().compactMap { $0["title"] as? String } == ["Tea"])
    }

    @Test func aMissingFolderIsOneLineAndNotCreated() throws {
        let nudge = try nudge(vdir: "~/todos")
        let run = try nudge("sync")
        #expect(run.status == 1)
        #expect(run.stderr == "nudge: cannot sync with ~/todos: \(nudge.folder.path)/todos does not exist\n")
        #expect(!FileManager.default.fileExists(atPath: nudge.folder.file("todos")))
    }

    @Test func writesTheTodosThenChangesNothingThenRefusesAnEmptiedFolder() throws {
        let nudge = try nudge(vdir: "~/todos")
        let vdir = nudge.folder.file("todos")
        try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: false)
        try #require(try nudge("add", "Buy milk", "--due", "tomorrow 9:00").status == 0)
        try #require(try nudge("add", "Call Ann").status == 0)

        let first = try nudge("sync")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == "Synced with ~/todos: 0 imported, 2 written, 0 deleted, 0 conflicts\n")
        let uuids = try nudge("export", "--all").array().compactMap { $0["uuid"] as? String }
        #expect(try files(vdir) == uuids.map { $0 + ".ics" }.sorted())

        let again = try nudge("sync", "--json")
        #expect(again.status == 0)
        let report = try again.object()
        #expect(report["written"] as? Int == 0)
        #expect(report["imported"] as? Int == 0)
        #expect(report["warnings"] as? [String] == [])

        for name in try files(vdir) { try FileManager.default.removeItem(atPath: vdir + "/" + name) }
        let refused = try nudge("sync")
        #expect(refused.status == 1)
        #expect(refused.stdout.isEmpty)
        #expect(refused.stderr.contains("holds no .ics files, but 2 todos were synced with it: nothing deleted"), "\(refused.stderr)")
        #expect(try nudge("export", "--all").array().count == 2)
    }

    /// A VLOCATION file in the vdir made every pass die with SIGILL: left alone instead.
    @Test func aFileOfLocationsInTheVdirIsLeftAlone() throws {
        let nudge = try nudge(vdir: "~/todos")
        let vdir = nudge.folder.file("todos")
        try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: false)
        let file = "BEGIN:VCALENDAR\nBEGIN:VLOCATION\nEND:VLOCATION\nEND:VCALENDAR\n"
        try file.write(toFile: vdir + "/loc.ics", atomically: false, encoding: .utf8)
        try #require(try nudge("add", "Buy milk").status == 0)
        let run = try nudge("sync")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr == "")
        #expect(run.stdout == "Synced with ~/todos: 0 imported, 1 written, 0 deleted, 0 conflicts\n")
        #expect(try String(contentsOfFile: vdir + "/loc.ics", encoding: .utf8) == file)
    }

    /// A due in the year 10000 (stored by an older version) went into the vdir as an invalid DUE.
    @Test func aTodoDueAfterTheYear9999IsNotWrittenToTheVdir() throws {
        let nudge = try nudge(vdir: "~/todos")
        let vdir = nudge.folder.file("todos")
        try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: false)
        try #require(try nudge("add", "Far", "--due", "2026-12-31 23:59").status == 0)
        try #require(try nudge("add", "Near").status == 0)
        try #require(try nudge.shell("sqlite3 \"$NUDGE_DB\" \"UPDATE todos SET due_at = 253403459940 WHERE title = 'Far'\"").status == 0)
        let run = try nudge("sync", "--json")
        #expect(run.status == 0, "\(run.stderr)")
        let report = try run.object()
        #expect(report["written"] as? Int == 1)
        #expect(report["warnings"] as? [String] == ["'Far' is not written to the vdir: its due is outside the years 0001-9999"])
        let written = try files(vdir)
        #expect(written.count == 1)
        #expect(try String(contentsOfFile: vdir + "/" + written[0], encoding: .utf8).contains("SUMMARY:Near"))
    }

    /// The real todoman on the same folder: it lists Nudge's todos, and what it changes comes
    /// back with the next `nudge sync`.
    @Test func todomanReadsAndChangesTheSameTodos() throws {
        let todoman = try Todoman()
        let nudge = try nudge(vdir: todoman.list)
        try #require(try nudge("category", "add", "Shopping").status == 0)
        try #require(try nudge("add", "Buy milk", "--due", "2026-12-24 09:00", "--priority", "high",
                               "--category", "Shopping").status == 0)
        try #require(try nudge("add", "Call Ann", "--due", "2026-12-20", "--priority", "low").status == 0)
        let synced = try nudge("sync")
        #expect(synced.status == 0, "\(synced.stderr)")

        let theirs = try todoman.todos()
        let milk = try #require(theirs["Buy milk"])
        #expect(milk["due"] as? Int == 1_798_099_200)
        #expect(milk["priority"] as? Int == 1)
        // todoman's JSON has no categories; its filter reads them.
        let shopping = try todoman("--porcelain", "list", "--category", "Shopping").array()
        #expect(shopping.map { $0["summary"] as? String } == ["Buy milk"])
        let ann = try #require(theirs["Call Ann"])
        #expect(ann["priority"] as? Int == 9)

        let milkID = try #require(milk["id"] as? Int), annID = try #require(ann["id"] as? Int)
        try todoman("done", "\(milkID)")
        try todoman("edit", "\(annID)", "--due", "2026-12-22 18:30")
        let back = try nudge("sync")
        #expect(back.status == 0, "\(back.stderr)")
        #expect(back.stdout.hasPrefix("Synced with \(todoman.list): 2 imported, 0 written"), "\(back.stdout)")
        let ours = Dictionary(try nudge("export", "--all").array().map { ($0["title"] as! String, $0) },
                              uniquingKeysWith: { first, _ in first })
        #expect(ours["Buy milk"]?["completed"] as? Bool == true)
        #expect(ours["Call Ann"]?["due"] as? String == "2026-12-22T17:30:00+00:00")
        #expect(ours["Call Ann"]?["allDay"] as? Bool == false)
        #expect(try nudge("sync").stdout == "Synced with \(todoman.list): 0 imported, 0 written, 0 deleted, 0 conflicts\n")
    }

    /// A todo with two categories, as a phone's task app writes it, stays readable by todoman
    /// after Nudge changes it: todoman 4.1 drops a file with two CATEGORIES lines from its list.
    @Test func aTodoWithTwoCategoriesChangedHereStaysInTodomansList() throws {
        let todoman = try Todoman()
        let nudge = try nudge(vdir: todoman.list)
        try """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            PRODID:-//phone//EN\r
            BEGIN:VTODO\r
            UID:phone-1\r
            DTSTAMP:20261201T000000Z\r
            SUMMARY:Buy milk\r
            CATEGORIES:Home,Errands\r
            END:VTODO\r
            END:VCALENDAR\r

            """.write(toFile: todoman.list + "/phone-1.ics", atomically: true, encoding: .utf8)
        try #require(try nudge("sync").status == 0)
        // The one todo of a new store.
        try #require(try nudge("edit", "1", "--title", "Buy oat milk").status == 0)
        let synced = try nudge("sync")
        #expect(synced.stdout.hasPrefix("Synced with \(todoman.list): 0 imported, 1 written"), "\(synced.stdout)")

        let listed = try todoman("--porcelain", "list")
        #expect(!listed.stderr.contains("Failed to read entry"), "\(listed.stderr)")
        #expect(try listed.array().map { $0["summary"] as? String } == ["Buy oat milk"])
        for category in ["Home", "Errands"] {
            let found = try todoman("--porcelain", "list", "--category", category).array()
            #expect(found.map { $0["summary"] as? String } == ["Buy oat milk"], "\(category)")
        }
        // Left without a category here, it has none there either; its tag stays one there.
        try #require(try nudge("edit", "1", "--no-category").status == 0)
        try #require(try nudge("sync").status == 0)
        #expect(try todoman("--porcelain", "list", "--category", "Home").array().isEmpty)
        #expect(try todoman("--porcelain", "list", "--category", "Errands").array().map { $0["summary"] as? String } == ["Buy oat milk"])
        #expect(try nudge("sync").stdout.contains(" 0 imported, 0 written"))
        #expect(try nudge("show", "1", "--json").object()["tags"] as? [String] == ["Errands"])
    }

    /// Tags added on two machines sharing a vdir, each before it has seen the other's: both
    /// survive on both; a tag removed on one is gone on both. Each tag is a category to todoman.
    @Test func tagsAddedOnTwoMachinesBothSurvive() throws {
        let todoman = try Todoman()
        let (a, b) = (try nudge(vdir: todoman.list), try nudge(vdir: todoman.list))
        #expect(try a("add", "Call bank", "+money", "+phone").status == 0)
        #expect(try a("sync").status == 0)
        #expect(try b("sync").status == 0)
        #expect(try b("show", "1", "--json").object()["tags"] as? [String] == ["money", "phone"])
        #expect(try a("edit", "1", "+urgent", "-phone").status == 0)
        #expect(try b("edit", "1", "+bills").status == 0)
        #expect(try a("sync").status == 0)
        let merged = try b("sync")
        #expect(merged.status == 0 && merged.stdout.hasSuffix(", 0 conflicts\n"), "\(merged.stdout)\(merged.stderr)")
        #expect(try a("sync").status == 0)
        for nudge in [a, b] {
            #expect(try nudge("show", "1", "--json").object()["tags"] as? [String] == ["money", "bills", "urgent"])
            #expect(try nudge("list", "+bills").stdout.contains("Call bank"))
        }
        for category in ["money", "bills", "urgent"] {
            #expect(try todoman("--porcelain", "list", "--category", category).array().map { $0["summary"] as? String } == ["Call bank"])
        }
        #expect(try todoman("--porcelain", "list", "--category", "phone").array().isEmpty)
    }

    /// A subtask made on one machine is under its parent on the other, through a shared vdir.
    @Test func aSubtaskMadeOnOneMachineIsUnderItsParentOnTheOther() throws {
        let todoman = try Todoman()
        let (a, b) = (try nudge(vdir: todoman.list), try nudge(vdir: todoman.list))
        #expect(try a("add", "Paint walls").status == 0)
        #expect(try a("add", "Buy paint", "--parent", "1").status == 0)
        #expect(try a("sync").status == 0)
        let synced = try b("sync")
        #expect(synced.stdout.hasPrefix("Synced with \(todoman.list): 2 imported"), "\(synced.stdout)\(synced.stderr)")
        let lines = try b("list").stdout.split(separator: "\n")
        let parent = try #require(lines.firstIndex { $0.contains("Paint walls") }, "\(lines)")
        #expect(lines[parent].contains(/\[ \] \d  Paint walls 0\/1/), "\(lines)")
        #expect(parent + 1 < lines.count && lines[parent + 1].contains(/\[ \] \d    Buy paint/), "\(lines)")
        let child = try #require(try b("list", "--json").array().first { $0["title"] as? String == "Buy paint" })
        #expect(child["parent"] as? String == (try a("show", "1", "--json").object()["uuid"] as? String))
    }
}
