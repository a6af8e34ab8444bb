import NudgeCore

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

    /// The list's rows, their columns lined up across all sections. Written straight into the
    /// output: with thousands of rows, building each cell as its own string shows.
    func printSections(_ sections: [(section: AgendaSection, todos: [Todo])]) {
        let text = dueText
        let dues = sections.map { $0.todos.map { $0.due.map(text.relative) ?? "" } }
        let titles = sections.map { $0.todos.map { Terminal.visible($0.title) } }
        let titleWidths = titles.map { $0.map(displayWidth) }
        let idWidth = sections.flatMap { $0.todos.map { decimalDigits($0.id) } }.max() ?? 1
        let titleWidth = min(titleWidths.joined().max() ?? 0, 48)
        let dueWidth = dues.joined().map(\.utf8.count).max() ?? 0
        var out = ""
        out.reserveCapacity(sections.reduce(0) { $0 + $1.todos.count } * (idWidth + titleWidth + dueWidth + 30))
        for (index, (section, todos)) in sections.enumerated() {
            if index > 0 { out += "\n" }
            out += styled("\(section.title) (\(todos.count))", .bold)
            out += "\n"
            for (row, todo) in todos.enumerated() {
                if todo.isCompleted && color { out += "\u{1B}[2m" }
                out += todo.isCompleted ? "  [x] " : "  [ ] "
                appendSpaces(idWidth - decimalDigits(todo.id), to: &out)
                out += String(todo.id)
                out += "  "
                out += titles[index][row]
                appendSpaces(titleWidth - titleWidths[index][row] + 2, to: &out)
                let due = dues[index][row]
                out += section == .overdue ? styled(due, .red) : due
                appendSpaces(dueWidth - due.utf8.count + 2, to: &out)
                let mark = Self.priorityMark(todo.priority)
                out += mark
                if let category = todo.category {
                    appendSpaces(5 - mark.utf8.count, to: &out)
                    out += Terminal.visible(category.name)
                }
                if todo.isCompleted && color { out += "\u{1B}[0m" }
                out += "\n"
            }
        }
        out.removeLast()
        print(out)
    }
}

private let spaces = String(repeating: " ", count: 256)

private func appendSpaces(_ count: Int, to out: inout String) {
    var left = count
    while left > 0 {
        let chunk = min(left, 256)
        out += spaces.prefix(chunk)
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
