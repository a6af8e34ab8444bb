import Foundation
import NudgeCore

/// Taskwarrior 2.6 keeps a recurring task as a template (status `recurring`, its `recur`, the
/// first `due`, and a `mask` with one character for each instance made: `-` pending, `+`
/// completed, `X` deleted, `W` waiting) and instances (`parent` the template's uuid, `imask`
/// their index), which `task` makes at each report, up to the first due after now.
///
/// Nudge keeps a series as one repeating todo: the template's uuid and fields, due at the
/// earliest pending instance (after the last instance made when none is pending). The
/// instances are kept with it, not imported as todos, and go back with the template; the
/// occurrences done in Nudge go back completed and marked so in the mask, so that `task`
/// makes the next instance where Nudge stands. Instances whose template the file lacks (a
/// filtered export) are one series by `parent` too, and go back as instances only.
extension TaskwarriorJSON {
    /// The template's own `due`, kept beside the todo's, which is where the series stands.
    static let seriesDueKey = "nudgeSeriesDue"
    /// The instance objects, as read.
    static let instancesKey = "nudgeInstances"
    /// The template's own `modified`, and the series' (its newest task's) that the todo took,
    /// when they differ: an instance changed alone leaves its template as it was.
    static let templateModifiedKey = "nudgeTemplateModified", seriesModifiedKey = "nudgeSeriesModified"
    /// The series' tags as read: changed in Nudge, they go to its open instances too.
    static let seriesTagsKey = "nudgeSeriesTags"
    /// Steps walked along a series to find where it stands; more is a hostile file.
    static let stepLimit = 20_000

    struct Entry {
        var object: [String: Any]?
        var place: RecordError.Place
        var number: Int
        var result: Result<TodoRecord, RecordError>
    }

    /// The entries, a task whose uuid an earlier one gave made a record error: which of the two
    /// is the template or an instance cannot be told, and a series would be made of both. (Tasks
    /// without a uuid, written by hand, are named by their text: the same text is the same task.)
    static func withoutRepeatedUUIDs(_ entries: [Entry]) -> [Entry] {
        var first: [String: Entry] = [:]
        return entries.map { entry in
            guard case .success(let record) = entry.result, entry.object?["uuid"] != nil else { return entry }
            guard let earlier = first[record.uuid] else {
                first[record.uuid] = entry
                return entry
            }
            var repeated = entry
            repeated.result = .failure(RecordError(
                item: entry.number, place: entry.place, field: "uuid",
                reason: "is the uuid of \(earlier.place.rawValue) \(earlier.number) too; a task is given once"))
            return repeated
        }
    }

    /// The records of a file, each series made one todo at its template (or at its first
    /// instance without one), with the warnings of what does not repeat here.
    static func withSeries(_ entries: [Entry], options: InterchangeOptions) -> DecodedFile {
        let entries = withoutRepeatedUUIDs(entries)
        // A task with a `recur` that others name as their parent is their template, whatever its
        // status: Nudge writes the series back as a template, which must read as the same series.
        let parents = Set(entries.compactMap { parentUUID($0.object) })
        func isTemplate(_ object: [String: Any], _ record: TodoRecord) -> Bool {
            Self.isTemplate(object) || (object["parent"] == nil && object["recur"] is String && parents.contains(record.uuid))
        }
        var templates = Set<String>(), plainTasks = Set<String>()
        var instances: [String: [(object: [String: Any], record: TodoRecord)]] = [:]
        for entry in entries {
            guard case .success(let record) = entry.result, let object = entry.object else { continue }
            if let parent = parentUUID(object) {
                instances[parent, default: []].append((object, record))
            } else if isTemplate(object, record) {
                templates.insert(record.uuid)
            } else {
                plainTasks.insert(record.uuid)
            }
        }
        var items: [Result<TodoRecord, RecordError>] = []
        var places: [(place: RecordError.Place, number: Int)] = []
        var warnings: [String] = []
        var written = Set<String>()
        for entry in entries {
            var item = entry.result
            if case .success(let record) = entry.result, let object = entry.object {
                // A parent that is a plain task in the file (no `recur` to step) makes no series:
                // its tasks stay todos of their own, as they would be without one another.
                if let parent = parentUUID(object), !plainTasks.contains(parent) {
                    guard !templates.contains(parent), written.insert(parent).inserted else { continue }
                    item = .success(series(template: nil, instances: instances[parent] ?? [], parent: parent, options: options)
                        ?? record)
                } else if isTemplate(object, record), instances[record.uuid] != nil || !(object["mask"] as? String ?? "").isEmpty {
                    // A template with no instance yet is a todo repeating from its due.
                    item = .success(series(template: (object, record), instances: instances[record.uuid] ?? [],
                                           parent: record.uuid, options: options) ?? record)
                }
            }
            items.append(item)
            places.append((entry.place, entry.number))
            if case .success(let record) = item, let object = entry.object, let warning = unfollowedRecur(object, record) {
                warnings.append("\(entry.place.rawValue) \(entry.number): " + warning)
            }
        }
        var file = DecodedFile(items: items, places: places)
        file.warnings = warnings
        return file
    }

