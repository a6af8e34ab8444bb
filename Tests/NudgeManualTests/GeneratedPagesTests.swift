import Foundation
import NudgeHelp
import Testing
@testable import NudgeCLI
@testable import NudgeConfigFile
@testable import NudgeDaemon
@testable import NudgeTestSupport

/// The pages `nudge-manpages` writes, typeset by groff and shown by man as a reader sees
/// them, against the help the binaries print, config/nudge.conf and the daemon's journal fields.
struct GeneratedPagesTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let configPath = repository.appendingPathComponent("config/nudge.conf").path
    static let binaries = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    static let pageNames = ["nudge.1", "nudged.8", "nudge.conf.5"]

    let folder = TemporaryDirectory()

    init() throws {
        let run = try Self.run("nudge-manpages", [Self.configPath, folder.path])
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
    }

    @Test(arguments: pageNames)
    func groffHasNothingToWarnAbout(page: String) throws {
        let run = try Self.launch("/usr/bin/groff", ["-ww", "-z", "-man", folder.file(page)])
        #expect(run.status == 0)
        #expect(run.stdout + run.stderr == "")
    }

    @Test(arguments: pageNames)
    func manShowsIt(page: String) throws {
        let text = try manual(page)
        let name = page.split(separator: ".").dropLast().joined(separator: ".")
        #expect(text.lines.first?.hasPrefix(name.uppercased() + "(") == true)
        #expect(text.section("NAME").first?.trimmingCharacters(in: .whitespaces).hasPrefix(name + " - ") == true)
    }

    @Test func eachCommandReadsAsItsHelp() throws {
        let page = try manual("nudge.1")
        let commands = page.section("COMMANDS")
        #expect(NudgeCLI.commands.count > 10)
        for command in NudgeCLI.commands {
            let part = ManualText.subsection(command.name, in: commands)
            let help = try Self.run("nudge", ["help", command.name])
            #expect(help.status == 0)
            // The man page's labels are its layout, and `code` is bold there.
            var expected = words(help.stdout).replacingOccurrences(of: "Usage: ", with: "")
                .replacingOccurrences(of: " Options: ", with: " ")
            if !command.jsonOutput.isEmpty { expected += " JSON output (--json): " + words(command.jsonOutput) }
            #expect(words(part.joined(separator: "\n")) == expected.replacingOccurrences(of: "`", with: ""), "nudge \(command.name)")
            for option in HelpCommand.documentedOptions(of: command) {
                #expect(part.contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix(option.entry.label) }, "\(command.name) \(option.name)")
            }
        }
    }

    @Test func theHelpAndThePagesFitEightyColumns() throws {
        let helps = [["--help"], ["nudged", "--help"]] + NudgeCLI.commands.map { ["help", $0.name] } + HelpTopics.all.map { ["help", $0.name] }
        for arguments in helps {
            let (binary, rest) = arguments.first == "nudged" ? ("nudged", Array(arguments.dropFirst())) : ("nudge", arguments)
            let help = try Self.run(binary, rest)
            let long = help.stdout.split(separator: "\n").map(String.init).filter { $0.count > 80 }
            #expect(long.isEmpty, "\(binary) \(rest.joined(separator: " "))")
        }
        for page in Self.pageNames {
            let run = try Self.launch("/usr/bin/man", ["-l", folder.file(page)],
                                      environment: ["LC_ALL": "C.UTF-8", "MANWIDTH": "80", "PATH": "/usr/bin:/bin"])
            let long = run.stdout.split(separator: "\n").map(String.init).filter { $0.count > 80 }
            #expect(run.status == 0)
            #expect(long.isEmpty, "\(page)")
        }
    }

    @Test func eachTopicReadsAsItsHelp() throws {
        let page = try manual("nudge.1")
        let topics = HelpTopics.all
        #expect(topics.map(\.name).contains("when") && topics.map(\.name).contains("rule"))
        for topic in topics {
            #expect(NudgeCLI.command(named: topic.name) == nil, "\(topic.name) is a command too")
            let help = try Self.run("nudge", ["help", topic.name])
            #expect(help.stdout == topic.plainText + "\n")
            // The abstract is the overview's line; the section starts after it.
            let body = help.stdout.drop { $0 != "\n" }
            #expect(words(page.section(topic.heading).joined(separator: "\n")) == words(String(body)), "\(topic.name)")
        }
    }

    @Test func theOverviewIsTheDescriptionAndOptions() throws {
        let page = try manual("nudge.1")
        let overview = try Self.run("nudge", ["--help"])
        #expect(words(overview.stdout).contains(words(HelpCommand.description)))
        #expect(words(page.section("DESCRIPTION").joined(separator: "\n")) == words(HelpCommand.description))
        let options = words(page.section("OPTIONS").joined(separator: "\n"))
        for option in HelpCommand.programOptions {
            #expect(options.contains(words(option.entry.label + " " + option.help)))
            #expect(words(overview.stdout).contains(words(option.entry.label + " " + option.help)))
        }
    }

    @Test func everySectionAndKeyOfTheConfigFileWithItsDefault() throws {
        let page = try manual("nudge.conf.5")
        let sections = page.section("SECTIONS")
        var entries: [(section: String, key: String, value: String)] = []
        // inih, as nudge reads the file, says what is in it.
        let failure = INIScanner.scan(try String(contentsOfFile: Self.configPath, encoding: .utf8),
                                      onSection: { _ in }, onEntry: { section, key, value, _ in entries.append((section, key, value)) })
        #expect(failure == nil)
        #expect(Set(entries.map(\.section)).isSuperset(of: ["reminders", "digest", "quiet", "snooze", "catchup", "sync"]))
        for (section, key, value) in entries {
            let part = ManualText.subsection("[\(section)]", in: sections)
            // The key's tag, not a line of another key's text that starts with its name.
            let tagIndent = String(repeating: " ", count: 7)
            let start = try #require(part.firstIndex { line in
                guard line.hasPrefix(tagIndent), !line.hasPrefix(tagIndent + " ") else { return false }
                let text = line.trimmingCharacters(in: .whitespaces)
                return text == key || text.hasPrefix(key + " ")
            }, "[\(section)] \(key)")
            let defaultLine = part[start...].first { $0.contains("Default: ") }
            #expect(defaultLine?.trimmingCharacters(in: .whitespaces) == (value.isEmpty ? "Default: empty." : "Default: \(value)."),
                    "[\(section)] \(key)")
        }
    }

    @Test func everyJournalFieldAndEventOfTheService() throws {
        let journal = try manual("nudged.8").section("JOURNAL").map { $0.trimmingCharacters(in: .whitespaces) }
        for field in JournalField.allCases {
            #expect(journal.contains(field.rawValue), "\(field.rawValue)")
        }
        for kind in ServiceEvent.Kind.allCases {
            #expect(journal.contains("\(kind.rawValue) MESSAGE_ID=\(kind.messageID)"), "\(kind)")
        }
    }

    @Test func theServicePageSaysWhatItsHelpSays() throws {
        let page = words(try manual("nudged.8").text)
        let help = try Self.run("nudged", ["--help"])
        #expect(help.status == 0)
        // After the name line, up to the pointer to the page: each paragraph is in the page.
        let paragraphs = help.stdout.components(separatedBy: "\n\n").dropFirst().dropLast()
        #expect(paragraphs.count >= 4)
        for paragraph in paragraphs {
            let expected = words(paragraph).replacingOccurrences(of: "Usage: ", with: "")
                .replacingOccurrences(of: "Options: ", with: "").replacingOccurrences(of: "`", with: "")
            #expect(page.contains(expected), "\(expected)")
        }
        for heading in ["SIGNALS", "READINESS", "CATCH-UP", "JOURNAL", "EXIT STATUS", "EXAMPLES"] {
            #expect(try manual("nudged.8").lines.contains(heading))
        }
    }

    // MARK: - Helpers

    /// The page as `man -l` shows it, one paragraph a line (MANWIDTH), in ASCII.
    func manual(_ page: String) throws -> ManualText {
        let run = try Self.launch("/usr/bin/man", ["-l", folder.file(page)],
                                  environment: ["LC_ALL": "C", "MANWIDTH": "2000", "PATH": "/usr/bin:/bin"])
        #expect(run.status == 0)
        #expect(run.stderr == "")
        return ManualText(text: run.stdout)
    }

    func words(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    static func run(_ binary: String, _ arguments: [String]) throws -> Run {
        try launch(binaries.appendingPathComponent(binary).path, arguments,
                   environment: ["PATH": "/usr/bin:/bin", "HOME": "/nonexistent", "TZ": "UTC"])
    }

    static func launch(_ path: String, _ arguments: [String], environment: [String: String] = ["PATH": "/usr/bin:/bin"]) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = environment
        return try Run.launch(process)
    }
}

