import Foundation
import Testing
@testable import NudgeTestSupport

/// The real shells completing a `nudge` command line with the script `nudge completions`
/// printed: bash with Debian's bash-completion loaded, fish's `complete -C`, and zsh's
/// completion system in a pseudo-terminal (zpty). The scripts run the `nudge` under test.
struct ShellHarness {
    let nudge: Nudge

    init(_ nudge: Nudge) throws {
        self.nudge = nudge
        for shell in ["bash", "zsh", "fish"] {
            let script = try nudge("completions", shell)
            #expect(script.status == 0, "\(script.stderr)")
            // zsh autoloads completion functions by file name.
            let name = shell == "zsh" ? "zsh/_nudge" : "nudge." + shell
            try FileManager.default.createDirectory(atPath: nudge.folder.file("zsh"), withIntermediateDirectories: true)
            try script.stdout.write(toFile: nudge.folder.file(name), atomically: true, encoding: .utf8)
        }
        try Self.zshCapture.write(toFile: nudge.folder.file("capture.zsh"), atomically: true, encoding: .utf8)
    }

    /// What bash offers for `words`, the last being the word at the cursor. Words are given as
    /// bash splits them (`--priority=h` is `--priority`, `=`, `h`).
    func bash(_ words: String...) throws -> [String] {
        let script = """
            source /usr/share/bash-completion/bash_completion
            declare -F _get_comp_words_by_ref >/dev/null || { echo 'bash-completion did not load' >&2; exit 3; }
            source "$SCRIPT"
            [[ $(complete -p nudge) == 'complete -F _nudge nudge' ]] || { echo 'nudge has no completion' >&2; exit 3; }
            COMP_LINE=$1
            shift
            COMP_WORDS=("$@") COMP_CWORD=$(($# - 1)) COMP_POINT=${#COMP_LINE}
            _nudge
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        // The line as typed: no spaces around a "=".
        var line = ""
        for (index, word) in words.enumerated() {
            if index > 0 && word != "=" && words[index - 1] != "=" { line += " " }
            line += word
        }
        return try lines(run("/bin/bash", ["--norc", "--noprofile", "-c", script, "bash", line] + words,
                             ["SCRIPT": nudge.folder.file("nudge.bash")]))
    }

    /// What fish offers for `line` (`complete -C`): "candidate\tdescription" lines.
    func fish(_ line: String) throws -> [String] {
        try lines(run("/usr/bin/fish", ["--no-config", "-c", "source $argv[1]; complete -C $argv[2]",
                                         nudge.folder.file("nudge.fish"), line]))
    }

    /// What zsh offers for `line`, as the matches the completion system adds, each followed by
    /// " -- " and what it shows beside it when it shows more than the match.
    func zsh(_ line: String) throws -> [String] {
        try lines(run("/usr/bin/zsh", ["-f", nudge.folder.file("capture.zsh"), nudge.folder.file("zsh"), line]))
    }

    private func run(_ shell: String, _ arguments: [String], _ environment: [String: String] = [:]) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: shell)
        process.arguments = arguments
        let bin = URL(fileURLWithPath: Nudge.binary).deletingLastPathComponent().path
        process.environment = nudge.environment.merging(["PATH": bin + ":/usr/bin:/bin"]) { $1 }.merging(environment) { $1 }
        process.currentDirectoryURL = URL(fileURLWithPath: nudge.folder.path)
        let result = try Run.launch(process)
        #expect(result.status == 0, "\(shell) \(arguments.last ?? ""): \(result.stderr)")
        return result
    }

    private func lines(_ run: Run) -> [String] {
        // The pty ends lines with "\r\n", one Character.
        run.stdout.split(whereSeparator: \.isNewline).map(String.init)
    }

    /// Starts an interactive zsh in a pty (zsh/zpty) with $1 on fpath and compinit, types $2 and
    /// a tab, and prints every match the completion functions add (compadd wrapped), with its
    /// display string. After zsh-capture-completion's way of doing it.
    static let zshCapture = #"""
        zmodload zsh/zpty
        zpty z zsh -f -i
        zpty -w z "fpath=(${(q)1} \$fpath); PROMPT=; autoload -Uz compinit && compinit -u -D; bindkey '^I' complete-word"
        zpty -w z 'null-line() { print -n $'"'"'\0\r\n'"'"' }; compprefuncs=(null-line); comppostfuncs=(null-line exit)'
        zpty -w z '
        compadd() {
            if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return $?; fi
            local -a hits shown
            if (( $@[(I)-d] )); then
                local name=${@[$[${@[(i)-d]}+1]]}
                if [[ $name == \(* ]]; then eval "shown=$name"; else shown=("${(@P)name}"); fi
            fi
            builtin compadd -A hits -D shown "$@"
            local i
            for i in {1..$#hits}; do print -r -- "$IPREFIX$hits[$i]${shown[$i]:+ -- $shown[$i]}"; done
        }'
        zpty -w z 'print READY'
        local line
        repeat 50; do
            zpty -r z line
            [[ $line == READY* ]] && break
        done
        zpty -w z "$2"$'\t'
        integer seen=0
        while zpty -r z line; do
            if [[ $line == *$'\0'* ]]; then (( seen++ )) && break || continue; fi
            (( seen )) && print -r -- ${line%$'\r'}
        done
        zpty -d z
        """#
}
