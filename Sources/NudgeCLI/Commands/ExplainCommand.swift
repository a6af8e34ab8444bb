import Foundation
import NudgeCore
import NudgeRecurrence
import NudgeStore

enum ExplainCommand: Command {
    static let name = "explain"
    static let abstract = "Show every reminder of a todo: when, which rule, and why"
    static let usage = "nudge explain ID"
    static let operands = Operands.one(.todo(.pending))
    static let options: [Option] = []

    static func run(_ arguments: Arguments, context: Context) throws(CLIError) {
        let id = try todoID(arguments.positionals(min: 1, max: 1, usage: usage)[0])
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
        context.print(context.styled("Todo \(todo.id): ", .bold) + Terminal.visible(todo.title))
        context.print("  Due       " + (todo.due.map { text.relative($0) + " (" + text.full($0) + ")" } ?? "none"))
        if let repetition = todo.repetition {
            let rule = (try? RepeatRule(parsing: "RRULE:" + repetition.rrule))?.description ?? repetition.rrule
            context.print("  Repeats   \(Terminal.visible(rule)), counted from the \(repetition.from == .due ? "due date" : "completion")")
        }
        let sections = ["[reminders]"] + origins(todo, config: planner.config)
        context.print("  Rules     " + (subject.usesDefaultRules ? Terminal.visible(sections.joined(separator: " + ")) : "none (added with --no-default-reminders)"))
        if let until = subject.snoozedUntil, until > context.now {
            context.print("  Snoozed   until " + text.relative(.at(until, zone: context.zone)))
        }
        if todo.isCompleted {
            context.print()
            context.print("It is done, so nothing reminds any more.")
            return
        }

        let reminders = planner.all(subject)
        var unsnoozed = subject
        unsnoozed.snoozedUntil = nil
        // What the snooze replaced, fired or not, is still part of the story.
        let replaced = planner.all(unsnoozed).filter { candidate in
            !reminders.contains { $0.rule == candidate.rule && $0.at == candidate.at }
        }
        let fired = Dictionary(firings.map { ("\($0.rule)@\($0.at.timeIntervalSince1970)", $0) }) { first, _ in first }
        var rows: [(Date, [String])] = []
        let clock = WallClock(zone: context.zone)
        for reminder in reminders {
            let status: String
            if let firing = fired["\(reminder.rule)@\(reminder.at.timeIntervalSince1970)"] {
                status = "fired " + UpcomingCommand.whenText(firing.firedAt, clock: clock).dropFirst(15)
            } else if reminder.at > (subject.remindedThrough ?? .distantPast) {
                status = reminder.at > context.now ? "in " + UpcomingCommand.left(from: context.now, to: reminder.at) : "due now"
            } else {
                // Before the todo was added or last changed, or skipped while the service was not running.
                status = "passed"
            }
            var why = reason(reminder.rule, todo: todo, config: planner.config)
            if reminder.isHeldByQuietHours, let quiet = planner.config.quietHours {
                why += "; held from " + UpcomingCommand.whenText(reminder.nominal, clock: clock).dropFirst(15)
                    + " by quiet hours \(quiet.start)-\(quiet.end)"
            }
            rows.append((reminder.at, [UpcomingCommand.whenText(reminder.at, clock: clock), reminder.rule.description, status, why]))
        }
        for reminder in replaced {
            let status: String
            if let firing = fired["\(reminder.rule)@\(reminder.at.timeIntervalSince1970)"] {
                status = "fired " + UpcomingCommand.whenText(firing.firedAt, clock: clock).dropFirst(15)
            } else {
                status = reminder.at > (subject.remindedThrough ?? .distantPast) ? "snoozed" : "passed"
            }
            rows.append((reminder.at, [UpcomingCommand.whenText(reminder.at, clock: clock), reminder.rule.description,
                                       status, reason(reminder.rule, todo: todo, config: planner.config)]))
        }
        context.print()
        guard !rows.isEmpty else {
            context.print(todo.due == nil
                ? "Nothing reminds: it has no due date and no reminders of its own ('nudge remind \(id) --add WHEN')."
                : "Nothing reminds: the rules give it no reminders.")
            return
        }
        context.printTable(header: ["WHEN", "RULE", "STATUS", "WHY"], rows: rows.sorted { $0.0 < $1.0 }.map(\.1))
    }

    /// The config sections besides [reminders] that set rules for this todo.
    static func origins(_ todo: Todo, config: NudgeConfig) -> [String] {
        var sections: [String] = []
        if config.byPriority[todo.priority] != nil { sections.append("[priority.\(todo.priority)]") }
        if let name = todo.category?.name, config.byCategory[name.lowercased()] != nil { sections.append("[category.\(name.lowercased())]") }
        return sections
    }

    /// Which config key made this reminder, and in which section it was set.
    static func reason(_ rule: ReminderRule, todo: Todo, config: NudgeConfig) -> String {
        let rules = config.rules(priority: todo.priority, category: todo.category?.name)
        func section(_ isSet: (RuleOverrides) -> Bool) -> String {
            if let name = todo.category?.name, let overrides = config.byCategory[name.lowercased()], isSet(overrides) {
                return "[category.\(name.lowercased())]"
            }
            if let overrides = config.byPriority[todo.priority], isSet(overrides) { return "[priority.\(todo.priority)]" }
            return "[reminders]"
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
