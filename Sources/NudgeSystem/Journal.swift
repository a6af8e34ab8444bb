import CSystemd
import Glibc
import NudgePlatform
import Synchronization

/// Structured events for the systemd journal, or readable lines on a file descriptor (stderr
/// by default) when no journal takes them.
///
/// Every entry carries `MESSAGE`, `PRIORITY` (a syslog level, 0 emergency … 7 debug) and
/// `SYSLOG_IDENTIFIER`, plus the caller's fields, so `journalctl --user -t nudged` or
/// `journalctl NUDGE_TODO_ID=12` finds them. Values may hold newlines and any other text.
///
/// When the journal refuses an entry (no journald: `-ECONNREFUSED`, or no socket: `-ENOENT`),
/// the entry becomes one line on the fallback descriptor instead, and the first failure after
/// a success says so once. The journal is tried again for every entry, so logging moves back
/// as soon as journald is there again.
///
/// One instance may be shared between threads.
public final class EventLog: Sendable {
    /// `SYSLOG_IDENTIFIER`, and the name at the start of fallback lines.
    public let identifier: String
    private let fallback: Int32
    private let submit: @Sendable (UnsafeBufferPointer<iovec>) -> Int32
    /// Whether the last entry reached the journal; starts true so the first failure is told.
    private let journalTookLast = Mutex(true)

    /// Logs as `identifier`, falling back to lines on `fallback`, which stays the caller's to close.
    public convenience init(identifier: String = "nudged", fallback: Int32 = STDERR_FILENO) {
        self.init(identifier: identifier, fallback: fallback) { entry in
            // sd_journal_sendv drops entries without a word when the socket does not exist.
            guard access(Self.socketPath, F_OK) == 0 else { return -ENOENT }
            guard systemdIsOpen else { return -ENOSYS }
            return systemd.sd_journal_sendv(entry.baseAddress, Int32(entry.count))
        }
    }

    /// Where journald listens for entries.
    static let socketPath = "/run/systemd/journal/socket"

    /// For tests: `submit` stands in for `sd_journal_sendv`; the iovecs point into memory that
    /// is valid only during the call. It returns 0 or `-errno`.
    init(identifier: String, fallback: Int32, submit: @escaping @Sendable (UnsafeBufferPointer<iovec>) -> Int32) {
        self.identifier = identifier
        self.fallback = fallback
        self.submit = submit
    }

    /// Sends one entry, and returns true when the journal took it.
    ///
    /// - Parameters:
    ///   - message: `MESSAGE`, what a person reads, e.g. `fired: Buy milk (todo 12, rule due)`.
    ///   - priority: `PRIORITY`, the entry's syslog level.
    ///   - fields: Extra fields in order, e.g. `("NUDGE_EVENT", "fired")`,
    ///     `("NUDGE_TODO_ID", "12")`, `("MESSAGE_ID", "<32 hex digits>")`. A name must be what
    ///     the journal accepts: 1 to 64 of `A`–`Z`, `0`–`9` and `_`, not starting with a digit
    ///     or `_`. Fields with other names, and `MESSAGE`, `PRIORITY` or `SYSLOG_IDENTIFIER`
    ///     (set from the other arguments), are left out.
    ///
    /// On the fallback descriptor the entry reads
    /// `nudged[4242]: fired: Buy milk (todo 12, rule due) [event=fired todo_id=12]`: field
    /// names lowercased without their `NUDGE_` prefix, control characters escaped as `\n`,
    /// `\t`, `\xHH` or `\u{HHHH}` (C1 and bidi controls too) so the entry stays one line and
    /// cannot act on a terminal, and values quoted when they hold spaces.
    /// Levels 0–3 add `error: ` and level 4 `warning: ` before the message.
    ///
    /// The corresponding C function is `sd_journal_sendv`.
    @discardableResult
    public func send(message: String, priority: JournalPriority = .info, fields: [(String, String)] = []) -> Bool {
        let extra = fields.filter { Self.isAllowedFieldName($0.0) }
        let items = ["MESSAGE=" + message, "PRIORITY=\(priority.rawValue)", "SYSLOG_IDENTIFIER=" + identifier]
            + extra.map { $0.0 + "=" + $0.1 }
        let result = Self.withIOVectors(items, submit)
        let tookIt = result >= 0
        let wasTaking = journalTookLast.withLock { last in
            defer { last = tookIt }
            return last
        }
        if !tookIt {
            if wasTaking {
                write(line: prefix(.warning) + "the journal is not available (\(Errno(rawValue: -result))), logging here instead")
            }
            write(line: Self.fallbackLine(prefix: prefix(priority), message: message, fields: extra))
        }
        return tookIt
    }

