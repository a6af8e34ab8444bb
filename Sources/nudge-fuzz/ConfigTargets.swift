import Foundation
import NudgeConfigFile
import NudgeCore
import NudgeQuote

/// The config file and the quotes of a file or a server.
enum ConfigTargets {
    /// A config that reads renders as text that reads back as the same config.
    static func config(_ data: Data) {
        guard let text = String(validating: data, as: UTF8.self) else { return }
        guard let config = try? ConfigFile.parse(text: text, path: "nudge.conf", checking: (now: Fixed.now, zone: Fixed.berlin)) else { return }
        let rendered = ConfigFile.render(config)
        let again: NudgeConfig
        do { again = try ConfigFile.parse(text: rendered, path: "rendered.conf") } catch {
            violated("the rendered config does not read: \(error)\n\(rendered)")
        }
        check(again == config, "the rendered config reads as another config:\n\(rendered)")
    }

    /// A quote is shown safely (no control characters, at most its length) and wraps into its lines.
    static func quote(_ data: Data) {
        var quotes = QuoteReader.fortunes(String(decoding: data, as: UTF8.self))
        if let quote = QuoteReader.json(data) { quotes.append(quote) }
        for quote in quotes {
            for scalar in (quote.text + (quote.author ?? "")).unicodeScalars {
                check(scalar.value >= 0x20 && !(0x7F...0x9F).contains(scalar.value) && scalar.value != 0x2028 && scalar.value != 0x2029,
                      "quote \(quote.line.debugDescription) holds U+\(String(scalar.value, radix: 16))")
            }
            check(quote.text.count <= 300 && (quote.author?.count ?? 0) <= 80, "quote \(quote.line.debugDescription) is too long")
            for width in [20, 57, 80] {
                let lines = quote.wrapped(width: width)
                check(lines.count <= 2 && lines.allSatisfy { $0.count <= width },
                      "quote \(quote.line.debugDescription) wrapped at \(width): \(lines)")
            }
        }
        if !quotes.isEmpty { _ = QuoteReader.pick(quotes, on: LocalDate(year: 2026, month: 12, day: 2)!) }
    }
}
