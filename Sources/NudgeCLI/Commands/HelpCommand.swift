enum HelpCommand: Command {
    static let name = "help"
    static let abstract = "Show help for nudge or one command"
    static let usage = "nudge help [COMMAND]"
    static let operands = Operands.one(.command)
    static let options: [Option] = []

    static var overview: String {
        let width = NudgeCLI.commands.map { $0.name.count }.max()!
        return """
            nudge: a todo list that reminds you

            Usage: nudge [--db PATH] [--config PATH] COMMAND [ARGUMENTS]

            Commands:
            \(NudgeCLI.commands.map { "  " + $0.name.padding(to: width) + "  " + $0.abstract }.joined(separator: "\n"))

            Dates (WHEN): 2026-12-24, 2026-12-24 09:30, today, tonight, tomorrow 9am, fri,
              next fri, 9am, 17:30, in 2h, in 3 days, +45m, eod, eow, eom, dec 24.
            Durations: 10m, 2h, 1h30m, 3d, 1w.

            The database is --db PATH, or $NUDGE_DB, or else
            $XDG_DATA_HOME/nudge/nudge.db (~/.local/share/nudge/nudge.db). The reminder rules
            are in --config PATH, or $NUDGE_CONFIG, or $XDG_CONFIG_HOME/nudge/nudge.conf.
            The reminder service is nudged (systemctl --user enable --now nudge).

            'nudge help COMMAND' or 'nudge COMMAND --help' tells more about a command.
            """
    }

    static func help(for command: any Command.Type) -> String {
        var lines = [command.abstract + ".", "", "Usage: " + command.usage]
        let options = command.options + [.help]
        let labels = options.map { ($0.short.map { "-\($0), " } ?? "") + "--" + $0.name + ($0.value.map { " " + $0 } ?? "") }
        let width = labels.map(\.count).max()!
        lines += ["", "Options:"]
        for (label, option) in zip(labels, options) {
            lines.append("  " + label.padding(to: width) + "  " + option.help)
        }
        if !command.discussion.isEmpty { lines += ["", command.discussion] }
        return lines.joined(separator: "\n")
    }

    static func run(_ arguments: Arguments, context: Context) throws(CLIError) {
        let words = try arguments.positionals(min: 0, max: 1, usage: usage)
        guard let name = words.first else {
            context.print(overview)
            return
        }
        guard let command = NudgeCLI.command(named: name) else {
            throw .usage("no command '\(name)'; commands are " + NudgeCLI.commands.map { $0.name }.joined(separator: ", "))
        }
        context.print(help(for: command))
    }
}
