import Foundation
import Testing
@testable import NudgeTestSupport

/// Every input has a size limit, `[import] max_size`, as a URL's answer has: a larger file,
/// standard input or vdir file is refused in one line, read no further than the limit.
struct InputLimitTests {
    let nudge = Nudge()

    func config(_ text: String) throws {
        let folder = nudge.folder.file(".config/nudge")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try text.write(toFile: folder + "/nudge.conf", atomically: true, encoding: .utf8)
    }

    /// A JSON array of `count` todos with long notes: about 2.2 KB for 2.
    func todos(_ count: Int) -> String {
        "[" + (1...count).map { """
            {"uuid": "00000000-0000-4000-8000-\(String(repeating: "0", count: 11))\($0)", "title": "Todo \($0)",
             "notes": "\(String(repeating: "n", count: 1000))", "createdAt": "2026-10-01T10:00:00Z", "updatedAt": "2026-10-01T10:00:00Z"}
            """ }.joined(separator: ",") + "]"
    }

    @Test func aFileOverMaxSizeIsRefusedInOneLineAndNothingIsStored() throws {
        try config("[import]\nmax_size = 2K\n")
        try nudge("add", "Keep me")
        let before = try nudge("export", "--all").stdout
        let path = nudge.folder.file("big.json")
        try todos(2).write(toFile: path, atomically: true, encoding: .utf8)
        let run = try nudge("import", path)
        #expect(run.status == 1)
        #expect(run.stderr == "nudge: cannot import \(path): it is larger than the 2 KB limit ([import] max_size); nothing was imported\n")
        #expect(try nudge("export", "--all").stdout == before)

        // Standard input too, and a file within the limit is read as before.
        let piped = try nudge("import", "-", input: todos(2))
        #expect(piped.status == 1)
        #expect(piped.stderr == "nudge: cannot import standard input: it is larger than the 2 KB limit ([import] max_size); nothing was imported\n")
        try todos(1).write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try nudge("import", path).status == 0)
    }

    /// An endless input stops at the default limit of 10 MB, at once and in little memory
    /// (before, it grew by gigabytes until the kernel killed it). The test kills a nudge that
    /// passes 1 GB of resident memory or 60 s, so that a regression cannot take the machine
    /// with it.
    @Test func devZeroIsRefusedAtTheDefaultLimit() throws {
        let zero = open("/dev/zero", O_RDONLY | O_CLOEXEC)
        try #require(zero >= 0)
        defer { close(zero) }
        let limit = 1 << 30
        for (arguments, name) in [(["import", "/dev/zero"], "/dev/zero"), (["import", "-"], "standard input")] {
            let log = nudge.folder.file("stderr")
            let child = try ChildProcess(Nudge.binary, arguments, environment: nudge.environment,
                                         stdin: arguments.last == "-" ? zero : nil, log: log)
            let status = child.waitBounded(memoryLimit: limit, timeout: 60)
            let stderr = try String(contentsOfFile: log, encoding: .utf8)
            try FileManager.default.removeItem(atPath: log)
            #expect(child.peakResidentBytes < limit, "\(arguments): \(child.peakResidentBytes >> 20) MB resident")
            #expect(status == 1, "\(arguments): \(stderr)")
            #expect(stderr == "nudge: cannot import \(name): it is larger than the 10 MB limit ([import] max_size); nothing was imported\n")
        }
        #expect(!FileManager.default.fileExists(atPath: nudge.database))
    }

    /// A vdir file over the limit is named in one warning; the pass imports the rest.
    @Test func syncLeavesAFileOverMaxSizeAloneAndGoesOn() throws {
        try config("[import]\nmax_size = 2K\n[sync]\nvdir = ~/todos\n")
        let vdir = nudge.folder.file("todos")
        try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: false)
        func todo(_ uid: String, _ notes: String) -> String {
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Test//EN\r\nBEGIN:VTODO\r\nUID:\(uid)\r\nSUMMARY:\(uid)\r\n"
                + "DESCRIPTION:\(notes)\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        }
        try todo("big", String(repeating: "x", count: 3000)).write(toFile: vdir + "/big.ics", atomically: false, encoding: .utf8)
        try todo("small", "fine").write(toFile: vdir + "/small.ics", atomically: false, encoding: .utf8)
        let run = try nudge("sync")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "Synced with ~/todos: 1 imported, 0 written, 0 deleted, 0 conflicts\n")
        #expect(run.stderr == "nudge: big.ics is larger than the 2 KB limit ([import] max_size): left as it is\n")
        #expect(try nudge("export", "--all").array().compactMap { $0["title"] as? String } == ["small"])
    }

    /// Notes of megabytes within a file under the limit: the todo is refused as a bad item.
    @Test func notesOverAMegabyteAreRefusedAsABadItem() throws {
        let path = nudge.folder.file("notes.json")
        let notes = String(repeating: "n", count: 2 << 20)
        try """
            [{"uuid": "00000000-0000-4000-8000-000000000001", "title": "Long notes", "notes": "\(notes)",
              "createdAt": "2026-10-01T10:00:00Z", "updatedAt": "2026-10-01T10:00:00Z"}]
            """.write(toFile: path, atomically: true, encoding: .utf8)
        let run = try nudge("import", path)
        #expect(run.status == 1)
        #expect(run.stderr == "nudge: item 1: \"notes\" is 2 MB long; at most 1 MB is allowed; nothing was imported (--skip-bad imports the rest)\n")
        #expect(!FileManager.default.fileExists(atPath: nudge.database))
    }
}
