import Foundation
import NudgeCore

/// Nudge's own interchange format: a JSON array of todo objects. Writing keeps the keys in a
/// fixed order, so that two exports of the same todos are the same bytes.
public enum NudgeJSON {
    /// The records as a JSON array, two-space indented, ending in a newline.
    public static func encode(_ records: [TodoRecord]) -> String {
        // Each todo's keys on lines of their own, their values on one line.
        JSON.array(records.map(value)).text(JSON.Layout(brokenLevels: 2, spaced: true)) + "\n"
    }

    /// One record as a JSON object, with the same keys as in `encode`.
    public static func value(_ record: TodoRecord) -> JSON {
        .object(fields(record))
    }

    /// Reads every item, each either a record or why it is not one: the caller decides whether
    /// one bad item spoils the file. Throws only when the file is not a JSON array.
    public static func decode(_ data: Data) throws(InterchangeError) -> [Result<TodoRecord, RecordError>] {
        try decode(data, options: InterchangeOptions(zone: TimeZone(secondsFromGMT: 0)!, now: Date(timeIntervalSince1970: 0))).items
    }

    /// Reads Nudge's own items and those of the common web-API shape (`{"id": 1, "title":
    /// "...", "completed": false}`, as jsonplaceholder's /todos), also inside `{"todos": [...]}`.
    /// Throws only when the file is not a JSON array.
    public static func decode(_ data: Data, options: InterchangeOptions) throws(InterchangeError) -> DecodedFile {
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            throw InterchangeError(reason: "the file is not JSON (\(error.localizedDescription))")
        }
        let wrapped = (parsed as? [String: Any]).flatMap { $0.count == 1 ? $0["todos"] : nil }
        guard let items = (wrapped ?? parsed) as? [Any] else {
            throw InterchangeError(reason: "the file is not a JSON array of todos, as 'nudge export' writes")
        }
        var notKept: [String: Int] = [:]
        var timeless: Set<String> = []
        let results: [Result<TodoRecord, RecordError>] = items.enumerated().map { offset, item in
            do throws(RecordError) {
                if let object = item as? [String: Any], object["uuid"] == nil, object["id"] != nil {
                    let record = try webRecord(object, number: offset + 1, options: options, notKept: &notKept)
                    timeless.insert(record.uuid)
                    return .success(record)
                }
                return .success(try record(item, number: offset + 1))
            } catch {
                return .failure(error)
            }
        }
        return DecodedFile(items: results, notKept: notKept, timeless: timeless)
    }

    // MARK: - Writing

    private static let utc = WallClock(zone: TimeZone(secondsFromGMT: 0)!)

    private static func fields(_ record: TodoRecord) -> [(String, JSON)] {
        var due = JSON.null, zone = JSON.null
        switch record.due {
        case nil: break
        case .allDay(let day)?: due = .string(day.description)
        case .at(let instant, let dueZone)?:
            due = .string(WallClock(zone: dueZone).iso8601(instant))
            zone = .string(dueZone.identifier)
        }
        let repetition: JSON = record.repetition.map {
            .object([("rule", .string($0.rrule)), ("from", .string($0.from.rawValue)),
                     ("start", .string($0.start?.description)),
                     ("except", .array($0.exceptions.map { .string($0.description) })),
                     ("add", .array($0.additions.map { .string($0.description) }))])
        } ?? .null
        // A record from a format without tags has none to write (nil, not []).
        let tags: [(String, JSON)] = record.tags.map { [("tags", .array($0.map { .string($0) }))] } ?? []
        let after: [(String, JSON)] = record.after.map { [("after", .array($0.map { .string($0) }))] } ?? []
        return [
            ("uuid", .string(record.uuid)),
            ("title", .string(record.title)),
            ("notes", .string(record.notes)),
            ("due", due),
            ("allDay", .bool(record.due?.isAllDay ?? false)),
            ("zone", zone),
            ("priority", .string(record.priority.description)),
            ("category", .string(record.category)),
        ] + tags + after + [
            ("parent", .string(record.parentUUID)),
            ("completed", .bool(record.completedAt != nil)),
            ("completedAt", .string(record.completedAt.map(utc.iso8601))),
            ("createdAt", .string(utc.iso8601(record.createdAt))),
            ("updatedAt", .string(utc.iso8601(record.updatedAt))),
            ("repeat", repetition),
            ("reminders", .array(record.custom.map { reminder in
                switch reminder {
                case .before(let span): .object([("before", .string(span.description))])
                case .at(let moment): .object([("at", .string(utc.iso8601(moment)))])
                }
            })),
            ("defaultReminders", .bool(record.usesDefaultRules)),
            ("snoozedUntil", .string(record.snoozedUntil.map(utc.iso8601))),
            ("kept", .object(record.kept.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })),
        ]
    }

    // MARK: - Reading

    private static func record(_ item: Any, number: Int) throws(RecordError) -> TodoRecord {
        guard let object = item as? [String: Any] else {
            throw RecordError(item: number, field: nil, reason: "is not a JSON object")
        }
        let fields = Fields(object: object, number: number)
        let uuidText = try fields.string("uuid")
        guard let uuid = UUID(uuidString: uuidText) else {
            throw fields.error("uuid", "is not a UUID: '\(uuidText)'")
        }
        let rawTitle = try fields.string("title")
        let title: String
        do { title = try Todo.validatedTitle(rawTitle) } catch { throw fields.error("title", error.message) }
        var priority = Priority.medium
        if let name = try fields.optionalString("priority") {
            guard let chosen = Priority(name: name) else { throw fields.error("priority", "is not low, medium or high: '\(name)'") }
            priority = chosen
        }
        let completedAt = try fields.optionalDate("completedAt")
        if let completed = try fields.optionalBool("completed"), completed != (completedAt != nil) {
            throw fields.error("completed", completed ? "is true but \"completedAt\" is missing" : "is false but \"completedAt\" is set")
        }
        return TodoRecord(uuid: uuid.uuidString.lowercased(), title: title, notes: try fields.optionalString("notes"),
                          due: try due(fields), priority: priority, category: try fields.optionalString("category"),
                          tags: try tags(fields), after: try after(fields), repetition: try repetition(fields), completedAt: completedAt,
                          createdAt: try fields.date("createdAt"), updatedAt: try fields.date("updatedAt"),
                          reminders: try reminders(fields), defaultReminders: try fields.optionalBool("defaultReminders") ?? true,
                          snoozedUntil: try fields.optionalDate("snoozedUntil"), kept: try kept(fields),
                          parentUUID: try parent(fields, of: uuid))
    }

    /// The parent's uuid, in lower case; a todo that names itself has none.
    private static func parent(_ fields: Fields, of uuid: UUID) throws(RecordError) -> String? {
        guard let text = try fields.optionalString("parent") else { return nil }
        guard let parent = UUID(uuidString: text) else { throw fields.error("parent", "is not a UUID: '\(text)'") }
        return parent == uuid ? nil : parent.uuidString.lowercased()
    }

    private static func reminders(_ fields: Fields) throws(RecordError) -> [CustomReminder] {
        guard let value = fields.object["reminders"], !(value is NSNull) else { return [] }
        let shape = "is not an array like [{\"before\": \"10m\"}, {\"at\": \"2026-12-24T09:00:00Z\"}]"
        guard let items = value as? [Any] else { throw fields.error("reminders", shape) }
        var reminders: [CustomReminder] = []
        for (offset, item) in items.enumerated() {
            guard let object = item as? [String: Any] else { throw fields.error("reminders", shape) }
            let inner = Fields(object: object, number: fields.number, prefix: "reminders[\(offset)].")
            if let before = try inner.optionalString("before") {
                do { reminders.append(.before(try TimeSpan(parsing: before))) } catch {
                    throw inner.error("before", error.message)
                }
            } else if let at = try inner.optionalDate("at") {
                reminders.append(.at(at))
            } else {
                throw fields.error("reminders", shape)
            }
        }
        return reminders
    }

    /// Nil when the item has no `tags`: an import then keeps the stored todo's.
    private static func tags(_ fields: Fields) throws(RecordError) -> [String]? {
        guard let value = fields.object["tags"], !(value is NSNull) else { return nil }
        guard let tags = value as? [String] else { throw fields.error("tags", "is not an array of texts like [\"money\", \"phone\"]") }
        do {
            for tag in tags { _ = try Tag.validated(tag) }
        } catch {
            throw fields.error("tags", error.message)
        }
        let unique = Tag.unique(tags)
        guard unique.count <= Tag.maximumPerTodo else {
            throw fields.error("tags", "holds \(unique.count) tags; at most \(Tag.maximumPerTodo) are allowed")
        }
        return unique
    }

    /// The uuids of the todos it comes after, lower case; nil when the item has no `after`.
    private static func after(_ fields: Fields) throws(RecordError) -> [String]? {
        guard let value = fields.object["after"], !(value is NSNull) else { return nil }
        guard let texts = value as? [String] else { throw fields.error("after", "is not an array of UUIDs") }
        var uuids: [String] = []
        for text in texts {
            guard let uuid = UUID(uuidString: text) else { throw fields.error("after", "holds '\(text)', which is not a UUID") }
            let lower = uuid.uuidString.lowercased()
            if !uuids.contains(lower) { uuids.append(lower) }
        }
        guard uuids.count <= TodoRecord.maximumBlockers else {
            throw fields.error("after", "holds \(uuids.count) UUIDs; at most \(TodoRecord.maximumBlockers) are allowed")
        }
        return uuids
    }

    private static func kept(_ fields: Fields) throws(RecordError) -> [String: String] {
        guard let value = fields.object["kept"], !(value is NSNull) else { return [:] }
        guard let object = value as? [String: Any], let kept = object as? [String: String] else {
            throw fields.error("kept", "is not an object of texts, by format")
        }
        if let format = kept.first(where: { $0.value.unicodeScalars.contains("\u{0}") })?.key {
            throw fields.error("kept.\(format)", "contains a NUL character (U+0000)")
        }
        return kept
    }

    private static func due(_ fields: Fields) throws(RecordError) -> Due? {
        guard let text = try fields.optionalString("due") else { return nil }
        let allDay = try fields.optionalBool("allDay")
        if let day = LocalDate(iso: text) {
            if allDay == false { throw fields.error("allDay", "is false but \"due\" is a day without a time: '\(text)'") }
            return .allDay(day)
        }
        guard let instant = parseDate(text) else {
            throw fields.error("due", "is not a date: '\(text)' (use 2026-12-24 or 2026-12-24T09:00:00+01:00)")
        }
        if allDay == true { throw fields.error("allDay", "is true but \"due\" has a time: '\(text)'") }
        guard let name = try fields.optionalString("zone") else {
            return .at(instant, zone: offsetZone(text) ?? TimeZone(secondsFromGMT: 0)!)
        }
        guard let zone = TimeZone(identifier: name) else {
            throw fields.error("zone", "is not a time zone this system knows: '\(name)'")
        }
        return .at(instant, zone: zone)
    }

    private static func repetition(_ fields: Fields) throws(RecordError) -> Repetition? {
        guard let value = fields.object["repeat"], !(value is NSNull) else { return nil }
        guard let object = value as? [String: Any] else {
            throw fields.error("repeat", "is not an object like {\"rule\": \"FREQ=WEEKLY\", \"from\": \"due\"}")
        }
        let inner = Fields(object: object, number: fields.number, prefix: "repeat.")
        var rule = try inner.string("rule")
        if rule.uppercased().hasPrefix("RRULE:") { rule = String(rule.dropFirst(6)) }
        guard rule.uppercased().contains("FREQ=") else { throw inner.error("rule", "is not an RRULE (it has no FREQ=): '\(rule)'") }
        var from = RepeatFrom.due
        if let name = try inner.optionalString("from") {
            guard let chosen = RepeatFrom(rawValue: name) else { throw inner.error("from", "is not due or completion: '\(name)'") }
            from = chosen
        }
        var start: SeriesStart?
        if let text = try inner.optionalString("start") {
            guard let parsed = SeriesStart(parsing: text) else {
                throw inner.error("start", "is not a day or a day and time: '\(text)' (like 2027-03-28T02:30)")
            }
            start = parsed
        }
        return Repetition(rrule: rule, from: from, start: start,
                          exceptions: try dates(inner, "except"), additions: try dates(inner, "add"))
    }

    /// `repeat.except` or `repeat.add`: an array of days or days and times, as `start`; none when absent.
    private static func dates(_ fields: Fields, _ key: String) throws(RecordError) -> [SeriesStart] {
        guard let value = fields.object[key], !(value is NSNull) else { return [] }
        guard let texts = value as? [Any] else {
            throw fields.error(key, "is not an array of days or days and times (like [\"2027-03-28T02:30\"])")
        }
        var dates: [SeriesStart] = []
        for text in texts {
            guard let text = text as? String, let date = SeriesStart(parsing: text) else {
                throw fields.error(key, "holds '\(text)', which is not a day or a day and time (like 2027-03-28T02:30)")
            }
            dates.append(date)
        }
        return dates
    }

    /// An ISO 8601 time with its offset: the export's shape, or with fractional seconds
    /// (`.500`) or an offset without its colon (`+0100`, `+01`). Nil for a day or time that does
    /// not exist (February 30, 24:00) or an offset beyond 18 hours: ISO8601DateFormatter moves
    /// those to other days instead (February 30 becoming March 2), so it is not asked.
    static func parseDate(_ text: String) -> Date? {
        if let date = parseInternetDate(text) { return date }
        var bytes = Array(text.utf8)
        guard bytes.count > 19 else { return nil }
        var fraction = 0.0
        if bytes[19] == UInt8(ascii: ".") {
            let digits = bytes[20...].prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
            guard !digits.isEmpty, let value = Double("0." + String(decoding: digits, as: UTF8.self)) else { return nil }
            fraction = value
            bytes.removeSubrange(19..<20 + digits.count)
        }
        // +0100 and +01 as +01:00.
        if bytes.count == 24, bytes[19] != UInt8(ascii: "Z") {
            bytes.insert(UInt8(ascii: ":"), at: 22)
        } else if bytes.count == 22 {
            bytes += Array(":00".utf8)
        }
        return parseInternetDate(String(decoding: bytes, as: UTF8.self))?.addingTimeInterval(fraction)
    }

    private static let epoch = LocalDate(year: 1970, month: 1, day: 1)!

    /// `2026-12-24T09:00:00+01:00` or `...Z`, the shape every export writes (`+00:53:28` for an
    /// offset with seconds), read byte by byte:
    /// a formatter costs more to make than the rest of an item's reading, and an import of
    /// 10,000 todos reads 30,000 dates. Nil for any other shape, which the formatter then reads.
    static func parseInternetDate(_ text: String) -> Date? {
        var utf8 = text.utf8.makeIterator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(28)
        while let byte = utf8.next() {
            bytes.append(byte)
            if bytes.count > 28 { return nil }
        }
        guard bytes.count == 20 || bytes.count == 25 || bytes.count == 28 else { return nil }
        func number(_ start: Int, _ count: Int) -> Int? {
            var value = 0
            for byte in bytes[start..<start + count] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
              bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
              let year = number(0, 4), let month = number(5, 2), let dayOfMonth = number(8, 2),
              let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
              let day = LocalDate(year: year, month: month, day: dayOfMonth), hour < 24, minute < 60, second < 60 else {
            return nil
        }
        var offset = 0
        if bytes.count == 20 {
            guard bytes[19] == UInt8(ascii: "Z") else { return nil }
        } else {
            guard bytes[19] == UInt8(ascii: "+") || bytes[19] == UInt8(ascii: "-"), bytes[22] == UInt8(ascii: ":"),
                  let hours = number(20, 2), let minutes = number(23, 2), minutes < 60 else { return nil }
            var offsetSeconds = 0
            if bytes.count == 28 {
                guard bytes[25] == UInt8(ascii: ":"), let parsed = number(26, 2), parsed < 60 else { return nil }
                offsetSeconds = parsed
            }
            let magnitude = hours * 3600 + minutes * 60 + offsetSeconds
            guard magnitude <= 18 * 3600 else { return nil }
            offset = (bytes[19] == UInt8(ascii: "-") ? -1 : 1) * magnitude
        }
        let seconds = epoch.days(until: day) * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// The fixed zone of a time's `+01:00` suffix, for a due given without a zone's name.
    private static func offsetZone(_ text: String) -> TimeZone? {
        // What follows the seconds and their fraction: Z, +01:00, +00:53:28, +0100 or +01.
        let suffix = text.dropFirst(19).drop { $0 == "." || $0.isASCII && $0.isNumber }
        if suffix == "Z" { return TimeZone(secondsFromGMT: 0) }
        let digits = suffix.dropFirst().filter { $0 != ":" }
        guard let sign = suffix.first, sign == "+" || sign == "-", [2, 4, 6].contains(digits.count),
              let hours = Int(digits.prefix(2)), let minutes = Int(digits.dropFirst(2).prefix(2).isEmpty ? "0" : digits.dropFirst(2).prefix(2)),
              let seconds = Int(digits.dropFirst(4).isEmpty ? "0" : digits.dropFirst(4)) else {
            return nil
        }
        return TimeZone(secondsFromGMT: (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60 + seconds))
    }

    /// One item's fields, read with errors that name the item and the field.
    private struct Fields {
        let object: [String: Any]
        let number: Int
        var prefix = ""

        func error(_ field: String, _ reason: String) -> RecordError {
            RecordError(item: number, field: prefix + field, reason: reason)
        }

        func optionalString(_ field: String) throws(RecordError) -> String? {
            guard let value = object[field], !(value is NSNull) else { return nil }
            guard let text = value as? String else { throw error(field, "is not text") }
            // Stored as a C string, the text would end at the NUL: refused, not cut.
            if text.unicodeScalars.contains("\u{0}") { throw error(field, "contains a NUL character (U+0000)") }
            return text
        }

        func string(_ field: String) throws(RecordError) -> String {
            guard let text = try optionalString(field) else { throw error(field, "is missing") }
            return text
        }

        func optionalBool(_ field: String) throws(RecordError) -> Bool? {
            guard let value = object[field], !(value is NSNull) else { return nil }
            // 1 and 0 read as Bool too; JSON's true and false alone are of the boolean class.
            guard let flag = value as? Bool,
                  type(of: value as AnyObject) == type(of: NSNumber(value: true) as AnyObject) else {
                throw error(field, "is not true or false")
            }
            return flag
        }

        func optionalDate(_ field: String) throws(RecordError) -> Date? {
            guard let text = try optionalString(field) else { return nil }
            guard let date = NudgeJSON.parseDate(text) else {
                throw error(field, "is not a date: '\(text)' (use 2026-12-24T09:00:00+01:00)")
            }
            return date
        }

        func date(_ field: String) throws(RecordError) -> Date {
            guard let date = try optionalDate(field) else { throw error(field, "is missing") }
            return date
        }
    }
}
