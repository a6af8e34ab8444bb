/// RFC 8259 string quoting, shared by every JSON Nudge writes by hand (faster than
/// JSONSerialization, and in a fixed key order).
public enum JSONQuoting {
    /// The characters that are `\u` escaped besides those JSON requires: the C0 and C1
    /// controls and DEL, so that a file is plain text. The CLI adds what a terminal acts on.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// Appends `text` quoted, `\u` escaping every scalar `escaping` names.
    public static func quote(_ text: String, into out: inout String,
                             escaping: (Unicode.Scalar) -> Bool = isControl) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case _ where escaping(scalar) || scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
