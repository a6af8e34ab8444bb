import NudgeInterchange

/// JSON with keys in the order they are given, so that `--json` output reads the same every
/// time (Foundation's JSONEncoder orders keys by hash or alphabetically).
enum JSON {
    case null
    case bool(Bool)
    case int(Int64)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    static func string(_ value: String?) -> JSON {
        value.map(JSON.string) ?? .null
    }

    /// Two-space indented text, like `jq`.
    var text: String {
        var out = ""
        write(to: &out, indent: "")
        return out
    }

    /// Appends the text of this value as an item of an indented array, which indents it by
    /// two spaces.
    func writeItem(to out: inout String) {
        write(to: &out, indent: "  ")
    }

    /// On one line, without spaces: for readers that take a line at a time (waybar).
    var compactText: String {
        var out = ""
        write(to: &out, indent: nil)
        return out
    }

    /// Indented by `indent` and two more spaces per level, or on one line when nil. Appends
    /// piece by piece, without joining strings first: a long `list --json` runs through here.
    private func write(to out: inout String, indent: String?) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .int(let value): out += String(value)
        case .string(let value): Self.quote(value, into: &out)
        case .array(let items):
            guard !items.isEmpty else { out += "[]"; return }
            let inner = indent.map { $0 + "  " }
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                Self.breakLine(indent: inner, into: &out)
                item.write(to: &out, indent: inner)
            }
            Self.breakLine(indent: indent, into: &out)
            out += "]"
        case .object(let fields):
            guard !fields.isEmpty else { out += "{}"; return }
            let inner = indent.map { $0 + "  " }
            out += "{"
            for (index, (key, value)) in fields.enumerated() {
                if index > 0 { out += "," }
                Self.breakLine(indent: inner, into: &out)
                Self.quote(key, into: &out)
                out += indent == nil ? ":" : ": "
                value.write(to: &out, indent: inner)
            }
            Self.breakLine(indent: indent, into: &out)
            out += "}"
        }
    }

    /// A new line indented by `indent`; nothing on one line.
    private static func breakLine(indent: String?, into out: inout String) {
        guard let indent else { return }
        out += "\n"
        out += indent
    }

    /// RFC 8259 string escaping, and `\u` escapes also for the other characters a terminal
    /// would act on (DEL, C1, bidi controls): the text read back is exact, and `--json` on a
    /// terminal is as safe as the human output. Everything else, emoji included, is UTF-8.
    private static func quote(_ text: String, into out: inout String) {
        // Most text is printable ASCII without quotes or backslashes: copied whole, not a
        // scalar at a time (a long `list --json` spends most of its time here otherwise).
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            out += "\""
            out += text
            out += "\""
            return
        }
        JSONQuoting.quote(text, into: &out, escaping: Terminal.isShownAsCode)
    }
}

/// Prints an indented JSON array an item at a time, exactly as `JSON.array(items).text` would
/// print it whole: a long list is never held as one value.
struct JSONArrayPrinter {
    let context: Context
    private var isEmpty = true

    init(_ context: Context) {
        self.context = context
    }

    mutating func append(_ item: JSON) {
        context.write { out in
            out += isEmpty ? "[\n  " : ",\n  "
            item.writeItem(to: &out)
        }
        isEmpty = false
    }

    /// Closes the array and its line.
    func finish() {
        context.print(isEmpty ? "[]" : "\n]")
    }
}
