import Foundation
import NudgeCore

/// todo.txt, one todo a line, as todo.txt-cli writes it:
/// `(A) 2026-11-30 Buy milk +Home @shop due:2026-12-24` and `x 2026-12-01 2026-11-30 Call mum`.
///
/// Mapping: `(A)` is high, none medium, `(B)` medium and `(C)` to `(Z)` low; the letter is kept
/// so that it comes back while Nudge's priority is unchanged. The first `+project` is the
/// category (taken out of the title; a plus and a digit, "+49 30 1234", is no project, and the
/// category goes first when the title holds a `+project`). Each `@context` that is a tag word is
/// a tag, taken out of the title (written after the category); the title is the rest of the text,
/// further `+projects`, other `@contexts` and other `key:value` tags included. `due:2026-12-24` is an all-day due;
/// `at:18:30` beside it makes it a time in `options.zone`. `rec:1w` repeats from completion and
/// `rec:+1w` from the due (the todo.txt "rec" add-on's words, units d, w, m, y); a rule `rec`
/// cannot say is written as `rrule:FREQ=WEEKLY;BYDAY=MO,TH`. Notes, reminders and snoozes
/// have no place in a todo.txt line and are not written. A subtask's parent is a `parent:UUID`
/// tag (a `parent:` word that is no uuid stays in the title); a line without one has no parent.
///
/// Identity: todo.txt has no ids. A line's uuid is a name-based UUID (version 5) of its
/// text without the completion mark, dates and priority, so that importing the same file twice
/// changes nothing, and marking a line done or changing its priority keeps the todo. A todo
/// whose uuid is not that one (one made in Nudge) gets a `nudge:UUID` tag on export, read back
/// on import. A line's created and changed times are its creation and completion days (the
/// Unix epoch when it has no dates), so a later import takes a line newly marked done, but not
/// an edit that adds no date: an edited text is another todo.
public enum TodoTxt {
    static let keptKey = "todotxt"

    // MARK: - Writing

    public static func encode(_ records: [TodoRecord], options: InterchangeOptions) -> String {
        var out = ""
        for record in records {
            out += line(record, options: options) + "\n"
        }
        // A reader takes a U+FEFF at the file's start off as its byte-order mark: a first
        // todo beginning with one keeps it behind a byte-order mark of the file's own.
        return out.unicodeScalars.first == "\u{FEFF}" ? "\u{FEFF}" + out : out
    }

    static func line(_ record: TodoRecord, options: InterchangeOptions) -> String {
        let clock = WallClock(zone: options.zone)
        let kept = keptObject(record)
        var prefix: [String] = []
        if let completed = record.completedAt {
            prefix.append("x")
            prefix.append(clock.day(of: completed).description)
        } else if let letter = letter(for: record.priority, kept: kept["priority"]) {
            prefix.append("(\(letter))")
        }
        if kept["undated"] == nil { prefix.append(clock.day(of: record.createdAt).description) }
        var text: String
        if let original = kept["text"], let parsed = try? parse(text: original, number: 0, options: options),
           parsed.title == record.title, parsed.category == record.category, parsed.due == record.due,
           parsed.repetition == record.repetition, parsed.parentUUID == record.parentUUID, parsed.tags.map(Tag.folded) == (record.tags ?? []).map(Tag.folded) {
            text = original
        } else {
            var words = [record.title]
            if let category = record.category {
                let tag = "+" + oneLine(category, as: "_").replacingOccurrences(of: " ", with: "_")
                // The first tag is the category: before a title that holds one of its own.
                let titleHasTag = oneLine(record.title, as: " ").split(separator: " ").contains(where: isCategoryTag)
                if titleHasTag { words.insert(tag, at: 0) } else { words.append(tag) }
            }
            words += (record.tags ?? []).map { "@" + $0 }
            switch record.due {
            case nil: break
            case .allDay(let day)?: words.append("due:\(day)")
            case .at(let instant, _)?:
                let (day, hour, minute) = clock.dayAndTime(of: instant)
                words.append("due:\(day)")
                words.append("at:\(TimeOfDay(hour: hour, minute: minute)!)")  // a clock's 0-23 and 0-59
            }
            if let repetition = record.repetition {
                if let rec = rec(for: repetition) { words.append("rec:" + rec) } else { words.append("rrule:" + repetition.rrule) }
            }
            if let parent = record.parentUUID { words.append("parent:" + parent) }
            text = words.joined(separator: " ")
        }
        text = oneLine(text, as: " ")
        if identity(text) != record.uuid { text += " nudge:\(record.uuid)" }
        return (prefix + [text]).joined(separator: " ")
    }

