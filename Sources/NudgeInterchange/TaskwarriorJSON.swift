import Foundation
import NudgeCore

/// Taskwarrior 2.6's `task export` and `task import` JSON: an array of task objects, or (as
/// older versions and `json.array=off` write) one object a line.
///
/// Mapping: `description` is the title, the first annotation the notes, `project` the category,
/// `tags` the tags (one that is no tag word, like `a.b`, or a second spelling of one, is kept and
/// written back after Nudge's), `priority` H/M/L high/medium/low, `due` the due (a due at local midnight of `options.zone`
/// is an all-day due, as `task add ... due:2026-12-24` sets it), `entry`/`modified`/`end` the
/// created, updated and completed times, `recur` the repeat rule. Everything else a task holds
/// (further annotations, wait, scheduled, until, the recurrence bookkeeping
/// `parent`/`mask`/`imask`/`rtype`, user-defined attributes, a missing priority, a status Nudge
/// has no word for) is kept in `kept["taskwarrior"]` as a JSON object and written back on
/// export, so a task comes back from Nudge as it went in. `id` and `urgency` are Taskwarrior's
/// own computation and are not kept.
///
/// Statuses: `pending` and `waiting` are pending todos; `completed` is a completed todo;
/// `deleted` is imported as a completed todo (Nudge has no bin) and exported as deleted again;
/// a recurring task's template (`recurring`) and its instances are one repeating todo (see
/// TaskwarriorJSON+Recurrence.swift), and a repeating todo goes out as a template.
///
/// Repeat rules Taskwarrior cannot say (`FREQ=WEEKLY;BYDAY=MO,TH`) are exported as the nearest
/// `recur` (`weekly`) with the exact rule in a `nudgerule` attribute, which Taskwarrior keeps
/// and an import reads back; `nudgefrom` likewise says a series repeats from completion.
/// A subtask's parent goes in a `nudgeparent` attribute (its uuid), not in `parent`, which is
/// Taskwarrior's recurrence template; a task without one has no parent.
/// `depends` (an array of uuids, or as before 2.6 a comma-separated text) is the todos it comes
/// after, and is written as an array.
public enum TaskwarriorJSON {
    static let keptKey = "taskwarrior"
    static let parentKey = "nudgeparent"

    // MARK: - Writing

    /// One task object a line inside a JSON array, as `task export` writes it.
    public static func encode(_ records: [TodoRecord], options: InterchangeOptions) -> String {
        // The uuids the file gives tasks, which an instance Nudge makes must not take.
        var taken = Set(records.map(\.uuid))
        for record in records where record.kept[keptKey]?.contains(instancesKey) == true {
            for instance in keptObject(record)[instancesKey] as? [[String: Any]] ?? [] {
                if let uuid = (instance["uuid"] as? String).flatMap(UUID.init(uuidString:)) { taken.insert(uuid.uuidString.lowercased()) }
            }
        }
        var out = "["
        for (index, record) in records.enumerated() {
            out += index == 0 ? "\n" : ",\n"
            for (number, task) in tasks(record, options: options, taken: taken).enumerated() {
                if number > 0 { out += ",\n" }
                out += json(task).text(.compact)
            }
        }
        out += records.isEmpty ? "]\n" : "\n]\n"
        return out
    }

    /// `value` as JSON, the keys of objects sorted: written on one line, it is
    /// JSONSerialization's output, made without its cost, which dominated a large export.
    static func json(_ value: Any) -> JSON {
        switch value {
        case let text as String:
            return .string(text)
        case let object as [String: Any]:
            return .object(object.sorted { $0.key < $1.key }.map { ($0.key, json($0.value)) })
        case let array as [Any]:
            return .array(array.map(json))
        case let number as NSNumber:
            if type(of: number as AnyObject) == type(of: NSNumber(value: true) as AnyObject) {
                return .bool(number.boolValue)
            } else if let integer = Int64(exactly: number.doubleValue), abs(integer) < 1 << 53 {
                return .int(integer)
            } else {
                return .double(number.doubleValue)
            }
        default:
            return .null
        }
    }

