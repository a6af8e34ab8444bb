import Foundation
import Synchronization
import Testing
@testable import NudgeTestSupport
@testable import NudgeSystem

/// EventLog and JournalReader against a real journald: the tests' own (`JournaldHarness`),
/// so every call that sends or reads runs through `journal.perform`.
@Suite(.journald)
struct JournalTests {
    let testID = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    let journal = JournaldHarness.shared

    /// The entries with this test's NUDGE_TEST_ID, waiting up to 3 s for journald to store them.
    func entries(count: Int) throws -> [JournalEntry] {
        let deadline = Date().addingTimeInterval(3)
        let matches = ["NUDGE_TEST_ID": testID]
        while true {
            let found = try journal.perform { try JournalReader.entries(matching: matches) }
            if found.count >= count || Date() > deadline { return found }
            usleep(20_000)
        }
    }

    @Test func anEntryComesBackWithEveryField() throws {
        let log = EventLog(identifier: "nudged-test")
        let before = Date()
        let testID = testID
        let sent = try journal.perform {
            log.send(message: "fired: Buy milk\nand bread (todo 12, rule due)", priority: .notice, fields: [
                ("NUDGE_EVENT", "fired"),
                ("NUDGE_TODO_ID", "12"),
                ("NUDGE_NOTES", "two\nlines, \"quoted\" = ünïcödé"),
                ("NUDGE_TEST_ID", testID),
            ])
        }
        #expect(sent)

        let entry = try #require(try entries(count: 1).first)
        #expect(entry.message == "fired: Buy milk\nand bread (todo 12, rule due)")
        #expect(entry["PRIORITY"] == "5")
        #expect(entry["SYSLOG_IDENTIFIER"] == "nudged-test")
        #expect(entry["NUDGE_EVENT"] == "fired")
        #expect(entry["NUDGE_TODO_ID"] == "12")
        #expect(entry["NUDGE_NOTES"] == "two\nlines, \"quoted\" = ünïcödé")
        #expect(entry["_PID"] == String(getpid()))
        #expect(entry.realtime >= before.addingTimeInterval(-1) && entry.realtime <= Date().addingTimeInterval(1))
    }

    @Test func journalctlSeesTheSameEntry() throws {
        let testID = testID
        try journal.perform {
            EventLog(identifier: "nudged-test").send(message: "snoozed\nfor 10 min", fields: [
                ("NUDGE_EVENT", "snoozed"), ("NUDGE_TODO_ID", "7"), ("NUDGE_TEST_ID", testID),
            ])
        }
        _ = try entries(count: 1)

        let run = try journal.run("/usr/bin/journalctl", ["--no-pager", "-o", "json", "NUDGE_TEST_ID=" + testID],
                                  environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
        #expect(run.status == 0, "\(run.stderr)")

        let lines = run.stdout.split(separator: "\n")
        try #require(lines.count == 1)
        let entry = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(Self.text(entry["MESSAGE"]) == "snoozed\nfor 10 min")
        #expect(Self.text(entry["NUDGE_EVENT"]) == "snoozed")
        #expect(Self.text(entry["NUDGE_TODO_ID"]) == "7")
        #expect(Self.text(entry["SYSLOG_IDENTIFIER"]) == "nudged-test")
        #expect(Self.text(entry["PRIORITY"]) == "6")
    }

    @Test func readingMatchesAllFieldsAndKeepsOrder() throws {
        let log = EventLog(identifier: "nudged-test")
        let testID = testID
        try journal.perform {
            for (number, todo) in ["1", "2", "1", "1"].enumerated() {
                log.send(message: "event \(number)", fields: [("NUDGE_TODO_ID", todo), ("NUDGE_TEST_ID", testID)])
            }
        }
        _ = try entries(count: 4)

        let read = { (matches: [String: String], limit: Int?) in
            try journal.perform { try JournalReader.entries(matching: matches, limit: limit) }
        }
        let todoOne = try read(["NUDGE_TEST_ID": testID, "NUDGE_TODO_ID": "1"], nil)
        #expect(todoOne.map(\.message) == ["event 0", "event 2", "event 3"])
        let newestTwo = try read(["NUDGE_TEST_ID": testID, "NUDGE_TODO_ID": "1"], 2)
        #expect(newestTwo.map(\.message) == ["event 2", "event 3"])
        #expect(try read(["NUDGE_TEST_ID": testID], 0).isEmpty)
        #expect(try read(["NUDGE_TEST_ID": testID, "NUDGE_TODO_ID": "3"], nil).isEmpty)
    }

    @Test func aFieldNameTheJournalRefusesIsAnError() {
        #expect(throws: SystemError(code: EINVAL)) {
            try journal.perform { try JournalReader.entries(matching: ["not a field": "x"]) }
        }
    }

