import Foundation
import NudgeCore
import NudgeStore

enum SnoozeCommand: Command {
    static let until = ValueOption("until", "WHEN", "Hold them until this moment, e.g. \"tomorrow 9am\"", read: moment(_:context:))
    static let json = Flag("json", "Print {todo, until} as JSON")
    static let name = "snooze"
    static let declaration = CommandDeclaration(name, "Hold a todo's reminders for a while", Operand("ID", .todo(.pending)), oneOf(Operand("WHEN", .text, .words), until), json)
    static let jsonOutput = """
        An object:
          todo    the todo's id
          until   when its reminders are held until, ISO 8601 with the offset
        """
    static let discussion = """
        WHEN is a duration from now (10m, 2h, 1d) or a moment as --due reads it (tomorrow 9am,
        fri, 17:30); a day alone is that day at the config's all_day_time. A moment that has
        passed is refused. Reminders that would fire before then are held, and one reminder
        fires in their place. The due date stays as it is ('nudge postpone' moves it). Without
        WHEN, the config file's [snooze] default is used (10m unless set). A new due ('edit
        --due', 'postpone', 'skip', or 'done' on a repeating todo) ends the snooze.

        Examples:
          nudge snooze 12
          nudge snooze 12 2h
          nudge snooze 12 tomorrow 9am
          nudge snooze 12 fri
        """

    static func run(_ arguments: Arguments, context: Context) throws(CLIError) {
        let words = arguments.positionals
        let id = try todoID(words[0])
        let until: Date
        if let moment = try arguments[Self.until] {
            until = moment
        } else if words.count > 1 {
            until = try end(words.dropFirst().joined(separator: " "), context: context)
        } else {
            until = try snoozeEnd(context.config().snooze.defaultChoice, context: context)
        }
        do { _ = try Due.at(until, zone: context.zone).checked("snoozing until then") } catch { throw CLIError(error) }
        guard until > context.now else {
            throw .usage("\(context.dueText.long(until)) has already passed; snooze until a later moment")
        }
        let store = try context.storeOfExisting()
        do {
            let todo = try store.snooze(todoID: id, until: until, now: context.now)
            if arguments[Self.json] {
                context.printJSON(.object([("todo", .int(todo.id)), ("until", .string(WallClock(zone: context.zone).iso8601(until)))]))
                return
            }
            context.print("Snoozed \(todo.id): \(Terminal.visible(todo.title))")
            context.print("  reminders held until \(context.dueText.relative(.at(until, zone: context.zone)))")
        } catch {
            throw CLIError(error)
        }
    }

    static func span(_ text: String) throws(CLIError) -> TimeSpan {
        do { return try TimeSpan(parsing: text) } catch { throw CLIError(error) }
    }

    /// The end a WHEN names: a duration from now ("2h"), else a moment ("tomorrow 9am"), as
    /// the notification's snooze choices are read.
    static func end(_ text: String, context: Context) throws(CLIError) -> Date {
        let notASpan: InputError
        do { return try TimeSpan(parsing: text).added(to: context.now, calendar: context.calendar) } catch { notASpan = error }
        let due: Due
        do { due = try dueNamed(text, context: context) } catch {
            // "30M", "1h1h": shaped like a duration, they are told why they are none.
            let durationShaped = text.first?.isWholeNumber == true && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == " ") }
            throw durationShaped ? CLIError(notASpan) : error
        }
        return try moment(due, context: context)
    }

    /// The moment a WHEN names; a day alone means that day at the config's `all_day_time`.
    static func moment(_ text: String, context: Context) throws(CLIError) -> Date {
        try moment(dueNamed(text, context: context), context: context)
    }

    static func moment(_ due: Due, context: Context) throws(CLIError) -> Date {
        switch due {
        case .at(let instant, _):
            return instant
        case .allDay(let day):
            let time = try context.config().reminders.allDayTime
            return day.at(hour: time.hour, minute: time.minute, in: context.calendar)
        }
    }

    static func snoozeEnd(_ choice: SnoozeChoice, context: Context) throws(CLIError) -> Date {
        switch choice {
        case .span(let span):
            return span.added(to: context.now, calendar: context.calendar)
        case .when(let text):
            return try moment(text, context: context)
        }
    }
}
