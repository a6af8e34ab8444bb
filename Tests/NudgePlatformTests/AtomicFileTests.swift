import Foundation
@testable import NudgePlatform
@testable import NudgeTestSupport
import Testing

struct AtomicFileTests {
    let folder = TemporaryDirectory()
    var path: String { folder.path + "/todos.ics" }

    func names() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test func replacesTheFileWholeAndLeavesNothingElse() throws {
        try "old".write(toFile: path, atomically: false, encoding: .utf8)
        try AtomicFile.replace(path, with: "new", mode: 0o640)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new")
        #expect(try names() == ["todos.ics"])
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        // As the umask leaves 0640.
        let permissions = try #require(attributes[.posixPermissions] as? Int)
        #expect(permissions & 0o700 == 0o600 && permissions & ~0o640 == 0)
    }

    @Test func aFolderThatIsMissingFailsAtTheWriteAndChangesNothing() throws {
        let missing = folder.path + "/gone/todos.ics"
        #expect(throws: AtomicFile.Failure(step: .write, path: AtomicFile.temporaryPath(for: missing), errno: .noSuchFile)) {
            try AtomicFile.replace(missing, with: "new")
        }
        #expect(try names() == [])
    }

    @Test func aTemporaryFileLeftByACrashIsReplaced() throws {
        try "half".write(toFile: AtomicFile.temporaryPath(for: path), atomically: false, encoding: .utf8)
        try AtomicFile.replace(path, with: "whole")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "whole")
        #expect(try names() == ["todos.ics"])
    }

    @Test func aLinkPlantedAtTheTemporaryNameIsNotFollowed() throws {
        let victim = folder.path + "/victim"
        try "kept".write(toFile: victim, atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: AtomicFile.temporaryPath(for: path), withDestinationPath: victim)
        try AtomicFile.replace(path, with: "new")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "kept")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new")
    }

    @Test func pendingFilesAreRenamedWhenCommittedAndRemovedWhenDiscarded() throws {
        let kept = try AtomicFile.Pending(writing: "a", to: folder.path + "/.a.tmp", flush: false)
        let dropped = try AtomicFile.Pending(writing: "b", to: folder.path + "/.b.tmp", flush: false)
        #expect(try names() == [".a.tmp", ".b.tmp"])
        try kept.rename(to: folder.path + "/a")
        dropped.discard()
        #expect(try names() == ["a"])
    }
}

struct ProcessEnvironmentTests {
    @Test func readsTheVariablesAsGetenvFindsThem() {
        let variables = ProcessEnvironment.read()
        #expect(variables["PATH"] == String(cString: getenv("PATH")))
        #expect(variables.count > 1)
    }
}
