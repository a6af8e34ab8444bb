import CLinux
import Foundation
import NudgeCore
import NudgeFilter
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
    static let declaration = CommandDeclaration(name, "List todos by when they are due", TagWords.filter, oneOf(all, completed),
                                                category, priority, tag, search, sort, json)
    static let jsonOutput = """
        An array of todos in the order listed (Overdue, Today, Upcoming, Unscheduled, then
        Completed), each an object:
        \(JSON.todoKeys)
        """
    static let discussion = """
        Todos are shown in sections: Overdue, Today, Upcoming, Unscheduled, and with --all or
        --completed, Completed. Within a section they are ordered by due time, then priority,
        then title. A FILTER lists only the todos it matches: +NAME only those with that tag,
        -NAME only those without it (ignoring case), overdue, due:tomorrow, words to search and
        more, combined with and, or and parentheses ('nudge help filter'); the options combine
        with it. On a terminal, the quote of the day ([list] quote in the config file) is shown
        above them.

        A subtask is shown indented under its parent, in the parent's section whatever its own
        due, and a parent shows how many of its subtasks are done (2/5). A subtask whose parent
        is not listed (done, filtered out, not in the database) is shown in its own place.

        Examples:
          nudge list
          nudge list --category work --priority high
          nudge list +money -phone
          nudge list '(+trip' or 'category:travel)' due.before:friday
          nudge list --all --search milk --json
        """

    static func order(_ key: String) throws(CLIError) -> TodoOrder {
        guard let order = TodoOrder(rawValue: key.lowercased()) else {
            throw .usage("cannot sort by '\(key)'; use due, priority, title or created")
        }
        return order
    }

    static func run(_ arguments: Arguments, context: Context) throws(CLIError) {
        var query = try filtered(arguments, context: context, all: Self.all, completed: Self.completed)
        query.categoryName = try arguments[Self.category]
        query.priority = try arguments[Self.priority]
        query.search = try arguments[Self.search]
        query.tags = try tagsAdded(arguments, option: Self.tag)
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
                    let links = try store.subtaskLinks(listing: found, agenda: agenda, order: order, titleWidth: ListPrinter.titleWidth)
                    guard !links.parents.isEmpty || !links.progress.isEmpty else {
                        var printer = ListPrinter(context: context, summary: summary)
                        try store.forEachAgendaLine(matching: found, agenda: agenda, order: order) { section, line in
                            printer.print(line, in: section)
                        }
                        return
                    }
                    try printTrees(found, links: links, summary: summary, store: store, context: context, order: order)
                }
            }
        } catch { throw CLIError(error) }
    }

    /// The list with each subtask under its parent, when its parent is listed, whatever its
    /// own due: the listed subtasks' lines come with the links, and the list is read once,
    /// leaving them out of their own places and printing them after their parents.
    private static func printTrees(_ query: TodoQuery, links: SubtaskLinks, summary: AgendaSummary,
                                   store: TodoStore, context: Context, order: TodoOrder) throws {
        let progress = links.progress
        let placed = SubtaskTree(links: links.parents, listed: links.listed)
        var counted = summary
        for (section, moved) in placed.movedCounts { counted.counts[section, default: 0] += moved }
        // The title column holds the indented titles and the parents' progress too.
        for (id, listed) in links.listed {
            if let progress = progress[id] {
                let width = " \(progress.done)/\(progress.total)".utf8.count
                counted.widestTitle = max(counted.widestTitle, listed.titleWidth + 2 * placed.level(of: id) + width)
            } else if placed.isPlaced(id) {
                counted.widestTitle = max(counted.widestTitle, listed.titleWidth + 2 * placed.level(of: id))
            }
        }
        var printer = ListPrinter(context: context, summary: counted)
        func placedSubtasks(of id: Int64, level: Int) -> [(AgendaLine, Int)] {
            guard placed.hasSubtasks(id) else { return [] }
            return links.subtaskLines[id].filter { placed.isPlaced($0.id) }.reversed().map { ($0, level) }
        }
        try store.forEachAgendaLine(matching: query, agenda: context.agenda, order: order, leavingOut: placed.isPlaced,
                                    tags: links.tags) { section, line in
            printer.print(line, in: section, progress: progress[line.id])
            var stack = placedSubtasks(of: line.id, level: 1)
            while let (subtask, level) = stack.popLast() {
                printer.print(subtask, in: section, level: level, progress: progress[subtask.id])
                stack += placedSubtasks(of: subtask.id, level: level + 1)
            }
        }
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
                    || !query.tags.isEmpty || !query.excludedTags.isEmpty || query.filter != nil {
            context.print("No todos match.")
        } else if query.state == .completed {
            context.print("Nothing completed yet.")
        } else {
            context.print("Nothing to do. 'nudge list --all' shows completed todos too.")
        }
    }
}