    /// With a journald of the machine's listening on /run/systemd/journal/socket, an entry sent
    /// in the tests' journal is there and not in the machine's journal, read here, outside.
    @Test(.machineJournald) func anEntryStaysOutOfTheMachinesJournal() throws {
        let testID = testID
        let sent = try journal.perform {
            EventLog(identifier: "nudged-test").send(message: "kept in the tests' journal", fields: [("NUDGE_TEST_ID", testID)])
        }
        #expect(sent)
        #expect(try entries(count: 1).count == 1)
        // journald stores datagrams in the order they come: what reached it would be there by now.
        usleep(300_000)
        #expect(try JournalReader.entries(matching: ["NUDGE_TEST_ID": testID]).isEmpty)
        #expect(try !JournalReader.entries(matching: [:], limit: 1).isEmpty, "the machine's journal reads empty")
    }

    /// A journalctl JSON value: a string, or an array of bytes for values it finds unprintable.
    static func text(_ value: Any?) -> String? {
        if let string = value as? String { return string }
        if let bytes = value as? [Int] { return String(decoding: bytes.map { UInt8($0) }, as: UTF8.self) }
        return nil
    }
}

/// EventLog when the journal does not take entries, through a stand-in for sd_journal_sendv.
struct EventLogFallbackTests {
    /// What the stand-in journal saw, and whether it takes entries.
    final class FakeJournal: Sendable {
        let accepting: Mutex<Bool>
        let entries = Mutex<[[String]]>([])

        init(accepting: Bool) { self.accepting = Mutex(accepting) }

        func submit(_ vectors: UnsafeBufferPointer<iovec>) -> Int32 {
            let items = vectors.map { String(decoding: UnsafeRawBufferPointer(start: $0.iov_base, count: $0.iov_len), as: UTF8.self) }
            entries.withLock { $0.append(items) }
            return accepting.withLock { $0 } ? 0 : -ECONNREFUSED
        }
    }

    /// A pipe standing in for stderr.
    final class Capture {
        let read: Int32
        let write: Int32

        init() {
            var fds: [Int32] = [0, 0]
            precondition(pipe(&fds) == 0)
            (read, write) = (fds[0], fds[1])
            _ = fcntl(read, F_SETFL, O_NONBLOCK)
        }

        deinit {
            close(read)
            close(write)
        }