    /// Whether the journal accepts `name` as a field the caller may set.
    static func isAllowedFieldName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (1...64).contains(bytes.count), !["MESSAGE", "PRIORITY", "SYSLOG_IDENTIFIER"].contains(name) else {
            return false
        }
        let isUpper = { (b: UInt8) in b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z") }
        let isDigit = { (b: UInt8) in b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
        guard isUpper(bytes[0]) else { return false }
        return bytes.allSatisfy { isUpper($0) || isDigit($0) || $0 == UInt8(ascii: "_") }
    }

    /// Lays `items` out in one buffer and hands `body` an iovec for each.
    private static func withIOVectors(_ items: [String], _ body: (UnsafeBufferPointer<iovec>) -> Int32) -> Int32 {
        var buffer: [UInt8] = []
        var spans: [(start: Int, count: Int)] = []
        for item in items {
            spans.append((buffer.count, item.utf8.count))
            buffer.append(contentsOf: item.utf8)
        }
        return buffer.withUnsafeMutableBytes { bytes in
            // Never empty: every entry has at least "MESSAGE=".
            let iov = spans.map { span in iovec(iov_base: bytes.baseAddress! + span.start, iov_len: span.count) }
            return iov.withUnsafeBufferPointer(body)
        }
    }

    private func prefix(_ priority: JournalPriority) -> String {
        let head = "\(identifier)[\(getpid())]: "
        switch priority {
        case .emergency, .alert, .critical, .error: return head + "error: "
        case .warning: return head + "warning: "
        case .notice, .info, .debug: return head
        }
    }

    static func fallbackLine(prefix: String, message: String, fields: [(String, String)]) -> String {
        var line = prefix + escaped(message)
        guard !fields.isEmpty else { return line }
        let pairs = fields.map { name, value in
            var key = name.lowercased()
            if key.hasPrefix("nudge_") && key.count > 6 { key.removeFirst(6) }
            return key + "=" + quoted(escaped(value))
        }
        line += " [" + pairs.joined(separator: " ") + "]"
        return line
    }

    /// Control characters as `\n`, `\r`, `\t`, `\xHH` or `\u{HHHH}`, so a value cannot break
    /// the line nor act on the terminal stderr may be: C0, DEL and the C1 controls (U+009B is
    /// an 8-bit CSI to some terminals), the bidi embeddings, overrides and isolates (which
    /// reorder what follows), and U+2028/U+2029 (which end a line), as `nudge` shows them.
    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A: result += "\\n"
            case 0x0D: result += "\\r"
            case 0x09: result += "\\t"
            case 0..<0x20, 0x7F...0x9F:
                let hex = String(scalar.value, radix: 16)
                result += "\\x" + (hex.count == 1 ? "0" + hex : hex)
            case 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029:
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func quoted(_ value: String) -> String {
        guard value.isEmpty || value.contains(where: { $0 == " " || $0 == "\"" || $0 == "]" }) else { return value }
        return "\"" + value.replacingAll("\"", with: "\\\"") + "\""
    }

    /// Writes `line` and a newline, whole unless the descriptor fails.
    private func write(line: String) {
        try? FileDescriptor(rawValue: fallback).writeAll(line + "\n")
    }
}

private extension String {
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        for character in self {
            if character == target { result += replacement } else { result.append(character) }
        }
        return result
    }
}
