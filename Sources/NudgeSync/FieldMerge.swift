import Foundation
import NudgeCore

/// A three-way merge of a todo both sides changed, field by field against the version both last
/// agreed on.
enum FieldMerge {
    struct Result {
        /// Each field from the side that changed it; where both did, ours.
        var merged: TodoRecord
        /// The fields both sides changed, differently.
        var overlapping: [String]
    }

    private typealias Field = (name: String, differs: @Sendable (TodoRecord, TodoRecord) -> Bool,
                               take: @Sendable (inout TodoRecord, TodoRecord) -> Void,
                               describe: @Sendable (TodoRecord) -> String)

    /// The fields a person edits, by the name a conflict reports. Each is described for the
    /// fingerprint by hand: a description through reflection cost a first pass over 10,000
    /// files more than a second.
    private static let fields: [Field] = [
        field("title", \.title) { $0.title },
        field("notes", \.notes) { $0.notes ?? "\u{0}" },
        field("due", \.due) { record in
            switch record.due {
            case nil: "-"
            case .allDay(let day)?: "d" + day.description
            case .at(let instant, let zone)?: "t" + seconds(instant) + "@" + zone.identifier
            }
        },
        field("priority", \.priority) { $0.priority.description },
        field("category", \.category) { $0.category ?? "\u{0}" },
        field("repetition", \.repetition) { record in
            // The dates only when there are some, so that the fingerprints of other series stay
            // as files written before them have them.
            record.repetition.map { $0.rrule + "|" + $0.from.rawValue + "|" + ($0.start?.description ?? "")
                + ($0.datesText.map { "|" + $0 } ?? "") } ?? "-"
        },
        field("completion", \.completedAt) { $0.completedAt.map(seconds) ?? "-" },
        field("reminders", \.custom) { record in
            record.custom.map { reminder in
                switch reminder {
                case .before(let span): "b" + span.description
                case .at(let moment): "a" + seconds(moment)
                }
            }.joined(separator: ",")
        },
        field("default reminders", \.usesDefaultRules) { $0.usesDefaultRules ? "1" : "0" },
        field("snooze", \.snoozedUntil) { $0.snoozedUntil.map(seconds) ?? "-" },
        // A dictionary's order changes from one process to the next; its description must not.
        field("other properties", \.kept) { $0.kept.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "\n") },
        field("parent", \.parentUUID) { $0.parentUUID ?? "" },
    ]

    /// The fields the fingerprint describes in a row; a parent, as the tags, is added only when
    /// there is one, so that files written before subtasks keep their fingerprints.
    private static let fingerprinted = fields.filter { $0.name != "parent" }

    /// A todo's tags, ignoring case; none when the format said nothing of them.
    private static func folded(_ record: TodoRecord) -> [String] {
        (record.tags ?? []).map(Tag.folded)
    }

    /// The tags as the fingerprint's last part, only when there are some, so that the
    /// fingerprints of untagged todos stay as files written before tags have them.
    private static func tagsDescription(_ record: TodoRecord) -> [String] {
        let tags = folded(record)
        return tags.isEmpty ? [] : ["#" + tags.joined(separator: " ")]
    }

    /// The tags merged one by one (`mergedElements`), ignoring case.
    static func mergedTags(base: TodoRecord?, local: TodoRecord, remote: TodoRecord) -> [String] {
        Tag.unique(mergedElements(base: base.map { $0.tags ?? [] }, local: local.tags ?? [], remote: remote.tags ?? [],
                                  key: Tag.folded))
    }

    /// The todos it comes after, merged one by one as the tags are.
    static func mergedBlockers(base: TodoRecord?, local: TodoRecord, remote: TodoRecord) -> [String] {
        mergedElements(base: base.map { $0.after ?? [] }, local: local.after ?? [], remote: remote.after ?? []) { $0 }
    }

    /// Elements merged one by one: each added on either side since the base is there, each
    /// removed on either side is gone, the rest as ours has them. Without a base, both sides'.
    private static func mergedElements(base: [String]?, local: [String], remote: [String],
                                       key: (String) -> String) -> [String] {
        let baseSet = Set((base ?? []).map(key)), remoteSet = Set(remote.map(key)), localSet = Set(local.map(key))
        let kept = local.filter { element in
            base == nil || !baseSet.contains(key(element)) || remoteSet.contains(key(element))
        }
        let added = remote.filter { element in
            !localSet.contains(key(element)) && (base == nil || !baseSet.contains(key(element)))
        }
        return kept + added
    }

    /// The todos it comes after, in no particular order: a file may name them in any.
    private static func blockerSet(_ record: TodoRecord) -> Set<String> {
        Set(record.after ?? [])
    }

    private static func seconds(_ date: Date) -> String {
        String(Int64(date.timeIntervalSince1970.rounded(.down)))
    }

    private static func field<T: Equatable & Sendable>(_ name: String, _ path: WritableKeyPath<TodoRecord, T> & Sendable,
                                            describe: @escaping @Sendable (TodoRecord) -> String) -> Field {
        (name, { $0[keyPath: path] != $1[keyPath: path] }, { $0[keyPath: path] = $1[keyPath: path] }, describe)
    }

    /// Without a base (both sides got the todo apart), every field that differs overlaps.
    static func merge(base: TodoRecord?, local: TodoRecord, remote: TodoRecord) -> Result {
        var merged = local
        var overlapping: [String] = []
        for field in fields where field.differs(local, remote) {
            let localChanged = base.map { field.differs($0, local) } ?? true
            let remoteChanged = base.map { field.differs($0, remote) } ?? true
            if !localChanged {
                field.take(&merged, remote)
            } else if remoteChanged {
                overlapping.append(field.name)
            }
        }
        // Tags merge one by one: they never overlap.
        if folded(local) != folded(remote) { merged.tags = mergedTags(base: base, local: local, remote: remote) }
        if blockerSet(local) != blockerSet(remote) { merged.after = mergedBlockers(base: base, local: local, remote: remote) }
        merged.updatedAt = max(local.updatedAt, remote.updatedAt)
        // Reminders done with on either machine stay done with.
        if let theirs = remote.remindedThrough {
            merged.remindedThrough = max(local.remindedThrough ?? theirs, theirs)
        }
        return Result(merged: merged, overlapping: overlapping)
    }

    /// A hash of the fields a person edits, the same for two records with the same fields
    /// (whatever their bytes in a file, their LAST-MODIFIED or their acknowledgements).
    static func fingerprint(_ record: TodoRecord) -> String {
        // Blockers, as the parent, only when there are some: files written before keep their fingerprints.
        let blockers = blockerSet(record).sorted()
        let described = fingerprinted.map { $0.describe(record) } + tagsDescription(record) + (record.parentUUID.map { ["^" + $0] } ?? [])
            + (blockers.isEmpty ? [] : ["<" + blockers.joined(separator: " ")])
        return VdirSync.hash(Data(described.joined(separator: "\u{1F}").utf8))
    }

    /// The names of the fields in which two records differ.
    static func differing(_ one: TodoRecord, _ other: TodoRecord) -> [String] {
        fields.filter { $0.differs(one, other) }.map(\.name) + (folded(one) != folded(other) ? ["tags"] : [])
            + (blockerSet(one) != blockerSet(other) ? ["blockers"] : [])
    }
}
