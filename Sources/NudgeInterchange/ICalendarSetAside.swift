import Foundation

/// iCalendar text made fit for libical 3.0's parser, and libical's printed text made whole again.
///
/// libical 3.0 parses a component it does not know (RFC 9073's VLOCATION and PARTICIPANT, an
/// X- component, a misspelt VODO) without its name and then prints it as nothing; it looks for
/// the end of a line again for each 80 bytes of it it reads (a 20 MB line takes minutes); and
/// an END without a BEGIN makes it write to stderr. So before libical sees a text:
/// - a component libical does not print back under its own name is taken out: inside another
///   component (a todo, an alarm), a placeholder property stands for it and `restore` puts it
///   back, as it was, before the END of the component that holds it; at the top of a file or a
///   calendar, where Nudge keeps nothing but todos, it is counted in `notKept`;
/// - a line longer than `longLine` bytes is folded (RFC 5545 3.1), which libical unfolds;
/// - an END with no BEGIN open is left out and counted;
/// - each `^` in a parameter is doubled: libical reads `^^` there as `^` (RFC 6868) but prints
///   `^` back as it is, so each pass through it would halve a file's carets.
struct ICalendarSetAside {
    /// The components libical 3.0 reads and prints back by name. It reads a name by its
    /// beginning ("VTODOX" is a VTODO, "X-FOO" a nameless X), so names are matched whole.
    static let known: Set<String> = [
        "VCALENDAR", "VEVENT", "VTODO", "VJOURNAL", "VFREEBUSY", "VTIMEZONE", "VALARM", "STANDARD", "DAYLIGHT",
        "VAVAILABILITY", "AVAILABLE",
    ]
    static let placeholderName = "X-NUDGE-COMPONENT"
    /// Lines longer than this are folded into pieces of at most `piece` bytes.
    static let longLine = 1000
    static let piece = 900

    /// The components taken out, by placeholder value, each as its lines ending in "\n".
    private(set) var components: [String: String] = [:]
    private(set) var notKept: [String: Int] = [:]
    /// Tells this text's placeholders from the same property in a file.
    private var nonce = 0

