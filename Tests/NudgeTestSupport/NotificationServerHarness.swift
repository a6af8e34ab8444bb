import Foundation

/// A throwaway session bus with a real notification server on it: a private `dbus-daemon`,
/// `Xvfb` on a display it picks itself, and `dunst` configured to record every notification
/// and to "click" buttons through a script. Everything is stopped when the value goes away.
///
///     let server = try NotificationServerHarness()          // bus, X server, dunst owning the name
///     NotificationClient(queue: queue, address: server.busAddress)  // a client on that bus
///     ... send notifications (or run the daemon with `server.environment`) ...
///     let shown = try server.waitForRecords(count: 1)        // what dunst received
///     shown[0]["DUNST_SUMMARY"], ["DUNST_BODY"], ["DUNST_URGENCY"] ("LOW", "NORMAL", "CRITICAL"),
///         ["DUNST_APP_NAME"], ["DUNST_ICON_PATH"], ["DUNST_CATEGORY"], ["DUNST_DESKTOP_ENTRY"],
///         ["DUNST_ID"], ["DUNST_TIMEOUT"], ["RECORDED_AT"] (when it was shown, `date +%s.%N`)
///     try server.click(actionMatching: "snooze")             // as a mouse click on that button
///     try server.displayedCount()                            // `dunstctl count displayed`
///     try server.dunstctl("history")                         // any dunstctl command's stdout
///     server.stopServer(); try server.startServer()          // the name goes away / comes back
///     server.pauseServer(); server.resumeServer()            // SIGSTOP / SIGCONT: a hung server
///     server.stopBus()                                       // clients lose their connection
///     try server.startWatchingCalls()                        // before anything is sent, then
///     let calls = try server.waitForNotifyCalls(count: 1)    // the Notify calls as sent:
///         calls[0].hints["sound-name"], ["suppress-sound"] ("true"), ["urgency"] ("2"),
///         ["resident"], calls[0].expireTimeout, calls[0].summary
///
/// - `NotificationServerHarness(startingServer: false)` gives a bus with no notification
///   server; the bus has no service directories, so nothing is D-Bus-activated and a call to
///   org.freedesktop.Notifications fails at once with ServiceUnknown.
/// - `click(actionMatching:)` runs `dunstctl context`; dunst hands the newest notification's
///   actions to its dmenu script as lines like `#Snooze 10 min (Buy milk) [2,snooze-0]`, the
///   script picks the first line matching the pattern (grep -i), and dunst emits
///   ActionInvoked(2, "snooze-0").
/// - The icon name `NotificationServerHarness.iconName` resolves to a PNG in dunst's icon
///   path; `DUNST_ICON_PATH` is then that file's path (empty for names dunst cannot find).
/// - dunst's record script sees no sound hints, no `resident` and not the timeout asked for
///   (DUNST_TIMEOUT is the one dunst applies), so `startWatchingCalls` runs
///   `busctl monitor --json=short` on the bus, and `notifyCalls` reads what it saw.
/// - Logs of the three programs are in `folder` (dbus.log, xvfb.log, dunst.log; busctl.log).
///
/// Children are started by `ChildProcess` (posix_spawn with a clean signal mask), so they
/// receive SIGTERM; Foundation's `Process` would hand them the test thread's blocked mask.
/// Needs the Debian packages dbus, dunst, xvfb. Not thread-safe: use it from one test.
final class NotificationServerHarness {
    /// An icon name dunst finds: a 1×1 PNG in the harness's icon path.
    static let iconName = "nudge-test"

    let folder = TemporaryDirectory()
    /// DBUS_SESSION_BUS_ADDRESS of the private bus.
    private(set) var busAddress = ""
    /// DISPLAY of the X server, once the notification server was started.
    private(set) var display: String?

    private var bus: ChildProcess?
    private var xServer: ChildProcess?
    private var server: ChildProcess?
    private var monitor: ChildProcess?
    /// Reading ends of the pipes the bus and the X server printed to, kept open so that a
    /// later write gets no SIGPIPE.
    private var pipeEnds: [Int32] = []

