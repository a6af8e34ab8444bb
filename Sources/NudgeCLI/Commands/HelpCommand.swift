import NudgeCore
import NudgeHelp

enum HelpCommand: Command {
    static let name = "help"
    static let declaration = CommandDeclaration(name, "Show help for nudge, one command or one topic", Operand("COMMAND | TOPIC", .helpSubject, .optional))
    static let discussion = "The topics are " + HelpTopics.all.map(\.name).joined(separator: ", ") + "."

    /// What `nudge` takes without a command.
    static let programOptions = NudgeCLI.globalOptionTable + Option.list(Flag.help, NudgeCLI.versionOption)

    static let summary = "a todo list that reminds you"

    static let description = """
        Nudge keeps your todos in a database of your own and reminds you of each one when it
        is due: the reminder service, nudged, shows a desktop notification with Done and
        Snooze buttons (systemctl --user enable --now nudge). When and how often it reminds
        is set in the config file, nudge.conf. Without a command, nudge shows the list, as
        nudge list does.
        """


    static var overview: String {
        let commands = NudgeCLI.commands.map { HelpEntry($0.name, $0.abstract) }
        let topics = HelpTopics.all.map { HelpEntry($0.name, $0.abstract) }
        return """
            nudge: \(summary)

            Usage: nudge \(PathOption.synopsis) COMMAND [ARGUMENTS]
                   nudge            (alone: the same as 'nudge list')

            \(HelpText.plainText(description))

            Commands:
            \(commands.plainText())

            Topics:
            \(topics.plainText())

            Options:
            \(programOptions.map(\.entry).plainText())

            'nudge help COMMAND' or 'nudge COMMAND --help' tells more about a command, and
            'nudge help TOPIC' about a topic; 'man nudge' tells it all.
            """
    }

    /// A command's options as its help lists them: with --help.
    static func documentedOptions(of command: any Command.Type) -> [Option] {
        command.options + [.help]
    }

    /// A command's help, in 80 columns as the help topics are.
    static func help(for command: any Command.Type) -> String {
        // Later lines start under the command's first argument.
        let usage = HelpText.synopsis("Usage: " + command.usage, indent: "Usage: nudge ".count + command.name.count + 1)
        var lines = [HelpText.plainText(command.abstract + "."), ""] + usage
        lines += ["", "Options:", documentedOptions(of: command).map(\.entry).plainText()]
        if !command.discussion.isEmpty { lines += ["", HelpText.plainText(command.discussion)] }
        return lines.joined(separator: "\n")
    }

    static func run(_ arguments: Arguments, context: Context) throws(CLIError) {
        let words = arguments.positionals
        guard let name = words.first else {
            context.print(overview)
            return
        }
        if let command = NudgeCLI.command(named: name) {
            context.print(help(for: command))
        } else if let topic = HelpTopics.named(name) {
            context.print(topic.plainText)
        } else {
            let question = Misspelling.question(Misspelling.corrections(of: name, among: NudgeCLI.commands.map { $0.name } + HelpTopics.all.map(\.name)))
            if let question { throw .usage("no command '\(name)'; \(question)") }
            throw .usage("no command '\(name)'; commands are " + NudgeCLI.commands.map { $0.name }.joined(separator: ", ")
                         + "; topics are " + HelpTopics.all.map(\.name).joined(separator: ", "))
        }
    }
}

extension Option {
    /// The option as a help list shows it: `-o, --output FILE`.
    var entry: HelpEntry {
        HelpEntry((short.map { "-\($0), " } ?? "") + "--" + name, argument: value, help)
    }
}
