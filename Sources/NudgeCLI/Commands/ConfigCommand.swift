import Foundation
import NudgeConfigFile
import NudgeCore
import NudgeHelp
import NudgePlatform

enum ConfigCommand: Command {
    static let json = Flag("json", "Print the result as a JSON object")
    static let name = "config"
    static let declaration = CommandDeclaration(name, "Check the config file, or show the configuration in effect", json, subcommands: [
        Subcommand("check", "read the file and say whether it is valid (exit status 1 when not); a sound file that does not exist, or a hook program that cannot be found, is a warning on stderr"),
        Subcommand("show", "print the configuration in effect, every key, as the file would set it"),
        Subcommand("path", "print which file is read"),
    ])
    static let jsonOutput = """
        config show --json prints an object:
          path      the config file read
          exists    whether it exists (false: the defaults apply)
          sections  an object per section of the file (reminders, priority.high, category.work,
                    tag.money, digest, quiet, snooze, catchup, notifications, import, list,
                    sync, hooks, display): each key with its value as a string, written as
                    the file would write it ("10m, 1h", "yes", "off")
          inEffect  how dates are written and read, from the locale and [display]: {locale
                    (its name, or null when none is set), weekStart (monday, sunday or
                    saturday), timeFormat (24h or 12h), dateFormat (mdy, dmy, ymd, or null
                    where the locale sets no order)}
        config check --json prints {path, exists, valid (false when the file is wrong: then
        error is the line nudge also writes to stderr, and the exit status is 1), error,
        warnings (an array of lines, as on stderr)}; config path --json prints {path, exists}.
        """
    static let discussion = """
        The config file is --config PATH, else $NUDGE_CONFIG, else
        $XDG_CONFIG_HOME/nudge/nudge.conf (~/.config/nudge/nudge.conf). Without one, the
        documented defaults apply; the documented file is installed as an example with
        'make install' (share/doc/nudge/nudge.conf).

        """ + "\n" + subcommands.map { HelpEntry($0.name, $0.abstract) }.plainText()

    /// What `check` warns of, with the user's home and PATH.
    static func warnings(path: String, context: Context) -> [ConfigError] {
        ConfigFile.warnings(path: path, home: context.environment["HOME"] ?? NSHomeDirectory(),
                            searchPath: context.environment["PATH"] ?? "")
    }

    static func run(_ arguments: Arguments, context: Context) throws(CLIError) {
        let words = arguments.positionals
        let path = context.resolvedConfigPath
        let exists = FileManager.default.fileExists(atPath: path)
        let json = arguments[Self.json]
        switch words[0] {
        case "check":
            try context.requireNamedConfig()
            let config: NudgeConfig
            do { config = try ConfigFile.load(path: path, checking: (context.now, context.zone)) } catch {
                if json { context.printJSON(checkJSON(path: path, exists: exists, error: "\(error)", warnings: [])) }
                throw .failed("\(error)")
            }
            if json {
                let found = exists ? warnings(path: path, context: context).map { "\($0)" } : []
                return context.printJSON(checkJSON(path: path, exists: exists, error: nil, warnings: found))
            }
            if !exists {
                context.print(Terminal.visible("No config file at \(path); the defaults apply."))
            } else {
                let overrides = config.byPriority.count + config.byCategory.count + config.byTag.count
                context.print(Terminal.visible(path) + " is valid" + (overrides == 0 ? "." : " (\(overrides) priority, category or tag section\(overrides == 1 ? "" : "s"))."))
                context.flush()
                for warning in warnings(path: path, context: context) {
                    try? FileDescriptor.standardError.writeAll(Terminal.visible("warning: \(warning)") + "\n")
                }
            }
        case "show":
            let config = try context.config()
            if arguments[Self.json] {
                context.printJSON(.object([
                    ("path", .string(path)), ("exists", .bool(exists)),
                    ("sections", .object(ConfigFile.renderedSections(config).map { name, lines in
                        (name, .object(lines.map { ($0.key, .string($0.value)) }))
                    })),
                    ("inEffect", displayInEffectJSON(context)),
                ]))
                return
            }
            context.print(Terminal.visible("# The configuration in effect, from " + (exists ? path : "the defaults (no file at \(path))")))
            context.print(Terminal.visibleLines(ConfigFile.render(config).trimmingCharacters(in: .newlines)).joined(separator: "\n"))
            context.print(Terminal.visible(displayInEffect(context)))
        case "path":
            if json { return context.printJSON(.object([("path", .string(path)), ("exists", .bool(exists))])) }
            // For scripts, like --json: the exact path.
            context.print(path)
        default:
            throw unknownSubcommand(words[0])
        }
    }

    static func checkJSON(path: String, exists: Bool, error: String?, warnings: [String]) -> JSON {
        .object([("path", .string(path)), ("exists", .bool(exists)), ("valid", .bool(error == nil)),
                 ("error", .string(error)), ("warnings", .array(warnings.map(JSON.string)))])
    }

    static func displayInEffectJSON(_ context: Context) -> JSON {
        let style = context.dateStyle
        return .object([
            ("locale", .string(DateStyle.localeName(environment: context.environment)?.name)),
            ("weekStart", .string(DueText.weekdayNames[style.weekStart - 1].lowercased())),
            ("timeFormat", .string(style.clock.rawValue)), ("dateFormat", .string(style.dateOrder?.rawValue)),
        ])
    }

    /// "# In effect, with the locale en_US.UTF-8 (LANG): weeks from sunday, 12h clock, mdy dates".
    static func displayInEffect(_ context: Context) -> String {
        let style = context.dateStyle
        let locale = DateStyle.localeName(environment: context.environment).map { "the locale \($0.name) (\($0.variable))" }
            ?? "no locale set (C)"
        let dates = style.dateOrder.map { "\($0.rawValue) dates" } ?? "month names first and numeric dates refused when they read two ways"
        return "# In effect, with \(locale): weeks from \(DueText.weekdayNames[style.weekStart - 1].lowercased()), "
            + "\(style.clock.rawValue) clock, \(dates)"
    }
}
