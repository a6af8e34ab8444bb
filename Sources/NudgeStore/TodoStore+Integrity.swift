import Foundation

/// A page overwritten by another program is not always noticed by SQLite, which would go on
/// writing around it. `PRAGMA quick_check` notices, but reads every page (about 120 ms at
/// 100,000 todos), so it runs only when the file is not as Nudge last left it: replaced,
/// restored, or written by something else.
extension TodoStore {
    static let checkedFileKey = "checked_file"

    /// The file's identity and last change as stat(2) gives them, or nil for no file.
    func fileStamp() -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return "\(info.st_dev):\(info.st_ino):\(info.st_size):\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
    }

    /// Throws `.corrupt` for a damaged file, before anything is written. Returns the stamp to
    /// record once the file may be written, or nil when the recorded one still holds.
    func refuseIfDamaged() throws -> String? {
        guard let stamp = fileStamp() else { return nil }
        // An old file may have no settings yet: then it is checked.
        if (try? setting(Self.checkedFileKey)) == stamp { return nil }
        let problems = try db.query("PRAGMA quick_check(5)") { $0.text(0) ?? "" }
        guard problems == ["ok"] else {
            // Rows like "*** in database main ***\nOn tree page 46 cell 12: ...": the first problem.
            let first = problems.joined(separator: "\n").split(separator: "\n").first { !$0.hasPrefix("***") }
            throw StoreError.corrupt(path: path, reason: first.map { "quick_check: " + $0 } ?? "quick_check found problems")
        }
        return stamp
    }

    /// Moves what this process wrote into the file and records the file as checked, so that
    /// the next writer need not check it again; called when a writer closes the store.
    func checkpointAndRecordFile() throws {
        try db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        guard let stamp = fileStamp(), try setting(Self.checkedFileKey) != stamp else { return }
        try setSetting(Self.checkedFileKey, stamp)
    }
}
