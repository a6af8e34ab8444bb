import NudgePlatform

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
        TextEscaping.append(text, to: &out) { scalar in
            switch scalar {
            case "\"": "\\\""
            case "\\": "\\\\"
            case "\n": "\\n"
            case "\r": "\\r"
            case "\t": "\\t"
            case "\u{08}": "\\b"
            case "\u{0C}": "\\f"
            case _ where escaping(scalar) || scalar.value < 0x20: "\\u" + hex(scalar)
            default: nil
            }
        }
        out += "\""
    }

    private static func hex(_ scalar: Unicode.Scalar) -> String {
        let digits = String(scalar.value, radix: 16)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }
}
