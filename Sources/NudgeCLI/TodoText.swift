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
        return "\(todo.id): \(Terminal.visible(todo.title))" + (details.isEmpty ? "" : " (" + details.joined(separator: ", ") + ")")
    }
}

/// Prints the list's rows as they come, their columns lined up across all sections by the
/// widths the sections' summaries give beforehand: nothing is held but the current row.
struct ListPrinter {
    let context: Context
    private let text: DueText
    private let counts: [AgendaSection: Int]
    private let idWidth: Int
    private let titleWidth: Int
    private let dueWidth: Int
    private var section: AgendaSection?

    /// Titles wider than this are not lined up with: the due column would move too far right.
    static let widestTitleColumn = 48

    init(context: Context, summaries: [AgendaSectionSummary]) {
        self.context = context
        text = context.dueText
        counts = Dictionary(uniqueKeysWithValues: summaries.map { ($0.section, $0.count) })
        idWidth = decimalDigits(summaries.map(\.highestID).max() ?? 0)
        titleWidth = min(summaries.map(\.widestTitle).max() ?? 0, Self.widestTitleColumn)
        dueWidth = summaries.map(\.widestDue).max() ?? 0
    }

    /// A title's width in the title column.
    static func titleWidth(_ title: String) -> Int {
        displayWidth(Terminal.visible(title))
    }

    /// The width of a due in the due column, as `text.relative` writes it: worked out once
    /// for each day and each time of day, as thousands of todos share them.
    static func dueWidths(_ text: DueText) -> (Due) -> Int {
        var days: [LocalDate: Int] = [:]
        var times: [Int: Int] = [:]
        func width(of day: LocalDate) -> Int {
            if let width = days[day] { return width }
            let width = text.relative(day).utf8.count
            days[day] = width
            return width
        }
        return { due in
            switch due {
            case .allDay(let day):
                return width(of: day)
            case .at(let instant, _):
                let (day, hour, minute) = text.clock.dayAndTime(of: instant)
                let time = times[hour * 60 + minute] ?? text.time(hour: hour, minute: minute).utf8.count
                times[hour * 60 + minute] = time
                return width(of: day) + 1 + time
            }
        }
    }

    /// The row of `todo`, after its section's header when it is the section's first.
    mutating func print(_ todo: Todo, in section: AgendaSection) {
        if section != self.section {
            if self.section != nil { context.print() }
            context.print(context.styled("\(section.title) (\(counts[section] ?? 0))", .bold))
            self.section = section
        }
        let color = context.color
        let title = Terminal.visible(todo.title)
        let due = todo.due.map(text.relative) ?? ""
        var out = ""
        out.reserveCapacity(idWidth + titleWidth + dueWidth + 30)
        if todo.isCompleted && color { out += "\u{1B}[2m" }
        out += todo.isCompleted ? "  [x] " : "  [ ] "
        appendSpaces(idWidth - decimalDigits(todo.id), to: &out)
        out += String(todo.id)
        out += "  "
        out += title
        appendSpaces(titleWidth - displayWidth(title) + 2, to: &out)
        out += section == .overdue ? context.styled(due, .red) : due
        appendSpaces(dueWidth - due.utf8.count + 2, to: &out)
        let mark = Context.priorityMark(todo.priority)
        out += mark
        if let category = todo.category {
            appendSpaces(5 - mark.utf8.count, to: &out)
            out += Terminal.visible(category.name)
        }
        if todo.isCompleted && color { out += "\u{1B}[0m" }
        context.print(out)
    }
}

/// Runs of spaces by length, so that padding a column appends one string.
private let spaceRuns = (0...256).map { String(repeating: " ", count: $0) }

private func appendSpaces(_ count: Int, to out: inout String) {
    var left = count
    while left > 0 {
        let chunk = min(left, 256)
        out += spaceRuns[chunk]
        left -= chunk
    }
}

private func decimalDigits(_ value: Int64) -> Int {
    var digits = 1
    var rest = value / 10
    while rest > 0 { digits += 1; rest /= 10 }
    return digits
}

/// Columns a string takes in a terminal: wide (East Asian) characters and emoji take two.
func displayWidth(_ text: String) -> Int {
    if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.utf8.count }
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
