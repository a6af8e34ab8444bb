import Foundation
import Glibc
import NudgePlatform
import NudgeSQLite

/// A page overwritten by another program is not always noticed by SQLite, which would go on
/// writing around it. `PRAGMA quick_check` notices, but reads every page, too slow for every
/// command on a large file, so it runs only when the file is not as Nudge last left it:
/// replaced, restored, or written by something else. What Nudge left is recorded beside the database, in
/// `nudge.db-checked`: inside the database it would change the file it describes, and in the
/// write-ahead log it would outlive a file restored in place.
extension TodoStore {
    var checkedPath: String { path + "-checked" }

    /// The file's identity and last change as stat(2) gives them, or nil for no file.
    func fileStamp() -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return "\(info.st_dev):\(info.st_ino):\(info.st_size):\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
    }

    /// Whether the file at `path` is still the one this store opened: false once it was
    /// deleted, or replaced by a move or a restore.
    public var isStillAtPath: Bool {
        guard let now = Self.identity(of: path), let opened = fileIdentity else { return false }
        return now == opened
    }

    static func identity(of path: String) -> (UInt, UInt)? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return (info.st_dev, info.st_ino)
    }

    /// Throws `.corrupt` for a damaged file, before anything is written, unless it is as
    /// Nudge last recorded it.
    func refuseIfDamaged() throws {
        guard let stamp = fileStamp(), recordedStamp() != stamp else { return }
        let problems = try db.query("PRAGMA quick_check(5)") { $0.text("quick_check") ?? "" }
        guard problems == ["ok"] else {
            // Rows like "*** in database main ***\nOn tree page 46 cell 12: ...": the first problem.
            let first = problems.joined(separator: "\n").split(separator: "\n").first { !$0.hasPrefix("***") }
            throw StoreError.corrupt(path: path, reason: first.map { "quick_check: " + $0 } ?? "quick_check found problems")
        }
        recordFile()
    }

    /// The stamp `recordFile` wrote, read with read(2): FileManager.contents(atPath:) leaks its
    /// 4 KB buffer when the file is empty, as it is while another writer records its own.
    /// A stamp is under 100 bytes; what is longer is not one, and is read only in part.
    func recordedStamp() -> String? {
        guard let descriptor = try? FileDescriptor.open(checkedPath, O_RDONLY) else { return nil }
        defer { try? descriptor.close() }
        var bytes = [UInt8](repeating: 0, count: 256)
        var count = 0
        while count < bytes.count {
            let read = try? bytes.withUnsafeMutableBytes { buffer in
                try descriptor.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[count...]))
            }
            guard let read, read > 0 else { break }
            count += read
        }
        return String(decoding: bytes[..<count], as: UTF8.self)
    }

    /// Records the file as it is now as checked. A record that cannot be written only costs
    /// the next writer a check.
    func recordFile() {
        guard let stamp = fileStamp() else { return }
        guard let descriptor = try? FileDescriptor.open(checkedPath, O_WRONLY | O_CREAT | O_TRUNC, mode: 0o600) else { return }
        descriptor.closeAfter { try? descriptor.writeAll(stamp) }
    }

    /// Moves what this process wrote into the file and records it as checked; called when a
    /// writer that changed something closes the store.
    func checkpointAndRecordFile() throws {
        try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        recordFile()
    }
}
