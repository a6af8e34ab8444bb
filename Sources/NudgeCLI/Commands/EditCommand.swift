import NudgeCore
import NudgeRecurrence
import NudgeStore

enum EditCommand: Command {
    static let title = ValueOption("title", "T", "The new title", parse: validated(title:))
    static let notes = ValueOption("notes", "T", "The new notes; an empty text removes them")
    static let due = ValueOption("due", "WHEN", "The new due date (see 'nudge help add')", read: reading(_:context:))
    static let noDue = Flag("no-due", "Remove the due date")
    static let priority = ValueOption("priority", "P", "low, medium or high", choices: Choices.priorities, parse: priorityNamed)
    static let category = ValueOption("category", "NAME", "Move it into this category", completes: .category, parse: categoryName)
    static let noCategory = Flag("no-category", "Take it out of its category")
    static let repeatRule = ValueOption("repeat", "RULE", "Make it repeat (see 'nudge help add'); 'at 9' moves the due to that time", completes: .choices(Choices.repeatRules), parse: repeatReading)
    static let repeatFrom = ValueOption("repeat-from", "FROM", "With --repeat: due or completion", choices: Choices.repeatFrom, parse: repeatOrigin)
    static let tag = RepeatedOption("tag", "NAME", "Add this tag, as +NAME does; repeatable", completes: .tag) { text, _ throws(CLIError) in try TagWords.tag(text) }
    static let untag = RepeatedOption("untag", "NAME", "Remove this tag, as -NAME does; repeatable", completes: .tag) { text, _ throws(CLIError) in try TagWords.tag(text) }
    static let after = RepeatedOption("after", "ID", "Come after this todo too; repeatable",
                                      completes: .todo(.pending)) { text, _ throws(CLIError) in try EditCommand.todoID(text) }
    static let notAfter = RepeatedOption("not-after", "ID", "No longer come after this todo; repeatable",
                                         completes: .todo(.all)) { text, _ throws(CLIError) in try EditCommand.todoID(text) }
    static let noRepeat = Flag("no-repeat", "Stop it repeating")
    static let parent = ValueOption("parent", "ID", "Make it a subtask of this todo", completes: .todo(.pending), parse: todoID)
    static let noParent = Flag("no-parent", "Make it a todo of its own, no longer a subtask")
    static let json = Flag("json", "Print the todo as JSON afterwards")
    static let name = "edit"
    static let declaration = CommandDeclaration(
        name, "Change a todo's title, notes, due date, priority, category, tags, parent or blockers",
        Operand("ID", .todo(.pending)), TagWords(removing: true), title, notes, oneOf(due, noDue), priority,
        oneOf(category, noCategory), tag, untag, oneOf(parent, noParent), after, notAfter,
        oneOf(repeatRule.with(repeatFrom), noRepeat), json
    )
    static let jsonOutput = """
        The todo as saved, an object with the keys of list --json:
        \(JSON.todoKeys)
        """
    static let discussion = """
        Examples:
          nudge edit 12 --due "tomorrow 9am" --priority high
          nudge edit 12 --no-due --no-category
          nudge edit 12 +money -phone
          nudge edit 15 --parent 12
          nudge edit 15 --after 14 --not-after 9
          nudge edit 12 --repeat "every mon,thu at 18:30"
        """