    static func parentUUID(_ object: [String: Any]?) -> String? {
        guard let text = object?["parent"] as? String, let uuid = UUID(uuidString: text) else { return nil }
        return uuid.uuidString.lowercased()
    }

    /// A template, also one Taskwarrior deleted when its series ended. Without a `recur` (a mask
    /// alone, or a hand-written `status:recurring`) there is no series to step, and the task is a
    /// plain one keeping its status and mask.
    static func isTemplate(_ object: [String: Any]) -> Bool {
        object["parent"] == nil && object["recur"] is String && (object["status"] as? String == "recurring" || object["mask"] != nil)
    }

    /// An instance's place in its series.
    static func imask(_ object: [String: Any]) -> Int? {
        let index = switch object["imask"] {
        case let number as NSNumber: Int(exactly: number.doubleValue)
        case let text as String: Int(text)
        default: nil as Int?
        }
        guard let index, (0...1_000_000).contains(index) else { return nil }
        return index
    }

    /// Instances by their place in the series, then their due; as they came when those are equal.
    static func inSeriesOrder<T>(_ items: [T], object: (T) -> [String: Any]) -> [T] {
        items.enumerated().map { (key: (imask(object($1)) ?? 0, dueInstant(object($1)) ?? .distantPast, $0), item: $1) }
            .sorted { $0.key < $1.key }.map(\.item)
    }

    static func dueInstant(_ object: [String: Any]) -> Date? {
        (object["due"] as? String).flatMap(parseDate)
    }

    static func isPending(_ object: [String: Any]) -> Bool {
        let status = object["status"] as? String ?? "pending"
        return status == "pending" || status == "waiting"
    }