    static func task(_ record: TodoRecord, options: InterchangeOptions) -> [String: Any] {
        var kept = keptObject(record)
        var task: [String: Any] = [:]
        let series = kept.removeValue(forKey: seriesDueKey) != nil
        for key in [instancesKey, templateModifiedKey, seriesModifiedKey, seriesTagsKey] { kept.removeValue(forKey: key) }
        let hints = (noEnd: kept.removeValue(forKey: "nudgeNoEnd") != nil,
                     noPriority: kept.removeValue(forKey: "nudgeNoPriority") != nil,
                     status: kept.removeValue(forKey: "status") as? String,
                     recur: kept.removeValue(forKey: "recur") as? String,
                     annotations: kept.removeValue(forKey: "annotations") as? [[String: Any]])
        for (key, value) in kept { task[key] = value }
        task["uuid"] = record.uuid
        task["description"] = record.title
        task["entry"] = stamp(record.createdAt)
        task["modified"] = stamp(record.updatedAt)
        if let category = record.category { task["project"] = category }
        if let parent = record.parentUUID { task[parentKey] = parent }
        if let after = record.after {
            task.removeValue(forKey: "depends")
            if !after.isEmpty { task["depends"] = after }
        }
        if let tags = record.tags, !tags.isEmpty {
            // Kept words (not tag words, or from an import before tags) go after Nudge's own.
            var seen = Set(tags)
            task["tags"] = tags + (task["tags"] as? [String] ?? []).filter { seen.insert($0).inserted }
        }
        if record.priority != .medium || !hints.noPriority {
            task["priority"] = switch record.priority {
            case .high: "H"
            case .medium: "M"
            case .low: "L"
            }
        }
        switch record.due {
        case nil: break
        case .allDay(let day)?: task["due"] = stamp(day.start(in: .nudge(zone: options.zone)))
        case .at(let instant, _)?: task["due"] = stamp(instant)
        }
        if let completed = record.completedAt {
            // A series ended goes as Taskwarrior ends one, deleted; a template closed by an
            // import before series were read whole stays a template.
            let status = switch hints.status {
            case "deleted"?: "deleted"
            case "recurring"?: series ? "deleted" : "recurring"
            default: "completed"
            }
            task["status"] = status
            if status != "recurring" && !hints.noEnd { task["end"] = stamp(completed) }
        } else if hints.status == "waiting" {
            task["status"] = "waiting"
        } else {
            // Taskwarrior makes the instances of a template itself; an instance read in alone
            // (before series were read whole) stays one.
            let template = (hints.status == "recurring" || record.repetition != nil) && kept["parent"] == nil
            task["status"] = template ? "recurring" : "pending"
        }
        if let repetition = record.repetition {
            let nearest = recur(for: repetition.rrule)
            if let text = hints.recur, let kept = rrule(recur: text), kept == nearest.rrule {
                task["recur"] = text
            } else {
                task["recur"] = nearest.text
            }
            if nearest.rrule != repetition.rrule.uppercased() { task["nudgerule"] = repetition.rrule }
            if repetition.from == .completion { task["nudgefrom"] = "completion" }
        } else if let text = hints.recur {
            task["recur"] = text
        }
        var annotations = hints.annotations ?? []
        if let notes = record.notes {
            if annotations.isEmpty {
                annotations = [["entry": stamp(record.updatedAt), "description": notes]]
            } else {
                annotations[0]["description"] = notes
                if annotations[0]["entry"] == nil { annotations[0]["entry"] = stamp(record.updatedAt) }
            }
        } else if let first = annotations.first, first["description"] == nil {
            annotations.removeFirst()
        }
        if !annotations.isEmpty { task["annotations"] = annotations }
        return task
    }

    static func keptObject(_ record: TodoRecord) -> [String: Any] {
        guard let text = record.kept[keptKey],
              let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else { return [:] }
        return object
    }

    // MARK: - Reading

    public static func decode(_ data: Data, options: InterchangeOptions) throws(InterchangeError) -> DecodedFile {
        let text = data.drop { $0 == 0xEF || $0 == 0xBB || $0 == 0xBF || $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        if text.first == UInt8(ascii: "[") {
            let parsed: Any
            do {
                parsed = try JSONSerialization.jsonObject(with: Data(text))
            } catch {
                throw InterchangeError(reason: "the file is not JSON (\(error.localizedDescription))")
            }
            guard let items = parsed as? [Any] else {
                throw InterchangeError(reason: "the file is not a JSON array of tasks, as 'task export' writes")
            }
            return withSeries(items.enumerated().map { offset, item in
                Entry(object: item as? [String: Any], place: .item, number: offset + 1,
                      result: result { () throws(RecordError) in
                          try record(item, number: offset + 1, place: .item, options: options)
                      })
            }, options: options)
        }
        // One task object a line, as `task export` writes with json.array=off.
        var entries: [Entry] = []
        for (offset, line) in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            var line = line
            while let last = line.last, last == UInt8(ascii: ",") || last == 0x0D || last == 0x20 { line = line.dropLast() }
            guard line.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { continue }
            let number = offset + 1
            let object = try? JSONSerialization.jsonObject(with: Data(line))
            entries.append(Entry(object: object as? [String: Any], place: .line, number: number,
                                 result: result { () throws(RecordError) in
                                     guard let object else {
                                         throw RecordError(item: number, place: .line, field: nil, reason: "is not a JSON object")
                                     }
                                     return try record(object, number: number, place: .line, options: options)
                                 }))
        }
        return withSeries(entries, options: options)
    }

