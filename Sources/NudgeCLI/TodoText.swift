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
        if let category = todo.category { details.append(category.name) }
        return "\(todo.id): \(todo.title)" + (details.isEmpty ? "" : " (" + details.joined(separator: ", ") + ")")
    }

    /// The list's rows, their columns lined up across all sections.
    func printSections(_ sections: [(section: AgendaSection, todos: [Todo])]) {
        let text = dueText
        let all = sections.flatMap(\.todos)
        let idWidth = all.map { String($0.id).count }.max() ?? 1
        let dues = Dictionary(uniqueKeysWithValues: all.map { ($0.id, $0.due.map(text.relative) ?? "") })
        let titleWidth = min(all.map { displayWidth($0.title) }.max() ?? 0, 48)
        let dueWidth = dues.values.map(\.count).max() ?? 0
        var first = true
        for (section, todos) in sections {
            if !first { print() }
            first = false
            print(styled("\(section.title) (\(todos.count))", .bold))
            for todo in todos {
                let box = todo.isCompleted ? "[x]" : "[ ]"
                let id = String(repeating: " ", count: idWidth - String(todo.id).count) + String(todo.id)
                let title = todo.title + String(repeating: " ", count: max(0, titleWidth - displayWidth(todo.title)))
                let due = dues[todo.id]!.padding(to: dueWidth)
                let mark = Self.priorityMark(todo.priority).padding(to: 3)
                var row = "  \(box) \(id)  \(title)  " + (section == .overdue ? styled(due, .red) : due)
                    + "  \(mark)  \(todo.category?.name ?? "")"
                while row.last == " " { row.removeLast() }
                print(todo.isCompleted ? styled(row, .dim) : row)
            }
        }
    }
}

/// Columns a string takes in a terminal: wide (East Asian) characters and emoji take two.
func displayWidth(_ text: String) -> Int {
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
