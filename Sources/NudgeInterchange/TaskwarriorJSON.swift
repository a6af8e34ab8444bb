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
