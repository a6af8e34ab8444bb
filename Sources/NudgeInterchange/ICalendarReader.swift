import CICal
import Foundation
import NudgeCore
import NudgeRecurrence

/// Reads the VTODOs of iCalendar text with libical; called inside `LibICalLibrary.withLock`.
struct ICalendarReader {
    let options: InterchangeOptions

    private var items: [Result<TodoRecord, RecordError>] = []
    private var notKept: [String: Int] = [:]
    private var warnings: [String] = []
    /// VTODOs with a RECURRENCE-ID, by the UUID of their UID, as libical prints them.
    private var overrides: [(uuid: String, text: String)] = []
    private var setAside = ICalendarSetAside()

    init(options: InterchangeOptions) {
        self.options = options
    }

    /// What other components are called in the summary line.
    private static let componentNames: [icalcomponent_kind: String] = [
        ICAL_VEVENT_COMPONENT: "events (not todos)",
        ICAL_VJOURNAL_COMPONENT: "journal entries (not todos)",
        ICAL_VFREEBUSY_COMPONENT: "free/busy entries (not todos)",
        ICAL_VAVAILABILITY_COMPONENT: "availabilities (not todos)",
    ]

    /// Calendar properties that say nothing about the todos.
    private static let calendarProperties: Set<String> = ["VERSION", "PRODID", "CALSCALE"]

    mutating func file(_ text: String) -> Result<DecodedFile, InterchangeError> {
        let trimmed = text.drop { $0 == "\u{FEFF}" || $0.isWhitespace }
        guard trimmed.prefix(15).uppercased() == "BEGIN:VCALENDAR" else {
            let first = trimmed.prefix { !$0.isNewline }.uppercased()
            if first.hasPrefix("BEGIN:V") {
                let component = first.dropFirst("BEGIN:".count).prefix { !$0.isWhitespace }
                return .failure(InterchangeError(reason: "the file is not iCalendar: its \(component) is not inside a VCALENDAR"
                                                 + " (an iCalendar file starts with BEGIN:VCALENDAR)"))
            }
            return .failure(InterchangeError(reason: "the file is not iCalendar: it does not start with BEGIN:VCALENDAR"))
        }
        // libical reads nothing of a calendar cut short, and leaves out a last one that is:
        // said before it is asked.
        if let line = Self.unclosedCalendar(text) {
            return .failure(InterchangeError(
                reason: "the file is cut short: the VCALENDAR that begins on line \(line) has no END:VCALENDAR"))
        }
        guard let root = LibICal.parse(String(trimmed), setAside: &setAside) else {
            return .failure(InterchangeError(reason: "the file is not iCalendar that libical can read"))
        }
        defer { ical.icalcomponent_free(root) }
        for (what, number) in setAside.notKept { notKept[what, default: 0] += number }
        let calendars = ical.icalcomponent_isa(root) == ICAL_XROOT_COMPONENT ? LibICal.children(of: root) : [root]
        for calendar in calendars {
            guard ical.icalcomponent_isa(calendar) == ICAL_VCALENDAR_COMPONENT else {
                count(Self.name(of: ical.icalcomponent_isa(calendar)) + " components")
                continue
            }
            read(calendar)
        }
        let kept = keepOverrides()
        var decoded = DecodedFile(items: items, places: items.indices.map { (.todo, $0 + 1) }, notKept: notKept)
        decoded.overridesKept = kept
        decoded.warnings = warnings
        return .success(decoded)
    }

    /// Puts each override with the todo of its series (the file's VTODO with its UID and no
    /// RECURRENCE-ID), in `TodoRecord.kept`, and counts those kept; one whose series is not in
    /// the file is counted as not kept.
    private mutating func keepOverrides() -> Int {
        var kept = 0
        for override in overrides {
            guard let index = items.firstIndex(where: { (try? $0.get().uuid) == override.uuid }),
                  case .success(var record) = items[index] else {
                count("overrides of a repeating todo that is not in the file")
                continue
            }
            record.kept[ICalendarFile.overridesKey, default: ""] += override.text
            items[index] = .success(record)
            kept += 1
        }
        return kept
    }

    /// The line (from 1) of the last BEGIN:VCALENDAR that no END:VCALENDAR closes, or nil.
    static func unclosedCalendar(_ text: String) -> Int? {
        var open: Int?
        for (index, line) in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            // Most lines are other properties: only those starting as these two are read.
            guard let first = line.first, [UInt8(ascii: "B"), UInt8(ascii: "b"), UInt8(ascii: "E"), UInt8(ascii: "e"), 0xEF].contains(first),
                  line.count < 40 else { continue }
            let name = String(decoding: line, as: UTF8.self).drop { $0 == "\u{FEFF}" }
                .trimmingCharacters(in: .whitespacesAndNewlines).uppercased()
            if name == "BEGIN:VCALENDAR" {
                open = open ?? index + 1
            } else if name == "END:VCALENDAR" {
                open = nil
            }
        }
        return open
    }

    /// A kind's name as libical has it; "unnamed" where it has none.
    private static func name(of kind: icalcomponent_kind) -> String {
        ical.icalcomponent_kind_to_string(kind).map { String(cString: $0) } ?? "unnamed"
    }

    private mutating func count(_ what: String) {
        notKept[what, default: 0] += 1
    }

    private mutating func read(_ calendar: LibICal.Component) {
        for property in LibICal.properties(of: calendar) {
            let name = LibICal.name(of: property)
            if !Self.calendarProperties.contains(name) { count("calendar properties") }
        }
        var timezones: [String: LibICal.Component] = [:]
        for vtimezone in LibICal.children(of: calendar, ICAL_VTIMEZONE_COMPONENT) {
            if let property = ical.icalcomponent_get_first_property(vtimezone, ICAL_TZID_PROPERTY) {
                timezones[LibICal.value(of: property)] = vtimezone
            }
        }
        for child in LibICal.children(of: calendar) {
            let kind = ical.icalcomponent_isa(child)
            switch kind {
            case ICAL_VTODO_COMPONENT where ical.icalcomponent_get_first_property(child, ICAL_RECURRENCEID_PROPERTY) != nil:
                // An override of one occurrence (RFC 5545 3.8.4.4): Nudge keeps one todo for a
                // series, so it goes with its series as it is.
                let uid = ical.icalcomponent_get_first_property(child, ICAL_UID_PROPERTY).map(LibICal.uid) ?? ""
                let text = setAside.restore(LibICal.keptText(ofComponent: child))
                overrides.append((ICalendarFile.uuid(forUID: uid), ICalendarSetAside.lfLines(text)))
            case ICAL_VTODO_COMPONENT:
                var todo = TodoReader(todo: child, number: items.count + 1, timezones: timezones, options: options, setAside: setAside)
                do throws(RecordError) {
                    items.append(.success(try todo.record()))
                } catch {
                    items.append(.failure(error))
                }
                for (what, number) in todo.notKept { notKept[what, default: 0] += number }
                warnings += todo.warnings.map { "todo \(items.count): " + $0 }
            case ICAL_VTIMEZONE_COMPONENT:
                continue
            default:
                count(Self.componentNames[kind] ?? Self.name(of: kind) + " components")
            }
        }
    }
}