    /// The environment a client or the daemon needs: the bus, and the display when known.
    var environment: [String: String] {
        var environment = ["DBUS_SESSION_BUS_ADDRESS": busAddress]
        if let display { environment["DISPLAY"] = display }
        return environment
    }

    /// The process id of dunst while it runs.
    var serverPID: Int32? { server?.pid }

    init(startingServer: Bool = true) throws {
        try writeFiles()
        try startBus()
        if startingServer { try startServer() }
    }

    deinit {
        monitor?.stop()
        stopServer()
        xServer?.stop()
        bus?.stop()
        pipeEnds.forEach { close($0) }
    }

    // MARK: The notification server

    /// Starts dunst (and the X server, the first time) and waits until it owns
    /// org.freedesktop.Notifications.
    func startServer() throws {
        if display == nil { try startXServer() }
        server = try launch("/usr/bin/dunst", [], log: "dunst.log",
                            environment: ["XDG_CONFIG_HOME": folder.file("config")])
        guard try Self.waitUntil(timeout: 5, { try serverIsRunning() }) else {
            throw HarnessError("dunst did not take org.freedesktop.Notifications: \(log("dunst.log"))")
        }
    }

    /// Stops dunst (SIGTERM) and waits until the bus saw it go.
    func stopServer() {
        guard let dunst = server else { return }
        server = nil
        dunst.stop()
        _ = try? Self.waitUntil(timeout: 5, { try !serverIsRunning() })
    }

    /// Freezes dunst (SIGSTOP): it keeps the name but answers nothing.
    func pauseServer() {
        if let pid = serverPID { kill(pid, SIGSTOP) }
    }

    func resumeServer() {
        if let pid = serverPID { kill(pid, SIGCONT) }
    }

    /// Stops the bus itself (dunst then quits too): every client loses its connection.
    func stopBus() {
        bus?.stop()
    }

    /// Whether some connection owns org.freedesktop.Notifications.
    func serverIsRunning() throws -> Bool {
        let reply = try run("/usr/bin/dbus-send", ["--bus=\(busAddress)", "--print-reply", "--dest=org.freedesktop.DBus",
                                                   "/org/freedesktop/DBus", "org.freedesktop.DBus.NameHasOwner",
                                                   "string:org.freedesktop.Notifications"])
        return reply.contains("boolean true")
    }

    // MARK: What dunst saw and did

