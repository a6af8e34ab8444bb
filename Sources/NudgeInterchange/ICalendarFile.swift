import CICal
import Foundation
import NudgeCore
import NudgePlatform
import NudgeRecurrence

/// RFC 5545 VTODOs in VCALENDARs, as todoman, Evolution and CalDAV servers keep them, read and
/// written by libical (see `LibICal`).
///
/// What Nudge has no field for is kept in `TodoRecord.kept["ics"]`, as the content lines
/// libical prints, and written back on export; what cannot be kept (events, journal entries)
/// is counted in `DecodedFile.notKept`.
public enum ICalendarFile {
    static let prodID = "-//Nudge//Nudge//EN"
    static let keptKey = "ics"
    /// The VTODOs with a RECURRENCE-ID that override occurrences of the todo's series, as
    /// libical prints them, one after another: written back beside the todo's own VTODO.
    public static let overridesKey = "ics-overrides"

    /// X-properties for what iCalendar has no words for.
    static let repeatFromName = "X-NUDGE-REPEAT-FROM"
    static let defaultRemindersName = "X-NUDGE-DEFAULT-REMINDERS"
    /// Kept (never written) with a todo whose DUE was floating, a wall-clock time without TZID:
    /// the export writes DUE and DTSTART floating again, as the due's zone reads them.
    static let floatingName = "X-NUDGE-FLOATING"
    /// Marks the alarm that stands for Nudge's default reminders when a snooze needs an alarm
    /// to snooze and the todo has no reminders of its own.
    static let standsForName = "X-NUDGE-STANDS-FOR"
    /// A TRIGGER parameter: the span of a reminder before an all-day due, whose trigger is
    /// written relative to the start of the due's day.
    static let beforeName = "X-NUDGE-BEFORE"
    /// Kept (never written) with a todo whose alarms came as ACTION:AUDIO: the reminders they
    /// are, as `CustomReminder.description` writes them, so that they go back as AUDIO.
    static let audioName = "X-NUDGE-AUDIO"
    /// Written with a todo that has CATEGORIES (its tags) but no category: the first of them
    /// is otherwise read as the category.
    static let noCategoryName = "X-NUDGE-NO-CATEGORY"

    // MARK: - Priority

    /// RFC 5545's 0-9 as Nudge's three: 1-4 high, 5 medium, 6-9 low, 0 (undefined) medium.
    static func priority(_ value: Int) -> Priority {
        switch value {
        case 1...4: .high
        case 6...9: .low
        default: .medium
        }
    }

    static func icalPriority(_ priority: Priority) -> Int {
        switch priority {
        case .high: 1
        case .medium: 5
        case .low: 9
        }
    }

    // MARK: - UIDs

    /// The uuid Nudge keeps for a UID: the UID itself when it is a lowercase UUID, the UUID in
    /// other spellings (todoman's 32 hex digits, upper case), else one made from the UID's
    /// bytes, so that importing the same file twice finds the same todos.
    /// Whether a RELATED-TO names the todo's parent: RELTYPE=PARENT, RFC 5545's default, as
    /// Nextcloud Tasks, tasks.org and Thunderbird write a subtask's link.
    static func namesParent(_ property: LibICal.Property) -> Bool {
        (LibICal.parameter("RELTYPE", of: property)?.uppercased() ?? "PARENT") == "PARENT" && !LibICal.value(of: property).isEmpty
    }

    /// Whether a RELATED-TO names a todo this one comes after: RELTYPE=DEPENDS-ON (RFC 9253).
    static func namesBlocker(_ property: LibICal.Property) -> Bool {
        LibICal.parameter("RELTYPE", of: property)?.uppercased() == "DEPENDS-ON" && !LibICal.value(of: property).isEmpty
    }

    static func uuid(forUID uid: String) -> String {
        if let parsed = UUID(uuidString: uid) { return parsed.uuidString.lowercased() }
        let hex = uid.lowercased()
        if hex.count == 32, hex.allSatisfy(\.isHexDigit) {
            var text = hex
            for offset in [20, 16, 12, 8] { text.insert("-", at: text.index(text.startIndex, offsetBy: offset)) }
            if let parsed = UUID(uuidString: text) { return parsed.uuidString.lowercased() }
        }
        return NameBasedUUID.url("urn:x-nudge:icalendar-uid:" + uid)
    }

    // MARK: - Zones

    static let utc = TimeZone(identifier: "UTC")!

    /// Zones written as UTC ("...Z") rather than with a TZID.
    static func isUTC(_ zone: TimeZone) -> Bool {
        ["UTC", "GMT", "Etc/UTC", "Etc/GMT", "Etc/Universal", "Universal", "Zulu", "Etc/Zulu", "UCT", "Etc/UCT"]
            .contains(zone.identifier)
    }

    // MARK: - Public

    /// One VCALENDAR with a VTIMEZONE for each zone a due uses, then a VTODO for each record;
    /// a record with a date outside the years 0001-9999 is left out (see `YearBounds`).
    /// Cannot fail, so where libical may be missing the caller asks `LibICalLibrary.open()` first.
    public static func encode(_ records: [TodoRecord], options: InterchangeOptions) -> String {
        let records = records.filter { YearBounds.fieldOutside($0) == nil }
        return LibICalLibrary.withOpenLock {
            var writer = ICalendarWriter(options: options)
            return writer.calendar(records)
        }
    }

    /// Every VTODO of every VCALENDAR in the file (`cat *.ics` of a todoman folder is one file),
    /// each a record or why it is not one, numbered as "todo N" from 1.
    public static func decode(_ data: Data, options: InterchangeOptions) throws(InterchangeError) -> DecodedFile {
        // Refused as sync and todo.txt refuse it: an editor's Latin-1 would be guessed (U+FFFD).
        guard let text = String(validating: data, as: UTF8.self) else {
            throw InterchangeError(reason: "the file is not UTF-8 text")
        }
        let result: Result<DecodedFile, InterchangeError>
        do throws(LibraryLoadError) {
            result = try LibICalLibrary.withLock {
                var reader = ICalendarReader(options: options)
                return reader.file(text)
            }
        } catch {
            throw InterchangeError(reason: error.description)
        }
        return try result.get()
    }
}
