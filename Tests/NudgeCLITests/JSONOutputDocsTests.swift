import Testing
@testable import NudgeCLI

/// Every command's `jsonOutput`, which the man page prints.
struct JSONOutputDocsTests {
    @Test func everyCommandThatPrintsJSONDescribesIt() {
        for command in NudgeCLI.commands where command.options.contains(where: { $0.name == "json" }) {
            let text = command.jsonOutput
            #expect(!text.isEmpty, "\(command.name) has --json but no jsonOutput")
            #expect(!text.hasSuffix("\n") && !text.hasPrefix(" "), "\(command.name): \(text)")
            #expect(!text.split(separator: "\n").contains { $0.hasSuffix(" ") }, "\(command.name): \(text)")
        }
    }

    @Test func theTodoKeysAreListedOnceAtOneIndent() {
        let lines = ListCommand.jsonOutput.split(separator: "\n")
        #expect(lines.contains("  id, uuid, title, notes      as stored; notes is null when there are none"))
        #expect(lines.contains("  priority                    low, medium or high"))
        #expect(ShowCommand.jsonOutput.hasPrefix("An object with the keys of list --json:\n  id, uuid"))
        #expect(ShowCommand.jsonOutput.contains("\n  nextReminder "))
    }
}
