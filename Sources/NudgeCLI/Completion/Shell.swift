/// The shells `nudge completions` writes a script for.
enum Shell: String, CaseIterable {
    case bash, zsh, fish

    /// The script, generated from the command tables.
    func completionScript(_ table: CompletionTable = CompletionTable()) -> String {
        switch self {
        case .bash: BashCompletion.script(table)
        case .zsh: ZshCompletion.script(table)
        case .fish: FishCompletion.script(table)
        }
    }
}
