import Foundation

/// Radicale (Debian `radicale`) on a free loopback port, with a password (htpasswd, plain) and
/// a config file of its own (the machine's /etc/radicale/config is not read), stopped when the
/// value goes away.
///
///     let server = try RadicaleServer()
///     let a = try VdirMachine(name: "a", server: server)
///     try a.discover(); try a.sync()
final class RadicaleServer {
    static let user = "nudge"
    static let password = "correct horse battery staple"

    let folder = TemporaryDirectory()
    let port: Int
    private let process: ChildProcess

    var url: String { "http://127.0.0.1:\(port)/" }
    /// Where Radicale keeps the user's collections: `COLLECTION/UID.ics`.
    var userFolder: String { folder.file("storage/collection-root/\(Self.user)") }

    init() throws {
        try "\(Self.user):\(Self.password)\n".write(toFile: folder.file("users"), atomically: true, encoding: .utf8)
        var started: (ChildProcess, Int)?
        var lastLog = ""
        // A port free a moment ago may be taken by the time Radicale binds it: try another.
        for _ in 1...3 {
            let port = try Self.freePort()
            try """
                [server]
                hosts = 127.0.0.1:\(port)
                [auth]
                type = htpasswd
                htpasswd_filename = \(folder.file("users"))
                htpasswd_encryption = plain
                [rights]
                type = owner_only
                [storage]
                filesystem_folder = \(folder.file("storage"))
                [logging]
                level = warning

                """.write(toFile: folder.file("config"), atomically: true, encoding: .utf8)
            let log = folder.file("radicale.log")
            let process = try ChildProcess("/usr/bin/radicale", ["--config", folder.file("config")],
                                           environment: ["PATH": "/usr/bin:/bin", "HOME": folder.path, "LANG": "C.UTF-8"],
                                           log: log)
            if NotificationServerHarness.waitUntil(timeout: 15, { !process.isRunning || Self.accepts(port: port) }),
               process.isRunning {
                started = (process, port)
                break
            }
            process.stop()
            lastLog = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        }
        guard let (process, port) = started else { throw HarnessError("radicale did not start: \(lastLog)") }
        self.process = process
        self.port = port
    }

    deinit {
        process.stop()
    }

    /// A loopback port nothing listens on now (bound to port 0, asked, released).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw HarnessError("bind: \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether something accepts connections on the loopback port.
    static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}

/// One "machine"'s side of vdirsyncer (Debian `vdirsyncer`): a vdir, a config and a status
/// folder of its own, syncing the collection `todos` with a `RadicaleServer`.
final class VdirMachine {
    static let collectionName = "todos"

    let name: String
    let folder = TemporaryDirectory()
    let server: RadicaleServer

    /// The vdir: one folder per collection.
    var vdir: String { folder.file("calendars") }
    /// The collection's folder, one `UID.ics` per todo: what `[sync] vdir` names.
    var collection: String { vdir + "/" + Self.collectionName }
    var configPath: String { folder.file("vdirsyncer.conf") }

    init(name: String, server: RadicaleServer) throws {
        self.name = name
        self.server = server
        try FileManager.default.createDirectory(atPath: collection, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder.file("status"), withIntermediateDirectories: true)
        try config.write(toFile: configPath, atomically: true, encoding: .utf8)
    }

    /// The config docs/sync.md shows, pointing at this machine's folders.
    var config: String { Self.config(server: server, status: folder.file("status"), vdir: vdir) }

    /// docs/sync.md's vdirsyncer config against `server`, with these folders (`~/` allowed).
    static func config(server: RadicaleServer, status: String, vdir: String) -> String {
        """
        [general]
        status_path = "\(status)"

        [pair todos]
        a = "todos_local"
        b = "todos_remote"
        collections = ["from a", "from b"]
        # A todo changed in both places since the last sync: the server's copy wins. nudged with
        # [sync] command fetches before it writes a change of its own, so that it merges instead.
        conflict_resolution = "b wins"

        [storage todos_local]
        type = "filesystem"
        path = "\(vdir)"
        fileext = ".ics"

        [storage todos_remote]
        type = "caldav"
        url = "\(server.url)"
        username = "\(RadicaleServer.user)"
        password = "\(RadicaleServer.password)"
        item_types = ["VTODO"]

        """
    }

    private var environment: [String: String] {
        ["PATH": "/usr/bin:/bin", "HOME": folder.path, "LANG": "C.UTF-8"]
    }

    /// `yes | vdirsyncer discover todos`: creates the collection where it is missing.
    func discover() throws {
        let run = try ChildProcess.run("/bin/sh", ["-c", "yes | /usr/bin/vdirsyncer -c '\(configPath)' discover todos"],
                                       environment: environment)
        guard run.status == 0 else { throw HarnessError("vdirsyncer discover on \(name) failed (\(run.status)): \(run.stderr)") }
    }

    /// `vdirsyncer sync`.
    @discardableResult
    func sync() throws -> Run {
        let run = try ChildProcess.run("/usr/bin/vdirsyncer", ["-c", configPath, "sync"], environment: environment)
        guard run.status == 0 else { throw HarnessError("vdirsyncer sync on \(name) failed (\(run.status)): \(run.stderr)") }
        return run
    }

    /// The command line `[sync] command` runs for this machine.
    var syncCommand: String { "/usr/bin/vdirsyncer -c '\(configPath)' sync" }

    /// The `.ics` files in the collection.
    func files() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: collection).filter { $0.hasSuffix(".ics") }.sorted()
    }

    func read(_ file: String) throws -> String {
        try String(contentsOfFile: collection + "/" + file, encoding: .utf8)
    }
}
