import Foundation
import NudgeCore
import NudgePlatform
import NudgeRecurrence
import NudgeStore

enum ExplainCommand: Command {
    static let usesLibICal = true
    static let json = Flag("json", "Print the todo's reminders, their rules and reasons as JSON")
    static let name = "explain"
    static let declaration = CommandDeclaration(name, "Show every reminder of a todo: when, which rule, and why", Operand("ID", .todo(.pending)), json)
    static let discussion = """
        A repeating todo also shows its next five dues, each as if the one before were done
        when due, and the dates skipped among them (nudge skip).
        """
    static let jsonOutput = """
        An object:
          id, title, due, allDay   as in show --json
          tags                     as in show --json: an array of its tags
          repeat                   as in show --json: null or {rule, rrule, from, start, zone,
                                   except}
          rules                    the config sections whose rules apply ("[reminders]",
                                   "[priority.high]", "[category.work]", "[tag.money]"), the
                                   weakest first; empty when added with
                                   --no-default-reminders
          defaultReminders         false when added with --no-default-reminders
          snoozedUntil             ISO 8601 while snoozed, else null
          completed                true when done: then reminders is empty
          nextDues                 a repeating todo's next five dues (ISO 8601, or a date when
                                   all-day), each as if the one before were done when due;
                                   fewer when the series ends; empty when it does not repeat
          skippedDues              the dues skipped (nudge skip) after its due and up to the
                                   last of nextDues, in the same form
          reminders                every reminder, in order, each {at (ISO 8601, when it fires),
                                   nominal (when its rule says; earlier when quiet hours hold
                                   it), rule (e.g. "before 10m", "due", "nag 1", "remind 1h",
                                   "snooze"), status (fired, planned, due, passed or snoozed),
                                   firedAt (ISO 8601 when fired, else null), why (the config key
                                   and section, or its own reminder)}
          alerts                   how its notifications get attention: {sound (a sound name,
                                   a file's path, or none), soundKind (name, file or none),
                                   soundFrom (the section that set it, or null for the
                                   priority's default), repeatSound (whether every nag plays
                                   it), silentInQuietHours (the quiet hours, e.g.
                                   22:00-07:00, that silence it, or null), timeout (never,
                                   server, or a time such as 45s),
                                   timeoutFrom (as soundFrom), resident (true or false),
                                   escalateAfter (the nag from which it is critical, or null),
                                   escalates (whether its nags reach that one)}
        """

    /// One reminder of the todo and what became of it.
    struct Explained {
        enum Status: String { case fired, planned, due, passed, snoozed }
        let reminder: Reminder
        let status: Status
        let firedAt: Date?
        let why: String
    }

    static func run(_ arguments: Arguments, context: Context) throws(CLIError) {
        let id = try todoID(arguments.positionals[0])
        let store = try context.store(.read)
        let subject: ReminderSubject
        let firings: [Firing]
        do {
            subject = try store.reminderSubject(id: id)
            firings = try store.firings(todoID: id)
        } catch {
            throw CLIError(error)
        }
        let planner = store.planner
        let todo = subject.todo
        let text = context.dueText
        let explained = todo.isCompleted ? [] : explain(subject, firings: firings, planner: planner, now: context.now, text: text)
        let preview: (dues: [Due], skipped: [Due])
        do { preview = todo.isCompleted ? ([], []) : try nextDues(todo, context: context) } catch {
            throw .failed(error.description)
        }
        if arguments[Self.json] {
            context.printJSON(json(subject, explained: explained, preview: preview, config: planner.config, context: context))
            return
        }
        context.print(context.styled("Todo \(todo.id): ", .bold) + Terminal.visible(todo.title))
        context.print("  Due       " + (todo.due.map { text.relative($0) + " (" + text.full($0) + ")" } ?? "none"))
        if !todo.tags.isEmpty { context.print("  Tags      " + Context.tagsText(todo.tags)) }
        if let repetition = todo.repetition {
            let rule = (try? RepeatRule(parsing: "RRULE:" + repetition.rrule))?.shownBack ?? repetition.rrule
            context.print("  Repeats   \(Terminal.visible(rule)), counted from the \(repetition.from == .due ? "due date" : "completion")")
            if !todo.isCompleted { printNextDues(preview, context: context) }
        }
        let sections = ["[reminders]"] + origins(todo, config: planner.config)
        context.print("  Rules     " + (subject.usesDefaultRules ? Terminal.visible(sections.joined(separator: " + ")) : "none (added with --no-default-reminders)"))
        if let until = subject.snoozedUntil, until > context.now {
            context.print("  Snoozed   until " + text.relative(.at(until, zone: context.zone)))
        }
        let open: [Blocker]
        do { open = todo.after.isEmpty || todo.isCompleted ? [] : try store.blockers(of: [id])[id]?.filter { !$0.isDone } ?? [] } catch {
            throw CLIError(error)
        }
        if !open.isEmpty {
            let after = "after " + Context.blockersText(open)
            context.print("  Blocked   " + (planner.config.holdBlocked ? "held: \(after)"
                                                                      : "\(after); not held ([reminders] hold_blocked = no)"))
        }
        alertLines(todo, config: planner.config).forEach { context.print($0) }
        if todo.isCompleted {
            context.print()
            context.print("It is done, so nothing reminds any more.")
            return
        }
        context.print()
        guard !explained.isEmpty else {
            context.print(todo.due == nil
                ? "Nothing reminds: it has no due date and no reminders of its own ('nudge remind \(id) --add WHEN')."
                : todo.due?.isWithinYears == false
                ? "Nothing reminds: its due is outside the years 0001-9999; set another with: nudge edit \(id) --due WHEN"
                : "Nothing reminds: the rules give it no reminders.")
            return
        }
        let rows = explained.map { item in
            let status = switch item.status {
            case .fired: "fired " + clockTime(item.firedAt ?? item.reminder.at, text: text)
            case .planned: "in " + UpcomingCommand.left(from: context.now, to: item.reminder.at)
            case .due: "due now"
            case .passed: "passed"
            case .snoozed: "snoozed"
            }
            return [UpcomingCommand.whenText(item.reminder.at, text: text), UpcomingCommand.shownRule(item.reminder.rule.description),
                    status, item.why]
        }
        context.printTable(header: ["WHEN", "RULE", "STATUS", "WHY"], rows: rows)
    }

