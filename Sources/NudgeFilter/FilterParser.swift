import Foundation
import NudgeCore

/// Reads a filter from the words of a command line, the one grammar of `nudge help filter`.
/// Dates are read by `when`, so a WHEN means here what it means to `--due`, at its clock and zone.
public struct FilterParser: Sendable {
    public let when: WhenParser
    /// Parentheses nest at most this deep: the parser recurses once for each.
    public static let maximumDepth = 32

    public init(when: WhenParser) {
        self.when = when
    }

    /// What a filter is made of, for the one line that refuses a wrong term.
    public static let accepted = "ids (3 5-8), +TAG, -TAG, category:NAME, priority:high|medium|low, "
        + "due:today|tomorrow|none|WHEN, due.before:WHEN, due.after:WHEN, overdue, blocked, repeating, "
        + "parent:ID, status:pending|completed|all, words to search, or, ( )"

    /// The NAME: of the terms that take a value, each with the values completion offers
    /// (none where the value is free).
    public static let attributes: [(name: String, values: [String])] = [
        ("category", []), ("priority", ["high", "medium", "low"]), ("due", ["today", "tomorrow", "none"]),
        ("due.before", ["today", "tomorrow"]), ("due.after", ["today", "tomorrow"]), ("parent", []),
        ("status", FilterStatus.allCases.map(\.rawValue)),
    ]
    /// The terms of one word.
    public static let keywords = ["overdue", "blocked", "repeating"]

    public func parse(_ words: [String]) throws(InputError) -> ParsedFilter {
        var reader = Reader(tokens: try Self.tokens(words), parser: self)
        guard !reader.tokens.isEmpty else { return ParsedFilter() }
        let filter = try reader.anyOf(depth: 0)
        if reader.position < reader.tokens.count {
            throw InputError("a ')' in the filter has no '(' before it")
        }
        // Outside parentheses, a status is for the whole filter whichever side of an `or` it is on.
        if let (status, _) = reader.statuses.first {
            guard reader.statuses.allSatisfy({ $0.depth == 0 && $0.status == status }) else {
                throw InputError("status:\(status.rawValue) is for the whole filter: give it once, outside parentheses")
            }
        }
        return ParsedFilter(status: reader.statuses.first?.status, filter: filter)
    }

    enum Token: Equatable {
        case open, close, or, and
        case word(String)
    }

    /// A word with a space in it is a phrase to search for, whatever it holds. Any other has its
    /// parentheses taken off its ends: `(+a` is `(` then `+a`.
    static func tokens(_ words: [String]) throws(InputError) -> [Token] {
        var tokens: [Token] = []
        for word in words {
            let trimmed = word.trimmingWhitespace()
            if trimmed.isEmpty { continue }
            if trimmed.contains(where: \.isWhitespace) {
                tokens.append(.word(trimmed))
                continue
            }
            var middle = Substring(trimmed)
            while middle.first == "(" {
                tokens.append(.open)
                middle = middle.dropFirst()
            }
            var closing = 0
            while middle.last == ")" {
                closing += 1
                middle = middle.dropLast()
            }
            switch middle.lowercased() {
            case "": break
            case "or": tokens.append(.or)
            case "and": tokens.append(.and)
            default: tokens.append(.word(String(middle)))
            }
            tokens += Array(repeating: .close, count: closing)
        }
        return tokens
    }

    /// A term, or the status it names.
    enum Piece {
        case term(FilterTerm)
        case status(FilterStatus)
    }

