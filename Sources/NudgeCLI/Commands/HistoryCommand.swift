import Foundation
import NudgeCore
import NudgeSystem

enum HistoryCommand: Command {
    static let json = Flag("json", "Print the journal entries as JSON")
    static let name = "history"
    static let declaration = CommandDeclaration(name, "Show what the reminder service did with a todo, from the journal", Operand("ID", .todo(.all)), json)
    static let jsonOutput = """
        An array of journal entries, oldest first, each an object:
          at       when it was logged, ISO 8601 with the offset
          event    what nudged did (NUDGE_EVENT): planned, fired, delivered, action, snoozed,
                   completed, missed, closed, ...
          rule     the reminder's rule (NUDGE_RULE), or null
          message  the journal message, or null
        """
    static let discussion = """
        nudged logs every reminder it plans, fires and delivers, and every button pressed, to
        the systemd journal; this reads them back: the entries of this database's todo ID
        logged by your own service (like journalctl NUDGE_TODO_UUID=... _UID=...).
        """

    static func run(_ arguments: Arguments, context: Context) throws(CLIError) {
        let id = try todoID(arguments.positionals[0])
        let store = try context.store(.read)
        let todo: Todo
        let database: String
        do {
            todo = try store.todos(ids: [id])[0]
            database = try store.databaseID()
        } catch {
            throw CLIError(error)
        }
        let entries: [JournalEntry]
        do {
            // This database's todo, as logged by this user's service: the id alone is shared
            // by every database's todo 1.
            entries = try JournalReader.entries(matching: [
                "SYSLOG_IDENTIFIER": "nudged", "NUDGE_TODO_UUID": todo.uuid,
                "NUDGE_DATABASE_ID": database, "_UID": String(getuid()),
            ])
        } catch where error.code == EACCES {
            // Not "no history": the entries may well be there, unseen.
            let user = getpwuid(getuid()).map { String(cString: $0.pointee.pw_name) } ?? String(getuid())
            throw .failed("cannot read the journal: no journal file is readable by \(user); add \(user) to the group "
                          + "systemd-journal (then log in again), or make the journal persistent "
                          + "(Storage=persistent in /etc/systemd/journald.conf), where each user reads their own")
        } catch {
            throw .failed("cannot read the journal: \(error)")
        }
        let clock = WallClock(zone: context.zone)
        if arguments[Self.json] {
            context.printJSON(.array(entries.map { entry in
                .object([("at", .string(clock.iso8601(entry.realtime))), ("event", .string(entry["NUDGE_EVENT"])),
                         ("rule", .string(entry["NUDGE_RULE"])), ("message", .string(entry.message))])
            }))
            return
        }
        guard !entries.isEmpty else {
            context.print("No history for todo \(id) in the journal; nudged writes it there while it runs.")
            return
        }
        let text = context.dueText
        let rows = entries.map { entry in
            [text.stamp(entry.realtime), entry["NUDGE_EVENT"] ?? "", UpcomingCommand.shownRule(entry["NUDGE_RULE"] ?? ""), entry.message ?? ""]
        }
        context.printTable(header: ["WHEN", "EVENT", "RULE", "MESSAGE"], rows: rows)
    }
}
