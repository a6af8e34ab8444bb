import Foundation
import NudgeCore
import NudgeSQLite

/// A file of a vdir as the last sync pass left it (one row of `sync_items`).
public struct SyncItem: Equatable, Sendable {
    /// The file's name in the folder, e.g. "UID.ics".
    public var href: String
    /// The vdir spec's etag: the file's mtime in nanoseconds and its inode.
    public var etag: String
    /// A hash of the file's bytes, to tell a touched file from a changed one.
    public var hash: String
    /// The todo the file holds; nil for a file Nudge leaves alone (a VEVENT, a broken file).
    public var uuid: String?
    /// The iCalendar text the file last held as both sides saw it, the base of a three-way
    /// merge; nil as `syncItems` reads them (`syncBases` reads the texts), and when saved, the
    /// one stored stays (with its `parent`).
    public var base: String?
    /// When `base` is a version written here that no other machine is known to have built on:
    /// the last version that came from elsewhere, the base of a merge with a version another
    /// machine made meanwhile. Saved with `base`.
    public var parent: String?
    /// The todo's `sync_version` when both sides last agreed.
    public var localVersion: Int64?

    public init(href: String, etag: String, hash: String, uuid: String?, base: String?, parent: String? = nil,
                localVersion: Int64?) {
        self.href = href
        self.etag = etag
        self.hash = hash
        self.uuid = uuid
        self.base = base
        self.parent = parent
        self.localVersion = localVersion
    }
}

/// The texts a pass merges against, of one file (one row of `sync_bases`).
public struct SyncBase: Equatable, Sendable {
    /// What the file last held (`SyncItem.base`).
    public var text: String
    /// The last version from elsewhere, when `text` was written here (`SyncItem.parent`).
    public var parent: String?
}

/// What changed in the store since the last pass with a folder.
public struct LocalSyncChanges: Sendable {
    /// Todos added or changed here, by uuid, with their current `sync_version`.
    public var changed: [String: Int64] = [:]
    /// Todos synced before and deleted here since, by uuid.
    public var deleted: Set<String> = []
}

/// What applying a pass's changes to the store did that the service cares about.
public struct SyncApplied: Sendable {
    /// The `sync_version` of every todo imported, after the import.
    public var versions: [String: Int64] = [:]
    /// Todos a record completed (that were pending here), or deleted.
    public var finished: [String] = []
    /// Todos whose record acknowledged reminders later than this store had.
    public var acknowledged: [String] = []
    /// Todos whose record acknowledged less than this store had (a reminder shown here that
    /// the record's version never saw): their files need this store's acknowledgement.
    public var acknowledgedHere: [String] = []
}

extension TodoStore {
    /// The state of every file of `folder` as the last pass left it, by href; without the
    /// agreed texts (`base` is nil), which `syncBases` reads for the files that changed.
    /// `count`: their `syncItemCount`, when the caller has it.
    public func syncItems(folder: String, count: Int? = nil) throws(StoreError) -> [String: SyncItem] {
        let count = if let count { count } else { try syncItemCount(folder: folder) }
        return try perform {
            var items: [String: SyncItem] = [:]
            // Sized once: growing a dictionary of 10,000 items step by step was a tenth of a pass.
            items.reserveCapacity(count)
            let rows = try db.prepare("SELECT href, etag, hash, uuid, local_version FROM sync_items WHERE folder = ?")
            try rows.bind([.text(folder)])
            let (href, etag, hash, uuid, version) = (rows.column("href"), rows.column("etag"), rows.column("hash"),
                                                     rows.column("uuid"), rows.column("local_version"))
            while try rows.step() {
                let row = rows.row
                let item = SyncItem(href: row.text(href) ?? "", etag: row.text(etag) ?? "", hash: row.text(hash) ?? "",
                                    uuid: row.text(uuid), base: nil, localVersion: row.optionalInt64(version))
                items[item.href] = item
            }
            return items
        }
    }

    /// How many files of `folder` the last pass left.
    public func syncItemCount(folder: String) throws(StoreError) -> Int {
        try perform { Int(try db.scalar("SELECT count(*) FROM sync_items WHERE folder = ?", [.text(folder)])?.int64 ?? 0) }
    }

    /// The texts a merge may take as its base, of these files, by href.
    public func syncBases(folder: String, hrefs: some Collection<String>) throws(StoreError) -> [String: SyncBase] {
        try perform {
            var bases: [String: SyncBase] = [:]
            let rows = try db.prepare("SELECT base, parent FROM sync_bases WHERE folder = ? AND href = ?")
            for href in hrefs {
                try rows.bind([.text(folder), .text(href)])
                defer { rows.reset() }
                guard try rows.step() else { continue }
                let row = rows.row
                if let text = row.text("base") { bases[href] = SyncBase(text: text, parent: row.text("parent")) }
            }
            return bases
        }
    }

    /// The todos added, changed or deleted here since the last pass with `folder`: a join of
    /// two indexed tables, no todo rendered.
    public func localSyncChanges(folder: String) throws(StoreError) -> LocalSyncChanges {
        try perform {
            var changes = LocalSyncChanges()
            let changed = try db.prepare("""
                SELECT t.uuid, t.sync_version FROM todos t
                LEFT JOIN sync_items s INDEXED BY sync_items_by_uuid ON s.folder = ?1 AND s.uuid = t.uuid
                WHERE s.href IS NULL OR s.local_version IS NOT t.sync_version
                """)
            try changed.bind([.text(folder)])
            let (uuid, version) = (changed.column("uuid"), changed.column("sync_version"))
            while try changed.step() {
                let row = changed.row
                changes.changed[row.text(uuid) ?? ""] = row.int64(version)
            }
            let deleted = try db.prepare("""
                SELECT s.uuid FROM sync_items s
                WHERE s.folder = ?1 AND s.uuid IS NOT NULL AND NOT EXISTS (SELECT 1 FROM todos t WHERE t.uuid = s.uuid)
                """)
            try deleted.bind([.text(folder)])
            while try deleted.step() {
                if let uuid = deleted.row.text("uuid") { changes.deleted.insert(uuid) }
            }
            return changes
        }
    }

