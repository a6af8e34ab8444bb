import Foundation
import NudgeCore
import NudgeRecurrence
import NudgeStore

enum AddCommand: Command {
    static let notes = ValueOption("notes", "TEXT", "Notes; may span several lines")
    static let due = ValueOption("due", "WHEN", "When it is due: 2026-12-24, tomorrow 9am, fri, in 2h, dec 24, ...", read: reading(_:context:))
    static let priority = ValueOption("priority", "P", "low, medium (the default) or high", choices: Choices.priorities, parse: priorityNamed)
    static let category = ValueOption("category", "NAME", "A category made with 'nudge category add'", completes: .category, parse: categoryName)
    static let remind = RepeatedOption("remind", "OFFSET|WHEN", "Also remind this long before the due (1h) or at this moment (fri 9am); repeatable", read: reminder(_:context:))
    static let tag = RepeatedOption("tag", "NAME", tagOption, completes: .tag) { text, _ throws(CLIError) in try TagWords.tag(text) }
    static let after = RepeatedOption("after", "ID", "Come after this todo: reminders wait until it is done; repeatable",
                                      completes: .todo(.pending)) { text, _ throws(CLIError) in try AddCommand.todoID(text) }
    static let noDefaultReminders = Flag("no-default-reminders", "Only the --remind reminders, not the config file's rules")
    static let repeatRule = ValueOption("repeat", "RULE", "daily, weekdays, every 2 weeks, every 2h [between 09:00-18:00], every mon,thu, every 2nd tue, last fri of month, every month on the 15th, or RRULE:...; may end in 'at 9'", completes: .choices(Choices.repeatRules), parse: repeatReading)
    static let repeatFrom = ValueOption("repeat-from", "FROM", "due (the default): keep the rhythm; completion: count from when it was done", choices: Choices.repeatFrom, parse: repeatOrigin)
    static let parent = ValueOption("parent", "ID", "Make it a subtask of this todo", completes: .todo(.pending), parse: todoID)
    static let json = Flag("json", "Print the new todo as JSON")
    static let name = "add"
    static let declaration = CommandDeclaration(
        name, "Add a todo",
        Operand("TITLE", .text, .words), TagWords(removing: false), notes, due, priority, category, tag, parent, after, remind, noDefaultReminders,
        repeatRule.with(repeatFrom), json
    )
    static let jsonOutput = """
        The todo added, an object with the keys of list --json:
        \(JSON.todoKeys)
        """
    static let discussion = """
        The words of the title may be given unquoted; they are joined with spaces.
        A word +NAME among them is a tag: one word of letters, digits, - and _ (at most 64),
        matched without regard to case ('nudge list +NAME').
        A due date without a time is an all-day due. A todo --after another is blocked
        until that one is done: 'list' says so, and its reminders wait (see 'nudge help config').
        A --parent todo lists its subtasks under it; subtasks go at most 8 levels deep.

        A --repeat rule is printed back with its RRULE. "every 2nd tue" is the second Tuesday
        of each month; "every 2h between 09:00-18:00" rings at the due's minute from 09:00 up
        to, not including, 18:00. A rule ending in "at TIME" sets the due's time of day; without
        --due the todo is due at the rule's first occurrence from now on. Hourly rules need a
        due with a time of day.

        Examples:
          nudge add "Buy milk" --due tomorrow
          nudge add Call the dentist --due "fri 10am" --priority high
          nudge add "Quarterly report" --category work --notes "With slides"
          nudge add Call the bank +money +phone
          nudge add "Buy paint" --parent 12
          nudge add Deploy --after 14 --due fri
          nudge add "Water plants" --due "sat 10am" --repeat weekly --remind 1d
          nudge add Standup --repeat "every weekday at 9"
          nudge add Stretch --due "today 10am" \\
            --repeat "every 2h between 09:00-18:00"
        """

