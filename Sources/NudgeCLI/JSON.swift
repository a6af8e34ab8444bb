import NudgeInterchange

typealias JSON = NudgeInterchange.JSON

/// `--json` output: RFC 8259 escaping, and `\u` escapes also for the other characters a
/// terminal would act on (DEL, C1, bidi controls): the text read back is exact, and `--json` on
/// a terminal is as safe as the human output. Everything else, emoji included, is UTF-8.
extension JSON {
    /// Two-space indented, like `jq`.
    var text: String {
        text(.indented, escaping: Terminal.isShownAsCode)
    }

    /// On one line, without spaces: for readers that take a line at a time (waybar).
    var compactText: String {
        text(.compact, escaping: Terminal.isShownAsCode)
    }

    /// Appends the text of this value as an item of an indented array, which indents it by
    /// two spaces.
    func writeItem<Out: ByteSink & ~Copyable>(to out: inout Out) {
        write(to: &out, layout: .indented, indent: 2, escaping: Terminal.isShownAsCode)
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
