import Foundation
import NudgeCore

/// Which versions of a todo a file's version was built on, as Nudge writes it into the file:
/// `X-NUDGE-SELF` is the fingerprint of the fields as written, `X-NUDGE-BASE` the fingerprints
/// of the versions before it, nearest first. Fingerprints, not byte hashes, because a server
/// rewrites the bytes (Radicale reserialises every item).
///
/// vdirsyncer knows no ancestry: when both sides changed a file it puts one over the other
/// (`conflict_resolution`). With this, the pass that finds another machine's version over an
/// edit of its own that the version was not built on merges the two instead of taking it.
struct Ancestry: Equatable {
    /// The fingerprint of the version itself.
    var own: String
    /// The fingerprint Nudge wrote it with, when that is not `own`: another program changed
    /// the file since (todoman keeps the properties it does not know), building on that.
    var written: String?
    /// The versions it was built on, nearest first.
    var earlier: [String]

    static let selfName = "X-NUDGE-SELF"
    static let baseName = "X-NUDGE-BASE"
    /// Enough for a few edits here between two syncs; older ones only make a merge keep both
    /// versions of a field where it could have taken one.
    static let remembered = 8

    /// True when `version` is this version or one it was built on.
    func descends(from version: Ancestry) -> Bool {
        let known = version.names
        return lineage.contains(where: known.contains)
    }

    /// The fingerprints that stand for this version.
    private var names: Set<String> { Set([own] + (written.map { [$0] } ?? [])) }

    /// This version and every one it was built on, nearest first.
    private var lineage: [String] { [own] + (written.map { [$0] } ?? []) + earlier }

    /// What a version built on these declares it was built on.
    static func earlier(for versions: [Ancestry]) -> [String] {
        var list: [String] = []
        for hash in versions.flatMap(\.lineage) where !list.contains(hash) {
            list.append(hash)
        }
        return Array(list.prefix(remembered))
    }

    /// The record without the ancestry properties, and its ancestry: nil when the file had
    /// none (written by another program, or by Nudge before it wrote them).
    static func split(_ record: TodoRecord) -> (record: TodoRecord, ancestry: Ancestry?) {
        var record = record
        guard let kept = record.kept["ics"], kept.contains("X-NUDGE-") else {
            return (record, nil)
        }
        var written: String?
        var earlier: [String] = []
        var rest: [Substring] = []
        // Logical lines: a line and the folded ones after it, which start with a space or tab.
        var lines: [[Substring]] = []
        for line in kept.split(separator: "\n", omittingEmptySubsequences: false) {
            if let first = line.first, first == " " || first == "\t", !lines.isEmpty {
                lines[lines.count - 1].append(line)
            } else {
                lines.append([line])
            }
        }
        for folded in lines {
            // Both names are 12 characters; property names are case-insensitive.
            let name = folded[0].prefix(13).uppercased()
            guard name == selfName + ":" || name == baseName + ":" else {
                rest += folded
                continue
            }
            let value = folded.enumerated().map { index, part in index == 0 ? part.dropFirst(13) : part.dropFirst() }.joined()
            if name == selfName + ":" {
                written = value.trimmingCharacters(in: .whitespacesAndNewlines)
            } else {
                earlier = value.split(whereSeparator: { $0 == " " || $0 == "\r" }).map(String.init)
            }
        }
        let text = rest.joined(separator: "\n")
        record.kept["ics"] = text.allSatisfy(\.isWhitespace) ? nil : text
        if written == nil && earlier.isEmpty { return (record, nil) }
        let own = FieldMerge.fingerprint(record)
        return (record, Ancestry(own: own, written: written == own ? nil : written, earlier: earlier))
    }

    /// The record with its ancestry as properties for the file: `earlier` are the versions it
    /// was built on.
    static func joined(_ record: TodoRecord, earlier: [String]) -> TodoRecord {
        var record = record
        var lines = selfName + ":" + FieldMerge.fingerprint(record) + "\n"
        if !earlier.isEmpty { lines += baseName + ":" + earlier.joined(separator: " ") + "\n" }
        let kept = record.kept["ics"].map { $0.hasSuffix("\n") || $0.isEmpty ? $0 : $0 + "\n" } ?? ""
        record.kept["ics"] = kept + lines
        return record
    }
}
