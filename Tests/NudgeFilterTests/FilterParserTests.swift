import Foundation
import NudgeCore
import Testing
@testable import NudgeFilter

private let berlin = TimeZone(identifier: "Europe/Berlin")!

/// An instant written with its UTC offset, so that expectations do not depend on the code under test.
private func seconds(_ text: String) -> Int64 {
    guard let date = ISO8601DateFormatter().date(from: text) else { fatalError("bad test instant \(text)") }
    return Int64(date.timeIntervalSince1970)
}

private func day(_ text: String) -> LocalDate { LocalDate(iso: text)! }

/// Sunday 2026-11-29 10:53:20 in Berlin (CET, +01:00).
private let parser = FilterParser(when: WhenParser(now: Date(timeIntervalSince1970: TimeInterval(seconds("2026-11-29T10:53:20+01:00"))),
                                                   calendar: .nudge(zone: berlin), style: .standard))

private func parse(_ words: String...) throws -> ParsedFilter { try parser.parse(words) }

private func message(_ words: String...) -> String? {
    do {
        _ = try parser.parse(words)
        return nil
    } catch {
        return error.message
    }
}

struct FilterParserTests {
    @Test func noWordsAreNoFilter() throws {
        #expect(try parse() == ParsedFilter())
        #expect(try parse("", "  ").isEmpty)
    }

    @Test func eachTermReadsAsItsCondition() throws {
        #expect(try parse("+Trip").filter == .term(.tagged("Trip")))
        #expect(try parse("-phone").filter == .term(.untagged("phone")))
        #expect(try parse("category:Day job").filter == .term(.category("Day job")))
        #expect(try parse("category:work").filter == .term(.category("work")))
        #expect(try parse("priority:HIGH").filter == .term(.priority(.high)))
        #expect(try parse("due:none").filter == .term(.noDue))
        #expect(try parse("blocked").filter == .term(.blocked))
        #expect(try parse("Repeating").filter == .term(.repeating))
        #expect(try parse("parent:12").filter == .term(.parent(12)))
        #expect(try parse("milk").filter == .term(.text("milk")))
        #expect(try parse("10:30").filter == .term(.text("10:30")))
    }

    @Test func aWordWithASpaceIsOnePhraseWhateverItHolds() throws {
        #expect(try parse("oat milk").filter == .term(.text("oat milk")))
        #expect(try parse("(a or b)").filter == .term(.text("(a or b)")))
    }

    @Test func idsAndRangesNextToEachOtherAreOneTermOfAnyOfThem() throws {
        #expect(try parse("3", "5-8").filter == .term(.ids([3...3, 5...8])))
        #expect(try parse("3", "+a", "7").filter == .all([.term(.ids([3...3, 7...7])), .term(.tagged("a"))]))
    }

    @Test func termsCombineWithAndUnlessJoinedByOr() throws {
        let both = Filter.all([.term(.tagged("a")), .term(.text("milk"))])
        #expect(try parse("+a", "milk").filter == both)
        #expect(try parse("+a", "AND", "milk").filter == both)
        #expect(try parse("+a", "+b", "or", "+c").filter == .any([.all([.term(.tagged("a")), .term(.tagged("b"))]), .term(.tagged("c"))]))
    }

    @Test func parenthesesGroupAsSeparateWordsOrAttached() throws {
        let grouped = Filter.all([.any([.term(.tagged("a")), .term(.tagged("b"))]), .term(.overdue(overdue))])
        #expect(try parse("(", "+a", "or", "+b", ")", "overdue").filter == grouped)
        #expect(try parse("(+a", "OR", "+b)", "overdue").filter == grouped)
        #expect(try parse("((+a))").filter == .term(.tagged("a")))
    }

    private var overdue: DueWindow {
        DueWindow(instantsBefore: seconds("2026-11-29T10:53:20+01:00"), lastDay: day("2026-11-28"))
    }

