import Foundation
import Testing
@testable import NudgeCLI
@testable import NudgeTestSupport

/// `nudge completions bash|zsh|fish`, checked by really completing in each shell.
struct ShellCompletionTests {
    let nudge = Nudge()
    let shells: ShellHarness

    init() throws {
        shells = try ShellHarness(nudge)
    }

    /// Two categories, two pending todos (one with a title no terminal should get raw) and a
    /// done one: ids 1 and 2 pending, 3 done.
    func addTodos() throws {
        try nudge("category", "add", "work")
        try nudge("category", "add", "Home office")
        try nudge("add", "Pay rent", "--category", "work")
        try nudge("add", "Evil\ttitle\nwith\u{1B}]0;pwned\u{07} escapes")
        try nudge("add", "Done already")
        try nudge("done", "3")
    }

    // MARK: bash

    @Test func bashCompletesCommandsAndTheirOptions() throws {
        #expect(try shells.bash("nudge", "") == NudgeCLI.commands.map { $0.name })
        #expect(try shells.bash("nudge", "ca") == ["category"])
        #expect(try shells.bash("nudge", "list", "--s") == ["--search", "--sort"])
        #expect(try shells.bash("nudge", "export", "-") == ["--format", "--all", "--output", "-o", "--help", "-h", "--db", "--config"])
        #expect(try shells.bash("nudge", "--") == ["--db", "--config", "--help", "--version"])
    }

    @Test func bashCompletesOptionValuesFromTheSameListsParsingUses() throws {
        #expect(try shells.bash("nudge", "add", "--priority", "") == ["low", "medium", "high"])
        #expect(try shells.bash("nudge", "add", "Buy", "milk", "--priority", "=", "h") == ["high"])
        #expect(try shells.bash("nudge", "add", "x", "--repeat", "week") == ["weekdays", "weekly"])
        #expect(try shells.bash("nudge", "edit", "1", "--repeat-from", "") == ["due", "completion"])
        #expect(try shells.bash("nudge", "list", "--sort", "") == ["due", "priority", "title", "created"])
        #expect(try shells.bash("nudge", "import", "f.ics", "--format", "") == ["json", "ics", "taskwarrior", "todotxt"])
        // A value that is free text is not completed, and the word after it is an option again.
        #expect(try shells.bash("nudge", "add", "--due", "").isEmpty)
        #expect(try shells.bash("nudge", "add", "--due", "fri", "--j") == ["--json"])
    }