    func piece(_ word: String) throws(InputError) -> Piece {
        if let ids = Self.idRange(word) { return .term(.ids([try ids.get()])) }
        if word.count > 1, let sign = word.first, sign == "+" || sign == "-" {
            let tag = try Tag.validated(String(word.dropFirst()), typed: word)
            return .term(sign == "+" ? .tagged(tag) : .untagged(tag))
        }
        switch word.lowercased() {
        case "overdue": return .term(.overdue(overdueWindow))
        case "blocked": return .term(.blocked)
        case "repeating": return .term(.repeating)
        default: break
        }
        guard let colon = word.firstIndex(of: ":"), Self.isAttributeName(word[..<colon]) else {
            return .term(.text(word))
        }
        let name = word[..<colon].lowercased(), value = String(word[word.index(after: colon)...])
        guard let values = Self.attributes.first(where: { $0.name == name })?.values else {
            throw InputError("'\(word)' is not a filter term; use \(Self.accepted)")
        }
        let trimmed = value.trimmingWhitespace()
        guard !trimmed.isEmpty else {
            let placeholder = values.isEmpty ? (name == "parent" ? "ID" : "NAME") : values.joined(separator: "|")
            throw InputError("'\(word)' needs a value: \(name):\(placeholder)")
        }
        switch name {
        case "category":
            guard trimmed.count <= 100 else { throw InputError("a category name is one line of at most 100 characters") }
            return .term(.category(trimmed))
        case "priority":
            guard let priority = Priority(name: trimmed.lowercased()) else {
                throw InputError("'\(word)' is not a priority; use priority:high, priority:medium or priority:low")
            }
            return .term(.priority(priority))
        case "status":
            guard let status = FilterStatus(rawValue: trimmed.lowercased()) else {
                throw InputError("'\(word)' is not a status; use status:pending, status:completed or status:all")
            }
            return .status(status)
        case "parent":
            guard let id = Int64(trimmed), id > 0 else { throw InputError("'\(word)' names no todo; use parent:ID, like parent:12") }
            return .term(.parent(id))
        case "due":
            switch trimmed.lowercased() {
            case "none": return .term(.noDue)
            default: return .term(.due(try dayWindow(on: whenDay(trimmed, word: word))))
            }
        case "due.before": return .term(.due(try window(before: when(trimmed, word: word))))
        default: return .term(.due(try window(after: when(trimmed, word: word))))
        }
    }

    /// `12` or `5-8`, or nil when the word is neither; a failure when it is one badly.
    static func idRange(_ word: String) -> Result<ClosedRange<Int64>, InputError>? {
        let parts = word.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }) else { return nil }
        guard let low = Int64(parts[0]), let high = Int64(parts[parts.count - 1]), low > 0 else {
            return .failure(InputError("'\(word)' is not a todo id; ids are whole numbers from 1, like 3 or 5-8"))
        }
        guard low <= high else {
            return .failure(InputError("'\(word)' is not a range of ids; put the lower first, as \(high)-\(low)"))
        }
        return .success(low...high)
    }

    /// Letters, with one dot inside: `due.before`.
    static func isAttributeName(_ name: Substring) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count <= 2 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isLetter } }
    }

    private func when(_ text: String, word: String) throws(InputError) -> Due {
        do {
            return try when.parse(text)
        } catch {
            throw InputError("'\(word)' names no date or time; use a WHEN as --due takes: \(WhenParser.acceptedForms)")
        }
    }

    private func whenDay(_ text: String, word: String) throws(InputError) -> LocalDate {
        switch try when(text, word: word) {
        case .allDay(let day): day
        case .at(let instant, _): LocalDate(instant, in: when.calendar)
        }
    }

    private var today: LocalDate { LocalDate(when.now, in: when.calendar) }

    /// Dues before now: timed ones before this second, all-day ones before today.
    private var overdueWindow: DueWindow {
        var window = DueWindow(instantsBefore: Int64(when.now.timeIntervalSince1970.rounded(.up)))
        setLastDay(&window, today.adding(days: -1), unless: today == Self.firstDay)
        return window
    }

    private func seconds(_ day: LocalDate) -> Int64 { Int64(day.start(in: when.calendar).timeIntervalSince1970) }

    func dayWindow(on day: LocalDate) -> DueWindow {
        DueWindow(firstInstant: seconds(day), instantsBefore: day == Self.lastDay ? nil : seconds(day.adding(days: 1)),
                  firstDay: day, lastDay: day)
    }

    /// Before a day: before it starts. Before a moment: timed dues before it, all-day dues of
    /// days that start before it.
    func window(before due: Due) -> DueWindow {
        switch due {
        case .allDay(let day):
            var window = DueWindow(instantsBefore: seconds(day))
            setLastDay(&window, day.adding(days: -1), unless: day == Self.firstDay)
            return window
        case .at(let instant, _):
            let day = LocalDate(instant, in: when.calendar)
            var window = DueWindow(instantsBefore: Int64(instant.timeIntervalSince1970.rounded(.up)))
            let startsBefore = day.start(in: when.calendar) < instant
            setLastDay(&window, startsBefore ? day : day.adding(days: -1), unless: !startsBefore && day == Self.firstDay)
            return window
        }
    }

    /// After a day: from the next one on. After a moment: timed dues after it, all-day dues of
    /// the days after its day.
    func window(after due: Due) -> DueWindow {
        let day: LocalDate, firstInstant: Int64
        switch due {
        case .allDay(let allDay):
            day = allDay
            guard day != Self.lastDay else { return Self.nothing }
            firstInstant = seconds(day.adding(days: 1))
        case .at(let instant, _):
            day = LocalDate(instant, in: when.calendar)
            firstInstant = Int64(instant.timeIntervalSince1970.rounded(.down)) + 1
        }
        guard day != Self.lastDay else { return DueWindow(firstInstant: firstInstant, firstDay: Self.lastDay, lastDay: Self.firstDay) }
        return DueWindow(firstInstant: firstInstant, firstDay: day.adding(days: 1))
    }

    /// No day before the first: a window of no days at all.
    private func setLastDay(_ window: inout DueWindow, _ day: LocalDate, unless atFirstDay: Bool) {
        if atFirstDay {
            window.firstDay = Self.lastDay
            window.lastDay = Self.firstDay
        } else {
            window.lastDay = day
        }
    }

    static let firstDay = LocalDate(year: 1, month: 1, day: 1)!  // a valid date
    static let lastDay = LocalDate(year: 9999, month: 12, day: 31)!  // a valid date
    static let nothing = DueWindow(firstInstant: 1, instantsBefore: 0, firstDay: lastDay, lastDay: firstDay)
}

