import NudgeCore
import NudgeRecurrence
import NudgeStore

enum ShowCommand: Command {
    static let json = Flag("json", "Print the todo as a JSON object")
    static let name = "show"
    static let declaration = CommandDeclaration(name, "Show every field of a todo", Operand("ID", .todo(.all)), json)
    static let jsonOutput = """
        An object with the keys of list --json:
        \(JSON.todoKeys)
        and these:
          repeat                     null, or {rule (as --repeat takes it, e.g. "every week"),
                                     rrule (the RFC 5545 RRULE, e.g. FREQ=WEEKLY), from (due or
                                     completion), start (where the series started: a wall
                                     time in the zone of zone, 2026-11-30T09:00, without an
                                     offset as it may fall in a DST gap; a day when all-day;
                                     or null), zone (the zone the due was set in, e.g.
                                     Europe/Berlin; null when all-day), except (the dates
                                     skipped, RFC 5545 EXDATE, in the form of start)}
          reminders                  the todo's own reminders (nudge remind), each {rule (its
                                     name in upcoming and explain), before (an offset such as
                                     1h, or null), at (ISO 8601, or null)}
          defaultReminders           false when added with --no-default-reminders
          snoozedUntil               ISO 8601 while snoozed, else null
          nextReminder               null, or {at (when it fires), rule (which rule made it,
                                     e.g. "before 10m", "nag 1"), nominal (when the rule says;
                                     earlier than at when quiet hours hold it)}
        """

    /// The skipped dates listed at most; a long skip (a month of a daily todo) is summed up.
    static let skippedShown = 10

    static func run(_ arguments: Arguments, context: Context) throws(CLIError) {
        let id = try todoID(arguments.positionals[0])
        let store = try context.store(.read)
        if arguments[Self.json] {
            let subject: ReminderSubject, next: Reminder?
            do {
                subject = try store.reminderSubject(id: id)
                next = subject.todo.isCompleted ? nil : try store.pendingReminders(subject).first
            } catch { throw CLIError(error) }
            context.printJSON(context.json(subject, nextReminder: next))
            return
        }
        let subject: ReminderSubject, parent: Todo?, subtasks: [Todo]
        do {
            subject = try store.reminderSubject(id: id)
            parent = try store.parent(of: subject.todo)
            subtasks = try store.subtasks(of: subject.todo)
        } catch { throw CLIError(error) }
        let todo = subject.todo
        let text = context.dueText
        var fields: [(String, String)] = []
        let state = if let completedAt = todo.completedAt {
            "done (completed " + text.long(completedAt) + ")"
        } else if context.agenda.isOverdue(todo) {
            context.styled("overdue", .red)
        } else {
            "pending"
        }
        fields.append(("Status", state))
        fields.append(("Due", todo.due.map { text.relative($0) + " (" + text.full($0) + ")" } ?? "none"))
        if todo.repetition != nil { fields.append(("Repeats", Terminal.visible(AddCommand.repeatText(todo.repetition)))) }
        // Those still ahead (from today on); --json lists them all.
        let today = context.agenda.today.start(in: context.calendar)
        let skipped = todo.skippedDues(localZone: context.zone).filter { $0.start(in: context.zone) >= today }
        if !skipped.isEmpty {
            let shown = skipped.prefix(Self.skippedShown).map { SkipCommand.shown($0, text: text) }
            let more = skipped.count > Self.skippedShown ? ["and \(skipped.count - Self.skippedShown) more"] : []
            fields.append(("Skipped", (shown + more).joined(separator: "\n")))
        }
        if !todo.isCompleted, let until = subject.snoozedUntil, until > context.now {
            fields.append(("Snoozed", "until " + text.long(until)))
        }
        fields.append(("Priority", todo.priority.description))
        fields.append(("Category", todo.category.map { Terminal.visible("\($0.name) (icon \($0.icon))") } ?? "none"))
        fields.append(("Tags", todo.tags.isEmpty ? "none" : Context.tagsText(todo.tags)))
        if let parent {
            fields.append(("Parent", "\(parent.id): " + Terminal.visible(parent.title)))
        } else if let uuid = todo.parentUUID {
            fields.append(("Parent", "not in this database (" + Terminal.visible(uuid) + "); listed as a todo of its own"))
        }
        if !subtasks.isEmpty {
            let done = subtasks.count { $0.isCompleted }
            let lines = subtasks.map { ($0.isCompleted ? "[x] " : "[ ] ") + "\($0.id): " + Terminal.visible($0.title) }
            fields.append(("Subtasks", (["\(done) of \(subtasks.count) done"] + lines).joined(separator: "\n")))
        }
        if !todo.after.isEmpty {
            let blockers: [Blocker]
            do { blockers = try store.blockers(of: [id])[id] ?? [] } catch { throw CLIError(error) }
            fields.append(("After", Context.blockersText(blockers)))
        }
        fields.append(("Notes", todo.notes.map { Terminal.visibleLines($0).joined(separator: "\n") } ?? "none"))
        fields.append(("Created", text.long(todo.createdAt)))
        fields.append(("Updated", text.long(todo.updatedAt)))
        fields.append(("UUID", todo.uuid))
        context.print(context.styled("Todo \(todo.id): ", .bold) + Terminal.visible(todo.title))
        for (label, value) in fields {
            let indent = "\n" + String(repeating: " ", count: 12)
            context.print("  " + label.padding(to: 10) + value.split(separator: "\n", omittingEmptySubsequences: false)
                .joined(separator: indent))
        }
    }
}
