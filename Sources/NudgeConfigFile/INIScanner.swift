import CINIH
import NudgeCore

/// Why one line of the config file is refused; the scanner adds the path and line number.
struct Problem: Error {
    let message: String

    init(_ message: String) {
        self.message = message
    }
}

/// Runs inih over a config text, one line at a time, and hands each section header and each
/// `key = value` to the receiver, which may refuse it. Stops at the first problem.
///
/// inih is driven through `ini_parse_stream` with a reader that gives it one line per call, so
/// the reader's count is the number of the line whose `key = value` inih reports (the handler
/// has no line number: the installed `ini.h` declares it with INI_HANDLER_LINENO 0). Before
/// inih sees a line the reader
/// - removes the indentation, so indented keys (as in dunstrc) are keys, not inih's
///   configparser-style continuation lines, which Nudge does not support;
/// - removes `#` and `;` comments that follow white space (inih itself only knows ` ;`), so
///   the result does not depend on the library's run-time settings;
/// - reads `[section]` headers itself, so section names are not cut at inih's 50 bytes;
/// - refuses lines longer than inih's buffer instead of letting inih read them as two lines.
final class INIScanner {
    typealias SectionHandler = (_ name: String) throws(Problem) -> Void
    typealias EntryHandler = (_ section: String, _ key: String, _ value: String, _ line: Int) throws(Problem) -> Void

    /// The first problem: its line and message.
    struct Failure: Equatable {
        let line: Int
        let message: String
    }

    private let lines: [String]
    private let onSection: SectionHandler
    private let onEntry: EntryHandler
    private var next = 0
    /// The number of the line inih is working on: the last one handed to it.
    private var lineNumber = 0
    /// The line handed to inih, as it was given.
    private var lineText = ""
    /// The name inside the last `[...]`, trimmed; nil before the first header.
    private var section: String?
    private var failure: Failure?

    private init(text: String, onSection: @escaping SectionHandler, onEntry: @escaping EntryHandler) {
        lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        self.onSection = onSection
        self.onEntry = onEntry
    }

    /// Scans `text`; returns the first problem, or nil when every line was accepted.
    static func scan(_ text: String, onSection: @escaping SectionHandler,
                     onEntry: @escaping EntryHandler) -> Failure? {
        let scanner = INIScanner(text: text, onSection: onSection, onEntry: onEntry)
        return scanner.run()
    }

    private func run() -> Failure? {
        let result = withExtendedLifetime(self) {
            let context = Unmanaged.passUnretained(self).toOpaque()
            return ini_parse_stream({ buffer, size, stream in
                guard let buffer, let stream else { return nil }
                let scanner = Unmanaged<INIScanner>.fromOpaque(stream).takeUnretainedValue()
                return scanner.readLine(into: buffer, capacity: Int(size)) ? buffer : nil
            }, context, { user, _, name, value in
                guard let user else { return 0 }
                let scanner = Unmanaged<INIScanner>.fromOpaque(user).takeUnretainedValue()
                let key = name.map { String(cString: $0) } ?? ""
                let text = value.map { String(cString: $0) } ?? ""
                return scanner.entry(key: key, value: text) ? 1 : 0
            }, context)
        }
        if result == -2 {
            return Failure(line: lineNumber, message: "out of memory while reading the file")
        }
        // inih reports a line it cannot read (and goes on); the reader stops at its own problems.
        if result > 0, Int(result) < failure?.line ?? Int.max {
            let line = Int(result)
            let text = line <= lines.count ? lines[line - 1].trimmingWhitespace() : ""
            return Failure(line: line, message: "'\(text)' is not a setting; expected 'key = value', a [section] header or a # comment")
        }
        return failure
    }

