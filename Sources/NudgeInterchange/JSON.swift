/// A JSON value whose objects keep their keys in the order given, and the one writer of the
/// JSON Nudge writes: `--json` output, exports, and what hooks read on stdin. The same value
/// reads the same every time (Foundation's encoders order keys by hash or alphabetically).
public enum JSON: Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    /// Written as Swift writes a Double (`0.5`, `1e+20`).
    case double(Double)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    public static func string(_ value: String?) -> JSON {
        value.map(JSON.string) ?? .null
    }

    /// How a value is laid out.
    public struct Layout: Sendable {
        /// How many levels of arrays and objects put each item on a line of its own, indented
        /// by two spaces a level; deeper ones are written on one line.
        public var brokenLevels: Int
        /// Whether a value on one line has a space after each `,` and `:`.
        public var spaced: Bool

        /// Two-space indented, like `jq`.
        public static let indented = Layout(brokenLevels: .max, spaced: true)
        /// On one line, without spaces: for readers that take a line at a time.
        public static let compact = Layout(brokenLevels: 0, spaced: false)
        /// On one line, `{"a": 1, "b": [2, 3]}`.
        public static let line = Layout(brokenLevels: 0, spaced: true)
    }

    /// The text of this value; `escaping` names the characters written as `\u` escapes besides
    /// those JSON requires.
    public func text(_ layout: Layout, escaping: (Unicode.Scalar) -> Bool = JSONQuoting.isControl) -> String {
        var out: [UInt8] = []
        write(to: &out, layout: layout, escaping: escaping)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the text of this value, laid out as if it began at column `indent`. Appends piece
    /// by piece, as bytes: a long `list --json` runs through here.
    @inlinable
    public func write<Out: ByteSink & ~Copyable>(to out: inout Out, layout: Layout, indent: Int = 0,
                                                 escaping: (Unicode.Scalar) -> Bool = JSONQuoting.isControl) {
        write(to: &out, layout: layout, indent: indent, level: 0, escaping: escaping)
    }

    @inlinable
    func write<Out: ByteSink & ~Copyable>(to out: inout Out, layout: Layout, indent: Int, level: Int,
                                          escaping: (Unicode.Scalar) -> Bool) {
        let broken = level < layout.brokenLevels
        let inner = indent + 2
        switch self {
        case .null: out.append(utf8: "null")
        case .bool(let value): out.append(utf8: value ? "true" : "false")
        case .int(let value): out.append(decimal: value)
        case .double(let value): out.append(utf8: String(value))
        case .string(let value): Self.quote(value, into: &out, escaping: escaping)
        case .array(let items):
            guard !items.isEmpty else { out.append(utf8: "[]"); return }
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { Self.separate(broken: broken, layout: layout, into: &out) }
                if broken { Self.breakLine(indent: inner, into: &out) }
                item.write(to: &out, layout: layout, indent: inner, level: level + 1, escaping: escaping)
            }
            if broken { Self.breakLine(indent: indent, into: &out) }
            out.append(UInt8(ascii: "]"))
        case .object(let fields):
            guard !fields.isEmpty else { out.append(utf8: "{}"); return }
            out.append(UInt8(ascii: "{"))
            for (index, (key, value)) in fields.enumerated() {
                if index > 0 { Self.separate(broken: broken, layout: layout, into: &out) }
                if broken { Self.breakLine(indent: inner, into: &out) }
                Self.quote(key, into: &out, escaping: escaping)
                out.append(utf8: broken || layout.spaced ? ": " : ":")
                value.write(to: &out, layout: layout, indent: inner, level: level + 1, escaping: escaping)
            }
            if broken { Self.breakLine(indent: indent, into: &out) }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Between two items: `,`, and a space when they share a line and the layout is spaced.
    @inlinable
    static func separate<Out: ByteSink & ~Copyable>(broken: Bool, layout: Layout, into out: inout Out) {
        out.append(UInt8(ascii: ","))
        if !broken && layout.spaced { out.append(UInt8(ascii: " ")) }
    }

    @inlinable
    static func breakLine<Out: ByteSink & ~Copyable>(indent: Int, into out: inout Out) {
        out.append(UInt8(ascii: "\n"))
        out.append(spaces: indent)
    }

    /// RFC 8259 string quoting, with `\u` escapes also for what `escaping` names.
    @inlinable
    static func quote<Out: ByteSink & ~Copyable>(_ text: String, into out: inout Out,
                                                 escaping: (Unicode.Scalar) -> Bool) {
        // Most text is printable ASCII without quotes or backslashes, which no `escaping`
        // names: copied whole, not a scalar at a time (a long `list --json` spends most of its
        // time here otherwise).
        let isPlain = { (byte: UInt8) in byte &- 0x20 < 0x5F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") }
        if text.utf8.withContiguousStorageIfAvailable({ $0.allSatisfy(isPlain) }) ?? text.utf8.allSatisfy(isPlain) {
            out.append(UInt8(ascii: "\""))
            out.append(utf8: text)
            out.append(UInt8(ascii: "\""))
            return
        }
        var quoted = ""
        JSONQuoting.quote(text, into: &quoted, escaping: escaping)
        out.append(utf8: quoted)
    }
}