    /// The text with each run of line breaks (CR, LF, CRLF, U+2028, ...) and other control
    /// characters (C0, tab included, DEL, C1) as one `replacement`: todo.txt is one task a line,
    /// a reader splits where any line break is, and todo.txt tools split words at a tab.
    static func oneLine(_ text: String, as replacement: Unicode.Scalar) -> String {
        func breaksOrControls(_ scalar: Unicode.Scalar) -> Bool {
            scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
                || scalar.properties.generalCategory == .lineSeparator
                || scalar.properties.generalCategory == .paragraphSeparator
        }
        guard text.unicodeScalars.contains(where: breaksOrControls) else { return text }
        var result = String.UnicodeScalarView()
        var replaced = false
        for scalar in text.unicodeScalars {
            if !breaksOrControls(scalar) {
                result.append(scalar)
            } else if !replaced {
                result.append(replacement)
            }
            replaced = breaksOrControls(scalar)
        }
        return String(result)
    }

    private static func letter(for priority: Priority, kept: String?) -> String? {
        switch priority {
        case .high: return "A"
        case .medium: return kept == "B" ? "B" : nil
        case .low:
            if let kept, kept.count == 1, let byte = kept.utf8.first, byte >= UInt8(ascii: "C"), byte <= UInt8(ascii: "Z") {
                return kept
            }
            return "C"
        }
    }

