import NudgeFilter
import NudgeHelp

/// The command tables as the completion scripts read them: each command's options and the
/// kind of each value and operand, in words the three shells' scripts share. The scripts are
/// generated from `NudgeCLI.commands`, so a new command or option is completed without any
/// script being edited.
struct CompletionTable {
    /// A value's kind as the scripts name it: `text`, `file`, `category`, `command`, `topic`
    /// (a command or a help topic), `subcommand`, `todo pending|completed|all`, or
    /// `choices A B C`.
    typealias Kind = String

    struct Entry {
        let name: String
        let abstract: String
        /// `--help` included, then the global options.
        let options: [Option]
        /// What the operand at an index (from 0) names, given the first operand (the
        /// subcommand); nil matches any. The first case that matches gives the kind.
        let operandCases: [OperandCase]
        let subcommands: [Subcommand]
        /// Whether it takes `+TAG` words, completed with the tags in use.
        let takesTags: Bool
    }

    struct OperandCase {
        let first: String?
        let index: Int?
        let kind: Kind
    }

    /// `--db` and `--config`, taken before or after the command.
    static let globalOptions = NudgeCLI.globalOptionTable
    /// What `nudge` takes without a command.
    static let topOptions = HelpCommand.programOptions

    let entries: [Entry]
    /// Each command's options, then those `nudge` takes alone (under the command name "").
    var optionsByCommand: [(command: String, options: [Option])] {
        entries.map { ($0.name, $0.options) } + [("", Self.topOptions)]
    }
    /// What `nudge help` takes besides the commands: `when`, `rule`, ...
    let topics: [(name: String, abstract: String)]

    init(commands: [any Command.Type] = NudgeCLI.commands, topics: [HelpTopic] = HelpTopics.all) {
        self.topics = topics.map { ($0.name, $0.abstract) }
        entries = commands.map { command in
            Entry(name: command.name, abstract: command.abstract,
                  options: command.options + [.help] + Self.globalOptions,
                  operandCases: Self.operandCases(command), subcommands: command.subcommands,
                  takesTags: command.declaration.tagWords != nil)
        }
    }

    static func operandCases(_ command: any Command.Type) -> [OperandCase] {
        if command.declaration.tagWords?.isFilter == true { return [OperandCase(first: nil, index: nil, kind: "filter")] }
        guard !command.subcommands.isEmpty else { return cases(command.operands, first: nil, offset: 0) }
        return [OperandCase(first: nil, index: 0, kind: "subcommand")]
            + command.subcommands.flatMap { cases($0.operands, first: $0.name, offset: 1) }
    }

    private static func cases(_ operands: Operands, first: String?, offset: Int) -> [OperandCase] {
        var cases = operands.kinds.enumerated().map { OperandCase(first: first, index: $0.offset + offset, kind: code($0.element)) }
        if operands.repeatsLast, let last = operands.kinds.last { cases.append(OperandCase(first: first, index: nil, kind: code(last))) }
        return cases
    }

    static func code(_ kind: WordKind) -> Kind {
        switch kind {
        case .text: "text"
        case .choices(let choices): "choices " + choices.joined(separator: " ")
        case .file: "file"
        case .todo(let state): "todo " + CompleteCommand.name(of: state)
        case .category: "category"
        case .tag: "tag"
        case .command: "command"
        case .helpSubject: "topic"
        }
    }

    /// The terms of a filter as completion offers them: each name with each of its values
    /// (`priority:high`), a name whose values are free alone (`category:`, completed from the
    /// store after its colon), and the words that are terms by themselves.
    static let filterTerms: [String] = FilterParser.attributes.flatMap { attribute in
        attribute.values.isEmpty ? [attribute.name + ":"] : attribute.values.map { attribute.name + ":" + $0 }
    } + FilterParser.keywords

    /// The words an option is given by: `--output` and `-o`.
    static func spellings(_ option: Option) -> [String] {
        option.spellings
    }

    /// Help as one line of plain text a shell can show: no control characters.
    static func oneLine(_ text: String) -> String {
        String(text.unicodeScalars.map { Terminal.isShownAsCode($0) ? " " : Character($0) })
    }
}

