import Foundation

/// The `nudge` command: reads the command line, runs one command, and returns the exit status.
public enum NudgeCLI {
    public static let version = "0.1.0"

    nonisolated(unsafe) static let commands: [any Command.Type] = [
        AddCommand.self, ListCommand.self, ShowCommand.self, EditCommand.self,
        DoneCommand.self, UndoCommand.self, DeleteCommand.self, PostponeCommand.self,
        CategoryCommand.self, HelpCommand.self,
    ]

    static func command(named name: String) -> (any Command.Type)? {
        commands.first { $0.name == name }
    }

    public static func main() -> Int32 {
        let context: Context
        do {
            let words = try validUTF8Arguments()
            let (databasePath, rest) = try globalOptions(words)
            context = Context(databasePath: databasePath)
            defer { context.flush() }
            return try run(rest, context: context)
        } catch {
            FileHandle.standardError.write(Data("nudge: \(error.message)\n".utf8))
            return error.kind.rawValue
        }
    }

    static func run(_ words: [String], context: Context) throws(CLIError) -> Int32 {
        guard let first = words.first else {
            context.print(HelpCommand.overview)
            return 0
        }
        switch first {
        case "--help", "-h":
            context.print(HelpCommand.overview)
            return 0
        case "--version", "-V":
            context.print("nudge \(version)")
            return 0
        default:
            break
        }
        guard let command = command(named: first) else {
            throw .usage("unknown command '\(first)'; commands are " + commands.map { $0.name }.joined(separator: ", ") + " (see 'nudge help')")
        }
        let arguments = try Arguments(Array(words.dropFirst()), options: command.options, command: command.name)
        if arguments.has("help") {
            context.print(HelpCommand.help(for: command))
            return 0
        }
        try command.run(arguments, context: context)
        return 0
    }

    /// `--db PATH` may come before or after the command; everything else is the command's.
    static func globalOptions(_ words: [String]) throws(CLIError) -> (databasePath: String?, rest: [String]) {
        var rest: [String] = []
        var databasePath: String?
        var index = 0
        while index < words.count {
            let word = words[index]
            index += 1
            if word == "--" {
                rest += words[(index - 1)...]
                break
            }
            if word == "--db" {
                guard index < words.count, !words[index].isEmpty else { throw .usage("--db needs a value: --db PATH") }
                databasePath = words[index]
                index += 1
            } else if word.hasPrefix("--db=") {
                databasePath = String(word.dropFirst(5))
                guard databasePath?.isEmpty == false else { throw .usage("--db needs a value: --db PATH") }
            } else {
                rest.append(word)
            }
        }
        return (databasePath, rest)
    }

    /// Swift would quietly replace bytes that are not UTF-8; Nudge refuses them instead, so
    /// that what is stored is exactly what was typed.
    static func validUTF8Arguments() throws(CLIError) -> [String] {
        var words: [String] = []
        for index in 1..<Int(CommandLine.argc) {
            guard let pointer = CommandLine.unsafeArgv[index] else { continue }
            guard let word = String(validatingCString: pointer) else {
                throw .usage("argument \(index) is not valid UTF-8 text; Nudge keeps text as UTF-8")
            }
            words.append(word)
        }
        return words
    }
}
