enum CompletionsCommand: Command {
    static let name = "completions"
    static let declaration = CommandDeclaration(name, "Print the shell completion script for bash, zsh or fish", Operand(choices: Shell.allCases.map(\.rawValue)))
    static let discussion = """
        The script completes commands, options, their values, category names, and todo ids
        with their titles (in zsh and fish). 'make install' installs all three where the
        shells look; to try one without installing:

          source <(nudge completions bash)
          source <(nudge completions zsh)      # after compinit
          nudge completions fish | source
        """

    static func run(_ arguments: Arguments, context: Context) throws(CLIError) {
        let name = arguments.positionals[0]
        guard let shell = Shell(rawValue: name) else {
            throw .usage("no completions for '\(Terminal.visible(name))'; use bash, zsh or fish")
        }
        context.print(shell.completionScript())
    }
}

