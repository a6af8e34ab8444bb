import Foundation
import Testing
@testable import NudgeTestSupport

/// `[list] quote`: the quote of the day above `nudge list` on a terminal, and nowhere else.
struct ListQuoteTests {
    let nudge = Nudge()
    let server: TestHTTPServer

    init() throws {
        server = try TestHTTPServer()
        try nudge("add", "Buy milk")
    }

    func configure(_ quote: String) throws {
        try FileManager.default.createDirectory(atPath: nudge.folder.file(".config/nudge"), withIntermediateDirectories: true)
        try "[list]\nquote = \(quote)\n".write(toFile: nudge.folder.file(".config/nudge/nudge.conf"), atomically: true, encoding: .utf8)
    }

    /// `nudge list` on a pseudo-terminal (at the tests' fixed time, the monotonic clock real).
    func listOnATerminal() throws -> String {
        try nudge.onATerminal("list", environment: ["FAKETIME_DONT_FAKE_MONOTONIC": "1"]).stdout
    }

    @Test func aURLsQuoteIsShownAboveTheSectionsOnATerminal() throws {
        try configure(server.url("/quote/zenquotes"))
        let screen = try listOnATerminal()
        #expect(screen.hasPrefix("\u{1B}[2m“Well begun is half done.” — Aristotle\u{1B}[0m\r\n\r\n\u{1B}[1mUnscheduled (1)"))
        #expect(try listOnATerminal() == screen)
        #expect(try server.requests("/quote/zenquotes") == 1)
        #expect(FileManager.default.fileExists(atPath: nudge.folder.file(".cache/nudge/quote")))
    }

    @Test func neverOnAPipeOrInJSON() throws {
        try configure(server.url("/quote/zenquotes"))
        let piped = try nudge("list")
        #expect(piped.stdout.hasPrefix("Unscheduled (1)"))
        #expect(!(try nudge("list", "--json").stdout.contains("Aristotle")))
        #expect(try server.requests("/quote/zenquotes") == 0)
    }

    @Test func aSlowSourceCostsAboutASecondOnceAndShowsNothing() throws {
        try configure(server.url("/quote/slow"))
        var started = Date()
        let first = try listOnATerminal()
        let firstCost = Date().timeIntervalSince(started)
        #expect(first.hasPrefix("\u{1B}[1mUnscheduled (1)"))
        #expect(firstCost < 2.5)
        started = Date()
        #expect(try listOnATerminal() == first)
        #expect(Date().timeIntervalSince(started) < firstCost - 0.7)
        #expect(try server.requests("/quote/slow") == 1)
    }

    @Test func anOfflineOrBrokenSourceShowsNothing() throws {
        for source in ["http://127.0.0.1:1/quote", server.url("/404"), server.url("/invalid")] {
            try? FileManager.default.removeItem(atPath: nudge.folder.file(".cache/nudge/quote"))
            try configure(source)
            #expect(try listOnATerminal().hasPrefix("\u{1B}[1mUnscheduled (1)"), "\(source)")
        }
    }

    @Test func aHostileQuoteReachesTheTerminalTamed() throws {
        try configure(server.url("/quote/hostile"))
        let screen = try listOnATerminal()
        #expect(screen.hasPrefix("\u{1B}[2m“Clear [2J the <screen> & evil” — Mallory Eve\u{1B}[0m\r\n"))
        #expect(!screen.contains("\u{1B}[2J") && !screen.contains("\u{202E}"))
    }

    @Test func aFortuneFileGivesTheSameQuoteAllDay() throws {
        try "Only one.\n-- Me\n%\n".write(toFile: nudge.folder.file("fortunes"), atomically: true, encoding: .utf8)
        try configure("~/fortunes")
        #expect(try listOnATerminal().hasPrefix("\u{1B}[2m“Only one.” — Me\u{1B}[0m\r\n\r\n"))
    }
}
