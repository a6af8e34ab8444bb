import CICal
import Foundation
import NudgeCore
import NudgeRecurrence

/// A todo's place among the others: its category and tags (one CATEGORIES line), its parent
/// and the todos it comes after (RELATED-TO).
extension ICalendarWriter {
    /// Stands for a comma within a category's name until the text is printed: libical prints
    /// the commas of a CATEGORIES value as they are, as the separators they are between names.
    /// A C1 control, which no name keeps (`categories` makes it U+FFFD), of the two bytes `\,` has.
    static let commaInName = "\u{80}"

    /// The todo's category, its tags and the other categories it came with, on one CATEGORIES
    /// line. libical reads `CATEGORIES:Home,Errands` as two properties and would write two
    /// lines, and todoman (4.1) cannot read a todo with two: it drops the whole file from its
    /// list. A kept CATEGORIES with parameters (LANGUAGE) stays a line of its own. A todo
    /// without a category but with others gets X-NUDGE-NO-CATEGORY: the first of them would
    /// otherwise become its category where Nudge reads the file.
    func categories(_ category: String?, tags: [String], kept: Kept) -> (line: LibICal.Property?, noCategory: Bool, commaInName: Bool) {
        _ = kept.takeX(named: ICalendarFile.noCategoryName)
        var names = (category.map { [Self.text($0)] } ?? []) + tags
        var hasParameters = false
        for property in kept.take(ICAL_CATEGORIES_PROPERTY) {
            let name = LibICal.category(of: property)
            if ical.icalproperty_count_parameters(property) == 0, !name.isEmpty {
                names.append(name)
                ical.icalproperty_free(property)
            } else {
                hasParameters = hasParameters || !name.isEmpty
                kept.putBack(property)
            }
        }
        let commaInName = names.contains { $0.contains(",") }
        let value = names.map {
            $0.replacingOccurrences(of: Self.commaInName, with: "\u{FFFD}").replacingOccurrences(of: ",", with: Self.commaInName)
        }.joined(separator: ",")
        return (names.isEmpty ? nil : ical.icalproperty_new_categories(value),
                category == nil && (!names.isEmpty || hasParameters), commaInName)
    }

    /// The text with each `commaInName` of its CATEGORIES lines (and their folds) as `\,`.
    static func categoryCommasEscaped(_ text: String) -> String {
        var inCategories = false
        // By bytes: "\r\n" is one Character, which a split at "\n" would not see.
        return text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { bytes in
            let line = String(decoding: bytes, as: UTF8.self)
            if !line.hasPrefix(" ") { inCategories = line.hasPrefix("CATEGORIES") }
            return inCategories ? line.replacingOccurrences(of: commaInName, with: "\\,") : line
        }.joined(separator: "\n")
    }

    /// `RELATED-TO;RELTYPE=PARENT` naming the parent: as it came when it still names it (a
    /// parent's UID that is no uuid), else by the parent's uuid. Other RELATED-TOs stay kept.
    func parent(_ parentUUID: String?, kept: Kept) -> LibICal.Property? {
        var written: LibICal.Property?
        for property in kept.take(ICAL_RELATEDTO_PROPERTY) {
            if !ICalendarFile.namesParent(property) {
                kept.putBack(property)
            } else if written == nil, let parentUUID, ICalendarFile.uuid(forUID: LibICal.value(of: property)) == parentUUID {
                written = property
            } else {
                ical.icalproperty_free(property)
            }
        }
        if written == nil, let parentUUID, UUID(uuidString: parentUUID) != nil {
            written = link("PARENT", to: parentUUID)
        }
        return written
    }

    /// A RELATED-TO naming the todo `uuid` by its file's UID when that is known and reads back
    /// as that todo, else by the uuid (which holds nothing that would need escaping).
    func link(_ reltype: String, to uuid: String) -> LibICal.Property? {
        if let uid = uids[uuid], let property = LibICal.property("RELATED-TO;RELTYPE=\(reltype):" + uid) {
            if ICalendarFile.uuid(forUID: LibICal.value(of: property)) == uuid { return property }
            ical.icalproperty_free(property)
        }
        return LibICal.property("RELATED-TO;RELTYPE=\(reltype):" + uuid)
    }

    /// The UIDs of the todos `records` link to, among them and `options.linked`, where their
    /// files spell them otherwise than their uuids (tasks.org's numbers, an uppercase uuid):
    /// another program finds a todo only by the UID it gave it.
    func linkedUIDs(_ records: [TodoRecord]) -> [String: String] {
        let wanted = Set(records.flatMap { [$0.parentUUID].compactMap(\.self) + ($0.after ?? []) })
        guard !wanted.isEmpty else { return [:] }
        // By the wanted uuids: a vdir pass writes its files one by one with the same `linked`.
        var found = Dictionary(wanted.compactMap { uuid in options.linked[uuid].map { (uuid, $0) } }) { first, _ in first }
        for record in records where wanted.contains(record.uuid) { found[record.uuid] = record }
        var uids: [String: String] = [:]
        var setAside = ICalendarSetAside()
        for (uuid, record) in found {
            let kept = Kept(record.kept[ICalendarFile.keptKey], setAside: &setAside)
            defer { kept.free() }
            guard let property = kept.takeFirst(ICAL_UID_PROPERTY) else { continue }
            defer { ical.icalproperty_free(property) }
            let uid = LibICal.uid(of: property)
            let plain = uid.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F && !",;\\".unicodeScalars.contains($0) }
            if uid != uuid, plain, ICalendarFile.uuid(forUID: uid) == uuid { uids[uuid] = uid }
        }
        return uids
    }

    /// A `RELATED-TO;RELTYPE=DEPENDS-ON` for each todo it comes after, in their order: as it
    /// came when it names that todo (a UID that is no uuid), else by the uuid. With `after`
    /// nil (a format that does not say), those it came with.
    func blockers(_ after: [String]?, kept: [LibICal.Property]) -> [LibICal.Property] {
        guard let after else { return kept }
        var unused = kept
        var written: [LibICal.Property] = []
        for uuid in after {
            if let index = unused.firstIndex(where: { ICalendarFile.uuid(forUID: LibICal.value(of: $0)) == uuid }) {
                written.append(unused.remove(at: index))
            } else if UUID(uuidString: uuid) != nil, let property = link("DEPENDS-ON", to: uuid) {
                written.append(property)
            }
        }
        unused.forEach { ical.icalproperty_free($0) }
        return written
    }
}
