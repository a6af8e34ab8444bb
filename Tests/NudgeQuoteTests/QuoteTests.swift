import Foundation
import NudgeCore
import Testing
@testable import NudgeQuote
@testable import NudgeTestSupport

/// Reading quotes: the JSON of quote services, fortune files, and what a terminal must not get.
struct QuoteTests {
    @Test(arguments: [
        (#"[{"q": "Well begun is half done.", "a": "Aristotle", "h": "<b>x</b>"}]"#, "“Well begun is half done.” — Aristotle"),
        (#"{"content": "Simplicity is the soul of efficiency.", "author": "Austin Freeman"}"#,
         "“Simplicity is the soul of efficiency.” — Austin Freeman"),
        (#"[{"text": "Less is more.", "author": null}, {"text": "Second", "author": "B"}]"#, "“Less is more.”"),
        (#"{"quote": "Stay hungry.", "author": "Jobs"}"#, "“Stay hungry.” — Jobs"),
    ])
    func theUsualJSONShapesAreRead(json: String, line: String) {
        #expect(QuoteReader.json(Data(json.utf8))?.line == line)
    }

    @Test func otherJSONIsNoQuote() {
        for json in ["[]", "{}", #"{"message": "rate limited"}"#, "not json", #"[{"q": ""}]"#, #"[{"q": 5}]"#] {
            #expect(QuoteReader.json(Data(json.utf8)) == nil, "\(json)")
        }
    }

    @Test func controlCharactersAndLineBreaksBecomeSpaces() {
        let quote = Quote(text: "Clear\u{1B}[2J the\n<screen> &\u{202E}evil\u{7}", author: "Mallory\r\nEve")
        #expect(quote?.text == "Clear [2J the <screen> & evil")
        #expect(quote?.author == "Mallory Eve")
        #expect(Quote(text: " \n\t", author: "x") == nil)
        #expect(Quote(text: String(repeating: "a", count: 500), author: nil)?.text.count == 300)
    }

    @Test func fortuneFilesSplitAtPercentLines() {
        let file = """
            A first quote
            on two lines.
            %
            Second.
            \t-- Somebody
            %
            %
            Third%not a separator
            %

            """
        let quotes = QuoteReader.fortunes(file)
        #expect(quotes.map(\.line) == ["“A first quote on two lines.”", "“Second.” — Somebody", "“Third%not a separator”"])
    }

    @Test func theDaysPickIsTheSameAllDayAndMovesOn() {
        let quotes = (1...50).compactMap { Quote(text: "Quote \($0)", author: nil) }
        let day = LocalDate(year: 2026, month: 11, day: 29)!
        let picks = (0..<30).map { QuoteReader.pick(quotes, on: day.adding(days: $0))! }
        #expect(QuoteReader.pick(quotes, on: day) == picks[0])
        #expect(Set(picks).count > 15)
        #expect(QuoteReader.pick([], on: day) == nil)
    }

    @Test func wrappingKeepsTwoLinesAndSaysWhenItCut() {
        let quote = Quote(text: "The quick brown fox jumps over the lazy dog and keeps running far away", author: "Anon")!
        #expect(quote.wrapped(width: 100) == ["“The quick brown fox jumps over the lazy dog and keeps running far away” — Anon"])
        let two = quote.wrapped(width: 40)
        #expect(two == ["“The quick brown fox jumps over the lazy", "dog and keeps running far away” — Anon"])
        let cut = quote.wrapped(width: 20)
        #expect(cut.count == 2)
        #expect(cut.allSatisfy { $0.count <= 20 })
        #expect(cut[1].hasSuffix("…"))
    }

    @Test func wideCharactersAreMeasuredAsTheCallerSays() {
        let quote = Quote(text: "千里之行 始于足下 千里之行 始于足下 千里之行 始于足下", author: "老子")!
        let twoColumns = { (text: String) in text.unicodeScalars.reduce(0) { $0 + ($1.isASCII ? 1 : 2) } }
        let lines = quote.wrapped(width: 24, measure: twoColumns)
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { twoColumns($0) <= 24 })
        #expect(lines[1].hasSuffix("…"))
    }
}

/// Fetching and caching the quote of the day.
struct QuoteOfTheDayTests {
    let server: TestHTTPServer
    let cache = TemporaryDirectory()
    let day = LocalDate(year: 2026, month: 11, day: 29)!

    init() throws {
        server = try TestHTTPServer()
    }

    func quotes(_ source: QuoteSource) -> QuoteOfTheDay {
        QuoteOfTheDay(source: source, cacheFolder: cache.file(".cache/nudge"), home: cache.path)
    }

    @Test func aURLIsFetchedOnceADay() throws {
        let url = server.url("/quote/zenquotes")
        let daily = quotes(.url(url))
        #expect(daily.quote(on: day)?.line == "“Well begun is half done.” — Aristotle")
        #expect(daily.quote(on: day)?.line == "“Well begun is half done.” — Aristotle")
        #expect(try server.requests("/quote/zenquotes") == 1)
        #expect(daily.quote(on: day.adding(days: 1)) != nil)
        #expect(try server.requests("/quote/zenquotes") == 2)
    }

    @Test func anotherSourceIsFetchedAnew() throws {
        _ = quotes(.url(server.url("/quote/zenquotes"))).quote(on: day)
        #expect(quotes(.url(server.url("/quote/quotable"))).quote(on: day)?.author == "Austin Freeman")
    }

    @Test func aSlowSourceCostsOneSecondOnceADayAndShowsNothing() throws {
        let daily = quotes(.url(server.url("/quote/slow")))
        var started = Date()
        #expect(daily.quote(on: day) == nil)
        let first = Date().timeIntervalSince(started)
        #expect(first >= 0.9 && first < 2)
        started = Date()
        #expect(daily.quote(on: day) == nil)
        #expect(Date().timeIntervalSince(started) < 0.9) // not the second's wait again
        #expect(try server.requests("/quote/slow") == 1)
    }

    @Test func brokenAndOfflineSourcesShowNothing() {
        #expect(quotes(.url(server.url("/404"))).quote(on: day) == nil)
        #expect(quotes(.url(server.url("/invalid"))).quote(on: day) == nil)
        #expect(quotes(.url("http://127.0.0.1:1/quote")).quote(on: day) == nil)
    }

    @Test func aFortuneFileUnderHomeIsRead() throws {
        try "One.\n%\nTwo.\n%\nThree.\n".write(toFile: cache.file("quotes"), atomically: true, encoding: .utf8)
        let quote = quotes(.file("~/quotes")).quote(on: day)
        #expect(["“One.”", "“Two.”", "“Three.”"].contains(quote?.line ?? ""))
        #expect(quotes(.file(cache.file("quotes"))).quote(on: day) == quote)
        #expect(quotes(.file(cache.file("missing"))).quote(on: day) == nil)
        #expect(quotes(.off).quote(on: day) == nil)
    }
}