    static func run(_ arguments: Arguments, context: Context) throws(CLIError) {
        let id = try todoID(arguments.positionals[0])
        let fields: [any OptionDeclaration] = [title, notes, due, noDue, priority,
                                               category, noCategory, tag, untag, parent, noParent, after, notAfter, repeatRule, noRepeat]
        let added = try tagsAdded(arguments, option: Self.tag), removed = try arguments.tagsRemoved + arguments[Self.untag]
        guard fields.contains(where: { arguments.given($0) }) || !added.isEmpty || !removed.isEmpty else {
            throw .usage("nothing to change; give +TAG, -TAG or at least one of " + fields.map { "--" + $0.option.name }.joined(separator: ", "))
        }
        let request = try repeatRequest(arguments, rule: repeatRule, from: repeatFrom)
        let store = try context.storeOfExisting()
        do {
            let old = try store.todos(ids: [id])[0]
            var todo = old
            if let title = try arguments[Self.title] { todo.title = title }
            if let text = try arguments[Self.notes] { todo.notes = notes(text) }
            var wallClock: SeriesStart?
            if let reading = try arguments[Self.due] {
                todo.setDue(reading.due, meantFor: reading.wallClock.time)
                wallClock = reading.wallClock
            }
            if arguments[Self.noDue] { todo.setDue(nil, meantFor: nil) }
            if let priority = try arguments[Self.priority] { todo.priority = priority }
            if let name = try arguments[Self.category] { todo.category = try store.category(named: name) }
            if arguments[Self.noCategory] { todo.category = nil }
            todo.tags = try tags(todo.tags, adding: added, removing: removed)
            if let parent = try arguments[Self.parent] { todo.parentUUID = try store.parentUUID(parent, forTodo: id) }
            if arguments[Self.noParent] { todo.parentUUID = nil }
            if let request {
                let repeating = try repeatingDue(todo.due, typed: wallClock, dueTyped: arguments.given(Self.due), request: request, context: context)
                todo.due = repeating.due
                wallClock = repeating.start
                todo.repetition = Repetition(rrule: request.reading.rule.rrule, from: request.from)
            }
            if arguments[Self.noRepeat] { todo.repetition = nil }
            if let repetition = todo.repetition {
                guard let due = todo.due else {
                    throw CLIError.usage("a repeating todo needs a due date to repeat from; give --due WHEN or --no-repeat")
                }
                // Checked with libical: a missing one is said, not taken for a rule it cannot read.
                try LibICalLibrary.open()
                if let rule = try? RepeatRule(parsing: "RRULE:" + repetition.rrule) { try rule.check(for: due) }
                // A new rule or a new due starts the series again from the due, at the time typed
                // or the old series' time (either may be one a DST gap moved the due away from).
                if request != nil || todo.due != old.due {
                    todo.repetition?.start = wallClock ?? SeriesStart(due, wallTime: old.repetition?.start?.time ?? old.dueWallTime)
                }
            }
            var changes = differences(old, todo, context: context)
            if old.parentUUID != todo.parentUUID {
                let name = { (todo: Todo) throws(StoreError) in try store.parent(of: todo).map { String($0.id) } ?? "none" }
                changes.append(("parent", try name(old), try name(todo)))
            }
            let fieldsChanged = !changes.isEmpty
            let adding = try arguments[Self.after], removing = try arguments[Self.notAfter]
            let changesBlockers = !adding.isEmpty || !removing.isEmpty
            let before = changesBlockers ? try store.blockers(of: [id])[id] ?? [] : []
            // In one transaction: a blocker refused leaves the other changes unmade too.
            let saved: Todo
            if fieldsChanged {
                saved = try store.update(todo, addingBlockers: adding, removingBlockers: removing, now: context.now)
            } else {
                if changesBlockers { _ = try store.changeBlockers(todoID: id, adding: adding, removing: removing, now: context.now) }
                saved = try store.todos(ids: [id])[0]
            }
            if changesBlockers {
                let after = try store.blockers(of: [id])[id] ?? []
                if before != after { changes.append(("after", Context.blockersText(before), Context.blockersText(after))) }
            }
            if arguments[Self.json] {
                context.printJSON(context.json(saved))
            } else if changes.isEmpty {
                context.print("Nothing changed for \(saved.id): \(Terminal.visible(saved.title))")
            } else {
                context.print("Updated \(saved.id): \(Terminal.visible(saved.title))")
                for (field, before, after) in changes {
                    context.print("  " + field.padding(to: 9) + Terminal.visible(before) + " → " + Terminal.visible(after))
                }
            }
        } catch {
            throw CLIError(error)
        }
    }

    private static func differences(_ old: Todo, _ new: Todo, context: Context) -> [(String, String, String)] {
        let text = context.dueText
        var changes: [(String, String, String)] = []
        if old.title != new.title { changes.append(("title", old.title, new.title)) }
        if old.notes != new.notes {
            changes.append(("notes", old.notes.map { "(\($0.count) characters)" } ?? "none",
                            new.notes.map { "(\($0.count) characters)" } ?? "none"))
        }
        if old.due != new.due {
            changes.append(("due", old.due.map(text.relative) ?? "none", new.due.map(text.relative) ?? "none"))
        }
        if old.priority != new.priority { changes.append(("priority", "\(old.priority)", "\(new.priority)")) }
        if old.repetition?.rrule != new.repetition?.rrule || old.repetition?.from != new.repetition?.from {
            changes.append(("repeat", repeatText(old.repetition), repeatText(new.repetition)))
        }
        if old.category?.id != new.category?.id {
            changes.append(("category", old.category?.name ?? "none", new.category?.name ?? "none"))
        }
        if old.tags.map(Tag.folded) != new.tags.map(Tag.folded) {
            // Made visible when printed, as the other fields.
            let text = { (tags: [String]) in tags.isEmpty ? "none" : tags.map { "+" + $0 }.joined(separator: " ") }
            changes.append(("tags", text(old.tags), text(new.tags)))
        }
        return changes
    }
}