    /// One dictionary of DUNST_* variables per notification dunst received (replacements
    /// included), oldest first, each with RECORDED_AT: when the record script ran, as
    /// seconds since 1970 with a fraction (`date +%s.%N`).
    func records() throws -> [[String: String]] {
        // A record is written to NAME.tmp and renamed when complete.
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.file("records"))
            .filter { !$0.hasSuffix(".tmp") }.sorted()
        return try names.map { name in
            let bytes = try Data(contentsOf: URL(fileURLWithPath: folder.file("records/" + name)))
            var record: [String: String] = [:]
            for field in bytes.split(separator: 0) {
                let text = String(decoding: field, as: UTF8.self)
                guard let equals = text.firstIndex(of: "=") else { continue }
                record[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            return record
        }
    }

    /// Waits up to `timeout` seconds for at least `count` records and returns them all.
    func waitForRecords(count: Int, timeout: Double = 5) throws -> [[String: String]] {
        var found: [[String: String]] = []
        // A record file appears empty first and is filled by the script.
        _ = try Self.waitUntil(timeout: timeout) {
            found = try records()
            return found.count >= count && found.allSatisfy { $0["DUNST_ID"] != nil }
        }
        guard found.count >= count else {
            throw HarnessError("\(found.count) notifications recorded, wanted \(count): \(log("dunst.log"))")
        }
        return found
    }

    /// One Notify call as a client sent it.
    struct NotifyCall {
        var replacesID: Int
        var summary: String
        var body: String
        /// Each hint's value as text: a string as it is, a byte or integer in decimal, a
        /// boolean as "true" or "false".
        var hints: [String: String]
        /// -1 for the server's timeout, 0 for never, else milliseconds.
        var expireTimeout: Int
    }

    /// Starts watching the bus for Notify calls (`busctl monitor`); returns once it watches.
    func startWatchingCalls() throws {
        let output = open(folder.file("calls.json"), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard output >= 0 else { throw HarnessError("cannot create calls.json") }
        defer { close(output) }
        monitor = try ChildProcess("/usr/bin/busctl", [
            "--address=" + busAddress, "monitor", "--json=short",
            "--match=type='method_call',interface='org.freedesktop.Notifications',member='Notify'"],
            environment: baseEnvironment, stdout: output, log: folder.file("busctl.log"))
        guard Self.waitUntil(timeout: 5, { log("busctl.log").contains("Monitoring") }) else {
            throw HarnessError("busctl monitor did not start: \(log("busctl.log"))")
        }
    }

    /// The Notify calls seen since `startWatchingCalls`, oldest first.
    func notifyCalls() throws -> [NotifyCall] {
        let text = (try? String(contentsOfFile: folder.file("calls.json"), encoding: .utf8)) ?? ""
        // A line is complete once its newline is written.
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().compactMap { line in
            guard let message = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let payload = message["payload"] as? [String: Any], let data = payload["data"] as? [Any], data.count == 8,
                  let hints = data[6] as? [String: [String: Any]] else { return nil }
            var texts: [String: String] = [:]
            for (key, variant) in hints {
                let value = variant["data"]
                texts[key] = variant["type"] as? String == "b" ? ((value as? Bool) == true ? "true" : "false")
                    : (value as? String) ?? (value as? NSNumber)?.stringValue ?? "\(value ?? "")"
            }
            return NotifyCall(replacesID: (data[1] as? Int) ?? -1, summary: data[3] as? String ?? "",
                              body: data[4] as? String ?? "", hints: texts, expireTimeout: (data[7] as? Int) ?? -2)
        }
    }

    /// Waits up to `timeout` seconds for at least `count` Notify calls and returns them all.
    func waitForNotifyCalls(count: Int, timeout: Double = 5) throws -> [NotifyCall] {
        var found: [NotifyCall] = []
        _ = try Self.waitUntil(timeout: timeout) {
            found = try notifyCalls()
            return found.count >= count
        }
        guard found.count >= count else {
            throw HarnessError("\(found.count) Notify calls seen, wanted \(count): \(log("busctl.log"))")
        }
        return found
    }

    /// Picks the first action of the newest notification whose menu line matches `pattern`
    /// (grep -i), as clicking that button would.
    func click(actionMatching pattern: String) throws {
        try pattern.write(toFile: folder.file("pick-pattern"), atomically: true, encoding: .utf8)
        _ = try dunstctl("context")
    }

    /// `dunstctl count displayed`.
    func displayedCount() throws -> Int {
        Int(try dunstctl("count", "displayed").trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// Runs dunstctl against this harness's dunst and returns its stdout.
    func dunstctl(_ arguments: String...) throws -> String {
        try run("/usr/bin/dunstctl", arguments)
    }

    // MARK: Setup

    private func writeFiles() throws {
        let fileManager = FileManager.default
        for folderName in ["config/dunst", "records", "icons"] {
            try fileManager.createDirectory(atPath: folder.file(folderName), withIntermediateDirectories: true)
        }
        // The standard session bus minus its service directories: nothing gets activated.
        let sessionConfig = try String(contentsOfFile: "/usr/share/dbus-1/session.conf", encoding: .utf8)
        let busConfig = sessionConfig.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.contains("<standard_session_servicedirs") }
            .joined(separator: "\n")
        try busConfig.write(toFile: folder.file("bus.conf"), atomically: true, encoding: .utf8)

        try writeScript("pick.sh", """
            #!/bin/sh
            # dunst's dmenu: gets "#label (summary) [id,key]" lines, prints the one to choose.
            tee -a '\(folder.file("pick-input"))' | grep -i -- "$(cat '\(folder.file("pick-pattern"))' 2>/dev/null)" | head -n 1
            """)
        try writeScript("record.sh", """
            #!/bin/sh
            # Run by dunst once per notification: keep its DUNST_* variables, NUL-separated.
            file='\(folder.file("records"))'/$(date +%s%N)-$$
            { env -0 | grep -z '^DUNST_'; printf 'RECORDED_AT=%s\0' "$(date +%s.%N)"; } > "$file.tmp" && mv "$file.tmp" "$file"
            """)
        try """
            [global]
            # As dunst's own dunstrc: without it, dunst 1.9 leaves body-markup out of its
            # capabilities but still parses bodies as markup.
            markup = full
            dmenu = \(folder.file("pick.sh"))
            icon_path = \(folder.file("icons"))
            # Notifications stay until closed, so that a test on a loaded machine can still
            # press their buttons.
            [urgency_low]
            timeout = 0
            [urgency_normal]
            timeout = 0
            [urgency_critical]
            timeout = 0
            [record]
            summary = "*"
            script = \(folder.file("record.sh"))

            """.write(toFile: folder.file("config/dunst/dunstrc"), atomically: true, encoding: .utf8)
        let png = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==")!
        try png.write(to: URL(fileURLWithPath: folder.file("icons/\(Self.iconName).png")))
    }

    private func writeScript(_ name: String, _ text: String) throws {
        try folder.writeExecutable(name, text + "\n")
    }

    private func startBus() throws {
        let (process, line) = try launchReadingLine("/usr/bin/dbus-daemon", [
            "--config-file=" + folder.file("bus.conf"), "--nofork", "--print-address=1",
            "--address=unix:path=" + folder.file("bus")], log: "dbus.log")
        bus = process
        busAddress = line
        guard !busAddress.isEmpty else { throw HarnessError("dbus-daemon printed no address: \(log("dbus.log"))") }
    }

    private func startXServer() throws {
        // -displayfd: Xvfb picks a free display number and writes it once it accepts clients.
        let (process, number) = try launchReadingLine("/usr/bin/Xvfb", [
            "-displayfd", "1", "-nolisten", "tcp", "-screen", "0", "800x600x24"], log: "xvfb.log")
        xServer = process
        guard Int(number) != nil else { throw HarnessError("Xvfb printed no display: \(log("xvfb.log"))") }
        guard Self.waitUntil(timeout: 5, { FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X" + number) }) else {
            throw HarnessError("Xvfb :\(number) has no socket")
        }
        display = ":" + number
    }

    // MARK: Processes

    private func launch(_ path: String, _ arguments: [String], log: String,
                        environment: [String: String] = [:]) throws -> ChildProcess {
        try ChildProcess(path, arguments, environment: baseEnvironment.merging(environment) { $1 },
                         log: folder.file(log))
    }

    /// Starts a program that prints one line to stdout when ready; returns it and the line.
    private func launchReadingLine(_ path: String, _ arguments: [String],
                                   log: String) throws -> (ChildProcess, String) {
        let fds = try ChildProcess.makePipe()
        pipeEnds.append(fds[0])
        let started = Result { try ChildProcess(path, arguments, environment: baseEnvironment, stdout: fds[1],
                                                log: folder.file(log)) }
        close(fds[1])
        let process = try started.get()
        let line = ChildProcess.readAll(fds[0], line: true).trimmingCharacters(in: .whitespacesAndNewlines)
        return (process, line)
    }

    /// Runs a short command against this bus and returns its stdout.
    private func run(_ path: String, _ arguments: [String]) throws -> String {
        try ChildProcess.output(path, arguments, environment: baseEnvironment)
    }

    private var baseEnvironment: [String: String] {
        var environment = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
                           "HOME": folder.path, "LANG": "C.UTF-8"]
        if !busAddress.isEmpty { environment["DBUS_SESSION_BUS_ADDRESS"] = busAddress }
        if let display { environment["DISPLAY"] = display }
        return environment
    }

    private func log(_ name: String) -> String {
        (try? String(contentsOfFile: folder.file(name), encoding: .utf8)) ?? ""
    }

    /// Polls `condition` every 20 ms until it holds or `timeout` seconds passed.
    static func waitUntil(timeout: Double, _ condition: () throws -> Bool) rethrows -> Bool {
        let end = Date().addingTimeInterval(timeout)
        while true {
            if try condition() { return true }
            if Date() > end { return false }
            usleep(20_000)
        }
    }
}

struct HarnessError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