extension CompletionTable {
    /// The functions bash and zsh both read (`case` labels in parentheses, alternatives joined
    /// by `|`): `_nudge_options` and `_nudge_subcommands` as each shell lists words (its `case`
    /// lines, and how a list is emptied), `_nudge_option_kind`, `_nudge_operand_kind`, and the
    /// walk over the line.
    func sharedFunctions(options: (clearing: String, cases: [String]), subcommands: (clearing: String, cases: [String])) -> String {
        var kinds: [String] = []
        for (command, commandOptions) in optionsByCommand {
            for option in commandOptions {
                guard let kind = option.valueKind else { continue }
                let patterns = Self.spellings(option).map { (command + " " + $0).singleQuoted }
                kinds.append("        (" + patterns.joined(separator: "|") + ") kind=" + Self.code(kind).singleQuoted + " ;;")
            }
        }
        let operands = entries.map { entry in
            let cases = entry.operandCases.map { item in
                "                (\(item.first.map { $0.singleQuoted } ?? "*")' '\(item.index.map(String.init) ?? "*")) kind=\(item.kind.singleQuoted) ;;"
            }
            return "        (\(entry.name.singleQuoted))\n            case \"$2 $3\" in\n" + cases.joined(separator: "\n")
                + (cases.isEmpty ? "" : "\n") + "            esac ;;"
        }
        return [
            "# The terms of a filter (nudge help filter).\n_nudge_filter_terms=(" + Self.filterTerms.map(\.singleQuoted).joined(separator: " ") + ")",
            Self.caseFunction("_nudge_options", "Lists the options of command $1 (of nudge itself when $1 is empty).",
                              clearing: options.clearing, options.cases),
            Self.caseFunction("_nudge_subcommands", "Lists the words that select what command $1 does.",
                              clearing: subcommands.clearing, subcommands.cases),
            Self.caseFunction("_nudge_option_kind", "Sets kind to what the value of option $2 of command $1 names; empty for a flag.",
                              clearing: "kind=", on: "\"$1 $2\"", kinds),
            Self.caseFunction("_nudge_operand_kind", "Sets kind to what operand $3 (from 0) of command $1 names, $2 being its first.",
                              clearing: "kind=", operands),
            """
            # Whether command $1 takes +TAG words.
            _nudge_takes_tags() {
                case $1 in
                    (\(entries.filter(\.takesTags).map { $0.name.singleQuoted }.joined(separator: "|"))) return 0 ;;
                esac
                return 1
            }
            """,
            Self.walkFunctions,
        ].joined(separator: "\n\n")
    }

    /// A function that clears a variable and sets it by the `case` of `subject`: `cases` are
    /// its lines, each as `(pattern) variable=... ;;`.
    private static func caseFunction(_ name: String, _ comment: String, clearing: String, on subject: String = "$1",
                                     _ cases: [String]) -> String {
        """
        # \(comment)
        \(name)() {
            \(clearing)
            case \(subject) in
        \(cases.joined(separator: "\n"))
            esac
        }
        """
    }
}

extension CompletionTable {
    /// `_nudge_walk` and `_nudge_cursor_kind`: each shell's `_nudge` hands them its words
    /// (zsh's unquoted) and offers what `kind` names.
    private static let walkFunctions = #"""
        # Walks the words before the cursor ($@): sets command, first (its first operand),
        # operand (how many), dashdash (after --) and global (--db and --config, ~ expanded),
        # and kind when the word at the cursor is the value of the option before it.
        _nudge_walk() {
            local word value
            while (($#)); do
                word=$1
                shift
                if [[ -z $dashdash && $word == -?* ]]; then
                    case $word in
                        (--) dashdash=1 ;;
                        (--db=*|--config=*)
                            value=${word#*=}
                            global+=("${word%%=*}=${value/#\~\//$HOME/}") ;;
                        (*=*) ;;
                        (*)
                            _nudge_option_kind "$command" "$word"
                            if [[ -n $kind ]] && (($#)); then
                                value=$1
                                shift
                                kind=
                                [[ $word == --db || $word == --config ]] && global+=("$word" "${value/#\~\//$HOME/}")
                            fi ;;
                    esac
                elif [[ -z $dashdash && $word == +* ]] && _nudge_takes_tags "$command"; then
                    :
                elif [[ -z $command ]]; then
                    command=$word
                else
                    ((operand == 0)) && first=$word
                    operand+=1
                fi
            done
        }

        # Sets kind to what the word at the cursor ($1) names, unless the walk has: the value
        # of --option=value (then attached is set: the value follows the =), options, the
        # command, a +TAG word (tagword), or an operand of the command.
        _nudge_cursor_kind() {
            if [[ -n $kind ]]; then
                return
            elif [[ -z $dashdash && $1 == --*=* ]]; then
                _nudge_option_kind "$command" "${1%%=*}"
                attached=1
            elif [[ -z $dashdash && $1 == +* ]] && _nudge_takes_tags "$command"; then
                kind=tagword
            elif [[ -z $dashdash && $1 == -* ]]; then
                kind=options
            elif [[ -z $command ]]; then
                kind=command
            else
                _nudge_operand_kind "$command" "$first" "$operand"
            fi
        }
        """#
}

extension String {
    /// The string inside single quotes for sh, bash and zsh: `'` becomes `'\''`.
    var singleQuoted: String { "'" + replacingOccurrences(of: "'", with: "'\\''") + "'" }
}