    /// The bytes for libical, NUL-terminated.
    mutating func prepare(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        while Self.find(Array("\(Self.placeholderName):n\(nonce)-".utf8), in: bytes) { nonce += 1 }
        let lines = Self.logicalLines(bytes)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / Self.piece * 3 + 64)
        var open: [String] = []
        var index = 0
        while index < lines.count {
            let line = lines[index]
            switch Self.marker(line, in: bytes) {
            case .begin(let name) where !Self.known.contains(name):
                var end = index, depth = 0
                repeat {
                    switch Self.marker(lines[end], in: bytes) {
                    case .begin: depth += 1
                    case .end: depth -= 1
                    case nil: break
                    }
                    end += 1
                } while depth > 0 && end < lines.count
                if open.isEmpty || open == ["VCALENDAR"] {
                    notKept[Self.label(name) + " components", default: 0] += 1
                } else {
                    let key = "n\(nonce)-\(components.count + 1)"
                    var raw: [UInt8] = []
                    for physical in lines[index..<end].joined() {
                        raw += bytes[physical]
                        raw.append(UInt8(ascii: "\n"))
                    }
                    components[key] = String(decoding: raw, as: UTF8.self)
                    out += Array("\(Self.placeholderName):\(key)\r\n".utf8)
                }
                index = end
                continue
            case .begin(let name):
                open.append(name)
            case .end where open.isEmpty:
                notKept["END lines without a BEGIN", default: 0] += 1
                index += 1
                continue
            case .end:
                open.removeLast()
            case nil:
                break
            }
            if let values = Self.categoriesApart(line, in: bytes) {
                for value in values {
                    var parameters = ParameterScan()
                    Self.append(parameters.caretsDoubled(value[...]), to: &out)
                }
            } else {
                var parameters = ParameterScan()
                for physical in line { Self.append(parameters.caretsDoubled(bytes[physical]), to: &out) }
            }
            index += 1
        }
        out.append(0)
        return out
    }

    /// Text libical printed from prepared text, with each placeholder replaced by its component,
    /// put before the END of the component the placeholder was in (properties come before
    /// components), or at the end. Line endings as `printed` has them.
    func restore(_ printed: String) -> String {
        guard !components.isEmpty, printed.contains(Self.placeholderName + ":") else { return printed }
        let ending = printed.contains("\r\n") ? "\r\n" : "\n"
        func text(_ raw: [String]) -> String {
            let joined = raw.joined()
            return ending == "\n" ? joined : joined.replacingOccurrences(of: "\n", with: ending)
        }
        var out = ""
        var pending: [[String]] = [[]]
        // By bytes: "\r\n" is one Character, which a split at "\n" would not see.
        var lines = printed.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        let last = lines.removeLast()
        let prefix = Array((Self.placeholderName + ":").utf8)
        for line in lines {
            let bare = line.last == UInt8(ascii: "\r") ? line.dropLast() : line
            if bare.starts(with: prefix), let raw = components[String(decoding: bare.dropFirst(prefix.count), as: UTF8.self)] {
                pending[pending.count - 1].append(raw)
                continue
            }
            let head = String(decoding: bare.prefix(6), as: UTF8.self).uppercased()
            if head == "BEGIN:" {
                pending.append([])
            } else if head.hasPrefix("END:"), pending.count > 1 {
                out += text(pending.removeLast())
            }
            out += String(decoding: line, as: UTF8.self) + "\n"
        }
        out += text(pending.flatMap { $0 }) + String(decoding: last, as: UTF8.self)
        return out
    }

    /// The text with CRLF line endings as LF, as kept text has them.
    static func lfLines(_ text: String) -> String {
        var bytes = Array(text.utf8)
        var kept = 0
        for index in bytes.indices {
            if bytes[index] == UInt8(ascii: "\r"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\n") { continue }
            bytes[kept] = bytes[index]
            kept += 1
        }
        return String(decoding: bytes[..<kept], as: UTF8.self)
    }

    // MARK: - Lines

    /// Byte ranges of the physical lines, without their line ending, grouped into logical
    /// lines (a line and the folded ones after it). A line ends at LF; after the last LF, at
    /// CR, as libical reads a file of CR-ended lines.
    private static func logicalLines(_ bytes: [UInt8]) -> [[Range<Int>]] {
        let lf = UInt8(ascii: "\n"), cr = UInt8(ascii: "\r")
        let lastLF = bytes.lastIndex(of: lf) ?? -1
        var lines: [[Range<Int>]] = []
        var start = 0
        while start < bytes.count {
            let terminator: UInt8 = start <= lastLF ? lf : cr
            // memchr: a search by Swift's firstIndex is ten times slower in a debug build.
            let end = bytes.withUnsafeBytes { buffer in
                guard let base = buffer.baseAddress, let found = memchr(base + start, Int32(terminator), bytes.count - start) else {
                    return bytes.count
                }
                return UnsafeRawPointer(found) - base
            }
            var contentEnd = end
            if terminator == lf, contentEnd > start, bytes[contentEnd - 1] == cr { contentEnd -= 1 }
            let range = start..<contentEnd
            if let first = bytes[range].first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t"), !lines.isEmpty {
                lines[lines.count - 1].append(range)
            } else {
                lines.append([range])
            }
            start = end + 1
        }
        return lines
    }

    private enum Marker {
        case begin(String)
        case end
    }

    /// Whether a logical line is BEGIN:NAME (the name in upper case) or END:..., as libical
    /// reads them: the name case-insensitive, the line unfolded.
    private static func marker(_ line: [Range<Int>], in bytes: [UInt8]) -> Marker? {
        guard let first = line.first, let letter = bytes[first].first,
              [UInt8(ascii: "B"), UInt8(ascii: "b"), UInt8(ascii: "E"), UInt8(ascii: "e")].contains(letter) else { return nil }
        var head: [UInt8] = []
        for (number, physical) in line.enumerated() where head.count < 200 {
            head += bytes[physical].dropFirst(number == 0 ? 0 : 1).prefix(200)
        }
        let text = String(decoding: head, as: UTF8.self).uppercased()
        if text.hasPrefix("BEGIN:") {
            return .begin(text.dropFirst(6).trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return text.hasPrefix("END:") ? .end : nil
    }

    /// A CATEGORIES line of several values as one line for each, unfolded: libical 3.0 splits
    /// `CATEGORIES:a\\b,t` nowhere once a value holds an escape other than `\,`, so the tag `t`
    /// became part of the category `a\b,t`. Nil for a line without a comma between values, and
    /// for one whose name and parameters are longer than `longLine` (each value would repeat them).
    private static func categoriesApart(_ line: [Range<Int>], in bytes: [UInt8]) -> [[UInt8]]? {
        let name = Array("CATEGORIES".utf8)
        guard let first = line.first, bytes[first].count > name.count,
              zip(bytes[first], name).allSatisfy({ $0 | 0x20 == $1 | 0x20 }) else { return nil }
        var text: [UInt8] = []
        for (number, physical) in line.enumerated() { text += bytes[physical].dropFirst(number == 0 ? 0 : 1) }
        guard [UInt8(ascii: ";"), UInt8(ascii: ":")].contains(text[name.count]) else { return nil }
        var quoted = false
        guard let colon = text.indices.first(where: { index in
            if text[index] == UInt8(ascii: "\"") { quoted.toggle() }
            return !quoted && text[index] == UInt8(ascii: ":")
        }), colon < longLine else { return nil }
        let head = text[...colon]
        var values: [[UInt8]] = []
        var start = colon + 1, index = colon + 1, separated = false
        func cut(at end: Int) {
            if end > start { values.append(Array(head) + text[start..<end]) }
            start = end + 1
        }
        while index < text.count {
            switch text[index] {
            case UInt8(ascii: "\\"): index += 1
            case UInt8(ascii: ","):
                cut(at: index)
                separated = true
            default: break
            }
            index += 1
        }
        cut(at: min(index, text.count))
        // One value and a comma (`a\rb,`) too: libical kept the comma in the name, which was
        // split off once written back, and the name a tag at the next import (found by fuzzing).
        return separated && !values.isEmpty ? values : nil
    }

    /// A line's bytes and CRLF; a long one folded, at UTF-8 character boundaries.
    private static func append(_ line: ArraySlice<UInt8>, to out: inout [UInt8]) {
        // A CR within a line is no line's end (that is LF): libical reads it as one in a
        // folded line, and prints a value without it, so each pass lost some (found by fuzzing).
        if line.contains(UInt8(ascii: "\r")) { return append(line.filter { $0 != UInt8(ascii: "\r") }[...], to: &out) }
        guard line.count > longLine else {
            out += line
            out += [UInt8(ascii: "\r"), UInt8(ascii: "\n")]
            return
        }
        var start = line.startIndex
        while start < line.endIndex {
            var end = min(start + piece, line.endIndex)
            // Not inside a character: a continuation byte is 10xxxxxx.
            while end < line.endIndex, end > start + 1, line[end] & 0xC0 == 0x80 { end -= 1 }
            if start > line.startIndex { out.append(UInt8(ascii: " ")) }
            out += line[start..<end]
            out += [UInt8(ascii: "\r"), UInt8(ascii: "\n")]
            start = end
        }
    }

    /// The parameter values of a content line, across its folds: after a `=` until the next
    /// `;` or `:` outside double quotes. (libical keeps the carets of a parameter's name.)
    private struct ParameterScan {
        private var quoted = false
        private var inValue = false
        private var done = false

        mutating func caretsDoubled(_ piece: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
            guard !done else { return piece }
            var doubled: [UInt8]?
            for (offset, byte) in zip(piece.indices, piece) {
                switch byte {
                case UInt8(ascii: "\""): quoted.toggle()
                case UInt8(ascii: ":") where !quoted: done = true
                case UInt8(ascii: ";") where !quoted: inValue = false
                case UInt8(ascii: "=") where !quoted: inValue = true
                case UInt8(ascii: "^") where inValue:
                    if doubled == nil { doubled = Array(piece[..<offset]) }
                    doubled?.append(byte)
                default: break
                }
                if done {
                    guard var doubled else { return piece }
                    doubled += piece[offset...]
                    return doubled[...]
                }
                doubled?.append(byte)
            }
            return doubled?[...] ?? piece
        }
    }

    private static func find(_ pattern: [UInt8], in bytes: [UInt8]) -> Bool {
        guard let first = pattern.first, bytes.count >= pattern.count else { return false }
        var index = 0
        while index <= bytes.count - pattern.count {
            if bytes[index] == first, bytes[index..<index + pattern.count].elementsEqual(pattern) { return true }
            index += 1
        }
        return false
    }

    /// A component's name as the summary says it: the file's name when it looks like one.
    private static func label(_ name: String) -> String {
        let letters = name.unicodeScalars
        guard (1...40).contains(letters.count),
              letters.allSatisfy({ ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }) else {
            return "unnamed"
        }
        return name
    }
}