    private static func keptObject(_ record: TodoRecord) -> [String: String] {
        guard let text = record.kept[keptKey],
              let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: String] else { return [:] }
        return object
    }

    // MARK: - Reading

    public static func decode(_ data: Data, options: InterchangeOptions) throws(InterchangeError) -> DecodedFile {
        // Not String(data:encoding:), which takes a byte-order mark off too: only one is the file's.
        guard let text = String(validating: data, as: UTF8.self) else {
            throw InterchangeError(reason: "the file is not UTF-8 text")
        }
        var items: [Result<TodoRecord, RecordError>] = []
        var places: [(place: RecordError.Place, number: Int)] = []
        // "\r\n" is one Character, and a newline.
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        if let first = lines.first, first.hasPrefix("\u{FEFF}") { lines[0] = first.dropFirst() }
        for (offset, line) in lines.enumerated() {
            // By scalars: " \u{35B}" (a space a combining mark joins) is a whitespace Character.
            guard !line.unicodeScalars.allSatisfy(\.properties.isWhitespace) else { continue }
            places.append((.line, offset + 1))
            do throws(RecordError) {
                items.append(.success(try record(String(line), number: offset + 1, options: options)))
            } catch {
                items.append(.failure(error))
            }
        }
        return DecodedFile(items: items, places: places)
    }

    /// What the text of a line (after its completion mark, priority and dates) says.
    struct Text {
        var title: String
        var category: String?
        var due: Due?
        var repetition: Repetition?
        var uuid: String?
        var tags: [String] = []
        var parentUUID: String?
    }

    static func record(_ line: String, number: Int, options: InterchangeOptions) throws(RecordError) -> TodoRecord {
        // Control characters are read as the export writes them, so that a todo read comes
        // back the same, and one of nothing else has an empty title.
        var words = oneLine(line, as: " ").split(separator: " ", omittingEmptySubsequences: true)[...]
        func isDate(_ word: Substring?) -> LocalDate? { word.flatMap { LocalDate(iso: $0) } }
        var completed: LocalDate?, created: LocalDate?, letter: String?
        var done = false
        if words.first == "x" {
            done = true
            words = words.dropFirst()
            if let day = isDate(words.first) {
                completed = day
                words = words.dropFirst()
                if let day = isDate(words.first) { created = day; words = words.dropFirst() }
            }
        } else {
            if let word = words.first, word.count == 3, word.first == "(", word.last == ")",
               let middle = word.dropFirst().first, middle.isASCII, middle.isUppercase {
                letter = String(middle)
                words = words.dropFirst()
            }
            if let day = isDate(words.first) { created = day; words = words.dropFirst() }
        }
        let body = words.joined(separator: " ")
        var parsed = try parse(text: body, number: number, options: options)
        let calendar = Calendar.nudge(zone: options.zone)
        let epoch = Date(timeIntervalSince1970: 0)
        let createdAt = created.map { $0.start(in: calendar) } ?? completed.map { $0.start(in: calendar) } ?? epoch
        let completedAt = done ? (completed?.start(in: calendar) ?? createdAt) : nil
        let updatedAt = max(createdAt, completedAt ?? createdAt)
        var kept: [String: String] = [:]
        if parsed.uuid == nil { kept["text"] = body }
        if created == nil { kept["undated"] = "1" }
        var priority = Priority.medium
        switch letter {
        case nil: break
        case "A": priority = .high
        case "B": kept["priority"] = "B"
        case let other?:
            priority = .low
            if other != "C" { kept["priority"] = other }
        }
        if parsed.repetition != nil && parsed.due == nil {
            throw RecordError(item: number, place: .line, field: "rec", reason: "is set but \"due:\" is missing: a todo repeats from its due")
        }
        let uuid = parsed.uuid ?? identity(body)
        parsed.uuid = nil
        var record = TodoRecord(uuid: uuid, title: parsed.title, due: parsed.due, priority: priority, category: parsed.category,
                                tags: parsed.tags,
                                repetition: parsed.repetition, completedAt: completedAt, createdAt: createdAt, updatedAt: updatedAt,
                                parentUUID: parsed.parentUUID == uuid ? nil : parsed.parentUUID)
        if !kept.isEmpty, let data = try? JSONSerialization.data(withJSONObject: kept, options: [.sortedKeys]) {
            record.kept[keptKey] = String(decoding: data, as: UTF8.self)
        }
        return record
    }

    static func parse(text: String, number: Int, options: InterchangeOptions) throws(RecordError) -> Text {
        func error(_ field: String, _ reason: String) -> RecordError {
            RecordError(item: number, place: .line, field: field, reason: reason)
        }
        var title: [Substring] = []
        var category: String?
        var day: LocalDate?, time: TimeOfDay?, rule: Repetition?, uuid: String?, parent: String?
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if category == nil, isCategoryTag(word) {
                category = String(word.dropFirst())
                continue
            }
            if let colon = word.firstIndex(of: ":") {
                let key = word[..<colon].lowercased(), value = word[word.index(after: colon)...]
                switch key {
                case "due":
                    guard let parsed = LocalDate(iso: value.prefix(10)) else { throw error("due", "is not a day like 2026-12-24: '\(value)'") }
                    day = parsed
                    if value.count > 10 {
                        guard value.dropFirst(10).first == "T", let parsedTime = TimeOfDay(parsing: value.dropFirst(11)) else {
                            throw error("due", "is not a day like 2026-12-24: '\(value)'")
                        }
                        time = parsedTime
                    }
                    continue
                case "at":
                    guard let parsed = TimeOfDay(parsing: value) else { throw error("at", "is not a time like 18:30: '\(value)'") }
                    time = parsed
                    continue
                case "rec":
                    guard let parsed = repetition(rec: value) else {
                        throw error("rec", "is not a repeat like 1w, +3d or 2m: '\(value)'")
                    }
                    rule = parsed
                    continue
                case "rrule":
                    rule = Repetition(rrule: String(value), from: rule?.from ?? .due)
                    continue
                case "nudge":
                    guard let parsed = UUID(uuidString: String(value)) else { throw error("nudge", "is not a UUID: '\(value)'") }
                    uuid = parsed.uuidString.lowercased()
                    continue
                case "parent":
                    guard let parsed = UUID(uuidString: String(value)) else { break }
                    parent = parsed.uuidString.lowercased()
                    continue
                default: break
                }
            }
            title.append(word)
        }
        // The @contexts that are tags leave the title, unless nothing else would be left of it.
        // Taken from the end: a line written anew has its tags last, after a title that may
        // hold a second spelling of one (`Call @bob @Bob`), which must stay in the title.
        let contexts = title.indices.filter { title[$0].hasPrefix("@") }.reversed()
        let tagged = InterchangeTags.isTag(contexts.map { String(title[$0].dropFirst()) })
        var tags: [String] = []
        if title.count > tagged.count(where: { $0 }) {
            for (index, isTag) in zip(contexts, tagged) where isTag {
                tags.insert(String(title.remove(at: index).dropFirst()), at: 0)
            }
        }
        let due: Due? = day.map { day in
            time.map { .at(day.at(hour: $0.hour, minute: $0.minute, in: .nudge(zone: options.zone)), zone: options.zone) } ?? .allDay(day)
        }
        let validated: String
        do { validated = try Todo.validatedTitle(title.joined(separator: " ")) } catch let invalid {
            throw error("text", invalid.message)
        }
        return Text(title: validated, category: category, due: due, repetition: rule, uuid: uuid, tags: tags, parentUUID: parent)
    }

    /// A `+project` read as the category: not a plus and a digit, a phone number ("+49 30 ...")
    /// or a vote ("+1").
    static func isCategoryTag(_ word: Substring) -> Bool {
        guard word.hasPrefix("+"), let first = word.dropFirst().first else { return false }
        return !("0"..."9").contains(first)
    }

    // MARK: - Repeats

    /// `rec:1w` (from completion) or `rec:+2m` (from the due): units d, w, m, y.
    static func repetition(rec value: Substring) -> Repetition? {
        var body = value
        let strict = body.first == "+"
        if strict { body = body.dropFirst() }
        let digits = body.prefix { $0.isASCII && $0.isNumber }
        let count = digits.isEmpty ? 1 : Int(digits) ?? 0
        guard count > 0 else { return nil }
        let freq: String
        switch body.dropFirst(digits.count).lowercased() {
        case "d": freq = "DAILY"
        case "w": freq = "WEEKLY"
        case "m": freq = "MONTHLY"
        case "y": freq = "YEARLY"
        default: return nil
        }
        return Repetition(rrule: count == 1 ? "FREQ=\(freq)" : "FREQ=\(freq);INTERVAL=\(count)", from: strict ? .due : .completion)
    }

    /// The `rec:` value for a repetition, or nil when the rule says more than a unit and a count.
    static func rec(for repetition: Repetition) -> String? {
        guard repetition.start == nil else { return nil }
        var freq: String?, interval = 1
        for part in repetition.rrule.uppercased().split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { return nil }
            switch pair[0] {
            case "FREQ": freq = String(pair[1])
            case "INTERVAL": guard let value = Int(pair[1]), value > 0 else { return nil }; interval = value
            default: return nil
            }
        }
        let unit: String
        switch freq {
        case "DAILY": unit = "d"
        case "WEEKLY": unit = "w"
        case "MONTHLY": unit = "m"
        case "YEARLY": unit = "y"
        default: return nil
        }
        let text = (repetition.from == .due ? "+" : "") + "\(interval)\(unit)"
        return Self.repetition(rec: Substring(text)) == repetition ? text : nil
    }

    // MARK: - Identity

    /// The name-based UUID of a line's words, joined by single spaces.
    static func identity(_ text: String) -> String {
        let normalized = text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        return NameBasedUUID.url("urn:x-nudge:todo.txt:" + normalized)
    }
}
