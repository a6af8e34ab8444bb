import Glibc
import NudgeCore
import NudgeStore

/// How todos read in the terminal: list rows and one-line summaries.
extension Context {
    static func priorityMark(_ priority: Priority) -> String {
        switch priority {
        case .high: "!!!"
        case .medium: "!!"
        case .low: "!"
        }
    }

    /// "12: Buy milk (due Tomorrow 09:00, high priority, work)" with only what is set.
    func summary(_ todo: Todo) -> String {
        var details: [String] = []
        if let due = todo.due { details.append("due " + dueText.relative(due)) }
        if todo.priority != .medium { details.append("\(todo.priority) priority") }
        if let category = todo.category { details.append(Terminal.visible(category.name)) }
        if !todo.tags.isEmpty { details.append(Context.tagsText(todo.tags)) }
        return "\(todo.id): \(Terminal.visible(todo.title))" + (details.isEmpty ? "" : " (" + details.joined(separator: ", ") + ")")
    }

    /// "14 (Write tests), 16 (Review, done)": a todo's blockers, for show and the changes edit prints.
    static func blockersText(_ blockers: [Blocker]) -> String {
        blockers.isEmpty ? "none" : blockers.map { "\($0.id) (\(Terminal.visible($0.title))\($0.isDone ? ", done" : ""))" }
            .joined(separator: ", ")
    }
}

/// Prints the list's rows as they come, their columns lined up across all sections by the
/// widths the sections' summaries give beforehand: nothing is held but the current row.
struct ListPrinter: ~Copyable {
    let context: Context
    private let counts: [AgendaSection: Int]
    private let idWidth: Int
    private let titleWidth: Int
    private let dueWidth: Int
    /// Whether a title wider than its column is cut to it: at a terminal, where the row
    /// should read as a table; a pipe or file gets the whole title.
    private let cutsLongTitles: Bool
    private var section: AgendaSection?
    private var dueParts: DueParts
    /// The row being put together, its storage kept from row to row.
    private var line = ByteRun()

    /// Titles wider than this are not lined up with: the due column would move too far right.
    static let widestTitleColumn = 48

    init(context: Context, summary: AgendaSummary) {
        self.context = context
        dueParts = DueParts(context.dueText)
        counts = summary.counts
        idWidth = decimalDigits(summary.highestID)
        titleWidth = min(summary.widestTitle, Self.widestTitleColumn)
        dueWidth = summary.widestDue
        cutsLongTitles = isatty(STDOUT_FILENO) == 1
    }

    /// A title's width in the title column.
    static func titleWidth(_ title: String) -> Int {
        displayWidth(Terminal.visible(title))
    }

    /// The width of a due in the due column, as `text.relative` writes it.
    static func dueWidths(_ text: DueText) -> (Due) -> Int {
        var parts = DueParts(text)
        return { due in
            let (day, time) = parts.of(due)
            return day.utf8.count + (time.map { $0.utf8.count + 1 } ?? 0)
        }
    }

    /// The row of `todo`, after its section's header when it is the section's first.
    /// A subtask is indented by `level` under its parent; a parent's title is followed by its
    /// `progress`, `2/5`.
    mutating func print(_ todo: AgendaLine, in section: AgendaSection, level: Int = 0, progress: SubtaskProgress? = nil) {
        if section != self.section {
            if self.section != nil { context.print() }
            context.print(context.styled("\(section.title) (\(counts[section] ?? 0))", .bold))
            self.section = section
        }
        let dim = todo.isCompleted && context.color, red = section == .overdue && context.color
        var (title, width) = Terminal.isPrintableASCII(todo.title)
            ? (todo.title, todo.title.utf8.count) : { let text = Terminal.visible(todo.title); return (text, displayWidth(text)) }()
        let indent = 2 * min(level, Todo.maximumSubtaskLevels)
        let suffix = progress.map { " \($0.done)/\($0.total)" } ?? ""
        let room = max(titleWidth - indent - suffix.utf8.count, 8)
        if width > room && cutsLongTitles { (title, width) = Self.cut(title, to: room) }
        width += indent + suffix.utf8.count
        var (day, time): (String, String?) = ("", nil)
        if let due = todo.due { (day, time) = dueParts.of(due) }
        let mark = Context.priorityMark(todo.priority)
        // Put together as bytes, then added to the output at once: appending a dozen strings
        // to the output one by one is a large part of listing a long list.
        line.removeAll()
        if dim { line.append(utf8: Self.dimCode) }
        line.append(utf8: todo.isCompleted ? "  [x] " : "  [ ] ")
        line.append(spaces: idWidth - decimalDigits(todo.id))
        line.append(decimal: todo.id)
        line.append(utf8: "  ")
        line.append(spaces: indent)
        line.append(utf8: title)
        line.append(utf8: suffix)
        line.append(spaces: max(titleWidth - width, 0) + 2)
        if red { line.append(utf8: Self.redCode) }
        line.append(utf8: day)
        if let time {
            line.append(UInt8(ascii: " "))
            line.append(utf8: time)
        }
        if red { line.append(utf8: Self.resetCode) }
        line.append(spaces: dueWidth - day.utf8.count - (time.map { $0.utf8.count + 1 } ?? 0) + 2)
        line.append(utf8: mark)
        if let category = todo.categoryName {
            line.append(spaces: 5 - mark.utf8.count)
            line.append(utf8: Terminal.visible(category))
        }
        if let tags = todo.tagsText {
            line.append(spaces: todo.categoryName == nil ? 5 - mark.utf8.count : 1)
            if Terminal.isPrintableASCII(tags) {
                // "money phone" is "+money +phone".
                line.append(UInt8(ascii: "+"))
                for byte in tags.utf8 {
                    line.append(byte)
                    if byte == UInt8(ascii: " ") { line.append(UInt8(ascii: "+")) }
                }
            } else {
                line.append(utf8: Context.tagsText(todo.tags))
            }
        }
        if !todo.blockedBy.isEmpty {
            line.append(utf8: todo.categoryName == nil && todo.tagsText == nil ? String(repeating: " ", count: 5 - mark.utf8.count) : " ")
            line.append(utf8: "after " + todo.blockedBy.map(String.init).joined(separator: ","))
        }
        if dim { line.append(utf8: Self.resetCode) }
        line.append(UInt8(ascii: "\n"))
        context.write(bytes: line.bytes)
    }

