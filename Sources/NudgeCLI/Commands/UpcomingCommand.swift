import Foundation
import NudgeCore
import NudgeStore

enum UpcomingCommand: Command {
    static let within = ValueOption("within", "DURATION", "How far ahead to look (default 7d)", parse: SnoozeCommand.span)
    static let limit = ValueOption("limit", "N", "Show at most N reminders", parse: positiveCount)
    static let json = Flag("json", "Print an array of {at, todo, title, rule} objects")
    static let name = "upcoming"
    static let declaration = CommandDeclaration(name, "List the reminders that will fire, in order", TagWords.filter,
                                                within, limit, json)
    static let jsonOutput = """
        An array of reminders in the order they fire, each an object:
          at        when it fires, ISO 8601 with the offset
          todo      the todo's id, or null for the daily digest
          title     the todo's title, or "Daily digest"
          rule      the rule that made it: "before 10m", "due", "all-day", "day-before",
                    "nag 2", "remind 1h", "snooze" or "digest"
          nominal   when its rule says: earlier than at when quiet hours hold it
        """

    static func positiveCount(_ text: String) throws(CLIError) -> Int {
        guard let number = Int(text), number > 0 else { throw .usage("--limit takes a whole number above 0, not '\(text)'") }
        return number
    }

    static func run(_ arguments: Arguments, context: Context) throws(CLIError) {
        let within = try arguments[Self.within] ?? TimeSpan(days: 7)
        let limit = try arguments[Self.limit]
        let end = within.added(to: context.now, calendar: context.calendar)
        let query = try filtered(arguments, context: context)
        var reminders: [ScheduledReminder]
        do {
            let store = try context.store(.read)
            if query.filter == nil {
                // One more than asked, to know whether --limit left some out.
                reminders = try store.forecast(from: context.now, through: end, limit: limit.map { min($0, Int.max - 1) + 1 })
            } else {
                // A filter chooses todos: the digest, which is of none, is left out.
                let ids = try store.ids(matching: query)
                reminders = try store.forecast(from: context.now, through: end).filter { $0.todoID.map(ids.contains) ?? false }
            }
        } catch { throw CLIError(error) }
        let cut = limit.map { reminders.count > $0 } ?? false
        if let limit, cut { reminders.removeLast(reminders.count - limit) }
        let clock = WallClock(zone: context.zone)
        if arguments[Self.json] {
            context.printJSON(.array(reminders.map { reminder in
                .object([("at", .string(clock.iso8601(reminder.at))),
                         ("todo", reminder.todoID.map(JSON.int) ?? .null),
                         ("title", .string(reminder.title ?? "Daily digest")),
                         ("rule", .string(reminder.rule)), ("nominal", .string(clock.iso8601(reminder.nominal)))])
            }))
            return
        }
        guard !reminders.isEmpty else {
            context.print("Nothing will remind in the next \(within.spoken).")
            return
        }
        let rows = reminders.map { reminder in
            [whenText(reminder.at, text: context.dueText), left(from: context.now, to: reminder.at),
             reminder.todoID.map(String.init) ?? "-", reminder.title ?? "Daily digest",
             shownRule(reminder.rule) + (reminder.at != reminder.nominal ? " (held by quiet hours)" : "")]
        }
        context.printTable(header: ["WHEN", "LEFT", "TODO", "TITLE", "RULE"], rows: rows, rightAligned: [2])
        context.print()
        let count = "\(reminders.count) reminder\(reminders.count == 1 ? "" : "s")"
        context.print(cut ? "The first \(count) in the next \(within.spoken); more follow (--limit \(reminders.count))."
                          : "\(count) in the next \(within.spoken).")
    }

    /// A rule as the RULE column of a table says it: a todo's own reminder at a moment is
    /// named by that moment in UTC ("remind 2026-12-24T08:00Z", as --json and the journal keep
    /// it), which the table's WHEN already gives in local time.
    static func shownRule(_ rule: String) -> String {
        let moment = rule.dropFirst("remind ".count)
        guard rule.hasPrefix("remind "), moment.contains("T"), moment.hasSuffix("Z") || moment.hasSuffix("+00:00") else { return rule }
        return "remind at"
    }

    /// "Sun Nov 29 14:00", "Sun 29 Nov 14:00", "Sun 2026-11-29 2:00 PM": the date as the
    /// locale or [display] date_format orders it, with the year when it is not this one's.
    static func whenText(_ date: Date, text: DueText) -> String {
        let (day, hour, minute) = text.clock.dayAndTime(of: date)
        return dayText(day, text: text) + " " + text.time(hour: hour, minute: minute)
    }

    /// "Sun Nov 29", "Thu Dec  3": the day padded, so that a column of them lines up.
    static func dayText(_ day: LocalDate, text: DueText) -> String {
        DueText.shortWeekday(day) + " " + text.short(day, padded: true)
    }

    /// "45min", "3h 12min", "2d 4h", like systemctl list-timers.
    static func left(from now: Date, to date: Date) -> String {
        let minutes = max(0, Int((date.timeIntervalSince(now) / 60).rounded()))
        if minutes < 60 { return "\(minutes)min" }
        if minutes < 24 * 60 { return "\(minutes / 60)h \(minutes % 60)min" }
        return "\(minutes / (24 * 60))d \(minutes / 60 % 24)h"
    }
}

extension TimeSpan {
    /// "7 days", "2 hours", "1 week 2 days".
    var spoken: String {
        var parts: [String] = []
        func add(_ value: Int, _ unit: String) { if value > 0 { parts.append("\(value) \(unit)\(value == 1 ? "" : "s")") } }
        if days % 7 == 0 && days > 7 { add(days / 7, "week") } else { add(days, "day") }
        add(seconds / 3600, "hour")
        add(seconds / 60 % 60, "minute")
        return parts.joined(separator: " ")
    }
}

extension Context {
    /// Columns padded to their widest cell; the last column is not padded. Written into one
    /// string: `upcoming` may print tens of thousands of rows. Cells are made visible here,
    /// so titles and journal messages need not be.
    func printTable(header: [String], rows: [[String]], rightAligned: Set<Int> = []) {
        let all = [header] + rows.map { $0.map(Terminal.visible) }
        let cellWidths = all.map { $0.map(displayWidth) }
        let widths = header.indices.map { column in cellWidths.map { $0[column] }.max() ?? 0 }
        var out = ""
        out.reserveCapacity(all.count * (widths.reduce(0, +) + 2 * widths.count + 16))
        for (index, row) in all.enumerated() {
            var line = ""
            for (column, cell) in row.enumerated() {
                let padding = widths[column] - cellWidths[index][column]
                if column == row.count - 1 {
                    line += cell
                } else if rightAligned.contains(column) {
                    line += String(repeating: " ", count: padding) + cell + "  "
                } else {
                    line += cell + String(repeating: " ", count: padding + 2)
                }
            }
            out += index == 0 ? styled(line, .bold) : line
            out += "\n"
        }
        out.removeLast()
        print(out)
    }
}
