#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One entry read back from the systemd journal.
public struct JournalEntry: Sendable {
    /// Every field of the entry by name, including the ones the journal adds itself (`_PID`,
    /// `_UID`, `_TRANSPORT`, ...). Values are decoded as UTF-8 with invalid bytes replaced; a
    /// field the entry holds more than once keeps its first value.
    public let fields: [String: String]
    /// When the journal received the entry.
    public let realtime: Date

    public init(fields: [String: String], realtime: Date) {
        self.fields = fields
        self.realtime = realtime
    }

    /// `MESSAGE`.
    public var message: String? { fields["MESSAGE"] }

    public subscript(field: String) -> String? { fields[field] }
}
