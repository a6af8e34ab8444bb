import Foundation

/// The HTTP server of test_http_server.py (beside this file) on a free loopback port, stopped
/// when the value goes away. Its paths: /todos (the web-API shape), /files/NAME (from
/// `folder`), /slow, /chunked, /404, /500, /invalid, /endless, /stall, /loop, /redirect and
/// /quote/...; /requests counts what was asked for.
final class TestHTTPServer {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("test_http_server.py").path

    let folder = TemporaryDirectory()
    private let process: ChildProcess
    let port: Int

    init() throws {
        let pipe = try ChildProcess.makePipe()
        process = try ChildProcess("/usr/bin/python3", [Self.script, folder.path], environment: ["PATH": "/usr/bin:/bin"],
                                   stdout: pipe[1])
        close(pipe[1])
        let line = ChildProcess.readAll(pipe[0], line: true)
        close(pipe[0])
        guard let port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.stop()
            throw TestHTTPServerError(message: "the test HTTP server did not start: '\(line)'")
        }
        self.port = port
    }

    deinit {
        process.stop()
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// Serves `text` at /files/NAME.
    func put(_ name: String, _ text: String) throws {
        try text.write(toFile: folder.file(name), atomically: true, encoding: .utf8)
    }

    /// How often `path` was asked for.
    func requests(_ path: String) throws -> Int {
        let output = try ChildProcess.output("/usr/bin/python3", ["-c", """
            import urllib.request, sys
            sys.stdout.write(urllib.request.urlopen("\(url("/requests"))").read().decode())
            """], environment: ["PATH": "/usr/bin:/bin"])
        let counts = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Int]
        return counts?[path] ?? 0
    }
}

struct TestHTTPServerError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
