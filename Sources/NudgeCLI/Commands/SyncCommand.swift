import Foundation
import NudgeCore
import NudgeInterchange
import NudgeStore
import NudgeSync

enum SyncCommand: Command {
    static let json = Flag("json", "Print what the pass did as a JSON object")
    static let name = "sync"
    static let declaration = CommandDeclaration(name, "Keep the todos and a vdir (one UID.ics per todo, as vdirsyncer and todoman use) in step, both ways", json)
    static let jsonOutput = """
        An object:
          vdir                   the folder synced with
          imported               todos added or changed here from files
          deletedTodos           todos deleted here because their file went
          written                files written from todos
          deletedFiles           files deleted because their todo went
          conflicts              todos changed on both sides in the same field
          conflicted             one {uuid, copyUUID} per conflict: the todo here, and the
                                 copy made of the file's version
          finishedElsewhere      UUIDs of todos a file showed completed or deleted elsewhere
          acknowledgedElsewhere  UUIDs of todos whose reminders were shown or answered elsewhere
          warnings               what the pass warned about, one string each
          refused                true when the pass did nothing, e.g. the folder was empty
        """
    static let discussion = """
        Runs one two-way pass between the todos and the folder named by `vdir` in the [sync]
        section of the config file, e.g. vdir = ~/.local/share/vdirsyncer/calendars/todos:
        todos added, changed or deleted here are written to (or deleted from) the folder, and
        files added, changed or deleted there (by todoman, vdirsyncer or another machine's
        Nudge) come into the todos. A pass with nothing changed reads no file and writes none.

        A todo changed on both sides is merged field by field; where both changed the same
        field, the todo here keeps its version and the file's becomes a second todo titled
        "... (conflict)", and a warning names it. Files that are not one todo (events, several
        todos, unreadable ones, a second file with a todo's UID) are left as they are. A folder
        that suddenly holds no .ics file while todos were synced with it deletes nothing: the
        pass does nothing and fails, as an unmounted disk or a wrong path would otherwise empty
        the list. The folder must exist (`vdirsyncer discover` or mkdir -p makes it); nudge
        does not create it.

        Examples:
          nudge sync
          nudge sync --json
          vdirsyncer sync && nudge sync && vdirsyncer sync
        """

    static func run(_ arguments: Arguments, context: Context) throws(CLIError) {
        // A pass reads and writes iCalendar files: without libical, each file would be set aside.
        try openLibICal()
        guard let configured = try context.config().sync.vdir else {
            throw .usage("no vdir to sync with: set vdir in the [sync] section of \(context.resolvedConfigPath), "
                + "e.g. vdir = ~/.local/share/vdirsyncer/calendars/todos")
        }
        let folder = expandingHome(configured, environment: context.environment)
        let store = try context.store(.write)
        let sync = VdirSync(store: store, folder: folder, options: InterchangeOptions(zone: context.zone, now: context.now, config: try context.config()),
                            maxFileSize: try context.config().importing.maxSize)
        let report: SyncReport
        do {
            report = try sync.pass(now: context.now)
        } catch {
            // Worded as every command's full disk, which names the database.
            throw .failed(error.diskFull ? error.reason : "cannot sync with \(configured): \(error.reason)")
        }
        if arguments[Self.json] {
            context.printJSON(.object([
                ("vdir", .string(folder)), ("imported", .int(Int64(report.imported))),
                ("deletedTodos", .int(Int64(report.deletedTodos))), ("written", .int(Int64(report.written))),
                ("deletedFiles", .int(Int64(report.deletedFiles))), ("conflicts", .int(Int64(report.conflicts))),
                ("conflicted", .array(report.conflicted.map { .object([("uuid", .string($0.uuid)), ("copyUUID", .string($0.copyUUID))]) })),
                ("finishedElsewhere", .array(report.finishedElsewhere.map(JSON.string))),
                ("acknowledgedElsewhere", .array(report.acknowledgedElsewhere.map(JSON.string))),
                ("warnings", .array((report.conflicted.map(\.message) + report.warnings).map(JSON.string))),
                ("refused", .bool(report.refused)),
            ]))
        } else if !report.refused {
            let deleted = report.deletedTodos + report.deletedFiles
            context.print(Terminal.visible("Synced with \(configured): \(report.imported) imported, \(report.written) written, "
                + "\(deleted) deleted, \(report.conflicts) conflict\(report.conflicts == 1 ? "" : "s")"))
        }
        // Conflicts are logged, not failures; a refused pass is.
        let warnings = report.conflicted.map(\.message) + (report.refused ? Array(report.warnings.dropLast()) : report.warnings)
        for warning in warnings { NudgeCLI.writeError(warning) }
        if report.refused, let reason = report.warnings.last { throw .failed(reason) }
    }

    /// `~/` at the start is the home folder of `environment`.
    static func expandingHome(_ path: String, environment: [String: String]) -> String {
        guard path == "~" || path.hasPrefix("~/"), let home = environment["HOME"], !home.isEmpty else { return path }
        return home + path.dropFirst()
    }
}
