import Foundation
import Testing
@testable import NudgeTestSupport

/// `nudge import URL` against the loopback server of test_http_server.py: every failure is
/// one line and leaves the database as it was; a progress bar only on a terminal.
struct ImportURLTests {
    let nudge = Nudge()
    let server: TestHTTPServer
    /// libfaketime stands the clock still, monotonic clock included: libcurl's timeouts need
    /// the real one.
    let realTimers = ["FAKETIME_DONT_FAKE_MONOTONIC": "1"]

    init() throws {
        server = try TestHTTPServer()
    }

    @discardableResult
    func importing(_ arguments: String...) throws -> Run {
        try nudge.run(["import"] + arguments, environment: realTimers)
    }

    func storedBytes() -> [Data?] {
        [nudge.database, nudge.database + "-wal"].map { FileManager.default.contents(atPath: $0) }
    }

    /// Runs `nudge ARGUMENTS` on a pseudo-terminal, as a person would; what the terminal got.
    func onATerminal(_ arguments: String) throws -> String {
        let command = "\"$NUDGE\" " + arguments
        return try nudge.shell("script -qec \(shellQuote(command)) /dev/null").stdout
    }

    @Test func theWebAPIShapeImportsAndImportingAgainChangesNothing() throws {
        let first = try importing(server.url("/todos"))
        #expect(first.status == 0)
        #expect(first.stdout == "Imported 3: 3 added, 0 updated, 0 skipped as unchanged or older; not kept: 3 userId\n")
        #expect(first.stderr == "")
        let todos = try nudge("export", "--all").array()
        #expect(todos.map { $0["title"] as? String } == ["delectus aut autem", "quis ut nam facilis", "fugiat veniam minus"])
        #expect(todos.map { $0["completed"] as? Bool } == [false, true, false])
        #expect(todos[0]["createdAt"] as? String == "2026-11-29T09:53:00+00:00")
        let before = storedBytes()
        let again = try importing(server.url("/todos"))
        #expect(again.stdout == "Imported 0: 0 added, 0 updated, 3 skipped as unchanged or older; not kept: 3 userId\n")
        #expect(storedBytes() == before)
    }

    @Test func aTodoChangedOnTheServerIsUpdatedAndKeepsWhatOnlyNudgeKnows() throws {
        try server.put("mine.json", #"[{"id": 7, "title": "Water plants", "completed": false}]"#)
        try importing(server.url("/files/mine.json"))
        try nudge("edit", "1", "--priority", "high")
        try server.put("mine.json", #"[{"id": 7, "title": "Water the plants", "completed": true}]"#)
        let run = try importing(server.url("/files/mine.json"))
        #expect(run.stdout == "Imported 1: 0 added, 1 updated, 0 skipped as unchanged or older\n")
        let todo = try nudge("export", "--all").array()[0]
        #expect(todo["title"] as? String == "Water the plants")
        #expect(todo["completed"] as? Bool == true)
        #expect(todo["priority"] as? String == "high")
    }

    @Test func nudgesOwnJSONImportsFromAURL() throws {
        let source = Nudge()
        try source("add", "Buy milk", "--due", "2026-12-24 09:30")
        try server.put("export.json", try source("export", "--all").stdout)
        #expect(try importing(server.url("/files/export.json")).status == 0)
        #expect(try nudge("export", "--all").stdout == (try source("export", "--all").stdout))
    }

    @Test func aChunkedAnswerAndARedirectImport() throws {
        #expect(try importing(server.url("/chunked")).stdout.hasPrefix("Imported 3: 3 added"))
        #expect(try importing(server.url("/redirect")).stdout.hasPrefix("Imported 3: 3 added"))
    }

    @Test(arguments: [
        ("/404", [], "HTTP 404 Not Found"),
        ("/500", [], "HTTP 500 Internal Server Error"),
        ("/invalid", [], "the answer is not JSON (The operation could not be completed. The data is not in the correct format.)"),
        ("/endless", [], "the answer is larger than the 10 MB limit"),
        ("/loop", [], "more than 10 redirects (a redirect loop?)"),
        ("/stall", ["--timeout", "1s"], "timed out: no answer for 1 s"),
    ])
    func aFailureIsOneLineAndImportsNothing(path: String, options: [String], reason: String) throws {
        try nudge("add", "Already here")
        let before = storedBytes()
        let url = server.url(path)
        let run = try nudge.run(["import", url] + options, environment: realTimers)
        #expect(run.status == 1)
        #expect(run.stdout == "")
        #expect(run.stderr == "nudge: cannot import \(url): \(reason); nothing was imported\n")
        #expect(storedBytes() == before)
    }

    @Test(arguments: [
        ("/page", "a web page (HTML)"),
        ("/redirect-to-page", "a web page (HTML)"),
        ("/lines-as-html", "a web page (text/html)"),
    ])
    func aWebPageIsRefusedInOneLineAndImportsNothing(path: String, what: String) throws {
        try nudge("add", "Already here")
        let before = storedBytes()
        let url = server.url(path)
        let run = try importing(url)
        #expect(run.status == 1)
        #expect(run.stdout == "")
        #expect(run.stderr == "nudge: cannot import \(url): the answer is \(what), not todos in a format nudge reads"
                + " (--format todotxt reads its lines as todo.txt); nothing was imported\n")
        #expect(storedBytes() == before)
    }

    @Test func aWebPageIsReadAsTodoTxtWhenTheFormatIsNamed() throws {
        let run = try importing(server.url("/lines-as-html"), "--format", "todotxt")
        #expect(run.stdout == "Imported 2: 2 added, 0 updated, 0 skipped as unchanged or older\n", "\(run.stderr)")
        #expect(try nudge("export").array().map { $0["title"] as? String } == ["Buy milk", "Call mum"])
    }

    @Test func aFileThatIsAWebPageIsRefusedToo() throws {
        let path = nudge.folder.file("saved.html")
        try "<!doctype html>\n<html>\n<head><title>Todos</title></head>\n<body><ul><li>Buy milk</li></ul></body>\n</html>\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        let run = try importing(path)
        #expect(run.status == 1)
        #expect(run.stderr == "nudge: cannot import \(path): the file is a web page (HTML), not todos in a format nudge reads"
                + " (--format todotxt reads its lines as todo.txt); nothing was imported\n")
        #expect(try nudge("export", "--all").array().isEmpty)
    }