    @Test func datesAreReadAsDueReadsThemAtTheParsersClockAndZone() throws {
        let today = DueWindow(firstInstant: seconds("2026-11-29T00:00:00+01:00"), instantsBefore: seconds("2026-11-30T00:00:00+01:00"),
                              firstDay: day("2026-11-29"), lastDay: day("2026-11-29"))
        #expect(try parse("due:today").filter == .term(.due(today)))
        #expect(try parse("due:tomorrow").filter == .term(.due(DueWindow(
            firstInstant: seconds("2026-11-30T00:00:00+01:00"), instantsBefore: seconds("2026-12-01T00:00:00+01:00"),
            firstDay: day("2026-11-30"), lastDay: day("2026-11-30")))))
        // A time names its day.
        #expect(try parse("due:2026-12-24 09:30").filter == .term(.due(DueWindow(
            firstInstant: seconds("2026-12-24T00:00:00+01:00"), instantsBefore: seconds("2026-12-25T00:00:00+01:00"),
            firstDay: day("2026-12-24"), lastDay: day("2026-12-24")))))
        #expect(try parse("due.before:2026-12-24").filter == .term(.due(DueWindow(
            instantsBefore: seconds("2026-12-24T00:00:00+01:00"), lastDay: day("2026-12-23")))))
        #expect(try parse("due.after:2026-12-24").filter == .term(.due(DueWindow(
            firstInstant: seconds("2026-12-25T00:00:00+01:00"), firstDay: day("2026-12-25")))))
        // Before a moment: the all-day dues of its own day count, as that day starts before it.
        #expect(try parse("due.before:2026-12-24 09:30").filter == .term(.due(DueWindow(
            instantsBefore: seconds("2026-12-24T09:30:00+01:00"), lastDay: day("2026-12-24")))))
        #expect(try parse("due.after:2026-12-24 09:30").filter == .term(.due(DueWindow(
            firstInstant: seconds("2026-12-24T09:30:01+01:00"), firstDay: day("2026-12-25")))))
        #expect(try parse("overdue").filter == .term(.overdue(overdue)))
    }

    @Test func aDayAcrossADSTChangeIsItsOwnLength() throws {
        // Berlin's 2027-03-28 has 23 hours.
        #expect(try parse("due:2027-03-28").filter == .term(.due(DueWindow(
            firstInstant: seconds("2027-03-28T00:00:00+01:00"), instantsBefore: seconds("2027-03-29T00:00:00+02:00"),
            firstDay: day("2027-03-28"), lastDay: day("2027-03-28")))))
    }

    @Test func theLastDayHasNoDayAfterIt() throws {
        let filter = try #require(try parse("due.after:9999-12-31").filter)
        guard case .term(.due(let window)) = filter else { Issue.record("not a due window: \(filter)"); return }
        #expect(window.firstDay.map { $0 > window.lastDay ?? $0 } != false)
        #expect(try parse("due.before:0001-01-01").filter != nil)
    }

    @Test func statusIsForTheWholeFilter() throws {
        #expect(try parse("status:completed", "+a") == ParsedFilter(status: .completed, filter: .term(.tagged("a"))))
        #expect(try parse("status:ALL") == ParsedFilter(status: .all))
        // Outside parentheses it is for the whole filter, whichever side of an or it is on.
        #expect(try parse("status:all", "+a", "or", "+b") == ParsedFilter(status: .all, filter: .any([.term(.tagged("a")), .term(.tagged("b"))])))
        #expect(try parse("+a", "or", "+b", "status:all") == ParsedFilter(status: .all, filter: .any([.term(.tagged("a")), .term(.tagged("b"))])))
        #expect(message("+a", "or", "status:all") == "status:all is for the whole filter, not a side of 'or'")
        let refused = "status:all is for the whole filter: give it once, outside parentheses"
        #expect(message("(status:all)", "+a") == "status: is for the whole filter: give it once, outside parentheses")
        #expect(message("(status:all", "+b)") == refused)
        #expect(message("status:all", "status:pending") == refused)
    }

    @Test("a wrong term is one line naming it", arguments: [
        ("priorty:high", "'priorty:high' is not a filter term; use \(FilterParser.accepted)"),
        ("priority:urgent", "'priority:urgent' is not a priority; use priority:high, priority:medium or priority:low"),
        ("status:done", "'status:done' is not a status; use status:pending, status:completed or status:all"),
        ("due:someday", "'due:someday' names no date or time; use a WHEN as --due takes: \(WhenParser.acceptedForms)"),
        ("due.before:", "'due.before:' needs a value: due.before:today|tomorrow"),
        ("category:", "'category:' needs a value: category:NAME"),
        ("parent:x", "'parent:x' names no todo; use parent:ID, like parent:12"),
        ("8-5", "'8-5' is not a range of ids; put the lower first, as 5-8"),
        ("0", "'0' is not a todo id; ids are whole numbers from 1, like 3 or 5-8"),
        ("99999999999999999999", "'99999999999999999999' is not a todo id; ids are whole numbers from 1, like 3 or 5-8"),
        ("+a.b", "'+a.b' is not a tag: it holds '.'; a tag is one word of letters, digits, - and _"),
    ])
    func aWrongTermIsOneLineNamingIt(word: String, expected: String) {
        #expect(message(word) == expected)
    }

    @Test func misplacedWordsAreNamed() {
        #expect(message("or", "+a") == "'or' in the filter needs a term before it")
        #expect(message("+a", "or") == "'or' in the filter needs a term after it")
        #expect(message("+a", "or", "or", "+b") == "'or' in the filter needs a term after it")
        #expect(message("and", "+a") == "'and' in the filter needs a term before it")
        #expect(message("+a", "and") == "'and' in the filter needs a term after it")
        #expect(message("(+a") == "a '(' in the filter is not closed; add a ')'")
        #expect(message("+a)") == "a ')' in the filter has no '(' before it")
        #expect(message(")") == "a ')' in the filter has no '(' before it")
        #expect(message("()") == "'()' in the filter holds no term")
    }

    @Test func nestingIsBounded() throws {
        let deep = String(repeating: "(", count: FilterParser.maximumDepth) + "+a" + String(repeating: ")", count: FilterParser.maximumDepth)
        #expect(try parser.parse([deep]).filter == .term(.tagged("a")))
        #expect(message("(" + deep + ")") == "the filter nests parentheses more than \(FilterParser.maximumDepth) deep")
    }
}
