import Testing
@testable import NudgeCore

struct MisspellingTests {
    static let commands = ["add", "list", "show", "edit", "done", "undo", "delete", "postpone", "skip", "snooze",
                           "remind", "upcoming", "explain", "history", "status", "config", "category", "export",
                           "import", "sync", "completions", "help"]

    @Test(arguments: [
        ("ad", ["add"]), ("lsit", ["list"]), ("lst", ["list"]), ("snoze", ["snooze"]), ("postpnoe", ["postpone"]),
        ("ADD", ["add"]), ("Snooze", ["snooze"]), ("histroy", ["history"]), ("catgory", ["category"]),
        ("dne", ["done"]), ("xport", ["export"]), ("ipmort", ["import"]),
    ])
    func aSlipOfTheKeysFindsTheCommand(typed: String, meant: [String]) {
        #expect(Misspelling.corrections(of: typed, among: Self.commands) == meant)
    }

    @Test(arguments: ["frobnicate", "x", "", "remove", "lists of things", "qq", String(repeating: "a", count: 500)])
    func nothingNearIsNoSuggestion(typed: String) {
        #expect(Misspelling.corrections(of: typed, among: Self.commands).isEmpty)
    }

    @Test func equallyNearWordsAreAllSuggestedInTheirOrder() {
        #expect(Misspelling.corrections(of: "sut", among: ["sat", "sun", "set"]) == ["sat", "sun", "set"])
        // Four equally near is a guess, not a suggestion.
        #expect(Misspelling.corrections(of: "sut", among: ["sat", "sun", "set", "but"]).isEmpty)
        // The nearest wins over those a little further.
        #expect(Misspelling.corrections(of: "tomorow", among: ["tonight", "tomorrow", "today"]) == ["tomorrow"])
    }

    @Test(arguments: [
        ("add", "add", 0), ("ad", "add", 1), ("tomorow", "tomorrow", 1), ("fir", "fri", 1), ("teh", "the", 1),
        ("abc", "", 3), ("", "abc", 3), ("kitten", "sitting", 3), ("ca", "abc", 3),
    ])
    func editDistanceCountsASwapAsOneEdit(a: String, b: String, distance: Int) {
        #expect(Misspelling.editDistance(Array(a), Array(b)) == distance)
        #expect(Misspelling.editDistance(Array(b), Array(a)) == distance)
    }

    @Test func theQuestionNamesEachSuggestion() {
        #expect(Misspelling.question([]) == nil)
        #expect(Misspelling.question(["add"]) == "did you mean 'add'?")
        #expect(Misspelling.question(["sat", "sun"]) == "did you mean 'sat' or 'sun'?")
        #expect(Misspelling.question(["a", "b", "c"]) == "did you mean 'a', 'b' or 'c'?")
    }

    @Test(arguments: [
        ("tomorow", "tomorrow"), ("tomorow 9am", "tomorrow 9am"), ("Tommorow at 9", "tomorrow at 9"),
        ("frday", "friday"), ("nxt fri", "next fri"), ("next wensday", "next wednesday"), ("decmber 24", "december 24"),
        ("in 3 dasy", "in 3 days"), ("in 2 hoursz", "in 2 hours"), ("tonigth", "tonight"), ("tody", "today"),
        ("end of wek", "end of week"), ("fri noom", "fri noon"),
    ])
    func aMisspeltDateWordIsSuggested(typed: String, meant: String) throws {
        #expect(sunday.corrections(of: typed) == [meant])
        #expect(throws: InputError("can't read '\(typed)' as a date; did you mean '\(meant)'?")) { try sunday.parse(typed) }
        // What is suggested reads.
        _ = try sunday.parse(meant)
    }

    @Test(arguments: ["someday", "feb 30", "fri 25:00", "9xm", "in 3 weeks 2h at 9", "x", "zzzzzz zzzzzz"])
    func aDateThatIsNoSlipGetsItsOwnError(typed: String) {
        #expect(sunday.corrections(of: typed).isEmpty)
        #expect(throws: InputError.self) { try sunday.parse(typed) }
        do { _ = try sunday.parse(typed) } catch { #expect(!error.message.contains("did you mean")) }
    }

    @Test func equallyNearWordsAreTriedInTurn() {
        #expect(WhenParser.respellings("dasy") == ["days", "day"])
        // "wed" first, as long as "wek", but only "week" reads.
        #expect(WhenParser.respellings("end of wek") == ["end of wed", "end of week"])
        #expect(sunday.corrections(of: "end of wek") == ["end of week"])
        // "in 3 day" reads as "in 3 days" does: one suggestion.
        #expect(sunday.corrections(of: "in 3 dasy") == ["in 3 days"])
        #expect(sunday.corrections(of: "sut 9am") == ["sat 9am", "sun 9am"])
        #expect(throws: InputError("can't read 'sut 9am' as a date; did you mean 'sat 9am' or 'sun 9am'?")) { try sunday.parse("sut 9am") }
    }

    @Test func aTextFarOffIsNotRespelled() {
        #expect(WhenParser.respellings("tomorrow 9am").isEmpty)
        #expect(WhenParser.respellings(Array(repeating: "tomorow", count: 9).joined(separator: " ")).isEmpty)
        // Each word near two date words: too many readings to try.
        #expect(WhenParser.respellings("sut sut sut sut").count == 16)
        #expect(WhenParser.respellings("sut sut sut sut sut").isEmpty)
    }
}
