import Foundation
import NudgeConfigFile
import NudgeCore

enum ConfigCommand: Command {
    static let name = "config"
    static let abstract = "Check the config file, or show the configuration in effect"
    static let usage = "nudge config check | show | path"
    static let subcommands = [
        Subcommand(name: "check", abstract: "read the file and say whether it is valid (exit status 1 when not)"),
        Subcommand(name: "show", abstract: "print the configuration in effect, every key, as the file would set it"),
        Subcommand(name: "path", abstract: "print which file is read"),
    ]
    static let options: [Option] = []
    static let discussion = """
        The config file is --config PATH, else $NUDGE_CONFIG, else
        $XDG_CONFIG_HOME/nudge/nudge.conf (~/.config/nudge/nudge.conf). Without one, the
        documented defaults apply; the documented file is installed as an example with
        'make install' (share/doc/nudge/nudge.conf).

        """ + "\n" + subcommands.map { "  " + $0.name.padding(to: 6) + "  " + $0.abstract }.joined(separator: "\n")

    static func run(_ arguments: Arguments, context: Context) throws(CLIError) {
        let words = try arguments.positionals(min: 1, max: 1, usage: usage)
        let path = context.resolvedConfigPath
        let exists = FileManager.default.fileExists(atPath: path)
        switch words[0] {
        case "check":
            let config: NudgeConfig
            do { config = try ConfigFile.load(path: path, checking: (context.now, context.zone)) } catch { throw .failed("\(error)") }
            if !exists {
                context.print(Terminal.visible("No config file at \(path); the defaults apply."))
            } else {
                let overrides = config.byPriority.count + config.byCategory.count
                context.print(Terminal.visible(path) + " is valid" + (overrides == 0 ? "." : " (\(overrides) priority or category section\(overrides == 1 ? "" : "s"))."))
            }
        case "show":
            let config = try context.config()
            context.print(Terminal.visible("# The configuration in effect, from " + (exists ? path : "the defaults (no file at \(path))")))
            context.print(Terminal.visibleLines(ConfigFile.render(config).trimmingCharacters(in: .newlines)).joined(separator: "\n"))
        case "path":
            // For scripts, like --json: the exact path.
            context.print(path)
        default:
            throw .usage("unknown config command '\(words[0])'; use " + subcommandNames)
        }
    }
}