    /// The title's first characters, then "…", at most `width` columns wide; and its width.
    static func cut(_ title: String, to width: Int) -> (String, Int) {
        var kept = "", keptWidth = 0
        for character in title {
            let next = displayWidth(String(character))
            if keptWidth + next > width - 1 { break }
            kept.append(character)
            keptWidth += next
        }
        return (kept + "…", keptWidth + 1)
    }

    private static let dimCode = Context.code(.dim), redCode = Context.code(.red), resetCode = Context.resetCode
}

/// A due as `DueText.relative` writes it, in two parts: the day, and the time of a timed due.
/// Each day and each time of day is written once: thousands of todos share them. Rows come in
/// order of due, so most ask for the day the row before asked for.
private struct DueParts {
    let text: DueText
    private var lastDay: (day: LocalDate, text: String)?
    private var days: [LocalDate: String] = [:]
    /// By minute of the day.
    private var times = [String?](repeating: nil, count: 24 * 60)

    init(_ text: DueText) {
        self.text = text
    }

    mutating func of(_ due: Due) -> (day: String, time: String?) {
        switch due {
        case .allDay(let day):
            return (text(of: day), nil)
        case .at(let instant, _):
            let (day, hour, minute) = text.clock.dayAndTime(of: instant)
            return (text(of: day), time(hour: hour, minute: minute))
        }
    }

    private mutating func text(of day: LocalDate) -> String {
        if let lastDay, lastDay.day == day { return lastDay.text }
        let written = days[day] ?? text.relative(day)
        days[day] = written
        lastDay = (day, written)
        return written
    }

    private mutating func time(hour: Int, minute: Int) -> String {
        let minuteOfDay = hour * 60 + minute
        guard times.indices.contains(minuteOfDay) else { return text.time(hour: hour, minute: minute) }
        if let known = times[minuteOfDay] { return known }
        let written = text.time(hour: hour, minute: minute)
        times[minuteOfDay] = written
        return written
    }
}

/// Columns a string takes in a terminal: wide (East Asian) characters and emoji take two.
func displayWidth(_ text: String) -> Int {
    if text.utf8.withContiguousStorageIfAvailable({ $0.allSatisfy { $0 < 0x80 } }) ?? false { return text.utf8.count }
    var width = 0
    for character in text {
        guard let scalar = character.unicodeScalars.first else { continue }
        if scalar.isASCII {
            width += 1
        } else if scalar.properties.isEmojiPresentation || character.unicodeScalars.contains("\u{FE0F}")
                    || (0x1100...0x115F).contains(scalar.value) || (0x2E80...0xA4CF).contains(scalar.value)
                    || (0xAC00...0xD7A3).contains(scalar.value) || (0xF900...0xFAFF).contains(scalar.value)
                    || (0xFF00...0xFF60).contains(scalar.value) || (0x20000...0x3FFFD).contains(scalar.value) {
            width += 2
        } else {
            width += 1
        }
    }
    return width
}

extension String {
    func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
