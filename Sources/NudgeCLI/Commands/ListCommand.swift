import CLinux
import Foundation
import NudgeCore
import NudgeQuote
import NudgeStore

enum ListCommand: Command {
    static let all = Flag("all", "Show completed todos too")
    static let completed = Flag("completed", "Show only completed todos")
    static let category = ValueOption("category", "NAME", "Only todos in this category", completes: .category, parse: categoryName)
    static let priority = ValueOption("priority", "P", "Only todos of this priority: low, medium or high", choices: Choices.priorities, parse: priorityNamed)
    static let tag = RepeatedOption("tag", "NAME", "Only todos with this tag, as +NAME; repeatable", completes: .tag) { text, _ throws(CLIError) in try TagWords.tag(text) }
    static let search = ValueOption("search", "TEXT", "Only todos whose title or notes contain TEXT (ignoring case)")
    static let sort = ValueOption("sort", "KEY", "Order within each section: due (the default), priority, title or created", choices: Choices.sortKeys, parse: order)
    static let json = Flag("json", "Print an array of todos as JSON")
    static let name = "list"
    static let declaration = CommandDeclaration(name, "List todos by when they are due", TagWords(removing: true), oneOf(all, completed),
                                                category, priority, tag, search, sort, json)
    static let jsonOutput = """
        An array of todos in the order listed (Overdue, Today, Upcoming, Unscheduled, then
        Completed), each an object:
        \(JSON.todoKeys)
        """
    static let discussion = """
        Todos are shown in sections: Overdue, Today, Upcoming, Unscheduled, and with --all or
        --completed, Completed. Within a section they are ordered by due time, then priority,
        then title. Filters combine: +NAME shows only todos with that tag, -NAME only those
        without it (ignoring case). On a terminal, the quote of the day ([list] quote in the
        config file) is shown above them.

        Examples:
          nudge list
          nudge list --category work --priority high
          nudge list +money -phone
          nudge list --all --search milk --json
        """

    static func order(_ key: String) throws(CLIError) -> TodoOrder {
        guard let order = TodoOrder(rawValue: key.lowercased()) else {
            throw .usage("cannot sort by '\(key)'; use due, priority, title or created")
        }
        return order
    }

    static func run(_ arguments: Arguments, context: Context) throws(CLIError) {
        var query = TodoQuery()
        if arguments[Self.all] { query.state = .all }
        if arguments[Self.completed] { query.state = .completed }
        query.categoryName = try arguments[Self.category]
        query.priority = try arguments[Self.priority]
        query.search = try arguments[Self.search]
        query.tags = try tagsAdded(arguments, option: Self.tag)
        query.excludedTags = arguments.tagsRemoved
        let order = try arguments[Self.sort] ?? .due
        let store = try context.store(.read)
        let agenda = context.agenda
        if arguments[Self.json] {
            var printer = JSONArrayPrinter(context)
            do {
                try store.forEachAgendaTodo(matching: query, agenda: agenda, order: order) { _, todo in
                    printer.append(context.json(todo))
                }
            } catch { throw CLIError(error) }
            printer.finish()
            return
        }
        try printQuote(context)
        do {
            // The counts and the rows come from the same moment of the file, and the same search.
            try store.reading {
                try store.searchingOnce(query) { found in
                    let summary = try store.agendaSummary(matching: found, agenda: agenda, titleWidth: ListPrinter.titleWidth,
                                                          dueWidth: ListPrinter.dueWidths(context.dueText),
                                                          dueWidthVariesByHour: context.dateStyle.clock == .twelveHour)
                    if summary.isEmpty {
                        try printEmpty(query: query, store: store, context: context)
                        return
                    }
                    var printer = ListPrinter(context: context, summary: summary)
                    try store.forEachAgendaLine(matching: found, agenda: agenda, order: order) { section, line in
                        printer.print(line, in: section)
                    }
                }
            }
        } catch { throw CLIError(error) }
    }

    /// The quote of the day, dim, in one or two lines, then an empty line: only for a person
    /// at a terminal, never on a pipe.
    private static func printQuote(_ context: Context) throws(CLIError) {
        guard context.stdoutIsTerminal else { return }
        let source = try context.config().quote
        if source == .off { return }
        let day = LocalDate(context.now, in: context.calendar)
        guard let quote = QuoteOfTheDay(source: source, environment: context.environment).quote(on: day) else { return }
        let columns = Int(nudge_terminal_columns(STDOUT_FILENO))
        for line in quote.wrapped(width: (columns > 0 ? columns : 80) - 1, measure: displayWidth) {
            context.print(context.styled(Terminal.visible(line), .dim))
        }
        context.print()
    }

    private static func printEmpty(query: TodoQuery, store: TodoStore, context: Context) throws(CLIError) {
        let total: Int
        do { total = try store.count() } catch { throw CLIError(error) }
        if total == 0 {
            context.print("No todos yet. Add one with: nudge add \"Buy milk\" --due tomorrow")
        } else if query.categoryName != nil || query.priority != nil || query.search != nil
                    || !query.tags.isEmpty || !query.excludedTags.isEmpty {
            context.print("No todos match.")
        } else if query.state == .completed {
            context.print("Nothing completed yet.")
        } else {
            context.print("Nothing to do. 'nudge list --all' shows completed todos too.")
        }
    }
}
