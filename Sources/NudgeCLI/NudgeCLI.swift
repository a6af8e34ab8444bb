import Foundation
import NudgeCore
import NudgeHelp
import NudgePlatform

/// The `nudge` command: reads the command line, runs one command, and returns the exit status.
public enum NudgeCLI {
    public static let version = "0.1.0"

    static let commands: [any Command.Type] = [
        AddCommand.self, ListCommand.self, ShowCommand.self, EditCommand.self,
        DoneCommand.self, UndoCommand.self, DeleteCommand.self, PostponeCommand.self, SkipCommand.self,
        SnoozeCommand.self, RemindCommand.self, UpcomingCommand.self, ExplainCommand.self, HistoryCommand.self, StatusCommand.self, ConfigCommand.self,
        CategoryCommand.self, ExportCommand.self, ImportCommand.self, SyncCommand.self, CompletionsCommand.self, HelpCommand.self,
    ]

    /// Commands for scripts, left out of help and completion: the completion scripts' queries.
    static let hiddenCommands: [any Command.Type] = [CompleteCommand.self]

    static let databaseOption = ValueOption(PathOption.db.rawValue, PathOption.placeholder, "The database (default: $NUDGE_DB, else ~/.local/share/nudge/nudge.db)")
    static let configOption = ValueOption(PathOption.config.rawValue, PathOption.placeholder, "The config file (default: $NUDGE_CONFIG, else ~/.config/nudge/nudge.conf)")
    /// The options every command takes, before or after it; help, the man page and the
    /// completions all show them from here.
    static let globalOptionTable = Option.list(databaseOption, configOption)
    static let versionOption = Flag("version", "Show the version", short: "V")

    static func command(named name: String) -> (any Command.Type)? {
        (commands + hiddenCommands).first { $0.name == name }
    }

    /// Runs the command line of this process at `now` in `zone`: the clock and zone come from
    /// the executable, so that everything below can be run at any fixed time. `zone` is the
    /// system's, asked for only when TZ does not name one.
    public static func main(now: Date, zone: @autoclosure () -> TimeZone, environment: [String: String]) -> Int32 {
        // A reader that went away shows as EPIPE from write(2), handled below: on stdout it
        // ends nudge as it ends git, on stderr it loses only the message.
        signal(SIGPIPE, SIG_IGN)
        var context: Context?
        var failure: CLIError?
        var status: Int32 = 0
        do {
            let words = try validUTF8Arguments()
            let (paths, rest) = try pathOptions(words)
            let opened = Context(databasePath: paths[.db], configPath: paths[.config], now: now,
                                 zone: try localZone(environment, system: zone), environment: environment,
                                 streamsOutput: true)
            context = opened
            status = try run(rest, context: opened)
        } catch {
            failure = error
            status = error.kind.rawValue
        }
        // What was printed before a failure is written before the error.
        context?.flush()
        if let failure { writeError(failure.message) }
        if let error = context?.outputError {
            if error == Errno(rawValue: EPIPE) { endAsClosedPipe() }
            writeError("cannot write output: \(error)")
            if failure == nil { status = CLIError.Kind.failed.rawValue }
        }
        return status
    }

    /// The one place errors are written: one line, with what it quotes made visible. A closed
    /// stderr loses the line but not the exit status.
    static func writeError(_ message: String) {
        try? FileDescriptor.standardError.writeAll("nudge: " + Terminal.visible(message) + "\n")
    }

    /// Ends nudge the way git ends when the reader of its output goes away (`nudge list |
    /// head -1`): by SIGPIPE, without a word, which a shell shows as status 141.
    static func endAsClosedPipe() -> Never {
        signal(SIGPIPE, SIG_DFL)
        raise(SIGPIPE)
        // SIGPIPE is blocked by whoever started nudge: the status a shell would have shown.
        exit(128 + SIGPIPE)
    }

    /// The zone TZ names, else the system's.
    static func localZone(_ environment: [String: String], system: () -> TimeZone) throws(CLIError) -> TimeZone {
        do { return try TimeZoneVariable.zone(environment["TZ"]) ?? system() } catch { throw .usage(error.message) }
    }

    static func run(_ words: [String], context: Context) throws(CLIError) -> Int32 {
        // Alone, nudge shows the list, as task and todo do.
        guard let first = words.first else {
            try ListCommand.run(Arguments([], declaration: ListCommand.declaration, context: context), context: context)
            return 0
        }
        if Flag.help.option.spellings.contains(first) {
            context.print(HelpCommand.overview)
            return 0
        }
        if versionOption.option.spellings.contains(first) {
            context.print("nudge \(version)")
            return 0
        }
        guard let command = command(named: first) else {
            let names = commands.map { $0.name }
            if let question = Misspelling.question(Misspelling.corrections(of: first, among: names)) {
                throw .usage("unknown command '\(first)'; \(question)")
            }
            throw .usage("unknown command '\(first)'; commands are " + names.joined(separator: ", ") + " (see 'nudge help')")
        }
        let arguments = try Arguments(Array(words.dropFirst()), declaration: command.declaration, context: context)
        if arguments[Flag.help] {
            context.print(HelpCommand.help(for: command))
            return 0
        }
        try command.run(arguments, context: context)
        return 0
    }

    /// --db and --config may come before or after the command; the rest is the command's.
    static func pathOptions(_ words: [String]) throws(CLIError) -> (paths: PathOption.Paths, rest: [String]) {
        do { return try PathOption.extract(words) } catch { throw .usage(error.message) }
    }

    /// Swift would quietly replace bytes that are not UTF-8; Nudge refuses them instead, so
    /// that what is stored is exactly what was typed.
    static func validUTF8Arguments() throws(CLIError) -> [String] {
        var words: [String] = []
        // argc can be 0 when a program is started without even its own name.
        for index in 1..<max(1, Int(CommandLine.argc)) {
            guard let pointer = CommandLine.unsafeArgv[index] else { continue }
            guard let word = String(validatingCString: pointer) else {
                throw .usage("argument \(index) is not valid UTF-8 text; Nudge keeps text as UTF-8")
            }
            words.append(word)
        }
        return words
    }
}
