import NudgeHelp

extension NudgeCLI {
    /// nudge(1), from the same texts as `nudge help`: the overview, every command with its
    /// options, discussion and JSON output, and every help topic.
    public static var manualPage: ManualPage {
        return ManualPage(name: "nudge", section: 1, source: "Nudge " + version, manual: "User Commands",
                          summary: HelpCommand.summary, sections: [
            .init("SYNOPSIS", [
                .usage(command: "nudge", arguments: PathOption.synopsis + " [COMMAND [ARGUMENTS]]"),
                .usage(command: "nudge help", arguments: HelpCommand.declaration.synopsis),
                .usage(command: "nudge", arguments: "--version"),
            ]),
            .init("DESCRIPTION", [.text(HelpCommand.description)]),
            .init("OPTIONS", [.text("--db and --config may come before or after the command."),
                              .entries(HelpCommand.programOptions.map(\.entry))]),
            .init("COMMANDS", manualSections(of: commands).flatMap { $0 }),
        ] + HelpTopics.all.map { .init($0.heading, $0.blocks) } + [
            .init("SEE ALSO", [.text("nudge.conf(5), nudged(8), journalctl(1), systemctl(1), vdirsyncer(1), todoman(1), task(1)")]),
        ])
    }

    /// Each command's part of the page, in the order of its help: abstract, usage, options,
    /// discussion; then what --json prints.
    static func manualSections(of commands: [any Command.Type]) -> [[ManualPage.Block]] {
        commands.map { command in
            let prefix = "nudge " + command.name
            var blocks: [ManualPage.Block] = [
                .subsection(command.name),
                .text(command.abstract + "."),
                .usage(command: prefix, arguments: command.declaration.synopsis),
                .entries(HelpCommand.documentedOptions(of: command).map(\.entry)),
            ]
            if !command.discussion.isEmpty { blocks.append(.text(command.discussion)) }
            if !command.jsonOutput.isEmpty {
                blocks += [.text("JSON output (--json):"), .text(command.jsonOutput)]
            }
            return blocks
        }
    }
}
