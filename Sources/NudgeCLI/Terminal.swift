/// Text from todos and from the command line, as a terminal should show it.
///
/// A title may hold control characters (pasted, or added by a script): an ESC sequence could
/// clear the screen, set the window title, write the clipboard or hide a link, a newline would
/// split a row, and a bidi override would reorder the line. They are shown instead, like
/// `cat -v` and `less` do: C0 controls and DEL in caret notation (ESC `^[`, newline `^J`, tab
/// `^I`, DEL `^?`), C1 controls, bidi controls and the line and paragraph separators as
/// `<U+009B>`. Everything else, emoji and other scripts included, is left as it is.
enum Terminal {
    static func visible(_ text: String) -> String {
        // Most text is printable ASCII: nothing to look at twice.
        if isPrintableASCII(text) { return text }
        guard text.unicodeScalars.contains(where: isShownAsCode) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 {
                out += "^"
                out.unicodeScalars.append(Unicode.Scalar(UInt8(scalar.value + 0x40)))
            } else if scalar.value == 0x7F {
                out += "^?"
            } else if isShownAsCode(scalar) {
                out += code(scalar)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Whether every byte of `text` is printable ASCII, shown as it is one column each: a loop
    /// over the bytes in place, which `nudge list` runs on 100,000 titles.
    static func isPrintableASCII(_ text: String) -> Bool {
        let isPrintable = { (byte: UInt8) in byte &- 0x20 < 0x5F }
        return text.utf8.withContiguousStorageIfAvailable { $0.allSatisfy(isPrintable) } ?? text.utf8.allSatisfy(isPrintable)
    }

    /// Notes keep their line breaks; each line is made visible on its own.
    static func visibleLines(_ text: String) -> [String] {
        text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { visible(String(Substring($0))) }
    }

    /// Controls a terminal would act on: C0, DEL, C1, the bidi embeddings, overrides and
    /// isolates (Trojan Source, CVE-2021-42574), and U+2028/U+2029, which end a line.
    static func isShownAsCode(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029: true
        default: false
        }
    }

    /// `<U+202E>`.
    static func code(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "<U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + ">"
    }
}