    /// The one todo of a series; nil when there is nothing to make it of.
    static func series(template: (object: [String: Any], record: TodoRecord)?,
                       instances: [(object: [String: Any], record: TodoRecord)], parent: String,
                       options: InterchangeOptions) -> TodoRecord? {
        let ordered = inSeriesOrder(instances) { $0.object }
        let earliest = ordered.filter { isPending($0.object) }
            .compactMap { item in dueInstant(item.object).map { (item: item, due: $0) } }
            .min { $0.due < $1.due }
        guard var record = template?.record ?? earliest?.item.record ?? ordered.last?.record else { return nil }
        record.uuid = parent
        var kept: [String: Any]
        if let template {
            kept = keptObject(record)
            kept[seriesDueKey] = template.object["due"] as? String ?? ""
            if let newest = ordered.map(\.record.updatedAt).max(), newest > record.updatedAt,
               let modified = template.object["modified"] as? String {
                kept[templateModifiedKey] = modified
                kept[seriesModifiedKey] = stamp(newest)
                record.updatedAt = newest
            }
        } else {
            // What only an instance holds (its imask) is not the series'; it goes back as it is.
            kept = [:]
            record.updatedAt = ordered.map(\.record.updatedAt).max() ?? record.updatedAt
            record.createdAt = ordered.map(\.record.createdAt).min() ?? record.createdAt
        }
        kept[instancesKey] = ordered.map { item in item.object.filter { $0.key != "id" && $0.key != "urgency" } }
        kept[seriesTagsKey] = record.tags ?? []

        // A template without a due has no series to stand in (Taskwarrior needs one to recur):
        // the todo is the template as it is, and its instances go back unchanged.
        if let template, template.record.completedAt == nil, template.record.due != nil {
            let hourly = (template.object["recur"] as? String).flatMap(rrule(recur:))?.hasPrefix("FREQ=HOURLY") == true
            let allDay = template.record.due?.isAllDay == true && !hourly
            if let earliest {
                record.due = seriesDue(earliest.due, allDay: allDay, zone: options.zone)
            } else if let next = dueAfterInstances(template: template.object, ordered: ordered.map(\.object), zone: options.zone) {
                record.due = seriesDue(next, allDay: allDay, zone: options.zone)
                if let until = (template.object["until"] as? String).flatMap(parseDate), next > until {
                    // Past its `until` with nothing pending: the series is over.
                    record.completedAt = ordered.compactMap { ($0.object["end"] as? String).flatMap(parseDate) }.max()
                        ?? record.updatedAt
                    record.repetition = nil
                }
            }
            if let rule = record.repetition?.rrule, rule.hasPrefix("FREQ=HOURLY"), record.due?.isAllDay == true {
                record.repetition = nil
            }
        }
        record.kept[keptKey] = keptText(kept)
        return record
    }

    /// Where a series with no pending instance stands: the first due after the instances made.
    private static func dueAfterInstances(template: [String: Any], ordered: [[String: Any]], zone: TimeZone) -> Date? {
        guard let recur = template["recur"] as? String else { return nil }
        var index = 0
        guard var date = dueInstant(template) else { return nil }
        if let last = ordered.last(where: { imask($0) != nil && dueInstant($0) != nil }),
           let lastIndex = imask(last), let lastDue = dueInstant(last) {
            (index, date) = (lastIndex, lastDue)
        }
        let made = max((template["mask"] as? String)?.count ?? 0, ordered.isEmpty ? 0 : index + 1)
        guard made - index <= stepLimit else { return nil }
        for _ in index..<max(index, made) {
            guard let next = nextRecurrence(after: date, recur: recur, zone: zone) else { return nil }
            date = next
        }
        return date
    }

    /// A due of the series: all-day when at local midnight, or when the series' is all-day and
    /// this one an hour off it (Taskwarrior steps days and weeks in seconds, across clock changes).
    private static func seriesDue(_ instant: Date, allDay: Bool, zone: TimeZone) -> Due {
        let clock = WallClock(zone: zone)
        let (hour, minute, second) = clock.time(of: instant)
        if minute == 0 && second == 0 {
            if hour == 0 || (allDay && hour == 1) { return .allDay(clock.day(of: instant)) }
            if allDay && hour == 23 { return .allDay(clock.day(of: instant.addingTimeInterval(3600))) }
        }
        return .at(instant, zone: zone)
    }

    static func keptText(_ kept: [String: Any]) -> String? {
        guard !kept.isEmpty,
              let data = try? JSONSerialization.data(withJSONObject: kept, options: [.sortedKeys, .withoutEscapingSlashes]) else {
            return nil
        }
        return String(decoding: data, as: UTF8.self)
    }

    // MARK: - Writing

