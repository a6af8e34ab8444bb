import CSystemd
import Glibc
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads entries back from the local systemd journals.
public enum JournalReader {
    /// The entries whose fields match all of `matches`, oldest first.
    ///
    /// Reads every local journal the caller may read: the system journal and the caller's
    /// user journal (root and members of `systemd-journal` or `adm` read all of them).
    /// An empty `matches` matches every entry.
    ///
    /// - Parameters:
    ///   - matches: Field name to exact value, e.g.
    ///     `["SYSLOG_IDENTIFIER": "nudged", "NUDGE_TODO_ID": "12"]`.
    ///   - limit: At most this many of the newest matching entries (still returned oldest
    ///     first, like `journalctl -n`); nil for all of them.
    /// - Throws: `SystemError` when the journal cannot be opened or read, or a field name is
    ///   not one the journal accepts (`EINVAL`); `EACCES` when journal files exist but the
    ///   caller may read none of them (sd_journal_open succeeds then, finding nothing).
    ///
    /// The corresponding C functions are `sd_journal_open` (with `SD_JOURNAL_LOCAL_ONLY`),
    /// `sd_journal_add_match`, `sd_journal_next` or `sd_journal_previous`,
    /// `sd_journal_enumerate_available_data` and `sd_journal_get_realtime_usec`.
    public static func entries(matching matches: [String: String], limit: Int? = nil) throws(SystemError) -> [JournalEntry] {
        if let limit, limit <= 0 { return [] }
        try requireSystemd()
        var opened: OpaquePointer?
        try check(systemd.sd_journal_open(&opened, Int32(SD_JOURNAL_LOCAL_ONLY)))
        guard let journal = opened else { throw SystemError(code: ENOMEM) }
        defer { systemd.sd_journal_close(journal) }
        var usage: UInt64 = 0
        if systemd.sd_journal_get_usage(journal, &usage) >= 0, usage == 0, journalsExist() {
            throw SystemError(code: EACCES)
        }

        // Whole values, not the first 64 KiB the journal hands out by default.
        try check(systemd.sd_journal_set_data_threshold(journal, 0))
        for (field, value) in matches.sorted(by: { $0.key < $1.key }) {
            let match = Array((field + "=" + value).utf8)
            try check(match.withUnsafeBytes { systemd.sd_journal_add_match(journal, $0.baseAddress, $0.count) })
        }

        var entries: [JournalEntry] = []
        if let limit {
            try check(systemd.sd_journal_seek_tail(journal))
            while entries.count < limit, try check(systemd.sd_journal_previous(journal)) > 0 {
                entries.append(try entry(at: journal))
            }
            entries.reverse()
        } else {
            try check(systemd.sd_journal_seek_head(journal))
            while try check(systemd.sd_journal_next(journal)) > 0 {
                entries.append(try entry(at: journal))
            }
        }
        return entries
    }

    /// Whether a journald keeps files here: a machine's folder in the volatile or persistent
    /// journal, seen even when its contents are not readable.
    private static func journalsExist() -> Bool {
        ["/run/log/journal", "/var/log/journal"].contains { folder in
            !((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).isEmpty
        }
    }

    /// The entry the journal's read pointer is on.
    private static func entry(at journal: OpaquePointer) throws(SystemError) -> JournalEntry {
        var fields: [String: String] = [:]
        var data: UnsafeRawPointer?
        var length = 0
        systemd.sd_journal_restart_data(journal)
        // Skips fields it cannot decode (say, compressed with an algorithm it lacks).
        while systemd.sd_journal_enumerate_available_data(journal, &data, &length) > 0 {
            guard let data else { continue }
            let bytes = UnsafeRawBufferPointer(start: data, count: length)
            guard let equals = bytes.firstIndex(of: UInt8(ascii: "=")) else { continue }
            let name = String(decoding: bytes[..<equals], as: UTF8.self)
            if fields[name] == nil {
                fields[name] = String(decoding: bytes[(equals + 1)...], as: UTF8.self)
            }
        }
        var microseconds: UInt64 = 0
        try check(systemd.sd_journal_get_realtime_usec(journal, &microseconds))
        return JournalEntry(fields: fields, realtime: Date(timeIntervalSince1970: Double(microseconds) / 1_000_000))
    }
}