    /// Why a pending task's `recur` does not make its todo repeat, or nil when it does (or it
    /// has none): it stays with the todo for the way back, but nothing repeats here.
    static func unfollowedRecur(_ item: Any, _ record: TodoRecord) -> String? {
        guard let recur = (item as? [String: Any])?["recur"] as? String, record.completedAt == nil,
              record.repetition == nil else { return nil }
        let why = rrule(recur: recur) == nil ? "is not a repeat nudge can follow"
            : record.due == nil ? "has no due to repeat from" : "repeats by hours, and the due is a day (at midnight)"
        return "\"recur\" '\(recur)' \(why): imported without repeating (kept for export)"
    }

    static func result(_ body: () throws(RecordError) -> TodoRecord) -> Result<TodoRecord, RecordError> {
        do { return .success(try body()) } catch { return .failure(error) }
    }

    /// Attributes read into a record's own fields; all others are kept.
    private static let mapped: Set<String> = ["uuid", "description", "entry", "modified", "end", "due", "project",
                                              "priority", "status", "annotations", "recur", "id", "urgency",
                                              "nudgerule", "nudgefrom", "tags", "depends", parentKey]

    static func record(_ item: Any, number: Int, place: RecordError.Place, options: InterchangeOptions) throws(RecordError) -> TodoRecord {
        func error(_ field: String?, _ reason: String) -> RecordError {
            RecordError(item: number, place: place, field: field, reason: reason)
        }
        guard let object = item as? [String: Any] else { throw error(nil, "is not a JSON object") }
        func string(_ field: String) throws(RecordError) -> String? {
            guard let value = object[field], !(value is NSNull) else { return nil }
            guard let text = value as? String else { throw error(field, "is not text") }
            return text
        }
        func date(_ field: String) throws(RecordError) -> Date? {
            guard let text = try string(field) else { return nil }
            guard let date = parseDate(text) else { throw error(field, "is not a date like 20261130T120000Z: '\(text)'") }
            return date
        }
        guard let description = try string("description") else { throw error("description", "is missing") }
        let title: String
        do { title = try Todo.validatedTitle(description) } catch let invalid { throw error("description", invalid.message) }
        let uuid: String
        if let uuidText = try string("uuid") {
            guard let parsed = UUID(uuidString: uuidText) else { throw error("uuid", "is not a UUID: '\(uuidText)'") }
            uuid = parsed.uuidString.lowercased()
        } else {
            // Written by hand or by another tool. `task import` gives such a task a new uuid;
            // named by its description and entry, it is the same todo at every import.
            uuid = NameBasedUUID.url("urn:x-nudge:taskwarrior:" + (try string("entry") ?? "") + ":" + description)
        }

        var parentUUID: String?
        if let text = try string(parentKey) {
            guard let parsed = UUID(uuidString: text) else { throw error(parentKey, "is not a UUID: '\(text)'") }
            // A task that names itself has no parent.
            parentUUID = parsed.uuidString.lowercased() == uuid ? nil : parsed.uuidString.lowercased()
        }

        var after: [String] = []
        if let value = object["depends"], !(value is NSNull) {
            let texts: [String]
            if let array = value as? [String] {
                texts = array
            } else if let text = value as? String {
                texts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            } else {
                throw error("depends", "is not an array of UUIDs")
            }
            for text in texts {
                guard let parsed = UUID(uuidString: text) else { throw error("depends", "holds '\(text)', which is not a UUID") }
                let lower = parsed.uuidString.lowercased()
                if lower != uuid && !after.contains(lower) { after.append(lower) }
            }
            guard after.count <= TodoRecord.maximumBlockers else {
                throw error("depends", "holds \(after.count) UUIDs; at most \(TodoRecord.maximumBlockers) are allowed")
            }
        }

        var kept: [String: Any] = [:]
        for (key, value) in object where !mapped.contains(key) { kept[key] = value }

        let entry = try date("entry") ?? options.now
        let modified = try date("modified") ?? entry
        let end = try date("end")
        let status = try string("status") ?? "pending"
        var completedAt: Date?
        switch status {
        case "pending": break
        case "waiting", "recurring": kept["status"] = status
        case "completed", "deleted":
            if status != "completed" { kept["status"] = status }
            completedAt = end ?? modified
            if end == nil { kept["nudgeNoEnd"] = true }
        default: throw error("status", "is not pending, waiting, completed, deleted or recurring: '\(status)'")
        }

        var priority = Priority.medium
        switch try string("priority") {
        case nil: kept["nudgeNoPriority"] = true
        case "H": priority = .high
        case "M": priority = .medium
        case "L": priority = .low
        case let other?:
            kept["priority"] = other
            kept["nudgeNoPriority"] = true
        }

        var due: Due?
        if let instant = try date("due") {
            let clock = WallClock(zone: options.zone)
            let (hour, minute, second) = clock.time(of: instant)
            due = hour == 0 && minute == 0 && second == 0 ? .allDay(clock.day(of: instant)) : .at(instant, zone: options.zone)
        }

        var notes: String?
        if let value = object["annotations"], !(value is NSNull) {
            guard var annotations = value as? [[String: Any]] else { throw error("annotations", "is not an array of objects") }
            if let first = annotations.first, let text = first["description"] as? String {
                notes = text
                annotations[0].removeValue(forKey: "description")
            } else if !annotations.isEmpty {
                // The notes' place, so that a first annotation without a description is kept, not
                // taken for that place on the way out.
                annotations.insert([:], at: 0)
            }
            if !annotations.isEmpty { kept["annotations"] = annotations }
        }

        // Taskwarrior's tags are the task's whole set: a task without is a todo without.
        var tags: [String] = []
        if let value = object["tags"], !(value is NSNull) {
            if let words = value as? [String] {
                let split = InterchangeTags.split(words)
                tags = split.tags
                if !split.others.isEmpty { kept["tags"] = split.others }
            } else {
                kept["tags"] = value
            }
        }

        var repetition: Repetition?
        if let text = try string("recur") {
            kept["recur"] = text
            // A closed task does not repeat in Nudge; a pending one or a template does.
            // An hourly rule needs a time of day: a midnight due reads as all-day.
            if completedAt == nil, let due, var rule = rrule(recur: text),
               !(rule.hasPrefix("FREQ=HOURLY") && due.isAllDay) {
                if let exact = try string("nudgerule"), recur(for: exact).rrule == rule { rule = exact }
                let from: RepeatFrom = try string("nudgefrom") == "completion" ? .completion : .due
                repetition = Repetition(rrule: rule, from: from)
            } else {
                for key in ["nudgerule", "nudgefrom"] { if let value = object[key] { kept[key] = value } }
            }
        }

        var record = TodoRecord(uuid: uuid, title: title, notes: notes, due: due, priority: priority,
                                category: try string("project"), tags: tags, after: after, repetition: repetition, completedAt: completedAt,
                                createdAt: entry, updatedAt: modified, parentUUID: parentUUID)
        if !kept.isEmpty,
           let data = try? JSONSerialization.data(withJSONObject: kept, options: [.sortedKeys, .withoutEscapingSlashes]) {
            record.kept[keptKey] = String(decoding: data, as: UTF8.self)
        }
        return record
    }