    /// The tasks of a record: itself, or for a series its template and instances, the
    /// occurrences Nudge has moved past (or all, when the series ended) completed.
    /// An instance Nudge makes gets a uuid that is not in `taken`.
    static func tasks(_ record: TodoRecord, options: InterchangeOptions, taken: Set<String> = []) -> [[String: Any]] {
        let kept = keptObject(record)
        let isSeries = kept[seriesDueKey] != nil
        guard isSeries || kept[instancesKey] != nil else { return [task(record, options: options)] }
        var instances = kept[instancesKey] as? [[String: Any]] ?? []
        let stamp = Self.stamp(record.updatedAt)
        let due: Date? = switch record.due {
        case .allDay(let day)?: day.start(in: .nudge(zone: options.zone))
        case .at(let instant, _)?: instant
        case nil: nil
        }
        var template = task(record, options: options)
        if let modified = kept[templateModifiedKey] as? String, kept[seriesModifiedKey] as? String == stamp {
            template["modified"] = modified
        }
        let recur = template["recur"] as? String
        // Taskwarrior's days and weeks move by the hour of a clock change; hours do not.
        let slack: TimeInterval = recur.flatMap(rrule(recur:))?.hasPrefix("FREQ=HOURLY") == true ? 0 : 3600
        var mask = Array(kept["mask"] as? String ?? "")

        func close(_ index: Int, as status: String) {
            instances[index]["status"] = status
            instances[index]["end"] = stamp
            instances[index]["modified"] = stamp
            if let place = imask(instances[index]), place < mask.count { mask[place] = status == "deleted" ? "X" : "+" }
        }
        // `task +tag` lists instances: open ones take the todo's tags when they changed here.
        let tagsChanged = (kept[seriesTagsKey] as? [String])?.map(Tag.folded) != (record.tags ?? []).map(Tag.folded)
        for index in instances.indices where isPending(instances[index]) {
            if tagsChanged { instances[index]["tags"] = template["tags"] }
            if record.completedAt != nil {
                close(index, as: "completed")
            } else if let due, let instanceDue = dueInstant(instances[index]), instanceDue < due.addingTimeInterval(-slack) {
                close(index, as: "completed")
            }
        }
        guard isSeries else { return instances }

        let seriesDue = kept[seriesDueKey] as? String
        if record.completedAt != nil || due == nil {
            if let seriesDue, !seriesDue.isEmpty { template["due"] = seriesDue }
            if !mask.isEmpty { template["mask"] = String(mask) }
            return [template] + instances
        }
        guard let due else { return [template] + instances }
        var place: Int
        if let recur, recur == kept["recur"] as? String, let seriesDue, let first = parseDate(seriesDue),
           let found = self.place(of: due, slack: slack, instances: instances, first: first, recur: recur, zone: options.zone) {
            place = found
            template["due"] = seriesDue
            for index in 0..<place {
                if index >= mask.count {
                    mask.append("+")
                } else if mask[index] == "-" || mask[index] == "W" {
                    mask[index] = "+"
                }
            }
        } else {
            // A new rule, or a due off Taskwarrior's steps: the series starts again from the due.
            place = 0
            mask = []
            for index in instances.indices where isPending(instances[index]) { close(index, as: "deleted") }
        }
        if !instances.contains(where: { isPending($0) && imask($0) == place }) {
            // Taskwarrior makes an instance only once the one before is due; Nudge may be ahead.
            var instance = template
            instance.removeValue(forKey: "mask")
            var name = "urn:x-nudge:taskwarrior:\(record.uuid):\(place)"
            while taken.contains(NameBasedUUID.url(name)) { name += "+" }
            instance["uuid"] = NameBasedUUID.url(name)
            instance["status"] = "pending"
            instance["parent"] = record.uuid
            instance["imask"] = place
            instance["due"] = Self.stamp(due)
            instance["entry"] = stamp
            instances.append(instance)
            if place >= mask.count { mask += Array(repeating: "+", count: place - mask.count) + ["-"] } else { mask[place] = "-" }
        }
        template["mask"] = String(mask)
        // In the order a read gives them, so that the file reads back and is written the same.
        return [template] + inSeriesOrder(instances) { $0 }
    }

