import Foundation
import NudgeCore

/// A quote and who said it, made safe to show: text from a server or a file, with every
/// control character (escape sequences, line breaks, bidi overrides) turned into a space.
public struct Quote: Hashable, Sendable {
    public var text: String
    public var author: String?

    /// Longest text kept: a quote of the day is one or two lines.
    static let maximumLength = 300

    public init?(text: String, author: String?) {
        let text = Self.cleaned(text, limit: Self.maximumLength)
        guard !text.isEmpty else { return nil }
        self.text = text
        let author = author.map { Self.cleaned($0, limit: 80) }
        self.author = author?.isEmpty == false ? author : nil
    }

    /// “Well begun is half done.” — Aristotle
    public var line: String {
        "“" + text + "”" + (author.map { " — " + $0 } ?? "")
    }

    /// At most `lines` lines of at most `width` columns (as `measure` counts them: wide
    /// characters take two), broken at spaces; when it does not all fit, the last line ends
    /// in "…".
    public func wrapped(width: Int, lines: Int = 2, measure: (String) -> Int = { $0.count }) -> [String] {
        let width = max(20, width)
        /// `text` cut to `room` columns.
        func fit(_ text: String, _ room: Int) -> String {
            var text = text
            while measure(text) > room { text.removeLast() }
            return text
        }
        var out: [String] = []
        var current = ""
        var cut = false
        for piece in line.split(separator: " ") {
            let word = measure(String(piece)) > width ? fit(String(piece), width - 1) + "…" : String(piece)
            if current.isEmpty {
                current = word
            } else if measure(current) + 1 + measure(word) <= width {
                current += " " + word
            } else {
                out.append(current)
                current = word
                if out.count == lines {
                    cut = true
                    break
                }
            }
        }
        if !cut, !current.isEmpty { out.append(current) }
        if cut, let last = out.popLast() {
            out.append(last.hasSuffix("…") ? last : fit(last, width - 1) + "…")
        }
        return out
    }

    /// Control characters, bidi controls and line separators become spaces; runs of white
    /// space become one.
    static func cleaned(_ text: String, limit: Int) -> String {
        var out = ""
        var space = false
        for scalar in text.unicodeScalars {
            let isControl = switch scalar.value {
            case 0..<0x20, 0x7F...0x9F, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029, 0xFEFF: true
            default: false
            }
            if isControl || scalar.properties.isWhitespace {
                space = !out.isEmpty
                continue
            }
            if space { out += " " }
            space = false
            out.unicodeScalars.append(scalar)
        }
        if out.count > limit { out = String(out.prefix(limit - 1)) + "…" }
        return out
    }
}

/// Reading quotes from where they come.
public enum QuoteReader {
    /// The JSON that quote services answer: `[{"q": ..., "a": ...}]` (ZenQuotes),
    /// `{"content": ..., "author": ...}` (Quotable), `[{"text": ..., "author": ...}]` (type.fit),
    /// and `{"quote": ..., "author": ...}`; from an array, the first.
    public static func json(_ data: Data) -> Quote? {
        guard let parsed = try? JSONSerialization.jsonObject(with: data) else { return nil }
        let object = (parsed as? [Any])?.first as? [String: Any] ?? parsed as? [String: Any]
        guard let object else { return nil }
        for (textKey, authorKey) in [("q", "a"), ("content", "author"), ("text", "author"), ("quote", "author")] {
            if let text = object[textKey] as? String {
                return Quote(text: text, author: object[authorKey] as? String)
            }
        }
        return nil
    }

    /// The quotes of a file in `fortune` format: separated by lines holding only `%`. A
    /// trailing "-- Author" line becomes the author.
    public static func fortunes(_ text: String) -> [Quote] {
        var quotes: [Quote] = []
        var lines: [Substring] = []
        func finish() {
            defer { lines = [] }
            var body = lines
            var author: String?
            if let last = body.last?.trimmingWhitespace(), last.hasPrefix("--") || last.hasPrefix("—") {
                author = String(last.drop { $0 == "-" || $0 == "—" || $0 == " " || $0 == "\t" })
                body.removeLast()
            }
            if let quote = Quote(text: body.joined(separator: " "), author: author) { quotes.append(quote) }
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.hasSuffix("\r") ? line.dropLast() : line
            if trimmed == "%" { finish() } else { lines.append(trimmed) }
        }
        finish()
        return quotes
    }

    /// The quote of `day` among `quotes`: the same all day, another the next.
    public static func pick(_ quotes: [Quote], on day: LocalDate) -> Quote? {
        guard !quotes.isEmpty else { return nil }
        let number = UInt64(bitPattern: Int64(LocalDate(year: 1970, month: 1, day: 1)!.days(until: day)))
        // SplitMix64's finalizer, so that consecutive days are not neighbouring quotes.
        var mixed = number &+ 0x9E37_79B9_7F4A_7C15
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        mixed ^= mixed >> 31
        return quotes[Int(mixed % UInt64(quotes.count))]
    }
}