    // MARK: - Dates

    private static let epoch = LocalDate(year: 1970, month: 1, day: 1)!
    private static let utc = WallClock(zone: TimeZone(secondsFromGMT: 0)!)

    /// `20261130T120000Z`, Taskwarrior's UTC form.
    static func stamp(_ date: Date) -> String {
        let (day, hour, minute) = utc.dayAndTime(of: date)
        let second = utc.time(of: date).second
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
        let year = String(day.year)
        return String(repeating: "0", count: max(0, 4 - year.count)) + year + two(day.month) + two(day.day)
            + "T" + two(hour) + two(minute) + two(second) + "Z"
    }

    /// `20261130T120000Z`, or ISO 8601 with dashes and an offset, which Taskwarrior also reads.
    static func parseDate(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        if bytes.count == 16, bytes[8] == UInt8(ascii: "T"), bytes[15] == UInt8(ascii: "Z") {
            func number(_ range: Range<Int>) -> Int? {
                var value = 0
                for byte in bytes[range] {
                    guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                    value = value * 10 + Int(byte - UInt8(ascii: "0"))
                }
                return value
            }
            guard let year = number(0..<4), let month = number(4..<6), let dayNumber = number(6..<8),
                  let hour = number(9..<11), let minute = number(11..<13), let second = number(13..<15),
                  let day = LocalDate(year: year, month: month, day: dayNumber), hour < 24, minute < 60, second < 61 else {
                return nil
            }
            return Date(timeIntervalSince1970: TimeInterval(epoch.days(until: day) * 86_400 + hour * 3600 + minute * 60 + second))
        }
        return NudgeJSON.parseDate(text)
    }

