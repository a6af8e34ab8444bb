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
        var out: [UInt8] = []
        write(to: &out, indent: 0)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the text of this value as an item of an indented array, which indents it by
    /// two spaces.
    func writeItem<Out: ByteSink & ~Copyable>(to out: inout Out) {
        write(to: &out, indent: 2)
    }

    /// On one line, without spaces: for readers that take a line at a time (waybar).
    var compactText: String {
        var out: [UInt8] = []
        write(to: &out, indent: nil)
        return String(decoding: out, as: UTF8.self)
    }

    /// Indented by `indent` spaces and two more per level, or on one line when nil. Appends
    /// piece by piece, as bytes: a long `list --json` runs through here.
    private func write<Out: ByteSink & ~Copyable>(to out: inout Out, indent: Int?) {
        switch self {
        case .null: out.append(utf8: "null")
        case .bool(let value): out.append(utf8: value ? "true" : "false")
        case .int(let value): out.append(decimal: value)
        case .string(let value): Self.quote(value, into: &out)
        case .array(let items):
            guard !items.isEmpty else { out.append(utf8: "[]"); return }
            let inner = indent.map { $0 + 2 }
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.breakLine(indent: inner, into: &out)
                item.write(to: &out, indent: inner)
            }
            Self.breakLine(indent: indent, into: &out)
            out.append(UInt8(ascii: "]"))
        case .object(let fields):
            guard !fields.isEmpty else { out.append(utf8: "{}"); return }
            let inner = indent.map { $0 + 2 }
            out.append(UInt8(ascii: "{"))
            for (index, (key, value)) in fields.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.breakLine(indent: inner, into: &out)
                Self.quote(key, into: &out)
                out.append(utf8: indent == nil ? ":" : ": ")
                value.write(to: &out, indent: inner)
            }
            Self.breakLine(indent: indent, into: &out)
            out.append(UInt8(ascii: "}"))
        }
    }

    /// A new line indented by `indent` spaces; nothing on one line.
    private static func breakLine<Out: ByteSink & ~Copyable>(indent: Int?, into out: inout Out) {
        guard let indent else { return }
        out.append(UInt8(ascii: "\n"))
        out.append(spaces: indent)
    }

    /// RFC 8259 string escaping, and `\u` escapes also for the other characters a terminal
    /// would act on (DEL, C1, bidi controls): the text read back is exact, and `--json` on a
    /// terminal is as safe as the human output. Everything else, emoji included, is UTF-8.
    private static func quote<Out: ByteSink & ~Copyable>(_ text: String, into out: inout Out) {
        // Most text is printable ASCII without quotes or backslashes: copied whole, not a
        // scalar at a time (a long `list --json` spends most of its time here otherwise).
        let isPlain = { (byte: UInt8) in byte &- 0x20 < 0x5F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") }
        if text.utf8.withContiguousStorageIfAvailable({ $0.allSatisfy(isPlain) }) ?? text.utf8.allSatisfy(isPlain) {
            out.append(UInt8(ascii: "\""))
            out.append(utf8: text)
            out.append(UInt8(ascii: "\""))
            return
        }
        var quoted = ""
        JSONQuoting.quote(text, into: &quoted, escaping: Terminal.isShownAsCode)
        out.append(utf8: quoted)
    }
}

/// Prints an indented JSON array an item at a time, exactly as `JSON.array(items).text` would
/// print it whole: a long list is never held as one value.
struct JSONArrayPrinter: ~Copyable {
    let context: Context
    private var isEmpty = true
    /// The item being written, its storage kept from item to item.
    private var bytes = ByteRun()

    init(_ context: Context) {
        self.context = context
    }

    mutating func append(_ item: JSON) {
        bytes.removeAll()
        bytes.append(utf8: isEmpty ? "[\n  " : ",\n  ")
        item.writeItem(to: &bytes)
        context.write(bytes: bytes.bytes)
        isEmpty = false
    }

    /// Closes the array and its line.
    func finish() {
        context.print(isEmpty ? "[]" : "\n]")
    }
}
