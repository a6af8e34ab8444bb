import Foundation
import NudgeCore
import NudgeInterchange
import NudgeStore

/// Keeps the store and a vdir (one `UID.ics` per todo) in step, both ways.
///
/// The vdir is the folder format of vdirsyncer's spec (docs/vdir.rst), as todoman reads it:
/// one iCalendar file per item, named by its UID, its etag the file's mtime and inode. The
/// store keeps, per file, the etag, a hash of the bytes and the text both sides last agreed on
/// (`sync_items`), and each todo carries a `sync_version` that every change raises, so that a
/// pass with nothing changed stats the files, reads none and writes none.
///
/// A pass: files whose etag changed are read; one whose bytes changed and holds one VTODO is a
/// change from elsewhere. A todo changed on one side goes to the other; changed on both, it is
/// merged field by field against the last agreed text, and where both changed the same field
/// the store's version stays (and goes to the file) while the file's becomes a second todo
/// titled "… (conflict)", so no edit is lost. An edit wins over a deletion on the other side.
/// Files that hold no VTODO, several, or one Nudge cannot read are left as they are.
public final class VdirSync {
    let store: TodoStore
    let folder: String
    let options: InterchangeOptions
    /// The most bytes a file may hold; a larger one is left as it is, with a warning.
    let maxFileSize: Int

    /// Files whose bodies the last pass read, and wrote: what a test checks.
    private(set) var bodiesRead = 0
    private(set) var filesWritten = 0

    /// Appended to the title of the file's version of a todo both sides changed in the same field.
    public static let conflictMark = " (conflict)"

    /// `folder` is the vdir's path with `~` already expanded; `maxFileSize` is `[import] max_size`.
    public init(store: TodoStore, folder: String, options: InterchangeOptions, maxFileSize: Int = ImportSettings().maxSize) {
        self.store = store
        // "~/todos/" and "~/todos" are one folder, with one state.
        var path = folder
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        self.folder = path
        self.options = options
        self.maxFileSize = maxFileSize
    }

    /// A file read this pass: its record when it holds one todo Nudge can represent.
    struct RemoteFile {
        var href: String
        var etag: String
        var hash: String
        var text: String
        var record: TodoRecord
        /// Nil for a file without Nudge's ancestry properties.
        var ancestry: Ancestry?
    }

    /// A version of a todo a pass merges against.
    struct Version {
        var text: String
        var record: TodoRecord
        var ancestry: Ancestry
    }

    /// A file to write once the store has the pass's changes.
    struct PendingWrite {
        var href: String
        var record: TodoRecord
        /// The todo's sync_version the file shows; nil: the one after this pass's import.
        var version: Int64?
        /// The versions it was built on, nearest first (`X-NUDGE-BASE`).
        var earlier: [String] = []
        /// The item's parent once written (see `SyncItem.parent`).
        var parent: String?
    }

    /// One pass: changes on either side since the last pass go to the other.
    public func pass(now: Date) throws(SyncError) -> SyncReport {
        try VdirFolder.locked(folder) { () throws(SyncError) -> SyncReport in try lockedPass(now: now) }
    }