    /// The index in Taskwarrior's series of the due Nudge stands at, nil when it is none of them.
    private static func place(of due: Date, slack: TimeInterval, instances: [[String: Any]], first: Date, recur: String,
                              zone: TimeZone) -> Int? {
        if let match = instances.first(where: {
            isPending($0) && dueInstant($0).map { abs($0.timeIntervalSince(due)) <= slack } == true
        }) {
            return imask(match)
        }
        var (index, date) = (0, first)
        if let last = instances.compactMap({ item in imask(item).flatMap { index in dueInstant(item).map { (index, $0) } } })
            .max(by: { $0.0 < $1.0 }) {
            (index, date) = last
        }
        for _ in 0...stepLimit {
            if abs(date.timeIntervalSince(due)) <= slack { return index }
            guard date < due, let next = nextRecurrence(after: date, recur: recur, zone: zone) else { return nil }
            (index, date) = (index + 1, next)
        }
        return nil
    }

    // MARK: - Taskwarrior's steps

    /// The due after `date` in a series repeating by `recur`, as Taskwarrior 2.6 steps it
    /// (`getNextRecurrence` in recur.cpp): months and years on the local calendar, the day cut
    /// to the month's last; anything else by a fixed number of seconds (a month is 30 days, a
    /// year 365). nil for a `recur` Nudge cannot read, or past the year 9999.
    static func nextRecurrence(after date: Date, recur: String, zone: TimeZone) -> Date? {
        var months: Int?
        var atMidnight = false
        switch recur {
        case "monthly", "P1M": months = 1
        case "bimonthly", "P2M": months = 2
        case "quarterly", "P3M": months = 3
        case "semiannual", "P6M": months = 6
        case "annual", "yearly", "P1Y": months = 12
        case "biannual", "biyearly", "P2Y": months = 24
        default:
            let digits = recur.drop { $0 == "P" }.prefix { $0.isASCII && $0.isNumber }
            let count = Int(digits).flatMap { (1...1200).contains($0) ? $0 : nil }
            if recur.first?.isNumber == true, recur.count == digits.count + 1, recur.last == "m" {
                months = count
            } else if recur.first?.isNumber == true, recur.count == digits.count + 1, recur.last == "q" {
                months = count.map { $0 * 3 }
            } else if recur.first == "P", recur.count == digits.count + 2, recur.last == "M" {
                months = count
                atMidnight = true
            }
        }
        let clock = WallClock(zone: zone)
        let next: Date?
        if let months {
            let (day, hour, minute) = clock.dayAndTime(of: date)
            let second = clock.time(of: date).second
            let total = day.year * 12 + day.month - 1 + months
            let (year, month) = (total / 12, total % 12 + 1)
            guard let target = LocalDate(year: year, month: month, day: min(day.day, LocalDate.daysIn(month: month, year: year))) else {
                return nil
            }
            next = target.at(hour: atMidnight ? 0 : hour, minute: atMidnight ? 0 : minute, second: atMidnight ? 0 : second,
                             in: .nudge(zone: zone))
        } else if recur == "weekdays" {
            let weekday = clock.day(of: date).isoWeekday
            next = date.addingTimeInterval(TimeInterval(86_400 * (weekday == 5 ? 3 : weekday == 6 ? 2 : 1)))
        } else {
            guard let rule = rrule(recur: recur) else { return nil }
            var freq = "", interval = 1
            for part in rule.split(separator: ";") {
                if part.hasPrefix("FREQ=") { freq = String(part.dropFirst(5)) }
                if part.hasPrefix("INTERVAL="), let value = Int(part.dropFirst(9)) { interval = value }
            }
            let unit: Int? = switch freq {
            case "HOURLY": 3600
            case "DAILY": 86_400
            case "WEEKLY": 604_800
            case "MONTHLY": 30 * 86_400
            case "YEARLY": 365 * 86_400
            default: nil
            }
            guard let unit, interval <= 100_000 else { return nil }
            next = date.addingTimeInterval(TimeInterval(unit * interval))
        }
        // The last second of 9999.
        guard let next, next.timeIntervalSince1970 < 253_402_300_800 else { return nil }
        return next
    }
}