    /// Every reminder of a pending todo in order of firing, those a snooze replaced included,
    /// each with what became of it and why it is there.
    static func explain(_ subject: ReminderSubject, firings: [Firing], planner: ReminderPlanner, now: Date,
                        text: DueText) -> [Explained] {
        let todo = subject.todo
        let reminders = planner.all(subject)
        var unsnoozed = subject
        unsnoozed.snoozedUntil = nil
        // What the snooze replaced, fired or not, is still part of the story.
        let replaced = planner.all(unsnoozed).filter { candidate in
            !reminders.contains { $0.rule == candidate.rule && $0.at == candidate.at }
        }
        let fired = Dictionary(firings.map { ("\($0.rule)@\($0.at.timeIntervalSince1970)", $0) }) { first, _ in first }
        var explained: [Explained] = []
        for reminder in reminders {
            let firing = fired["\(reminder.rule)@\(reminder.at.timeIntervalSince1970)"]
            let status: Explained.Status
            if firing != nil {
                status = .fired
            } else if reminder.at > (subject.remindedThrough ?? .distantPast) {
                status = reminder.at > now ? .planned : .due
            } else {
                // Before the todo was added or last changed, or skipped while the service was not running.
                status = .passed
            }
            var why = reason(reminder.rule, todo: todo, config: planner.config)
            if reminder.isHeldByQuietHours, let quiet = planner.config.quietHours {
                why += "; held from " + clockTime(reminder.nominal, text: text)
                    + " by quiet hours \(quiet.start)-\(quiet.end)"
            }
            explained.append(Explained(reminder: reminder, status: status, firedAt: firing?.firedAt, why: why))
        }
        for reminder in replaced {
            let firing = fired["\(reminder.rule)@\(reminder.at.timeIntervalSince1970)"]
            let status: Explained.Status = firing != nil ? .fired
                : reminder.at > (subject.remindedThrough ?? .distantPast) ? .snoozed : .passed
            explained.append(Explained(reminder: reminder, status: status, firedAt: firing?.firedAt,
                                       why: reason(reminder.rule, todo: todo, config: planner.config)))
        }
        // Stable: reminders at one moment keep the planner's order.
        return explained.enumerated().sorted { ($0.element.reminder.at, $0.offset) < ($1.element.reminder.at, $1.offset) }.map(\.element)
    }

    static func json(_ subject: ReminderSubject, explained: [Explained], preview: (dues: [Due], skipped: [Due]), config: NudgeConfig,
                     context: Context) -> JSON {
        let todo = subject.todo
        let clock = WallClock(zone: context.zone)
        let rules = subject.usesDefaultRules ? ["[reminders]"] + origins(todo, config: config) : []
        let snoozed = subject.snoozedUntil.flatMap { $0 > context.now ? $0 : nil }
        return .object([
            ("id", .int(todo.id)), ("title", .string(todo.title)), ("due", context.jsonDue(todo.due)),
            ("allDay", .bool(todo.due?.isAllDay ?? false)), ("tags", .array(todo.tags.map(JSON.string))), ("repeat", context.json(todo.repetition, due: todo.due)),
            ("rules", .array(rules.map(JSON.string))), ("defaultReminders", .bool(subject.usesDefaultRules)),
            ("snoozedUntil", .string(snoozed.map(clock.iso8601))), ("completed", .bool(todo.isCompleted)),
            ("reminders", .array(explained.map { item in
                .object([("at", .string(clock.iso8601(item.reminder.at))), ("nominal", .string(clock.iso8601(item.reminder.nominal))),
                         ("rule", .string(item.reminder.rule.description)), ("status", .string(item.status.rawValue)),
                         ("firedAt", .string(item.firedAt.map(clock.iso8601))), ("why", .string(item.why))])
            })),
            ("nextDues", .array(preview.dues.map(context.jsonDue))),
            ("skippedDues", .array(preview.skipped.map(context.jsonDue))),
            ("alerts", alertJSON(todo, config: config)),
        ])
    }

