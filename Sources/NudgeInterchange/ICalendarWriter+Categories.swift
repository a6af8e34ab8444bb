import CICal
import Foundation
import NudgeRecurrence

/// A todo's category and tags, written as one CATEGORIES line.
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
}