    /// The reader inih calls instead of fgets: the next line, prepared, with its newline.
    private func readLine(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Bool {
        guard failure == nil, next < lines.count else { return false }
        lineText = lines[next]
        next += 1
        lineNumber += 1
        let prepared: String
        do {
            prepared = try prepare(lineText)
        } catch {
            failure = Failure(line: lineNumber, message: error.message)
            return false
        }
        let bytes = Array(prepared.utf8)
        guard bytes.count + 2 <= capacity else {
            failure = Failure(line: lineNumber, message: "the line is too long: at most \(capacity - 2) bytes are read, not counting indentation, comments and the spaces around =")
            return false
        }
        UnsafeMutableRawBufferPointer(start: buffer, count: capacity).copyBytes(from: bytes)
        buffer[bytes.count] = CChar(bitPattern: UInt8(ascii: "\n"))
        buffer[bytes.count + 1] = 0
        return true
    }

    /// The line without indentation, comments and trailing white space; reads a section header.
    private func prepare(_ raw: String) throws(Problem) -> String {
        if raw.utf8.contains(0) { throw Problem("the line contains a NUL byte") }
        var line = Substring(raw)
        if lineNumber == 1, line.hasPrefix("\u{FEFF}") { line = line.dropFirst() }
        line = line.drop(while: { $0 == " " || $0 == "\t" })
        if line.first == "#" || line.first == ";" { return "" }
        line = Self.withoutInlineComment(line)
        let text = line.trimmingWhitespace()
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else {
                throw Problem("the section header '\(text)' has no closing ']'")
            }
            let name = text[text.index(after: text.startIndex)..<close].trimmingWhitespace()
            let rest = text[text.index(after: close)...].trimmingWhitespace()
            if !rest.isEmpty {
                throw Problem("unexpected '\(rest)' after [\(name)]; a section header stands alone on its line")
            }
            try onSection(name)
            section = name
        } else if !text.isEmpty, !text.contains("="), !text.contains(":") {
            throw Problem("'\(text)' is not a setting; expected 'key = value', a [section] header or a # comment")
        } else {
            return String(Self.withoutSpacesAroundSeparator(Substring(text)))
        }
        return text
    }

    /// Cuts a `#` or `;` comment that follows white space or starts the value: `key=#x` reads
    /// as `key = #x` does, so that `nudge config show`'s `key = value` lines read back the same.
    private static func withoutInlineComment(_ line: Substring) -> Substring {
        var previous: Character = " "
        var valueStarts = false
        for index in line.indices {
            let character = line[index]
            if character == "#" || character == ";", valueStarts || previous == " " || previous == "\t" {
                return line[..<index]
            }
            valueStarts = character == "=" || character == ":" ? !line[..<index].contains(where: { $0 == "=" || $0 == ":" })
                : valueStarts && (character == " " || character == "\t")
            previous = character
        }
        return line
    }

    /// `key = value` as `key=value`: the spaces around the separator are not part of the line
    /// counted against inih's buffer, so the line `nudge config show` renders reads too.
    private static func withoutSpacesAroundSeparator(_ text: Substring) -> Substring {
        guard let separator = text.firstIndex(where: { $0 == "=" || $0 == ":" }) else { return text }
        let key = text[..<separator].trimmingWhitespace()
        let value = text[text.index(after: separator)...].drop(while: { $0 == " " || $0 == "\t" })
        return Substring(key + String(text[separator]) + value)
    }

    /// The handler inih calls for each `key = value` (already split and trimmed).
    private func entry(key: String, value: String) -> Bool {
        guard failure == nil else { return false }
        do throws(Problem) {
            if key.isEmpty {
                throw Problem("'\(lineText.trimmingWhitespace())' has no key before '='; expected 'key = value'")
            }
            if key.contains(where: \.isWhitespace) {
                throw Problem("'\(lineText.trimmingWhitespace())' is not a setting; expected 'key = value' (keys have no spaces)")
            }
            guard let section else {
                throw Problem("'\(key)' is outside any section; put it under a section header such as [reminders]")
            }
            try onEntry(section, key, value, lineNumber)
        } catch {
            failure = Failure(line: lineNumber, message: error.message)
            return false
        }
        return true
    }
}