    func lockedPass(now: Date) throws(SyncError) -> SyncReport {
        bodiesRead = 0
        filesWritten = 0
        var options = self.options
        options.now = now
        var report = SyncReport()

        // The folder is listed on another thread while the store is read: with nothing changed,
        // each is about a third of a pass.
        let count = try storeCall { try store.syncItemCount(folder: folder) }
        let pendingListing = VdirFolder.PendingListing(folder, expecting: count)
        let stored = Result { () throws(SyncError) in
            (items: try storeCall { try store.syncItems(folder: folder, count: count) },
             local: try storeCall { try store.localSyncChanges(folder: folder) })
        }
        let found = try pendingListing.value()
        let listing = found.files
        // Names a new file must not take: a link's or a FIFO's too.
        let taken = listing.merging(found.skipped) { file, _ in file }
        let (items, local) = try stored.get()
        // What is not a plain file is never read: a link may lead out of the folder, a FIFO
        // would block the pass. Its todo, if it had one, stays as it is.
        for (href, kind) in found.skipped.sorted(by: { $0.key < $1.key }) {
            let warning = "\(href) is \(kind), not a file: left as it is"
            report.warnings.append(warning)
            report.standingWarnings[warning] = href + " " + (found.skippedEtags[href] ?? "")
        }
        // Counted only for an empty folder, where it decides.
        let syncedTodos = listing.isEmpty ? items.values.count(where: { $0.uuid != nil }) : 0
        if syncedTodos > 0 {
            // As vdirsyncer does for a storage that suddenly went empty: an unmounted disk or a
            // wrong path must not delete every todo.
            let todos = syncedTodos == 1 ? "1 todo was" : "\(syncedTodos) todos were"
            let warning = "\(folder) holds no .ics files, but \(todos) synced with it: "
                + "nothing deleted or written (is the disk mounted and the path right? delete the todos with nudge if meant)"
            report.warnings.append(warning)
            // Said again when the folder or the count changes: the text says both.
            report.standingWarnings[warning] = warning
            report.refused = true
            return report
        }
        // Looked up only for the todos changed or deleted here: none in a pass with nothing to do.
        var itemByUUID: [String: SyncItem] = [:]
        if !local.changed.isEmpty || !local.deleted.isEmpty {
            for item in items.values {
                guard let uuid = item.uuid, local.changed[uuid] != nil || local.deleted.contains(uuid) else { continue }
                if itemByUUID[uuid] == nil { itemByUUID[uuid] = item }
            }
        }

        var savedItems: [SyncItem] = []
        var removedItems: Set<String> = []
        var remote: [RemoteFile] = []

        // Files: unchanged by etag, touched (same bytes), changed, or new.
        func read(_ href: String, etag: String, item: SyncItem?, again: Bool) {
            bodiesRead += 1
            let data: Data
            do {
                data = try VdirFolder.read(folder, href, limit: maxFileSize)
            } catch {
                if !again { report.warnings.append("\(href) \(error.description): left as it is") }
                if case .tooLarge = error {
                    // As a file that is not iCalendar: not read again until it changes.
                    savedItems.append(SyncItem(href: href, etag: etag, hash: "", uuid: nil, base: nil, localVersion: nil))
                }
                return
            }
            let hash = Self.hash(data)
            if var item, item.hash == hash, !again {
                item.etag = etag
                savedItems.append(item)
                return
            }
            // Read again, a file already warned of is not warned of twice.
            var unwarned = SyncReport()
            // Not UTF-8 (an editor's Latin-1): taken, its text would be guessed (U+FFFD) and written back so.
            let text = String(validating: data, as: UTF8.self)
            let decoded: TodoRecord?
            if text == nil {
                if !again { report.warnings.append("\(href) is not UTF-8 text: left as it is") }
                decoded = nil
            } else {
                decoded = again ? todo(in: data, href: href, options: options, report: &unwarned)
                    : todo(in: data, href: href, options: options, report: &report)
            }
            guard let text, let decoded else {
                savedItems.append(SyncItem(href: href, etag: etag, hash: hash, uuid: nil, base: nil, localVersion: nil))
                return
            }
            let (record, ancestry) = Ancestry.split(decoded)
            remote.append(RemoteFile(href: href, etag: etag, hash: hash, text: text, record: record, ancestry: ancestry))
        }
        var listed = 0
        listed += found.skipped.keys.count { items[$0] != nil }
        for (href, etag) in listing {
            let item = items[href]
            if item != nil { listed += 1 }
            if let item, item.etag == etag { continue }
            read(href, etag: etag, item: item, again: false)
        }
        if listed < items.count {
            // A file went: one left alone for having its todo's UID may now be that todo's file.
            for item in items.values where item.uuid == nil {
                guard let etag = listing[item.href], etag == item.etag else { continue }
                read(item.href, etag: etag, item: item, again: true)
            }
        }

        // In name order, so that a pass over the same files always does the same.
        remote.sort { $0.href < $1.href }
        if !remote.isEmpty { remote = oneFilePerTodo(remote, items: items, listing: listing, saved: &savedItems, report: &report) }
        var bases = try storeCall { try store.syncBases(folder: folder, hrefs: remote.compactMap { items[$0.href]?.href }) }
        /// The todo as the file last held it, and the last version from elsewhere when that
        /// was written here.
        func agreed(_ item: SyncItem) -> (base: Version, parent: Version?)? {
            guard let stored = bases[item.href], let base = version(in: stored.text, options: options) else { return nil }
            return (base, stored.parent.flatMap { version(in: $0, options: options) })
        }

        var imports: [TodoRecord] = []
        var deletions: Set<String> = []
        var writes: [PendingWrite] = []
        var fileDeletions: [String] = []
        /// Items stored after the import: base text and the version after it.
        var importedItems: [SyncItem] = []
        var handled: Set<String> = []
        var bothChanged: [RemoteFile] = []

        for file in remote {
            let uuid = file.record.uuid
            handled.insert(uuid)
            let item = items[file.href]
            if let old = item?.uuid, old != uuid, local.changed[old] == nil, !local.deleted.contains(old) {
                // The file now holds another todo: the one it held went.
                deletions.insert(old)
                handled.insert(old)
            }
            let stored = item.flatMap { $0.uuid == uuid ? agreed($0) : nil }
            if let item, let base = stored?.base.record, local.changed[uuid] == nil,
               FieldMerge.differing(base, file.record).isEmpty,
               (file.record.remindedThrough ?? .distantPast) <= (base.remindedThrough ?? .distantPast) {
                // Rewritten elsewhere (a server's normalising, a LAST-MODIFIED) with nothing new.
                savedItems.append(SyncItem(href: file.href, etag: file.etag, hash: file.hash, uuid: uuid, base: file.text,
                                           parent: bases[file.href]?.parent, localVersion: item.localVersion))
                continue
            }
            // Another machine's version put over an edit made here that it was not built on
            // (vdirsyncer's conflict resolution): merged, not taken.
            // stored: non-nil past `stored?.parent != nil`.
            let overEdit = stored?.parent != nil && file.ancestry.map { !$0.descends(from: stored!.base.ancestry) } == true
            if (local.changed[uuid] == nil && !overEdit) || local.deleted.contains(uuid) {
                imports.append(file.record)
                importedItems.append(SyncItem(href: file.href, etag: file.etag, hash: file.hash, uuid: uuid,
                                              base: file.text, localVersion: nil))
            } else {
                bothChanged.append(file)
            }
        }

        // Files that went: none when every item's file was listed.
        var rewrite: [String: String] = [:]
        let went = listed < items.count ? items.values.filter { listing[$0.href] == nil && found.skipped[$0.href] == nil } : []
        for item in went {
            removedItems.insert(item.href)
            guard let uuid = item.uuid, !handled.contains(uuid) else { continue }
            handled.insert(uuid)
            if local.deleted.contains(uuid) { continue }
            if local.changed[uuid] != nil {
                rewrite[uuid] = item.href
            } else {
                deletions.insert(uuid)
            }
        }

        // Changes here.
        var toRender: [String: String] = rewrite
        for uuid in local.changed.keys where !handled.contains(uuid) {
            toRender[uuid] = itemByUUID[uuid]?.href ?? href(for: uuid, taken: taken)
        }
        for uuid in local.deleted where !handled.contains(uuid) {
            guard let item = itemByUUID[uuid], let etag = listing[item.href] else { continue }
            if etag == item.etag || savedItems.contains(where: { $0.href == item.href && $0.uuid == uuid }) {
                fileDeletions.append(item.href)
                removedItems.insert(item.href)
            }
        }

        let wanted = Set(toRender.keys).union(bothChanged.map(\.record.uuid))
        let rendered = try storeCall { try store.syncRecords(uuids: wanted) }
        var localRecords: [String: (record: TodoRecord, version: Int64)] = [:]
        for (record, version) in rendered { localRecords[record.uuid] = (record, version) }
        let unread = toRender.compactMap { uuid, href in itemByUUID[uuid]?.href == href && bases[href] == nil ? href : nil }
        if !unread.isEmpty {
            bases.merge(try storeCall { try store.syncBases(folder: folder, hrefs: unread) }) { old, _ in old }
        }
        for (uuid, href) in toRender.sorted(by: { $0.key < $1.key }) {
            guard let (record, version) = localRecords[uuid] else { continue }
            var write = PendingWrite(href: href, record: record, version: version)
            if let item = itemByUUID[uuid], item.href == href, let (base, parent) = agreed(item) {
                // Built on what the file held; until another machine builds on it, the last
                // version from elsewhere stays its parent.
                write.earlier = Ancestry.earlier(for: [base.ancestry])
                write.parent = parent?.text ?? base.text
            }
            writes.append(write)
        }

        // Both sides changed: merged field by field.
        for file in bothChanged {
            let uuid = file.record.uuid
            guard let (mine, version) = localRecords[uuid] else { continue }
            let ours = normalized(mine, options: options)
            let stored = items[file.href].flatMap { $0.uuid == uuid ? agreed($0) : nil }
            // The version both were built on: what the file held, or, when the file's version
            // was not built on that (an edit here it never saw), the last one from elsewhere.
            var base = stored?.base
            if let stored, let parent = stored.parent, let ancestry = file.ancestry, !ancestry.descends(from: stored.base.ancestry) {
                base = parent
            }
            let merge = FieldMerge.merge(base: base?.record, local: ours, remote: file.record)
            // The merged version is built on the file's and on the one here.
            let fileAncestry = file.ancestry ?? Ancestry(own: FieldMerge.fingerprint(file.record), earlier: [])
            let earlier = Ancestry.earlier(for: [fileAncestry] + (stored.map { [$0.base.ancestry] } ?? []))
            if merge.overlapping.isEmpty {
                let sameAsOurs = FieldMerge.differing(merge.merged, ours).isEmpty
                let sameAsFile = FieldMerge.differing(merge.merged, file.record).isEmpty
                if !sameAsOurs { imports.append(merge.merged) }
                if sameAsFile {
                    let item = SyncItem(href: file.href, etag: file.etag, hash: file.hash, uuid: uuid, base: file.text,
                                        localVersion: sameAsOurs ? version : nil)
                    if sameAsOurs { savedItems.append(item) } else { importedItems.append(item) }
                } else {
                    writes.append(PendingWrite(href: file.href, record: merge.merged, version: sameAsOurs ? version : nil,
                                               earlier: earlier, parent: file.text))
                }
                continue
            }
            // Both changed the same field: ours stays and goes to the file, theirs is a copy.
            if !FieldMerge.differing(merge.merged, ours).isEmpty { imports.append(merge.merged) }
            writes.append(PendingWrite(href: file.href, record: merge.merged,
                                       version: FieldMerge.differing(merge.merged, ours).isEmpty ? version : nil,
                                       earlier: earlier, parent: file.text))
            let copy = conflictCopy(of: file.record, hash: file.hash)
            imports.append(copy)
            writes.append(PendingWrite(href: href(for: copy.uuid, taken: taken), record: copy, version: nil))
            report.conflicted.append(SyncConflict(
                uuid: uuid, copyUUID: copy.uuid,
                message: "conflict: '\(mine.title)' was changed here and in \(file.href) "
                    + "(\(merge.overlapping.joined(separator: ", "))): both kept, the file's version as '\(copy.title)'"))
        }

        // The store first: a crash before the files are written leaves todos newer than their
        // files, which the next pass writes.
        let applied = try storeCall { try store.applySync(importing: imports, deleting: deletions, now: now) }
        report.imported = imports.count
        report.deletedTodos = applied.finished.count { deletions.contains($0) }
        report.finishedElsewhere = applied.finished
        report.acknowledgedElsewhere = applied.acknowledged
        for var item in importedItems {
            item.localVersion = item.uuid.flatMap { applied.versions[$0] }
            savedItems.append(item)
        }
        // A file from elsewhere that never saw a reminder shown here: written again with it,
        // so that the other machines learn it too.
        let unacknowledged = Set(applied.acknowledgedHere).subtracting(writes.map(\.record.uuid))
        let filesByUUID = Dictionary(remote.map { ($0.record.uuid, $0) }) { first, _ in first }
        for (record, version) in try storeCall({ try store.syncRecords(uuids: unacknowledged) }).sorted(by: { $0.record.uuid < $1.record.uuid }) {
            guard let file = filesByUUID[record.uuid] else { continue }
            let ancestry = file.ancestry ?? Ancestry(own: FieldMerge.fingerprint(file.record), earlier: [])
            writes.append(PendingWrite(href: file.href, record: record, version: version,
                                       earlier: Ancestry.earlier(for: [ancestry]), parent: file.text))
        }

        // The todos the written ones link to, whose files' UIDs the links name.
        let links = Set(writes.flatMap { [$0.record.parentUUID].compactMap(\.self) + ($0.record.after ?? []) })
        let linked = try storeCall { try store.syncRecords(uuids: links) }
        options.linked = Dictionary(linked.map { ($0.record.uuid, $0.record) }) { first, _ in first }
        var written: [SyncItem] = []
        do throws(SyncError) {
            var files: [(href: String, text: String)] = []
            // A date no file can hold (an older version stored it): the file is left as it is.
            let unwritable = writes.compactMap { write in YearBounds.unwritable(write.record).map { (write.record, $0) } }
            for (record, why) in unwritable { report.warnings.append("'\(record.title)' is not written to the vdir: \(why)") }
            writes.removeAll { YearBounds.unwritable($0.record) != nil }
            for write in writes {
                files.append((write.href, ICalendarFile.encode([Ancestry.joined(write.record, earlier: write.earlier)],
                                                               options: options)))
            }
            let etags = try VdirFolder.writeAtomically(folder, files)
            filesWritten = files.count
            for (write, file) in zip(writes, files) {
                let version = write.version ?? applied.versions[write.record.uuid]
                written.append(SyncItem(href: write.href, etag: etags[write.href] ?? "", hash: Self.hash(Data(file.text.utf8)),
                                        uuid: write.record.uuid, base: file.text, parent: write.parent, localVersion: version))
            }
            for href in fileDeletions { try VdirFolder.remove(folder, href) }
        } catch {
            // What was read is still recorded, so that the next pass does not take it again.
            try afterWriting(changedFolder: filesWritten > 0) { try store.saveSyncItems(folder: folder, savedItems + written, removing: []) }
            throw error
        }
        report.written = written.count
        report.deletedFiles = fileDeletions.count
        try afterWriting(changedFolder: filesWritten > 0 || !fileDeletions.isEmpty) {
            try store.saveSyncItems(folder: folder, savedItems + written,
                                    removing: removedItems.subtracting(written.map(\.href)))
        }
        return report
    }
}
