import Foundation
import NudgeCore
import NudgeInterchange
import NudgeStore

extension VdirSync {
    /// The files read that are the only file of their todo. A second file with the UID of a
    /// todo another listed file holds (a copy made beside it, a Syncthing conflict copy) is
    /// left alone, as vdirsyncer refuses two items with one UID: taken, its content would go
    /// over the todo's and every pass would write one of them again, and its deletion would
    /// delete the todo. Of two new files with one UID, the first by name is the todo's.
    func oneFilePerTodo(_ remote: [RemoteFile], items: [String: SyncItem], listing: [String: String],
                                saved: inout [SyncItem], report: inout SyncReport) -> [RemoteFile] {
        let readNow = Dictionary(remote.map { ($0.href, $0.record.uuid) }) { first, _ in first }
        var holder: [String: String] = [:]
        for item in items.values {
            guard let uuid = item.uuid, listing[item.href] != nil, (readNow[item.href] ?? uuid) == uuid else { continue }
            if let other = holder[uuid], other < item.href { continue }
            holder[uuid] = item.href
        }
        return remote.filter { file in
            let uuid = file.record.uuid
            if let other = holder[uuid], other != file.href {
                report.warnings.append("\(file.href) has the UID of \(other), the file of that todo: left as it is")
                saved.append(SyncItem(href: file.href, etag: file.etag, hash: file.hash, uuid: nil, base: nil, localVersion: nil))
                return false
            }
            holder[uuid] = file.href
            return true
        }
    }

    /// The one todo of a file, or nil for a file Nudge leaves alone (with a warning when it
    /// looked like a todo).
    func todo(in data: Data, href: String, options: InterchangeOptions, report: inout SyncReport) -> TodoRecord? {
        guard let decoded = try? ICalendarFile.decode(data, options: options) else {
            report.warnings.append("\(href) is not iCalendar: left as it is")
            return nil
        }
        // Events, journal entries and other components: not Nudge's, never rewritten.
        if decoded.notKept.keys.contains(where: { $0.contains("not todos") || $0.hasSuffix("components") }) { return nil }
        guard decoded.items.count == 1, let item = decoded.items.first else {
            if decoded.items.count > 1 { report.warnings.append("\(href) holds \(decoded.items.count) todos, not one: left as it is") }
            return nil
        }
        switch item {
        case .success(let record):
            if let (field, reason) = record.oversizedText {
                report.warnings.append("\(href): " + (field.map { "\"\($0)\" " } ?? "") + reason + ": left as it is")
                return nil
            }
            // A repeat Nudge cannot follow, a due it cannot compute: said, as an import says it.
            for warning in decoded.warnings { report.warnings.append("\(href): \(warning)") }
            return record
        case .failure(let error):
            report.warnings.append("\(href): \(error): left as it is")
            return nil
        }
    }

    /// A version of a todo from a text the pass stored.
    func version(in text: String, options: InterchangeOptions) -> Version? {
        var ignored = SyncReport()
        guard let decoded = todo(in: Data(text.utf8), href: "", options: options, report: &ignored) else { return nil }
        let (record, ancestry) = Ancestry.split(decoded)
        return Version(text: text, record: record, ancestry: ancestry ?? Ancestry(own: FieldMerge.fingerprint(record), earlier: []))
    }

    /// The record as a file would give it back, to compare with records read from files.
    func normalized(_ record: TodoRecord, options: InterchangeOptions) -> TodoRecord {
        let text = ICalendarFile.encode([record], options: options)
        var ignored = SyncReport()
        return todo(in: Data(text.utf8), href: "", options: options, report: &ignored) ?? record
    }

    /// The file's version of a todo as a todo of its own, named from the todo and the file's
    /// bytes so that a pass repeated after a crash makes the same copy.
    func conflictCopy(of record: TodoRecord, hash: String) -> TodoRecord {
        var copy = record
        copy.uuid = NameBasedUUID.url("urn:x-nudge:conflict:\(record.uuid):\(hash)")
        let room = Todo.maximumTitleLength - Self.conflictMark.count
        copy.title = String(record.title.prefix(room)) + Self.conflictMark
        // The overrides of the series' occurrences stay with the original: not the copy's UID.
        copy.kept[ICalendarFile.overridesKey] = nil
        if var kept = copy.kept["ics"] {
            // Its own UID, not the original's; a kept component's (a PARTICIPANT's) stays.
            var depth = 0
            kept = kept.split(separator: "\n", omittingEmptySubsequences: false).filter { line in
                let upper = line.prefix(6).uppercased()
                if upper == "BEGIN:" { depth += 1 } else if upper.hasPrefix("END:") { depth = max(depth - 1, 0) }
                return depth > 0 || !(upper.hasPrefix("UID:") || upper.hasPrefix("UID;"))
            }.joined(separator: "\n")
            copy.kept["ics"] = kept.isEmpty ? nil : kept
        }
        return copy
    }

    /// A todo's file name: the uuid, or vdirsyncer's rule for a UID with characters unsafe in
    /// a file name (a name-based UUID instead); never one another file already has.
    func href(for uuid: String, taken: [String: String]) -> String {
        let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-+")
        var name = !uuid.isEmpty && uuid.allSatisfy(safe.contains) ? uuid : NameBasedUUID.url("urn:x-nudge:href:" + uuid)
        if taken[name + ".ics"] != nil { name = NameBasedUUID.url("urn:x-nudge:href:\(uuid):\(folder)") }
        return name + ".ics"
    }

    /// FNV-1a, 64 bits, in hex: enough to tell changed bytes from touched ones, not a defence.
    static func hash(_ data: Data) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data {
            value ^= UInt64(byte)
            value &*= 0x100_0000_01b3
        }
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    func storeCall<T>(_ body: () throws -> T) throws(SyncError) -> T {
        do {
            return try body()
        } catch StoreError.diskFull(let path) {
            throw SyncError(reason: StoreError.diskFull(path: path).description, diskFull: true)
        } catch {
            throw SyncError(reason: "the store failed: \(error)")
        }
    }

    /// A store call after files were written or deleted: a full disk then did change the folder.
    func afterWriting(changedFolder: Bool, _ body: () throws -> Void) throws(SyncError) {
        do {
            try body()
        } catch StoreError.diskFull(let path) where changedFolder {
            throw SyncError(reason: "cannot write the database \(path): No space left on device; the folder was "
                + "changed already, and the next sync matches it with the todos (free some space and try again)", diskFull: true)
        } catch {
            try storeCall { throw error }
        }
    }
}
