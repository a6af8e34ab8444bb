import Foundation
import Testing
@testable import NudgeTestSupport
@testable import NudgeSystem

/// sd_notify and the watchdog against a datagram socket standing in for systemd. The tests set
/// process-wide environment variables, so they run one at a time and put them back after.
@Suite(.serialized)
struct ServiceManagerTests {
    /// Runs `body` with `variables` set (nil: unset), then restores what was there.
    func with(_ variables: [String: String?], _ body: () throws -> Void) rethrows {
        let saved = variables.keys.map { ($0, getenv($0).map { String(cString: $0) }) }
        defer {
            for (name, value) in saved {
                if let value { setenv(name, value, 1) } else { unsetenv(name) }
            }
        }
        for (name, value) in variables {
            if let value { setenv(name, value, 1) } else { unsetenv(name) }
        }
        try body()
    }

    @Test func notifySendsTheStateAsOneDatagram() throws {
        let socket = try NotifySocket()
        with(["NOTIFY_SOCKET": socket.path]) {
            #expect(ServiceManager.notify("READY=1\nSTATUS=Next: Buy milk at 18:00"))
            #expect(ServiceManager.notify("WATCHDOG=1"))
            #expect(socket.received().map(\.text) == ["READY=1\nSTATUS=Next: Buy milk at 18:00", "WATCHDOG=1"])
            // The variable stays, for the next notification.
            #expect(getenv("NOTIFY_SOCKET").map { String(cString: $0) } == socket.path)
        }
    }

    @Test func notifyWithoutAServiceManagerDoesNothing() {
        with(["NOTIFY_SOCKET": nil]) {
            #expect(!ServiceManager.notify("READY=1"))
        }
    }

    @Test func notifyToAMissingSocketFailsQuietly() throws {
        let socket = try NotifySocket()
        with(["NOTIFY_SOCKET": socket.folder.file("gone")]) {
            #expect(!ServiceManager.notify("READY=1"))
        }
        #expect(socket.received().isEmpty)
    }

    @Test func theWatchdogIntervalComesFromWatchdogUsec() {
        with(["WATCHDOG_USEC": "2000000", "WATCHDOG_PID": nil]) {
            #expect(ServiceManager.watchdogInterval() == 2.0)
        }
        with(["WATCHDOG_USEC": "2000000", "WATCHDOG_PID": String(getpid())]) {
            #expect(ServiceManager.watchdogInterval() == 2.0)
        }
    }

    @Test func thereIsNoWatchdogWhenNoneIsAskedForOrItIsAnotherProcesses() {
        with(["WATCHDOG_USEC": nil, "WATCHDOG_PID": nil]) {
            #expect(ServiceManager.watchdogInterval() == nil)
        }
        with(["WATCHDOG_USEC": "2000000", "WATCHDOG_PID": String(getpid() + 1)]) {
            #expect(ServiceManager.watchdogInterval() == nil)
        }
        with(["WATCHDOG_USEC": "soon", "WATCHDOG_PID": nil]) {
            #expect(ServiceManager.watchdogInterval() == nil)
        }
    }
}

/// units/nudge.service and the autostart entry, checked by scripts/check-unit.
struct UnitFileTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func checkUnit(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = Self.root.appendingPathComponent("scripts/check-unit")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test
    func theUnitPassesVerifyAndGetsAnExposureScore() throws {
        let result = try checkUnit([])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("units/nudge.service: systemd-analyze verify passed"))
        #expect(result.output.contains("Overall exposure level for nudge.service"))
        #expect(result.output.contains("units/nudge-autostart.desktop: desktop-file-validate passed"))
    }

    @Test
    func aUnitWithAWarningFailsTheCheck() throws {
        var template = Array("/tmp/nudge-unit-XXXXXX".utf8CString)
        let folder = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let unit = try String(contentsOf: Self.root.appendingPathComponent("units/nudge.service"), encoding: .utf8)
        let broken = folder + "/nudge.service"
        try unit.replacingOccurrences(of: "UMask=0077", with: "UMsk=0077").write(toFile: broken, atomically: true, encoding: .utf8)

        let result = try checkUnit([broken])
        #expect(result.status != 0)
        #expect(result.output.contains("Unknown key 'UMsk'"), "\(result.output)")
    }
}