    static func run(_ arguments: Arguments, context: Context) throws(CLIError) {
        let words = arguments.positionals
        var new = NewTodo(title: try validated(title: words.joined(separator: " ")))
        new.notes = try arguments[Self.notes].flatMap(notes)
        var wallClock: SeriesStart?
        if let reading = try arguments[Self.due] {
            new.due = reading.due
            new.dueWallTime = reading.due.wallTimeKept(reading.wallClock.time)
            wallClock = reading.wallClock
        }
        if let priority = try arguments[Self.priority] { new.priority = priority }
        new.categoryName = try arguments[Self.category]
        new.tags = try tags([], adding: tagsAdded(arguments, option: Self.tag), removing: [])
        new.after = try arguments[Self.after]
        new.reminders = try arguments[Self.remind]
        new.usesDefaultRules = !arguments[Self.noDefaultReminders]
        new.parentID = try arguments[Self.parent]
        if let request = try repeatRequest(arguments, rule: repeatRule, from: repeatFrom) {
            let repeating = try repeatingDue(new.due, typed: wallClock, dueTyped: true, request: request, context: context)
            new.due = repeating.due
            // The series keeps the time typed, also when a DST gap moved the first due.
            new.repetition = Repetition(rrule: request.reading.rule.rrule, from: request.from, start: repeating.start)
        }
        if new.due == nil, new.reminders.contains(where: { if case .before = $0 { true } else { false } }) {
            throw .usage("--remind with an offset needs a due date to count back from; add --due WHEN, or remind at a moment (--remind \"fri 9am\")")
        }
        // A category or a parent must exist already: without a database file there is none,
        // and the refusal should not leave a new file behind.
        let store = try new.categoryName == nil && new.parentID == nil ? context.store(.write) : context.storeOfExisting()
        let todo: Todo
        do { todo = try store.add(new, now: context.now) } catch { throw CLIError(error) }
        if arguments[Self.json] {
            context.printJSON(context.json(todo))
        } else {
            context.print("Added " + context.summary(todo))
            if !new.after.isEmpty {
                let blockers = (try? store.blockers(of: [todo.id])[todo.id]) ?? []
                context.print("After: " + Context.blockersText(blockers))
            }
            if let repetition = todo.repetition { context.print("Repeats: " + Terminal.visible(repeatText(repetition))) }
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

    static func dueNamed(_ text: String, context: Context) throws(CLIError) -> Due {
        try reading(text, context: context).due
    }

    /// The due a WHEN names, and the day and wall-clock time typed.
    static func reading(_ text: String, context: Context) throws(CLIError) -> WhenParser.Reading {
        do { return try context.whenParser().read(text) } catch { throw CLIError(error) }
    }

    /// An offset before the due (`10m`, `1d`), or a moment (`fri 9am`; a day alone means that
    /// day at the config's `all_day_time`). A moment that has passed is refused, as `snooze`
    /// refuses one: it would be kept and shown, but could never fire.
    static func reminder(_ text: String, context: Context) throws(CLIError) -> CustomReminder {
        if let span = try? TimeSpan(parsing: text) { return .before(span) }
        guard let due = try? context.whenParser().parse(text) else {
            throw .usage("can't read '\(text)' as a reminder; give an offset before the due (10m, 1h, 1d) or a moment (tomorrow 9am, fri 14:00, in 2h)")
        }
        let moment: Date
        switch due {
        case .at(let instant, _):
            moment = instant
        case .allDay(let day):
            let time = try context.config().reminders.allDayTime
            moment = day.at(hour: time.hour, minute: time.minute, in: context.calendar)
        }
        guard moment > context.now else {
            throw .usage("'\(text)' is \(context.dueText.long(moment)), which has already passed; remind at a later moment, or give an offset before the due (10m, 1h, 1d)")
        }
        return .at(moment)
    }

    /// `--repeat RULE [--repeat-from due|completion]`: the rule, the time of day its `at` gives
    /// the due, and where it counts from; nil without `--repeat`.
    static func repeatRequest(_ arguments: Arguments, rule: ValueOption<RepeatRule.Reading>,
                              from fromOption: ValueOption<RepeatFrom>) throws(CLIError) -> (reading: RepeatRule.Reading, from: RepeatFrom)? {
        guard let reading = try arguments[rule] else {
            if arguments.given(fromOption) { throw .usage("--repeat-from goes with --repeat RULE") }
            return nil
        }
        return (reading, try arguments[fromOption] ?? .due)
    }

    /// A --repeat RULE, and the time of day its `at` gives.
    static func repeatReading(_ text: String) throws(CLIError) -> RepeatRule.Reading {
        do { return try RepeatRule.read(text) } catch { throw CLIError(error) }
    }

    static func repeatOrigin(_ name: String) throws(CLIError) -> RepeatFrom {
        guard let from = RepeatFrom(rawValue: name.lowercased()) else {
            throw .usage("--repeat-from takes due or completion, not '\(name)'")
        }
        return from
    }

    /// The due of a todo given `--repeat`, and the wall-clock start of its series (nil: the
    /// caller's). Without a due it is the rule's first occurrence from now on; `at TIME` sets
    /// the due's time of day, and refuses a different time typed with `--due` (`dueTyped`).
    static func repeatingDue(_ due: Due?, typed: SeriesStart?, dueTyped: Bool, request: (reading: RepeatRule.Reading, from: RepeatFrom),
                             context: Context) throws(CLIError) -> (due: Due, start: SeriesStart?) {
        let rule = request.reading.rule
        var result: (due: Due, start: SeriesStart?)
        switch (due, request.reading.time) {
        case (nil, let time):
            guard let first = rule.firstDue(now: context.now, zone: context.zone, time: time) else {
                throw .usage("'\(rule)' has no occurrence from now on; give the first due with --due WHEN")
            }
            result = (first.due, first.start)
        case (let due?, nil):
            result = (due, typed)
        case (.allDay(let day)?, let time?):
            result = (.at(day.at(hour: time.hour, minute: time.minute, in: context.calendar), zone: context.zone),
                      SeriesStart(day: day, time: time))
        case (.at(let instant, let zone)?, let time?):
            let clock = WallClock(zone: zone)
            let (hour, minute, _) = clock.time(of: instant)
            let dueTime = typed?.time ?? TimeOfDay(hour: hour, minute: minute)
            if dueTyped, dueTime != time {
                throw .usage("--due gives \(dueTime.map(\.description) ?? "a time") but --repeat says at \(time); give the time once")
            }
            let day = typed?.day ?? clock.day(of: instant)
            result = (.at(day.at(hour: time.hour, minute: time.minute, in: .nudge(zone: zone)), zone: zone), SeriesStart(day: day, time: time))
        }
        do { try rule.check(for: result.due) } catch { throw CLIError(error) }
        return result
    }

    /// "every mon,thu (RRULE:FREQ=WEEKLY;BYDAY=MO,TH)", with " from completion" when it counts from there.
    static func repeatText(_ repetition: Repetition?) -> String {
        guard let repetition else { return "never" }
        let rule = (try? RepeatRule(parsing: "RRULE:" + repetition.rrule))?.shownBack ?? repetition.rrule
        return repetition.from == .due ? rule : rule + " from completion"
    }

    static func priorityNamed(_ text: String) throws(CLIError) -> Priority {
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

    /// A name for a category being made or renamed: one an iCalendar file can carry. libical
    /// writes CATEGORIES values unescaped and reads a comma as between two categories, so
    /// "a,b" would reach the vdir and other machines as "a" (and "b"). Names already there,
    /// from an import, can still be used and deleted.
    static func newCategoryName(_ text: String) throws(CLIError) -> String {
        let name = try categoryName(text)
        guard !name.contains(",") else {
            throw .usage("a category name cannot hold a comma: iCalendar files (sync, export) would read it as two categories")
        }
        return name
    }
}