    // MARK: - Recurrence

    /// The RRULE a Taskwarrior `recur` value means, or nil for one Nudge cannot repeat by
    /// (minutes, seconds).
    static func rrule(recur text: String) -> String? {
        let text = text.lowercased()
        func rule(_ freq: String, _ interval: Int) -> String {
            interval == 1 ? "FREQ=\(freq)" : "FREQ=\(freq);INTERVAL=\(interval)"
        }
        switch text {
        case "daily", "day": return rule("DAILY", 1)
        case "weekdays": return "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"
        case "weekly", "sennight": return rule("WEEKLY", 1)
        case "biweekly", "fortnight": return rule("WEEKLY", 2)
        case "monthly": return rule("MONTHLY", 1)
        case "bimonthly": return rule("MONTHLY", 2)
        case "quarterly": return rule("MONTHLY", 3)
        case "semiannual": return rule("MONTHLY", 6)
        case "yearly", "annual": return rule("YEARLY", 1)
        case "biannual", "biyearly": return rule("YEARLY", 2)
        default: break
        }
        var body = Substring(text)
        let iso = body.hasPrefix("p")
        if iso { body = body.dropFirst() }
        // ISO 8601's time part (PT2H): its M is minutes, which nudge does not repeat by.
        let isoTime = iso && body.hasPrefix("t")
        if isoTime { body = body.dropFirst() }
        let digits = body.prefix { $0.isASCII && $0.isNumber }
        let count = digits.isEmpty ? 1 : Int(digits) ?? 0
        guard count > 0 else { return nil }
        // Taskwarrior reads "3 days" as it reads "3days".
        let unit = body.dropFirst(digits.count).drop { $0 == " " }
        if isoTime { return unit == "h" ? rule("HOURLY", count) : nil }
        switch unit {
        case "h", "hr", "hrs", "hour", "hours": return rule("HOURLY", count)
        case "d", "day", "days": return rule("DAILY", count)
        case "w", "wk", "wks", "week", "weeks": return rule("WEEKLY", count)
        case "mo", "mth", "mths", "mnths", "month", "months": return rule("MONTHLY", count)
        case "m" where iso: return rule("MONTHLY", count)
        case "q", "qtr", "qtrs", "qrtr", "qrtrs", "quarter", "quarters":
            let (months, overflow) = count.multipliedReportingOverflow(by: 3)
            return overflow ? nil : rule("MONTHLY", months)
        case "y", "yr", "yrs", "year", "years": return rule("YEARLY", count)
        default: return nil
        }
    }

    /// The nearest `recur` for an RRULE, and the rule that `recur` means: equal to the given
    /// rule (upper-cased) when Taskwarrior says it exactly.
    static func recur(for rrule: String) -> (text: String, rrule: String) {
        var freq = "DAILY", interval = 1, byDay: String?
        for part in rrule.uppercased().split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            switch pair[0] {
            case "FREQ": freq = String(pair[1])
            case "INTERVAL": interval = max(1, Int(pair[1]) ?? 1)
            case "BYDAY": byDay = String(pair[1])
            default: break
            }
        }
        // rrule(recur:) reads each text made here: a constant, or a count of at least 1 and a unit.
        if freq == "WEEKLY", interval == 1, byDay == "MO,TU,WE,TH,FR" { return ("weekdays", Self.rrule(recur: "weekdays")!) }
        let text = switch (freq, interval) {
        case ("WEEKLY", 1): "weekly"
        case ("WEEKLY", _): "\(interval)w"
        case ("MONTHLY", 1): "monthly"
        case ("MONTHLY", _): "\(interval)mo"
        case ("YEARLY", 1): "yearly"
        case ("YEARLY", _): "\(interval)y"
        case ("HOURLY", _): "\(interval)h"
        case ("DAILY", 1): "daily"
        default: "\(interval)d"
        }
        return (text, Self.rrule(recur: text)!)
    }
}

extension TaskwarriorJSON {
    /// Taskwarrior's export by its first bytes: task objects have `description` with `entry`
    /// or `status`, Nudge's own have `title`. Reads only the head, not the whole file.
    static func looksLikeTaskwarrior(_ data: Data) -> Bool {
        let head = String(decoding: data.prefix(4096), as: UTF8.self)
        // A task written by hand may lack its entry, or its status.
        return head.contains("\"description\"") && (head.contains("\"entry\"") || head.contains("\"status\""))
            && !head.contains("\"title\"")
    }
}
