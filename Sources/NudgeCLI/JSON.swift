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

    /// The text of this value as an item of an indented array, which indents it by two spaces.
    var itemText: String {
        var out = ""
        write(to: &out, indent: "  ")
        return out
    }

    /// On one line, without spaces: for readers that take a line at a time (waybar).
    var compactText: String {
        var out = ""
        write(to: &out, indent: nil)
        return out
    }

    /// Indented by `indent` and two more spaces per level, or on one line when nil.
    private func write(to out: inout String, indent: String?) {
        let inner = indent.map { $0 + "  " }
        let newline = indent == nil ? "" : "\n", separator = indent == nil ? "," : ",\n"
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .int(let value): out += String(value)
        case .string(let value): Self.quote(value, into: &out)
        case .array(let items):
            guard !items.isEmpty else { out += "[]"; return }
            out += "[" + newline
            for (index, item) in items.enumerated() {
                out += inner ?? ""
                item.write(to: &out, indent: inner)
                out += index == items.count - 1 ? newline : separator
            }
            out += (indent ?? "") + "]"
        case .object(let fields):
            guard !fields.isEmpty else { out += "{}"; return }
            out += "{" + newline
            for (index, (key, value)) in fields.enumerated() {
                out += inner ?? ""
                Self.quote(key, into: &out)
                out += indent == nil ? ":" : ": "
                value.write(to: &out, indent: inner)
                out += index == fields.count - 1 ? newline : separator
            }
            out += (indent ?? "") + "}"
        }
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
        context.write(isEmpty ? "[\n  " : ",\n  ")
        context.write(item.itemText)
        isEmpty = false
    }

    /// Closes the array and its line.
    func finish() {
        context.print(isEmpty ? "[]" : "\n]")
    }
}