    @Test func offlineIsOneLine() throws {
        try nudge("add", "Already here")
        let before = storedBytes()
        let run = try importing("http://127.0.0.1:1/todos")
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("nudge: cannot import http://127.0.0.1:1/todos: cannot connect (offline?): "))
        #expect(run.stderr.hasSuffix("; nothing was imported\n"))
        #expect(run.stderr.filter { $0 == "\n" }.count == 1)
        #expect(storedBytes() == before)
    }

    @Test func theSizeLimitAndTimeoutComeFromTheConfigFile() throws {
        let config = nudge.folder.file("nudge.conf")
        try "[import]\nmax_size = 100K\ntimeout = 1s\n".write(toFile: config, atomically: true, encoding: .utf8)
        let large = try nudge.run(["--config", config, "import", server.url("/endless")], environment: realTimers)
        #expect(large.stderr.contains(": the answer is larger than the 100 KB limit; nothing was imported"))
        let started = Date()
        let slow = try nudge.run(["--config", config, "import", server.url("/stall")], environment: realTimers)
        #expect(slow.stderr.contains(": timed out: no answer for 1 s; nothing was imported"))
        #expect(Date().timeIntervalSince(started) < 5)
        let bad = try importing(server.url("/todos"), "--timeout", "forever")
        #expect(bad.status == 2)
        #expect(bad.stderr.hasPrefix("nudge: --timeout: 'forever' is not a time limit"))
    }

    @Test func aSlowDownloadShowsProgressOnATerminal() throws {
        let screen = try onATerminal("import \(server.url("/slow"))")
        #expect(screen.contains("\rReceiving [#"))
        #expect(screen.contains("% "))
        #expect(screen.contains(" of 226 bytes"))
        #expect(screen.contains("\rImporting [########################################] 3 of 3 todos"))
        // The bar's line is cleared before the summary.
        #expect(screen.contains("\r\u{1B}[KImported 3: 3 added"))
    }

    @Test func withoutAContentLengthProgressCountsBytes() throws {
        let screen = try onATerminal("import \(server.url("/chunked"))")
        #expect(screen.contains("\rReceiving 226 bytes"))
        #expect(!screen.contains("% "))
    }

    @Test func noProgressOnAPipeOrWithQuiet() throws {
        let piped = try importing(server.url("/slow"))
        #expect(piped.stderr == "")
        #expect(!piped.stdout.contains("Receiving"))
        let quiet = try onATerminal("import --quiet \(server.url("/redirect"))")
        #expect(!quiet.contains("Receiving") && !quiet.contains("Importing"))
        #expect(quiet.contains("Imported 3: 3 added"))
    }

    @Test func onlyImportingALoadsLibcurl() throws {
        try nudge("add", "x")
        let list = try nudge.run(["list"], environment: ["LD_DEBUG": "libs"])
        #expect(list.stderr.contains("calling init"))
        #expect(!list.stderr.contains("libcurl"))
        let add = try nudge.run(["add", "y"], environment: ["LD_DEBUG": "libs"])
        #expect(!add.stderr.contains("libcurl"))
        let fetch = try nudge.run(["import", server.url("/todos")], environment: realTimers.merging(["LD_DEBUG": "libs"]) { $1 })
        #expect(fetch.stderr.contains("libcurl.so.4"))
    }
}