    /// The records of these todos, each with `remindedThrough` (exported as ACKNOWLEDGED),
    /// and each one's `sync_version`, read first: a change in between is written again next pass,
    /// never missed.
    public func syncRecords(uuids: some Collection<String>) throws(StoreError) -> [(record: TodoRecord, version: Int64)] {
        guard !uuids.isEmpty else { return [] }
        return try perform {
            // An IN list of quoted literals: SQLite makes it an index, also for 10,000.
            let list = uuids.map { "'" + $0.replacingOccurrences(of: "'", with: "''") + "'" }.joined(separator: ",")
            let condition = "t.uuid IN (\(list))"
            var versions: [String: Int64] = [:]
            let rows = try db.prepare("SELECT t.uuid, t.sync_version FROM todos t WHERE \(condition)")
            let (uuid, version) = (rows.column("uuid"), rows.column("sync_version"))
            while try rows.step() {
                let row = rows.row
                versions[row.text(uuid) ?? ""] = row.int64(version)
            }
            let records = try records(where: condition, remindedThrough: true)
            // Blockers not in the store yet go out with their todo, as they came.
            let waiting = try waitingBlockers()
            return records.map { record in
                var record = record
                if let blockers = waiting[record.uuid] { record.after = (record.after ?? []) + blockers }
                return (record, versions[record.uuid] ?? 0)
            }
        }
    }

    /// Brings a pass's decisions into the store in one transaction: `records` replace or add
    /// todos whatever their updated_at (the pass merged them), and the todos with the
    /// `deleting` uuids go. A later acknowledgement moves reminded_through forward, never back;
    /// the changed todos' reminders are planned again.
    public func applySync(importing records: [TodoRecord], deleting: Set<String>, now: Date) throws(StoreError) -> SyncApplied {
        try write {
            var applied = SyncApplied()
            let before = try db.prepare("""
                SELECT completed_at IS NOT NULL AS completed, coalesce(reminded_through, 0) AS reminded_through
                FROM todos WHERE uuid = ?
                """)
            let (completed, remindedThrough) = (before.column("completed"), before.column("reminded_through"))
            for record in records {
                try before.bind([.text(record.uuid)])
                defer { before.reset() }
                guard try before.step() else { continue }
                let row = before.row
                if row.int64(completed) == 0, record.completedAt != nil { applied.finished.append(record.uuid) }
                let acknowledged = record.remindedThrough.map(Self.stamp) ?? 0
                if acknowledged > row.int64(remindedThrough) { applied.acknowledged.append(record.uuid) }
                if acknowledged < row.int64(remindedThrough) { applied.acknowledgedHere.append(record.uuid) }
            }
            _ = try applyImport(records, now: now, dryRun: false, replacing: true)
            let deletedIDs = try deleting.sorted().compactMap { uuid in
                try db.scalar("SELECT id FROM todos WHERE uuid = ?", [.text(uuid)])?.int64
            }
            let released = try dependents(of: deletedIDs)
            let delete = try db.prepare("DELETE FROM todos WHERE uuid = ?")
            for uuid in deleting.sorted() {
                try delete.run([.text(uuid)])
                if db.changes > 0 { applied.finished.append(uuid) }
            }
            try replan(ids: released.filter { !deletedIDs.contains($0) })
            let version = try db.prepare("SELECT sync_version FROM todos WHERE uuid = ?")
            let syncVersion = version.column("sync_version")
            for record in records {
                try version.bind([.text(record.uuid)])
                defer { version.reset() }
                if try version.step() { applied.versions[record.uuid] = version.row.int64(syncVersion) }
            }
            return applied
        }
    }

    /// Records the state of the folder's files after a pass: `items` are stored (replacing
    /// the same hrefs; an item without `base` keeps the base and parent stored), the `removing` hrefs
    /// forgotten.
    public func saveSyncItems(folder: String, _ items: [SyncItem], removing: Set<String>) throws(StoreError) {
        guard !items.isEmpty || !removing.isEmpty else { return }
        try write {
            let save = try db.prepare("""
                INSERT OR REPLACE INTO sync_items (folder, href, etag, hash, uuid, local_version) VALUES (?, ?, ?, ?, ?, ?)
                """)
            let saveBase = try db.prepare("INSERT OR REPLACE INTO sync_bases (folder, href, base, parent) VALUES (?, ?, ?, ?)")
            for item in items {
                try save.run([.text(folder), .text(item.href), .text(item.etag), .text(item.hash), item.uuid.sqlValue,
                              item.localVersion.sqlValue])
                if let base = item.base {
                    try saveBase.run([.text(folder), .text(item.href), .text(base), item.parent.sqlValue])
                }
            }
            let remove = try db.prepare("DELETE FROM sync_items WHERE folder = ?1 AND href = ?2")
            let removeBase = try db.prepare("DELETE FROM sync_bases WHERE folder = ?1 AND href = ?2")
            for href in removing.sorted() {
                try remove.run([.text(folder), .text(href)])
                try removeBase.run([.text(folder), .text(href)])
            }
        }
    }
}
