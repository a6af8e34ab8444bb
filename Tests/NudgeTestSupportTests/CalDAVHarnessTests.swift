import Foundation
import Testing
@testable import NudgeTestSupport

/// The CalDAV harness on its own: Radicale with a password, and two vdirsyncer "machines".
struct CalDAVHarnessTests {
    static let todo = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//Nudge//Harness//EN\r
        BEGIN:VTODO\r
        UID:harness-1\r
        DTSTAMP:20261201T000000Z\r
        SUMMARY:Carried by Radicale\r
        END:VTODO\r
        END:VCALENDAR\r

        """

    @Test func aFileInOneMachinesVdirReachesTheOthersThroughRadicale() throws {
        let server = try RadicaleServer()
        let a = try VdirMachine(name: "a", server: server)
        let b = try VdirMachine(name: "b", server: server)
        try Self.todo.write(toFile: a.collection + "/harness-1.ics", atomically: true, encoding: .utf8)
        try a.discover()
        try a.sync()
        #expect(FileManager.default.fileExists(atPath: server.userFolder + "/todos/harness-1.ics"))
        try b.discover()
        try b.sync()
        #expect(try b.files() == ["harness-1.ics"])
        #expect(try b.read("harness-1.ics").contains("SUMMARY:Carried by Radicale"))
    }

    @Test func radicaleRefusesAWrongPassword() throws {
        let server = try RadicaleServer()
        let run = try ChildProcess.run("/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", "PROPFIND",
                                                        "-u", "\(RadicaleServer.user):wrong", server.url + RadicaleServer.user + "/"],
                                       environment: ["PATH": "/usr/bin:/bin"])
        #expect(run.stdout == "401")
    }
}
