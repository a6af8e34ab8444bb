import NudgeCore
import Testing

/// Hook command lines, split as systemd splits ExecStart= (without its specifiers).
struct HookCommandTests {
    func words(_ text: String, environment: [String: String] = [:]) throws -> [String] {
        try HookCommand(parsing: text).arguments(environment: environment)
    }

    @Test("split into words", arguments: [
        ("notify-send hello", ["notify-send", "hello"]),
        ("  paplay   /usr/share/sounds/a.oga  ", ["paplay", "/usr/share/sounds/a.oga"]),
        (#"curl -d "Pay rent now" https://ntfy.sh/x"#, ["curl", "-d", "Pay rent now", "https://ntfy.sh/x"]),
        ("printf '%s\\n' 'it''s'", ["printf", "%s\n", "its"]),
        (#"a\ b c\sd "e\"f" 'g"h'"#, ["a b", "c d", "e\"f", "g\"h"]),
        ("date +%s%%", ["date", "+%s%%"]),
        ("echo '' x", ["echo", "", "x"]),
        ("echo 100$$ \\$HOME", ["echo", "100$", "$HOME"]),
    ])
    func split(text: String, expected: [String]) throws {
        #expect(try words(text) == expected)
    }

    @Test func variablesAreReplacedInsideWordsWithoutSplittingThem() throws {
        let environment = ["NUDGE_TITLE": "Pay the rent; rm -rf /", "NUDGE_TODO_ID": "12"]
        #expect(try words(#"notify "${NUDGE_TITLE}" --id=${NUDGE_TODO_ID} ${UNSET}x"#, environment: environment)
            == ["notify", "Pay the rent; rm -rf /", "--id=12", "x"])
        #expect(try words("echo ${NUDGE_TITLE}", environment: environment) == ["echo", "Pay the rent; rm -rf /"])
        // A value that looks like a variable is not replaced again.
        #expect(try words("echo ${A}", environment: ["A": "${B}", "B": "no"]) == ["echo", "${B}"])
    }

    @Test func aVariableAsAWordOfItsOwnIsSplitAtWhiteSpace() throws {
        let environment = ["NUDGE_TITLE": "Pay  the\trent", "EMPTY": ""]
        #expect(try words("echo $NUDGE_TITLE end", environment: environment) == ["echo", "Pay", "the", "rent", "end"])
        #expect(try words("echo $UNSET $EMPTY end", environment: environment) == ["echo", "end"])
        #expect(try words("echo $NUDGE_TITLE", environment: environment) == ["echo", "Pay", "the", "rent"])
        // Not replaced again, and ${NAME} beside it stays one word.
        #expect(try words("echo $A ${A}", environment: ["A": "$B x", "B": "no"]) == ["echo", "$B", "x", "$B x"])
    }

    @Test("refused with the reason", arguments: [
        ("", "needs at least a program"),
        ("   ", "needs at least a program"),
        (#"echo "open"#, "a quote (\") is not closed"),
        ("echo 'open", "a quote (') is not closed"),
        ("echo x$HOME", "starts ${NAME}, $NAME as a word of its own"),
        ("echo $HOME/x", "starts ${NAME}"),
        ("echo \"$HOME\"", "starts ${NAME}"),
        ("echo ${HOME", "without its '}'"),
        ("echo ${1x}", "is not a variable name"),
        ("echo \\q", "unknown escape '\\q'"),
        ("echo \\", "ends in a backslash"),
    ])
    func refused(text: String, reason: String) {
        #expect {
            _ = try HookCommand(parsing: text)
        } throws: { error in
            (error as? InputError)?.message.contains(reason) == true
        }
    }

    @Test func theTextIsKeptAsWritten() throws {
        let text = #"notify "${NUDGE_TITLE}"  x"#
        #expect(try HookCommand(parsing: text).text == text)
        #expect(HookEvent.allCases.map(\.key) == ["on_fire", "on_done", "on_snooze", "on_add"])
    }
}