    @Test func eachShellCompletesTheTermsOfAFilterAndTheirValues() throws {
        try nudge("category", "add", "Home office")
        #expect(try shells.bash("nudge", "list", "pri") == ["priority:high", "priority:medium", "priority:low"])
        // bash replaces what follows the colon, a word break.
        #expect(try shells.bash("nudge", "list", "+a", "status:c") == ["completed"])
        #expect(try shells.bash("nudge", "list", "over") == ["overdue"])
        #expect(try shells.bash("nudge", "list", "category:H") == ["Home\\ office"])
        #expect(try shells.fish("nudge list due") == ["due.after:today", "due.after:tomorrow", "due.before:today", "due.before:tomorrow",
                                                      "due:none", "due:today", "due:tomorrow"])
        #expect(try shells.fish("nudge list category:h") == ["category:Home office"])
        #expect(try shells.zsh("nudge list st") == ["status:pending", "status:completed", "status:all"])
        #expect(try shells.zsh("nudge list ca") == ["category:"])
    }

    @Test func bashCompletesIdsFromTheStoreByWhatTheCommandTakes() throws {
        try addTodos()
        #expect(try shells.bash("nudge", "done", "") == ["1", "2"])
        #expect(try shells.bash("nudge", "done", "1", "") == ["1", "2"])
        #expect(try shells.bash("nudge", "undo", "") == ["3"])
        #expect(try shells.bash("nudge", "show", "") == ["1", "2", "3"])
        #expect(try shells.bash("nudge", "postpone", "2") == ["2"])
        // postpone ID DURATION: the second is a duration.
        #expect(try shells.bash("nudge", "postpone", "2", "").isEmpty)
    }

    @Test func bashReadsTheDatabaseGivenOnTheLine() throws {
        try addTodos()
        let other = Nudge()
        try other("add", "Elsewhere")
        #expect(try shells.bash("nudge", "--db", other.database, "show", "") == ["1"])
        #expect(try shells.bash("nudge", "show", "--db=" + other.database, "") == ["1"])
    }

    @Test func bashCompletesCategoriesSubcommandsCommandsAndFiles() throws {
        try addTodos()
        #expect(try shells.bash("nudge", "list", "--category", "") == ["Home\\ office", "work"])
        #expect(try shells.bash("nudge", "edit", "1", "--category", "h") == ["Home\\ office"])
        #expect(try shells.bash("nudge", "edit", "1", "--category", "Home\\ o") == ["Home\\ office"])
        #expect(try shells.bash("nudge", "category", "") == ["add", "list", "rename", "delete"])
        #expect(try shells.bash("nudge", "category", "delete", "") == ["Home\\ office", "work"])
        #expect(try shells.bash("nudge", "config", "") == ["check", "show", "path"])
        // nudge help takes the commands and the help topics.
        #expect(try shells.bash("nudge", "help", "ex") == ["explain", "export", "exit-status", "examples"])
        #expect(try shells.bash("nudge", "help", "w") == ["when"])
        #expect(try shells.bash("nudge", "completions", "") == ["bash", "zsh", "fish"])
        try "[]".write(toFile: nudge.folder.file("todos.json"), atomically: true, encoding: .utf8)
        #expect(try shells.bash("nudge", "import", "tod") == ["todos.json"])
        #expect(try shells.bash("nudge", "export", "-o", "tod") == ["todos.json"])
    }

    // MARK: fish

    @Test func fishShowsIdsWithTheirTitlesMadeSafe() throws {
        try addTodos()
        #expect(try shells.fish("nudge done ") == ["1\tPay rent", "2\tEvil title with ]0;pwned escapes"])
        #expect(try shells.fish("nudge undo ") == ["3\tDone already"])
        #expect(try shells.fish("nudge show 3") == ["3\tDone already"])
    }

    @Test func fishCompletesCommandsOptionsAndValuesWithDescriptions() throws {
        try addTodos()
        #expect(try shells.fish("nudge ad") == ["add\tAdd a todo"])
        #expect(try shells.fish("nudge list --so") == ["--sort\tOrder within each section: due (the default), priority, title or created"])
        #expect(try shells.fish("nudge add x --priority=") == ["--priority=high", "--priority=low", "--priority=medium"])
        #expect(try shells.fish("nudge list --category ") == ["Home office", "work"])
        #expect(try shells.fish("nudge list --category=") == ["--category=Home office", "--category=work"])
        #expect(try shells.fish("nudge export --output=nudge.f") == ["--output=nudge.fish"])
        #expect(try shells.fish("nudge category ").map { $0.split(separator: "\t")[0] } == ["add", "delete", "list", "rename"])
        #expect(try shells.fish("nudge config p") == ["path\tprint which file is read"])
        #expect(try shells.fish("nudge help w") == ["when\t" + HelpTopics.when.abstract])
    }

    /// nudge's own options are described as 'nudge --help' describes them.
    @Test func fishDescribesTheProgramsOptionsAsHelpDoes() throws {
        #expect(try shells.fish("nudge --d") == ["--db\tThe database (default: $NUDGE_DB, else ~/.local/share/nudge/nudge.db)"])
        #expect(try shells.fish("nudge --v") == ["--version\tShow the version"])
    }

    // MARK: zsh

    @Test func zshCompletesIdsWithTitlesCommandsAndValues() throws {
        try addTodos()
        let ids = try shells.zsh("nudge done ")
        #expect(ids.count == 2)
        #expect(ids.first?.hasPrefix("1 -- 1") == true && ids.first?.hasSuffix("-- Pay rent") == true, "\(ids)")
        #expect(try shells.zsh("nudge add x --priority=") == ["--priority=low", "--priority=medium", "--priority=high"])
        #expect(try shells.zsh("nudge list --category ") == ["Home\\ office", "work"])
        let commands = try shells.zsh("nudge ")
        #expect(commands.map { String($0.prefix { $0 != " " }) } == NudgeCLI.commands.map { $0.name })
        #expect(commands.first?.hasSuffix("-- Add a todo") == true, "\(commands)")
        let subjects = try shells.zsh("nudge help w")
        #expect(subjects.count == 1 && subjects.first?.hasPrefix("when") == true && subjects.first?.contains("-- The forms of WHEN") == true, "\(subjects)")
    }

    @Test func zshReadsTheScriptWithoutErrors() throws {
        let check = try nudge.shell("zsh -n \"$1\"; echo $?".replacingOccurrences(of: "$1", with: nudge.folder.file("zsh/_nudge")))
        #expect(check.stdout == "0\n", "\(check.stderr)")
    }

    // MARK: one source of truth

    /// Every command and every option of the tables is completed by each script, so that a new
    /// one needs no script edited.
    @Test func everyCommandAndOptionInTheTablesIsInEachScript() throws {
        let zsh = try String(contentsOfFile: nudge.folder.file("zsh/_nudge"), encoding: .utf8)
        for command in NudgeCLI.commands {
            let spellings = (command.options + [.help] + NudgeCLI.globalOptionTable)
                .flatMap(CompletionTable.spellings)
            #expect(try shells.bash("nudge", command.name, "-") == spellings, "\(command.name)")
            #expect(try shells.fish("nudge \(command.name) -").map { String($0.prefix { $0 != "\t" }) }.sorted() == spellings.sorted(),
                    "\(command.name)")
            for spelling in spellings {
                #expect(zsh.contains("'\(spelling):"), "\(command.name) \(spelling)")
            }
            #expect(zsh.contains("'\(command.name):"), "\(command.name)")
        }
    }
}
