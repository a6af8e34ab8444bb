import Foundation
import NudgeCore

/// What reading and writing a format needs to know beyond the todos: the zone that floating
/// and day-only times are in, and the moment of the import or export.
public struct InterchangeOptions: Sendable {
    public var zone: TimeZone
    public var now: Date
    /// Where the file comes from (its URL), naming items that carry no UUID of their own.
    public var source: String?
    /// The reminder rules: an all-day due's reminders fire at its `all_day_time`, which an
    /// iCalendar alarm of another program has to be told.
    public var config: NudgeConfig
    /// Todos the exported ones name as parent or blocker without being exported with them (a
    /// vdir file holds one todo), by uuid: an iCalendar link names them by their files' UIDs.
    public var linked: [String: TodoRecord] = [:]

    public init(zone: TimeZone, now: Date, source: String? = nil, config: NudgeConfig = NudgeConfig()) {
        self.zone = zone
        self.now = now
        self.source = source
        self.config = config
    }
}

/// Every item of a file, each a record or why it is not one, and what the file held that
/// Nudge can neither represent nor keep, counted by what it is ("annotation beyond the
/// first"), for the summary line: nothing is dropped silently.
public struct DecodedFile: Sendable {
    public var items: [Result<TodoRecord, RecordError>]
    /// Where each item is, for errors found after reading; by default its place in the array.
    public var places: [(place: RecordError.Place, number: Int)]
    public var notKept: [String: Int]
    /// Overrides of one occurrence of a repeating todo (iCalendar's RECURRENCE-ID) kept with
    /// their series as they were: Nudge keeps one todo for a series, so they are not todos.
    public var overridesKept = 0
    /// The UUIDs of records whose file gives no times (the web-API shape): they carry the
    /// moment of the import, and the importer keeps a stored todo's times when nothing changed.
    public var timeless: Set<String>
    /// What was read but will not work as it did where it came from (a repeat nudge cannot
    /// follow), each naming its item: said on stderr, the import goes on.
    public var warnings: [String] = []

    public init(items: [Result<TodoRecord, RecordError>], places: [(place: RecordError.Place, number: Int)]? = nil,
                notKept: [String: Int] = [:], timeless: Set<String> = []) {
        self.items = items
        self.places = places ?? items.indices.map { (.item, $0 + 1) }
        self.notKept = notKept
        self.timeless = timeless
    }
}

/// The formats `nudge import` reads and `nudge export` writes.
public enum InterchangeFormat: String, CaseIterable, Sendable {
    /// Nudge's own JSON array; reading also takes the common web-API shape.
    case json
    /// RFC 5545 VTODOs in a VCALENDAR, as todoman, Evolution and CalDAV servers keep them.
    case ics
    /// Taskwarrior 2.6's `task export` JSON.
    case taskwarrior
    /// todo.txt, as todo.txt-cli writes it.
    case todotxt

    /// The format a name given to `--format` means, with the names people use for it.
    public init?(name: String) {
        switch name.lowercased() {
        case "json", "nudge": self = .json
        case "ics", "ical", "icalendar", "vtodo": self = .ics
        case "taskwarrior", "task", "tw": self = .taskwarrior
        case "todotxt", "todo.txt", "txt": self = .todotxt
        default: return nil
        }
    }

    /// The format of a file by what it starts with: a VCALENDAR (or a bare VTODO or other
    /// iCalendar component, which the iCalendar reader refuses by name), a JSON array or object
    /// (Taskwarrior's when its items have a `description`), or else todo.txt lines.
    public static func guess(_ data: Data) -> InterchangeFormat {
        let head = String(decoding: data.prefix(4096), as: UTF8.self)
            .drop { $0 == "\u{FEFF}" || $0.isWhitespace }
        if head.uppercased().hasPrefix("BEGIN:V") { return .ics }
        guard let first = head.first, first == "[" || first == "{" else { return .todotxt }
        return TaskwarriorJSON.looksLikeTaskwarrior(data) ? .taskwarrior : .json
    }

    /// As `guess`, but a web page or other markup is refused rather than read as todo.txt
    /// lines: content that starts as HTML or XML does, or, when the content is neither JSON nor
    /// iCalendar, an answer whose Content-Type says it is a web page. `--format todotxt` is the
    /// way to read such lines anyway.
    public static func guess(_ data: Data, contentType: String?) throws(InterchangeError) -> InterchangeFormat {
        let format = guess(data)
        guard format == .todotxt, let what = markup(data, contentType: contentType) else { return format }
        throw InterchangeError(reason: "the file is \(what), not todos in a format nudge reads"
                               + " (--format todotxt reads its lines as todo.txt)")
    }

    /// What markup the content is ("a web page (text/html)", "XML"), or nil.
    static func markup(_ data: Data, contentType: String?) -> String? {
        let head = String(decoding: data.prefix(1024), as: UTF8.self)
            .drop { $0 == "\u{FEFF}" || $0.isWhitespace }.lowercased()
        if head.hasPrefix("<!doctype html") || head.hasPrefix("<html") || head.hasPrefix("<head") || head.hasPrefix("<body") {
            return "a web page (HTML)"
        }
        if head.hasPrefix("<?xml") || head.hasPrefix("<!doctype") || head.hasPrefix("<!--") {
            return "XML or HTML markup"
        }
        // An element (<rss version="2.0">, <feed>): a letter after the "<", and the tag closed.
        if head.hasPrefix("<"), head.dropFirst().first?.isLetter == true,
           let line = head.split(separator: "\n", maxSplits: 1).first, line.contains(">") {
            return "XML or HTML markup"
        }
        let mediaType = contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        if let mediaType, mediaType == "text/html" || mediaType == "application/xhtml+xml" {
            return "a web page (\(mediaType))"
        }
        return nil
    }

    /// The records as a file; one with a date outside the years 0001-9999 (stored by an older
    /// version) is left out (`YearBounds.unwritable` says why), as no format can hold it.
    public func encode(_ records: [TodoRecord], options: InterchangeOptions) -> String {
        let records = records.filter { YearBounds.fieldOutside($0) == nil }
        return switch self {
        case .json: NudgeJSON.encode(records)
        case .ics: ICalendarFile.encode(records, options: options)
        case .taskwarrior: TaskwarriorJSON.encode(records, options: options)
        case .todotxt: TodoTxt.encode(records, options: options)
        }
    }

    public func decode(_ data: Data, options: InterchangeOptions) throws(InterchangeError) -> DecodedFile {
        switch self {
        case .json: try NudgeJSON.decode(data, options: options)
        case .ics: try ICalendarFile.decode(data, options: options)
        case .taskwarrior: try TaskwarriorJSON.decode(data, options: options)
        case .todotxt: try TodoTxt.decode(data, options: options)
        }
    }
}
