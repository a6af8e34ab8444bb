import NudgeCore
import NudgeInterchange
import NudgeStore

enum ExportCommand: Command {
    static let format = ValueOption("format", "FORMAT", "The file format: json (the default), ics, taskwarrior or todotxt", choices: Choices.formats, parse: interchangeFormat)
    static let all = Flag("all", "Include completed todos")
    static let output = ValueOption("output", "FILE", "Write to FILE (replaced whole, readable only by you; through a symbolic link to its target; a FIFO or device is written to) instead of the terminal", short: "o")
    static let name = "export"
    static let declaration = CommandDeclaration(name, "Write todos out as Nudge JSON, iCalendar, Taskwarrior or todo.txt", TagWords.filter,
                                                format, all, output)
    static let discussion = """
        Pending todos, or all with --all; with a FILTER, the todos it matches ('nudge help
        filter'). Nudge's JSON is an array of todos with their uuid,
        title, notes, due (and its zone, so the wall time survives), priority, category,
        completion, times, repeat rule, own reminders and snooze. ics is RFC 5545 VTODOs
        (with VALARMs, and the VTIMEZONEs the dues need), as todoman and CalDAV keep them;
        taskwarrior is what 'task import' reads; todotxt is todo.txt lines. What another
        program keeps with a todo that Nudge has no field for (Taskwarrior tags, unknown
        iCalendar properties) is written back to that program's format. 'nudge import'
        reads every format back.

        Examples:
          nudge export --all -o todos.json
          nudge export --format ics -o todos.ics
          nudge export +trip status:all -o trip.json
          nudge export --format taskwarrior --all > tasks.json
          task import tasks.json
          nudge export | jq '.[].title'
        """

    static func run(_ arguments: Arguments, context: Context) throws(CLIError) {
        let format = try arguments[Self.format] ?? .json
        let query = try filtered(arguments, context: context, all: Self.all)
        let records: [TodoRecord]
        do {
            let store = try context.store(.read)
            records = query.filter == nil ? try store.records(query.state) : try store.records(matching: query)
        } catch { throw CLIError(error) }
        if format == .ics { try openLibICal() }
        let text = format.encode(records, options: InterchangeOptions(zone: context.zone, now: context.now, config: try context.config()))
        if let path = try arguments[Self.output] {
            try OutputFile.write(text, to: path)
        } else {
            // Unicode scalars, not characters: an iCalendar file ends in one "\r\n" character.
            context.print(String(String.UnicodeScalarView(text.unicodeScalars.dropLast())))
        }
        // A date no format can hold (an older version stored it): the others are written, and
        // each left out is said.
        let unwritable = records.compactMap { record in
            YearBounds.unwritable(record).map { "todo '\(record.title)' (\(record.uuid)) was not exported: \($0)" }
        }
        for line in unwritable.dropLast() { NudgeCLI.writeError(line) }
        if let last = unwritable.last { throw .failed(last) }
    }

    /// The format `--format` names, or nil without it.
    static func interchangeFormat(_ name: String) throws(CLIError) -> InterchangeFormat {
        guard let format = InterchangeFormat(name: name) else {
            throw .usage("'\(Terminal.visible(name))' is not a format nudge reads or writes; use "
                + InterchangeFormat.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return format
    }
}
