import NudgeCore
import NudgeStore

enum StatusCommand: Command {
    static let format = ValueOption("format", "FORMAT", "plain (the default): one line; json; waybar: a custom module's JSON; i3blocks: its three lines",
                                    choices: Format.allCases.map(\.rawValue), parse: statusFormat)
    static let json = Flag("json", "The same as --format json")
    static let name = "status"
    static let declaration = CommandDeclaration(name, "Count what is overdue and due today, for a status bar", TagWords.filter,
                                                oneOf(format, json))
    enum Format: String, CaseIterable { case plain, json, waybar, i3blocks }

    /// What is most pressing: waybar's class, i3blocks' colour.
    enum State: String {
        case overdue, today, none

        /// i3blocks' third line: red when overdue, amber when due today, the bar's own otherwise.
        var color: String {
            switch self {
            case .overdue: "#FF5555"
            case .today: "#FFB86C"
            case .none: ""
            }
        }
    }
    static let discussion = """
        The counts are those of the Overdue and Today sections of 'nudge list'; the next todo
        is the first of Today, else of Upcoming. It reads a few numbers from the database, not
        the todos, so that a bar can ask every few seconds. Nudge's docs/status-bars.md
        shows the waybar, i3blocks and polybar settings. With a FILTER ('nudge help
        filter'), only the pending todos it matches count: a bar for +work.

        Examples:
          nudge status
          nudge status --format waybar
          nudge status +work priority:high
        """
    static let jsonOutput = """
        An object (also with --json):
          overdue   how many pending todos are overdue (nudge list's Overdue section)
          today     how many are due later today (its Today section)
          next      the next todo, the first of Today else of Upcoming, or null: an object with
                    id, title, due (ISO 8601; YYYY-MM-DD when all day) and allDay
        --format waybar prints waybar's JSON instead: text, tooltip (Pango markup, the title
        escaped), class and alt (both overdue, today or none).
        """

    static func statusFormat(_ text: String) throws(CLIError) -> Format {
        let name = text.lowercased()
        guard let format = Format(rawValue: name) else {
            throw .usage("unknown status format '\(name)'; use " + Format.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return format
    }

    static func run(_ arguments: Arguments, context: Context) throws(CLIError) {
        let format = try arguments[Self.json] ? .json : arguments[Self.format] ?? .plain
        let summary: DueSummary
        let query = try filtered(arguments, context: context)
        do {
            let store = try context.store(.readTodos)
            summary = query.filter == nil ? try store.dueSummary(agenda: context.agenda)
                : try store.dueSummary(matching: query, agenda: context.agenda)
        } catch { throw CLIError(error) }
        let state: State = summary.overdue > 0 ? .overdue : summary.today > 0 ? .today : .none
        let counts = countsText(summary)
        let next = summary.next.map { todo in
            (title: Terminal.visible(todo.title), when: todo.due.map(context.dueText.relative) ?? "")
        }
        let line = counts + (next.map { "; next: " + $0.title + " (" + $0.when + ")" } ?? "")
        switch format {
        case .plain:
            context.print(line)
        case .json:
            context.printJSON(json(summary, context: context))
        case .waybar:
            var tooltip = counts
            if let next { tooltip += "\nNext: " + pango(next.title) + " (" + next.when + ")" }
            context.print(JSON.object([("text", .string(counts)), ("tooltip", .string(tooltip)),
                                       ("class", .string(state.rawValue)), ("alt", .string(state.rawValue))]).compactText)
        case .i3blocks:
            // full_text, short_text, color.
            context.print(line)
            context.print(counts)
            context.print(state.color)
        }
    }

    /// "2 overdue, 1 today", or "Nothing due today".
    static func countsText(_ summary: DueSummary) -> String {
        var parts: [String] = []
        if summary.overdue > 0 { parts.append("\(summary.overdue) overdue") }
        if summary.today > 0 { parts.append("\(summary.today) today") }
        return parts.isEmpty ? "Nothing due today" : parts.joined(separator: ", ")
    }

    static func json(_ summary: DueSummary, context: Context) -> JSON {
        let next: JSON = summary.next.map { todo in
            .object([("id", .int(todo.id)), ("title", .string(todo.title)), ("due", context.jsonDue(todo.due)),
                     ("allDay", .bool(todo.due?.isAllDay ?? false))])
        } ?? .null
        return .object([("overdue", .int(Int64(summary.overdue))), ("today", .int(Int64(summary.today))), ("next", next)])
    }

    /// Text for Pango markup, which waybar renders: its three special characters escaped.
    static func pango(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.append(character)
            }
        }
        return out
    }
}
