import Foundation
import Testing
@testable import NudgeTestSupport
@testable import NudgeSystem

/// sd_notify and the watchdog against a datagram socket standing in for systemd. libsystemd
/// reads NOTIFY_SOCKET and WATCHDOG_* from the environment only, so each check sets them in a
/// child process of its own (an exit test): setting them here would change the environment
/// under the other suites' threads, which read it meanwhile.
struct ServiceManagerTests {
    @Test func notifySendsTheStateAsOneDatagram() async throws {
        let socket = try NotifySocket()
        await #expect(processExitsWith: .success) { [path = socket.path as String] in
            setenv("NOTIFY_SOCKET", path, 1)
            #expect(ServiceManager.notify("READY=1\nSTATUS=Next: Buy milk at 18:00"))
            #expect(ServiceManager.notify("WATCHDOG=1"))
            // The variable stays, for the next notification.
            #expect(getenv("NOTIFY_SOCKET").map { String(cString: $0) } == path)
        }
        #expect(socket.received().map(\.text) == ["READY=1\nSTATUS=Next: Buy milk at 18:00", "WATCHDOG=1"])
    }

    @Test func notifyWithoutAServiceManagerDoesNothing() async {
        await #expect(processExitsWith: .success) {
            unsetenv("NOTIFY_SOCKET")
            #expect(!ServiceManager.notify("READY=1"))
        }
    }

    @Test func notifyToAMissingSocketFailsQuietly() async throws {
        let socket = try NotifySocket()
        await #expect(processExitsWith: .success) { [path = socket.folder.file("gone") as String] in
            setenv("NOTIFY_SOCKET", path, 1)
            #expect(!ServiceManager.notify("READY=1"))
        }
        #expect(socket.received().isEmpty)
    }

    @Test(arguments: [
        ("2000000", nil, 2.0),
        ("2000000", "self", 2.0),
        (nil, nil, nil),
        ("2000000", "another", nil),
        ("soon", nil, nil),
    ] as [(String?, String?, Double?)])
    func theWatchdogIntervalComesFromWatchdogUsecForThisProcessOnly(
        usec: String?, pid: String?, interval: Double?
    ) async {
        await #expect(processExitsWith: .success) { [usec, pid, interval] in
            if let usec { setenv("WATCHDOG_USEC", usec, 1) } else { unsetenv("WATCHDOG_USEC") }
            switch pid {
            case "self": setenv("WATCHDOG_PID", String(getpid()), 1)
            case "another": setenv("WATCHDOG_PID", String(getpid() + 1), 1)
            default: unsetenv("WATCHDOG_PID")
            }
            #expect(ServiceManager.watchdogInterval() == interval)
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