    /// "14:05", or "2:05 PM" where the locale's clock has 12 hours.
    static func clockTime(_ date: Date, text: DueText) -> String {
        let (hour, minute, _) = text.clock.time(of: date)
        return text.time(hour: hour, minute: minute)
    }

    static let previewedDues = 5

    /// The next dues of a repeating todo, one a line, in the local zone as the Due line above
    /// them and `--json` are (the series follows its own zone's clock; read in another zone,
    /// its 09:00 is shown as the local time it falls at):
    /// "  Then      Thu Dec 3 09:00 (if each is done when due)".
    static func printNextDues(_ preview: (dues: [Due], skipped: [Due]), context: Context) {
        let (dues, skipped) = preview
        let lines = (dues.map { ($0, false) } + skipped.map { ($0, true) }).sorted { $0.0.start(in: context.zone) < $1.0.start(in: context.zone) }
        for (index, (due, isSkipped)) in lines.enumerated() {
            let when = switch due {
            case .at(let instant, _): UpcomingCommand.whenText(instant, text: context.dueText)
            case .allDay(let day): UpcomingCommand.dayText(day, text: context.dueText)
            }
            let isFirstDue = !isSkipped && !lines[..<index].contains { !$0.1 }
            let note = isSkipped ? "  skipped" : isFirstDue ? "  (if each is done when due)" : ""
            context.print((index == 0 ? "  Then      " : "            ") + when + note)
        }
        if dues.count < previewedDues {
            context.print((dues.isEmpty ? "  Then      " : "            ") + "nothing more: the series ends")
        }
    }

    /// The next dues of a repeating todo, and the skipped dates among them: after its due,
    /// and up to the last of the next dues unless the series ends before. Throws when libical
    /// cannot be opened.
    static func nextDues(_ todo: Todo, context: Context) throws(LibraryLoadError) -> (dues: [Due], skipped: [Due]) {
        guard todo.repetition != nil else { return ([], []) }
        let dues = try todo.nextDues(previewedDues, now: context.now, localZone: context.zone)
        guard let due = todo.due else { return (dues, []) }
        let last = dues.count < previewedDues ? nil : dues.last?.start(in: context.zone)
        let skipped = todo.skippedDues(localZone: context.zone).filter { skipped in
            skipped.start(in: context.zone) > due.start(in: context.zone) && last.map { skipped.start(in: context.zone) <= $0 } ?? true
        }
        return (dues, skipped)
    }

    /// The config sections besides [reminders] that set rules for this todo.
    static func origins(_ todo: Todo, config: NudgeConfig) -> [String] {
        config.sections(priority: todo.priority, category: todo.category?.name, tags: todo.tags).map(\.name)
    }

    /// The section that set a key for this todo: the strongest of its sections that sets it.
    static func section(setting isSet: (RuleOverrides) -> Bool, todo: Todo, config: NudgeConfig) -> String {
        config.sections(priority: todo.priority, category: todo.category?.name, tags: todo.tags)
            .last { isSet($0.overrides) }?.name ?? "[reminders]"
    }

    /// Which config key made this reminder, and in which section it was set.
    static func reason(_ rule: ReminderRule, todo: Todo, config: NudgeConfig) -> String {
        let rules = config.rules(for: todo)
        func section(_ isSet: (RuleOverrides) -> Bool) -> String {
            Self.section(setting: isSet, todo: todo, config: config)
        }
        switch rule {
        case .before:
            return "before = " + rules.before.map(\.description).joined(separator: ", ") + " in " + section { $0.before != nil }
        case .due:
            return "at_due = yes in " + section { $0.atDue != nil }
        case .allDay:
            return "all-day todo: all_day_time = \(rules.allDayTime) in " + section { $0.allDayTime != nil }
        case .dayBefore:
            return "all_day_day_before = yes in " + section { $0.allDayDayBefore != nil }
        case .nag:
            let limit = rules.nagLimit.map { ", nag_limit = \($0)" } ?? ""
            return "overdue: nag_every = \(rules.nagEvery.map(\.description) ?? "off")\(limit) in " + section { $0.nagEvery != nil || $0.nagLimit != nil }
        case .custom:
            return "its own reminder (nudge remind)"
        case .snooze:
            return "snoozed"
        case .digest:
            return "[digest]"
        }
    }
}