/// A page as man shows it: sections start at the margin, subsections three spaces in.
struct ManualText {
    let text: String
    var lines: [String] { text.components(separatedBy: "\n") }

    /// The lines under a section heading, up to the next one.
    func section(_ heading: String) -> [String] {
        guard let start = lines.firstIndex(of: heading) else { return [] }
        let rest = lines[(start + 1)...]
        return Array(rest.prefix { $0.isEmpty || $0.first == " " })
    }

    /// The lines under `   NAME` in `lines`, up to the next subsection.
    static func subsection(_ name: String, in lines: [String]) -> [String] {
        guard let start = lines.firstIndex(of: "   " + name) else { return [] }
        return Array(lines[(start + 1)...].prefix { !($0.hasPrefix("   ") && !$0.hasPrefix("    ")) })
    }
}

/// A command that describes its --json output, as the man page shows it.
private enum DescribedJSONCommand: Command {
    static let name = "described"
    static let declaration = CommandDeclaration(name, "Stand in for a command with --json", Flag("json", "Print JSON"))
    static let jsonOutput = """
        An object:

          id      the todo's id
          title   its title
        """

    static func run(_ arguments: Arguments, context: Context) throws(CLIError) {}
}

struct JSONOutputTests {
    @Test func aCommandsJSONOutputFollowsItsOptions() throws {
        let page = ManualPage(name: "demo", section: 1, source: "Demo", manual: "Tests", summary: "a demo",
                              sections: [.init("COMMANDS", NudgeCLI.manualSections(of: [DescribedJSONCommand.self]).flatMap { $0 })])
        let folder = TemporaryDirectory()
        try page.roff.write(toFile: folder.file("demo.1"), atomically: true, encoding: .utf8)
        let run = try GeneratedPagesTests.launch("/usr/bin/man", ["-l", folder.file("demo.1")],
                                                 environment: ["LC_ALL": "C", "MANWIDTH": "2000", "PATH": "/usr/bin:/bin"])
        #expect(run.stderr == "")
        let part = ManualText.subsection("described", in: ManualText(text: run.stdout).section("COMMANDS"))
        #expect(part.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } == [
            "Stand in for a command with --json.", "nudge described [--json]", "--json Print JSON", "-h, --help", "Show this help",
            "JSON output (--json):", "An object:", "id     the todo's id", "title  its title",
        ])
    }
}