/// Reads the tokens from the start, one level of parentheses per call.
private struct Reader {
    let tokens: [FilterParser.Token]
    let parser: FilterParser
    var position = 0
    /// Each `status:` read, and how deep in parentheses.
    var statuses: [(status: FilterStatus, depth: Int)] = []

    init(tokens: [FilterParser.Token], parser: FilterParser) {
        self.tokens = tokens
        self.parser = parser
    }

    var next: FilterParser.Token? { position < tokens.count ? tokens[position] : nil }

    /// Terms joined by `or`.
    mutating func anyOf(depth: Int) throws(InputError) -> Filter? {
        var branches: [Filter?] = [try allOf(depth: depth)]
        while next == .or {
            position += 1
            branches.append(try allOf(depth: depth))
        }
        if branches.count == 1 { return branches[0] }
        let kept = branches.compactMap { $0 }
        // Only a status leaves a side without a term.
        guard kept.count < branches.count else { return .any(kept) }
        throw InputError("status:\(statuses.last?.status.rawValue ?? "") is for the whole filter, not a side of 'or'")
    }

    /// Terms one after another, with or without `and` between: all of them hold. Ids and
    /// ranges are one term, any of them.
    mutating func allOf(depth: Int) throws(InputError) -> Filter? {
        var items: [Filter] = [], ids: [ClosedRange<Int64>] = [], idsAt: Int?
        var read = 0
        loop: while let token = next {
            switch token {
            case .close, .or:
                break loop
            case .and:
                guard read > 0 else { throw InputError("'and' in the filter needs a term before it") }
                position += 1
                guard let after = next, after != .close, after != .or, after != .and else {
                    throw InputError("'and' in the filter needs a term after it")
                }
                continue loop
            case .open:
                guard depth < FilterParser.maximumDepth else {
                    throw InputError("the filter nests parentheses more than \(FilterParser.maximumDepth) deep")
                }
                position += 1
                let inner = try anyOf(depth: depth + 1)
                guard next == .close else { throw InputError("a '(' in the filter is not closed; add a ')'") }
                position += 1
                // Only a status can leave a group that read something without a term.
                guard let inner else {
                    throw InputError("status: is for the whole filter: give it once, outside parentheses")
                }
                items.append(inner)
            case .word(let word):
                position += 1
                switch try parser.piece(word) {
                case .status(let status): statuses.append((status, depth))
                case .term(.ids(let ranges)):
                    if idsAt == nil { idsAt = items.count; items.append(.all([])) }
                    ids += ranges
                case .term(let term): items.append(.term(term))
                }
            }
            read += 1
        }
        if let idsAt { items[idsAt] = .term(.ids(ids)) }
        if read == 0 {
            let previous = position > 0 ? tokens[position - 1] : nil
            switch (previous, next) {
            case (.or?, _): throw InputError("'or' in the filter needs a term after it")
            case (_, .or?): throw InputError("'or' in the filter needs a term before it")
            case (.open?, .close?): throw InputError("'()' in the filter holds no term")
            case (_, .close?): throw InputError("a ')' in the filter has no '(' before it")
            default: throw InputError("a '(' in the filter is not closed; add a ')'")
            }
        }
        return items.isEmpty ? nil : items.count == 1 ? items[0] : .all(items)
    }
}
