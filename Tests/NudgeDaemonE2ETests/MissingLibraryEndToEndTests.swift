import Foundation
import Testing
@testable import NudgeTestSupport

struct MissingLibraryEndToEndTests {
    /// libical that cannot be opened (an empty libical.so.3 first on LD_LIBRARY_PATH): nudged
    /// says which package to install, once, and stops with a failure for systemd to show.
    @Test func nudgedStopsWithOneLineNamingThePackage() throws {
        let folder = TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: folder.file("lib"), withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: folder.file("lib/libical.so.3"), contents: Data()))
        let run = try ChildProcess.run(NudgedWorld.nudgedBinary, ["--db", folder.file("nudge.db")],
                                       environment: ["PATH": "/usr/bin:/bin", "HOME": folder.path,
                                                     "LD_LIBRARY_PATH": folder.file("lib")])
        #expect(run.status == 1)
        #expect(run.stderr == "nudged: libical.so.3 could not be loaded (install the Debian package libical3)\n")
    }
}
