import Foundation
import NudgeCore
import NudgeInterchange
import Testing
@testable import NudgeStore
@testable import NudgeSync
@testable import NudgeTestSupport

/// Names in the vdir that are not plain files of a sane size: each is left alone with one
/// warning naming it, and the pass goes on with the others.
extension VdirSyncTests {
    func todoFile(_ uid: String, _ title: String, notes: String = "") -> String {
        [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//EN", "BEGIN:VTODO", "UID:\(uid)",
            "DTSTAMP:20261101T100000Z", "SUMMARY:\(title)",
        ].joined(separator: "\r\n") + (notes.isEmpty ? "" : "\r\nDESCRIPTION:" + notes)
            + "\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
    }

    @Test func aSymbolicLinkIsNotFollowedOutOfTheFolder() throws {
        let outside = folder.file("outside.ics")
        try todoFile("outside-1", "Outside the vdir").write(toFile: outside, atomically: false, encoding: .utf8)
        #expect(symlink(outside, vdir + "/s.ics") == 0)
        #expect(symlink("/etc/passwd", vdir + "/passwd.ics") == 0)
        try todoFile("inside-1", "Inside").write(toFile: vdir + "/inside-1.ics", atomically: false, encoding: .utf8)
        let store = try makeStore("a")
        let report = try sync(store).pass(now: at(1))
        #expect(report.imported == 1)
        #expect(try store.todos(matching: TodoQuery(state: .all)).map(\.title) == ["Inside"])
        #expect(report.warnings == ["passwd.ics is a symbolic link, not a file: left as it is",
                                    "s.ics is a symbolic link, not a file: left as it is"])
        #expect(try String(contentsOfFile: outside, encoding: .utf8).contains("Outside the vdir"))
    }

    @Test func aFIFOAFolderAndALinkLoopAreSkippedByNameWithoutBlocking() throws {
        #expect(mkfifo(vdir + "/f.ics", 0o600) == 0)
        try FileManager.default.createDirectory(atPath: vdir + "/d.ics", withIntermediateDirectories: false)
        #expect(symlink("loop.ics", vdir + "/loop.ics") == 0)
        try todoFile("inside-1", "Inside").write(toFile: vdir + "/inside-1.ics", atomically: false, encoding: .utf8)
        let store = try makeStore("a")
        let report = try sync(store).pass(now: at(1))
        #expect(report.imported == 1)
        #expect(report.warnings == ["d.ics is a folder, not a file: left as it is",
                                    "f.ics is a FIFO, not a file: left as it is",
                                    "loop.ics is a symbolic link, not a file: left as it is"])
    }

    /// Each pass says it (`nudge sync` runs one), marked as standing, by the entry it is about,
    /// so that nudged, passing at every change, says it once until the entry changes.
    @Test func aLinksWarningStandsForTheSameLinkUntilItChanges() throws {
        #expect(symlink("/etc/passwd", vdir + "/passwd.ics") == 0)
        let store = try makeStore("a")
        let warning = "passwd.ics is a symbolic link, not a file: left as it is"
        let first = try sync(store).pass(now: at(1))
        let second = try sync(store).pass(now: at(2))
        #expect(first.warnings == [warning] && second.warnings == [warning])
        let key = try #require(first.standingWarnings[warning])
        #expect(second.standingWarnings == [warning: key])
        #expect(unlink(vdir + "/passwd.ics") == 0)
        #expect(symlink("/etc/hosts", vdir + "/passwd.ics") == 0)
        let third = try sync(store).pass(now: at(3))
        #expect(third.warnings == [warning])
        #expect(third.standingWarnings[warning].map { $0 != key } == true)
    }

    /// A synced todo whose file becomes a link (a dotfiles manager moved it) is not deleted as
    /// if its file went, and no new file is written over the link.
    @Test func aTodoWhoseFileBecameALinkStays() throws {
        let (a, _) = try twoMachines()
        let moved = folder.file("moved.ics")
        #expect(rename(vdir + "/\(uuidA).ics", moved) == 0)
        #expect(symlink(moved, vdir + "/\(uuidA).ics") == 0)
        let report = try sync(a).pass(now: at(5))
        #expect(report.deletedTodos == 0)
        #expect(report.warnings == ["\(uuidA).ics is a symbolic link, not a file: left as it is"])
        #expect(try a.count() == 2)
    }

    @Test func aFileOverTheLimitIsLeftAloneWithOneWarningAndThePassGoesOn() throws {
        try todoFile("big-1", "Big", notes: String(repeating: "x", count: 5000))
            .write(toFile: vdir + "/big-1.ics", atomically: false, encoding: .utf8)
        try todoFile("small-1", "Small").write(toFile: vdir + "/small-1.ics", atomically: false, encoding: .utf8)
        let store = try makeStore("a")
        let limited = VdirSync(store: store, folder: vdir, options: InterchangeOptions(zone: berlin, now: start), maxFileSize: 4096)
        let report = try limited.pass(now: at(1))
        #expect(report.imported == 1)
        #expect(report.warnings == ["big-1.ics is larger than the 4 KB limit ([import] max_size): left as it is"])
        #expect(try store.todos(matching: TodoQuery(state: .all)).map(\.title) == ["Small"])
        // Not read, nor warned of, again until it changes.
        let again = VdirSync(store: store, folder: vdir, options: InterchangeOptions(zone: berlin, now: start), maxFileSize: 4096)
        let second = try again.pass(now: at(2))
        #expect(second.warnings.isEmpty)
        #expect(again.bodiesRead == 0)
    }

    /// Latin-1 bytes (an old editor's "Café"): not read as U+FFFD and imported, nor skipped
    /// without a word.
    @Test func aFileThatIsNotUTF8IsLeftAloneWithOneWarning() throws {
        let latin1 = try #require(todoFile("cafe-1", "Caf\u{E9}").data(using: .isoLatin1))
        try latin1.write(to: URL(fileURLWithPath: vdir + "/cafe-1.ics"))
        try todoFile("small-1", "Small").write(toFile: vdir + "/small-1.ics", atomically: false, encoding: .utf8)
        let store = try makeStore("a")
        let report = try sync(store).pass(now: at(1))
        #expect(report.imported == 1)
        #expect(report.warnings == ["cafe-1.ics is not UTF-8 text: left as it is"])
        #expect(try store.todos(matching: TodoQuery(state: .all)).map(\.title) == ["Small"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: vdir + "/cafe-1.ics")) == latin1)
        // Not read, nor warned of, again until it changes.
        let again = sync(store)
        #expect(try again.pass(now: at(2)).warnings.isEmpty)
        #expect(again.bodiesRead == 0)
    }

    @Test func aFileWithNotesOfMegabytesIsLeftAloneWithAWarning() throws {
        try todoFile("long-1", "Long", notes: String(repeating: "x", count: 2 << 20))
            .write(toFile: vdir + "/long-1.ics", atomically: false, encoding: .utf8)
        try todoFile("small-1", "Small").write(toFile: vdir + "/small-1.ics", atomically: false, encoding: .utf8)
        let store = try makeStore("a")
        let report = try sync(store).pass(now: at(1))
        #expect(report.imported == 1)
        #expect(report.warnings == ["long-1.ics: \"notes\" is 2 MB long; at most 1 MB is allowed: left as it is"])
        #expect(try store.todos(matching: TodoQuery(state: .all)).map(\.title) == ["Small"])
    }
}