        /// The lines written so far.
        func lines() -> [String] {
            var data: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = chunk.withUnsafeMutableBytes { Glibc.read(read, $0.baseAddress, $0.count) }
                guard count > 0 else { break }
                data += chunk[..<count]
            }
            return String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        }
    }

    @Test func theJournalGetsEachFieldAsOneItem() {
        let journal = FakeJournal(accepting: true)
        let capture = Capture()
        let log = EventLog(identifier: "nudged", fallback: capture.write, submit: journal.submit)
        #expect(log.send(message: "fired: Buy milk\n(todo 12)", fields: [
            ("NUDGE_EVENT", "fired"), ("MESSAGE_ID", "5f1fa4d1b1e54a6c9b8e0e9bbd8c3a21"), ("NUDGE_TODO_ID", "12"),
        ]))
        #expect(journal.entries.withLock { $0 } == [[
            "MESSAGE=fired: Buy milk\n(todo 12)", "PRIORITY=6", "SYSLOG_IDENTIFIER=nudged",
            "NUDGE_EVENT=fired", "MESSAGE_ID=5f1fa4d1b1e54a6c9b8e0e9bbd8c3a21", "NUDGE_TODO_ID=12",
        ]])
        #expect(capture.lines().isEmpty)
    }

    @Test func fieldsWithNamesTheJournalRefusesAreLeftOut() {
        let journal = FakeJournal(accepting: true)
        let log = EventLog(identifier: "nudged", fallback: -1, submit: journal.submit)
        log.send(message: "m", priority: JournalPriority(clamping: 12), fields: [
            ("lower", "x"), ("_TRUSTED", "x"), ("1DIGIT", "x"), ("WITH-DASH", "x"), ("", "x"),
            (String(repeating: "A", count: 65), "x"), ("MESSAGE", "again"), ("PRIORITY", "0"),
            ("SYSLOG_IDENTIFIER", "other"), ("A_1", "kept"),
        ])
        #expect(journal.entries.withLock { $0 } == [["MESSAGE=m", "PRIORITY=7", "SYSLOG_IDENTIFIER=nudged", "A_1=kept"]])
    }

    @Test func withoutAJournalEntriesBecomeReadableLinesAndTheSwitchIsToldOnce() {
        let journal = FakeJournal(accepting: false)
        let capture = Capture()
        let log = EventLog(identifier: "nudged", fallback: capture.write, submit: journal.submit)
        let pid = getpid()

        #expect(!log.send(message: "fired: Buy milk (todo 12, rule due)", fields: [
            ("NUDGE_EVENT", "fired"), ("NUDGE_TODO_ID", "12"), ("NUDGE_RULE", "due"),
        ]))
        #expect(!log.send(message: "could not show it\nat all", priority: .error, fields: [
            ("NUDGE_ERROR", "org.freedesktop.DBus.Error.ServiceUnknown: no \"server\""), ("NUDGE_TITLE", ""),
            ("NUDGE_NOTES", "a\tb\u{1}c"),
        ]))
        #expect(!log.send(message: "dropped", priority: .warning, fields: []))
        #expect(capture.lines() == [
            "nudged[\(pid)]: warning: the journal is not available (Connection refused), logging here instead",
            "nudged[\(pid)]: fired: Buy milk (todo 12, rule due) [event=fired todo_id=12 rule=due]",
            "nudged[\(pid)]: error: could not show it\\nat all [error=\"org.freedesktop.DBus.Error.ServiceUnknown: no \\\"server\\\"\" title=\"\" notes=a\\tb\\x01c]",
            "nudged[\(pid)]: warning: dropped",
        ])
        // Every entry still went to the journal first.
        #expect(journal.entries.withLock { $0.count } == 3)
    }

    @Test func fallbackLinesShowC1AndBidiControlsInsteadOfPassingThemToTheTerminal() {
        let journal = FakeJournal(accepting: false)
        let capture = Capture()
        let log = EventLog(identifier: "nudged", fallback: capture.write, submit: journal.submit)
        // U+009B is an 8-bit CSI to terminals that take C1 controls; U+202E reverses what
        // follows; U+2028 ends a line. A todo's title may hold any of them.
        log.send(message: "fired: a\u{9B}31mb \u{202E}exe.txt\u{2028}c\u{85}d", fields: [("NUDGE_TITLE", "\u{2066}x\u{2069}")])
        #expect(capture.lines().last == "nudged[\(getpid())]: fired: a\\x9b31mb \\u{202E}exe.txt\\u{2028}c\\x85d [title=\\u{2066}x\\u{2069}]")
    }

    @Test func whenTheJournalComesBackLoggingReturnsToIt() throws {
        let journal = FakeJournal(accepting: false)
        let capture = Capture()
        let log = EventLog(identifier: "nudged", fallback: capture.write, submit: journal.submit)
        #expect(!log.send(message: "one", fields: []))
        journal.accepting.withLock { $0 = true }
        #expect(log.send(message: "two", fields: []))
        journal.accepting.withLock { $0 = false }
        #expect(!log.send(message: "three", fields: []))
        let lines = capture.lines()
        try #require(lines.count == 4)
        #expect(lines[1].hasSuffix(": one") && lines[0].contains("not available"))
        #expect(lines[3].hasSuffix(": three") && lines[2].contains("not available"))
    }

    @Test func theRealCallFallsBackWhenNoJournaldListens() throws {
        let capture = Capture()
        // A namespace of its own, where no journald listens whatever runs on the machine.
        let sent = try JournalNamespace().perform {
            EventLog(identifier: "nudged", fallback: capture.write).send(message: "lost", fields: [])
        }
        #expect(!sent)
        #expect(capture.lines().last?.hasSuffix(": lost") == true)
    }
}
