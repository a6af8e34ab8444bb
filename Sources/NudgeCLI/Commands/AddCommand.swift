import NudgeCore
import NudgeRecurrence
import NudgeStore

enum AddCommand: Command {
    static let name = "add"
    static let abstract = "Add a todo"
    static let usage = "nudge add TITLE [--notes TEXT] [--due WHEN] [--priority low|medium|high] [--category NAME] [--remind OFFSET|WHEN]... [--no-default-reminders] [--repeat RULE [--repeat-from due|completion]]"
    static let operands = Operands.many(.text)
    static let options: [Option] = [
        .value("notes", "TEXT", "Notes; may span several lines"),
        .value("due", "WHEN", "When it is due: 2026-12-24, tomorrow 9am, fri, in 2h, dec 24, ..."),
        .value("priority", "P", "low, medium (the default) or high", choices: Choices.priorities),
        .value("category", "NAME", "A category made with 'nudge category add'", completes: .category),
        .value("remind", "OFFSET|WHEN", "Also remind this long before the due (1h) or at this moment (fri 9am); repeatable", repeatable: true),
        .flag("no-default-reminders", "Only the --remind reminders, not the config file's rules"),
        .value("repeat", "RULE", "daily, weekdays, weekly, monthly, yearly, every N days|weeks|months, or RRULE:...",
                choices: Choices.repeatRules),
        .value("repeat-from", "FROM", "due (the default): keep the rhythm; completion: count from when it was done",
                choices: Choices.repeatFrom),
        .flag("json", "Print the new todo as JSON"),
    ]
    static let discussion = """
        The words of the title may be given unquoted; they are joined with spaces.
        A due date without a time is an all-day due.

        Examples:
          nudge add "Buy milk" --due tomorrow
          nudge add Call the dentist --due "fri 10am" --priority high
          nudge add "Quarterly report" --category work --notes "Slides from Ana"
          nudge add "Water plants" --due "sat 10am" --repeat weekly --remind 1d
        """

    static func run(_ arguments: Arguments, context: Context) throws(CLIError) {
        let words = try arguments.positionals(min: 1, usage: usage)
        var new = NewTodo(title: try validated(title: words.joined(separator: " ")))
        new.notes = arguments.value("notes").flatMap(notes)
        var wallClock: SeriesStart?
        if let when = arguments.value("due") {
            let reading = try reading(when, context: context)
            new.due = reading.due
            wallClock = reading.wallClock
        }
        if let name = arguments.value("priority") { new.priority = try priority(name) }
        if let name = arguments.value("category") { new.categoryName = try categoryName(name) }
        new.reminders = try arguments.all("remind").map { text throws(CLIError) in try reminder(text, context: context) }
        new.usesDefaultRules = !arguments.has("no-default-reminders")
        new.repetition = try repetition(arguments)
        // The series keeps the time typed, also when a DST gap moved the first due.
        new.repetition?.start = wallClock
        if new.due == nil {
            if new.reminders.contains(where: { if case .before = $0 { true } else { false } }) {
                throw .usage("--remind with an offset needs a due date to count back from; add --due WHEN, or remind at a moment (--remind \"fri 9am\")")
            }
            if new.repetition != nil {
                throw .usage("a repeating todo needs a due date to repeat from; add --due WHEN")
            }
        }
        let todo: Todo
        do { todo = try context.store(.write).add(new, now: context.now) } catch { throw CLIError(error) }
        if arguments.has("json") {
            context.printJSON(context.json(todo))
        } else {
            context.print("Added " + context.summary(todo))
        }
    }
}

// The readers of field values shared by `add` and `edit`.
extension Command {
    static func validated(title: String) throws(CLIError) -> String {
        do { return try Todo.validatedTitle(title) } catch { throw CLIError(error) }
    }

    static func notes(_ text: String) -> String? {
        text.trimmingWhitespace().isEmpty ? nil : text
    }

    static func due(_ text: String, context: Context) throws(CLIError) -> Due {
        try reading(text, context: context).due
    }

    /// The due a WHEN names, and the day and wall-clock time typed.
    static func reading(_ text: String, context: Context) throws(CLIError) -> WhenParser.Reading {
        do { return try context.whenParser().read(text) } catch { throw CLIError(error) }
    }

    /// An offset before the due (`10m`, `1d`), or a moment (`fri 9am`; a day alone means that
    /// day at the config's `all_day_time`).
    static func reminder(_ text: String, context: Context) throws(CLIError) -> CustomReminder {
        if let span = try? TimeSpan(parsing: text) { return .before(span) }
        guard let due = try? context.whenParser().parse(text) else {
            throw .usage("can't read '\(text)' as a reminder; give an offset before the due (10m, 1h, 1d) or a moment (tomorrow 9am, fri 14:00, in 2h)")
        }
        switch due {
        case .at(let instant, _):
            return .at(instant)
        case .allDay(let day):
            let time = try context.config().reminders.allDayTime
            return .at(day.at(hour: time.hour, minute: time.minute, in: context.calendar))
        }
    }

    /// `--repeat RULE [--repeat-from due|completion]`, or nil without `--repeat`.
    static func repetition(_ arguments: Arguments) throws(CLIError) -> Repetition? {
        guard let text = arguments.value("repeat") else {
            if arguments.has("repeat-from") { throw .usage("--repeat-from goes with --repeat RULE") }
            return nil
        }
        let rule: RepeatRule
        do { rule = try RepeatRule(parsing: text) } catch { throw CLIError(error) }
        var from = RepeatFrom.due
        if let name = arguments.value("repeat-from") {
            guard let chosen = RepeatFrom(rawValue: name.lowercased()) else {
                throw .usage("--repeat-from takes due or completion, not '\(name)'")
            }
            from = chosen
        }
        return Repetition(rrule: rule.rrule, from: from)
    }

    static func priority(_ text: String) throws(CLIError) -> Priority {
        guard let priority = Priority(name: text) else {
            throw .usage("'\(text)' is not a priority; use low, medium or high")
        }
        return priority
    }

    static func categoryName(_ text: String) throws(CLIError) -> String {
        let name = text.trimmingWhitespace()
        guard !name.isEmpty else { throw .usage("the category name is empty; give a name like work") }
        guard name.count <= 100, !name.contains(where: \.isNewline) else {
            throw .usage("a category name is one line of at most 100 characters")
        }
        return name
    }
}
