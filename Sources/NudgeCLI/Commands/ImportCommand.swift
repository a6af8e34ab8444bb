import Foundation
import NudgeConfigFile
import NudgeCore
import NudgeInterchange
import NudgeNetwork
import NudgePlatform
import NudgeRecurrence
import NudgeStore
import NudgeSystem

enum ImportCommand: Command {
    static let format = ValueOption("format", "FORMAT", "The file format: json, ics, taskwarrior or todotxt (guessed from the content when not given)", choices: Choices.formats, parse: ExportCommand.interchangeFormat)
    static let dryRun = Flag("dry-run", "Say what would be added, updated and skipped, and change nothing")
    static let skipBad = Flag("skip-bad", "Import the good todos of a file with bad ones, listing those skipped")
    static let json = Flag("json", "Print the counts as a JSON object")
    static let timeout = ValueOption("timeout", "TIME", "For a URL: the longest wait to connect and the longest the answer may stall, e.g. 15s, 500ms (default: [import] timeout, 15s)", parse: seconds)
    static let quiet = Flag("quiet", "For a URL: no progress bar on the terminal")
    static let name = "import"
    static let declaration = CommandDeclaration(
        name, "Read todos in from Nudge JSON, iCalendar, Taskwarrior or todo.txt, from a file or a URL",
        Operand("FILE|-|URL", .file), format, dryRun, skipBad, json, timeout, quiet
    )
    static let jsonOutput = """
        An object:
          dryRun             true with --dry-run: nothing was stored
          added              todos new to this database
          updated            todos already here (by UUID) that the file had newer
          skipped            todos already here, as new as the file's or newer
          bad                items that could not be read (with --skip-bad)
          categoriesCreated  the names of the categories the import made
          notKept            what the file held that Nudge cannot keep, e.g. {"VEVENT": 2}:
                             each kind with how many
          overridesKept      iCalendar overrides of one occurrence of a repeating todo
                             (RECURRENCE-ID), kept with their series as they were
          items              each todo read, in the file's order: {place (e.g. "item 3",
                             "line 2", "todo 1"), uuid, title, outcome (added, updated or
                             skipped)}; with --dry-run, what would become of it
        """
    static let discussion = """
        The format is guessed from the content unless --format names it. Todos are matched
        by uuid (iCalendar's UID, Taskwarrior's uuid): one not stored is added with its uuid
        and times; a stored one is updated when the file's is newer (updatedAt,
        LAST-MODIFIED, modified), and skipped otherwise, so importing the same file twice
        changes nothing. Categories that do not exist are
        created. Everything is imported in one go: a file with a bad item imports nothing,
        and the error names the item (counting from 1) and the field, unless --skip-bad.
        FILE - reads standard input. A file or standard input larger than [import] max_size
        (10M by default) is refused, as is a todo with notes over 1 MB.

        An http or https URL is fetched (following redirects), within the timeout and the size
        limit of the [import] section of the config file (15s and 10M by default); a failure
        says why in one line and imports nothing. On a terminal a progress bar on stderr shows
        the bytes received, then the todos imported. Besides Nudge's own JSON, the common
        web-API shape is read: [{"id": 1, "title": "...", "completed": false}] (as
        jsonplaceholder's /todos); such a todo is named by the URL and its id, so importing
        the URL again changes nothing unless the todo changed there.

        Examples:
          nudge import todos.json --dry-run
          task export > tasks.json && nudge import tasks.json
          cat ~/.local/share/calendars/todos/*.ics | nudge import -
          ssh laptop nudge export --all | nudge import -
          nudge import https://jsonplaceholder.typicode.com/todos --timeout 5s
        """

    static func run(_ arguments: Arguments, context: Context) throws(CLIError) {
        let path = arguments.positionals[0]
        let chosen = try arguments[Self.format]
        let dryRun = arguments[Self.dryRun]
        let isURL = isWebAddress(path)
        let progress = ProgressBar(enabled: isURL && !arguments[Self.quiet])
        defer { progress.clear() }
        if !isURL, arguments.given(Self.timeout) { throw .usage("--timeout is for a URL; \(path) is a file") }
        let settings = try context.config().importing
        var limits: FetchLimits?
        if isURL {
            var timeout = settings.timeout
            if let seconds = try arguments[Self.timeout] { timeout = seconds }
            limits = FetchLimits(timeout: timeout, maxSize: settings.maxSize)
        }
        let decoded: DecodedFile
        do {
            let answer = try limits.map { limits throws(FetchError) in try HTTP.fetch(path, limits: limits, progress: progress.received) }
            let data = try answer?.body ?? read(path, limit: settings.maxSize)
            // A web page is refused, not taken for todo.txt lines, unless --format says so.
            let format = try chosen ?? InterchangeFormat.guess(data, contentType: answer?.contentType)
            decoded = try format.decode(data, options: InterchangeOptions(zone: context.zone, now: context.now,
                                                                          source: isURL ? path : nil))
        } catch {
            progress.clear()
            var reason = "\(error)"
            // What a server answered is no file.
            if isURL, reason.hasPrefix("the file ") { reason = "the answer " + reason.dropFirst("the file ".count) }
            throw .failed("cannot import \(path == "-" ? "standard input" : path): \(reason); nothing was imported")
        }
        var records: [(place: String, record: TodoRecord)] = []
        var bad: [RecordError] = []
        for (result, at) in zip(decoded.items, decoded.places) {
            switch result.flatMap({ checked($0, at: at) }) {
            case .success(let record): records.append(("\(at.place) \(at.number)", record))
            case .failure(let error): bad.append(error)
            }
        }
        if let first = bad.first, !arguments[Self.skipBad] {
            progress.clear()
            let more = bad.count > 1 ? " (and \(bad.count - 1) more bad item\(bad.count == 2 ? "" : "s"))" : ""
            throw .failed("\(first)\(more); nothing was imported (--skip-bad imports the rest)")
        }
        progress.imported(0, of: records.count)
        let summary: ImportSummary
        do {
            let store = try context.store(dryRun ? .read : .write)
            if !decoded.timeless.isEmpty {
                records = try keepingTimes(records, timeless: decoded.timeless, stored: store.records(.all))
            }
            summary = try store.importTodos(records.map(\.record), now: context.now, dryRun: dryRun)
        } catch {
            progress.clear()
            throw CLIError(error)
        }
        progress.imported(records.count, of: records.count)
        progress.clear()
        for error in bad { NudgeCLI.writeError("skipped \(error)") }
        for warning in decoded.warnings { NudgeCLI.writeError("warning: " + warning) }
        if arguments[Self.json] {
            context.printJSON(.object([
                ("dryRun", .bool(dryRun)), ("added", .int(Int64(summary.added))), ("updated", .int(Int64(summary.updated))),
                ("skipped", .int(Int64(summary.skipped))), ("bad", .int(Int64(bad.count))),
                ("categoriesCreated", .array(summary.newCategories.map(JSON.string))),
                ("notKept", .object(decoded.notKept.sorted { $0.key < $1.key }.map { ($0.key, .int(Int64($0.value))) })),
                ("overridesKept", .int(Int64(decoded.overridesKept))),
                ("items", .array(zip(records, summary.outcomes).map { item, outcome in
                    .object([("place", .string(item.place)), ("uuid", .string(item.record.uuid)),
                             ("title", .string(item.record.title)), ("outcome", .string(outcome.done))])
                })),
            ]))
            return
        }
        if dryRun {
            for (item, outcome) in zip(records, summary.outcomes) {
                context.print(Terminal.visible("would \(outcome.verb) \(item.place): \(item.record.title) (\(item.record.uuid))"))
            }
        }
        context.print(summaryLine(summary, bad: bad.count, notKept: decoded.notKept, overridesKept: decoded.overridesKept,
                                  dryRun: dryRun))
    }

    static func summaryLine(_ summary: ImportSummary, bad: Int, notKept: [String: Int], overridesKept: Int = 0,
                            dryRun: Bool) -> String {
        var line = (dryRun ? "Would import " : "Imported ") + "\(summary.added + summary.updated): "
            + "\(summary.added) added, \(summary.updated) updated, "
            + "\(summary.skipped) skipped as unchanged or older"
        if bad > 0 { line += ", \(bad) bad skipped" }
        let categories = summary.newCategories
        if !categories.isEmpty {
            line += "; " + (categories.count == 1 ? "1 category" : "\(categories.count) categories")
                + (dryRun ? " to create: " : " created: ") + Terminal.visible(categories.joined(separator: ", "))
        }
        if overridesKept > 0 {
            line += overridesKept == 1 ? "; 1 override of a repeating todo kept as it was"
                : "; \(overridesKept) overrides of repeating todos kept as they were"
        }
        if !notKept.isEmpty {
            line += "; not kept: " + notKept.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        }
        return line
    }

    /// An http or https URL rather than a file's path.
    static func isWebAddress(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    /// `--timeout`: as `[import] timeout` is written.
    static func seconds(_ text: String) throws(CLIError) -> Double {
        do { return try ConfigFile.seconds("--timeout", text) } catch { throw .usage(error.message) }
    }

    /// Records of the web-API shape carry the moment of the import: one whose stored todo says
    /// the same gets that todo's times (and so is skipped as unchanged); one that changed keeps
    /// its stored creation time and completion moment.
    private static func keepingTimes(_ records: [(place: String, record: TodoRecord)], timeless: Set<String>,
                                     stored: [TodoRecord]) -> [(place: String, record: TodoRecord)] {
        let byUUID = Dictionary(stored.map { ($0.uuid, $0) }, uniquingKeysWith: { first, _ in first })
        return records.map { item in
            guard timeless.contains(item.record.uuid), let old = byUUID[item.record.uuid] else { return item }
            var record = item.record
            record.createdAt = old.createdAt
            if (record.completedAt != nil) == (old.completedAt != nil) { record.completedAt = old.completedAt }
            let same = record.title == old.title && record.due == old.due && record.completedAt == old.completedAt
            record.updatedAt = same ? old.updatedAt : max(record.updatedAt, old.updatedAt.addingTimeInterval(1))
            if same {
                // Everything the web shape does not say stays as it is stored.
                record = old
            } else {
                record.notes = old.notes
                record.priority = old.priority
                record.category = old.category
                record.repetition = old.repetition
                record.custom = old.custom
                record.usesDefaultRules = old.usesDefaultRules
                record.snoozedUntil = old.snoozedUntil
                record.kept = old.kept
            }
            return (item.place, record)
        }
    }

    /// Read to its end with open(2) and read(2), at most `limit` bytes: FileManager's
    /// contents(atPath:) gives nothing for a pipe, as in `nudge import <(task export)` or a
    /// named FIFO, and reading all of `/dev/zero` before checking never ends.
    private static func read(_ path: String, limit: Int) throws -> Data {
        let descriptor: FileDescriptor
        if path == "-" {
            descriptor = .standardInput
        } else {
            do throws(Errno) { descriptor = try .open(path, O_RDONLY) } catch {
                throw InterchangeError(reason: error == .noSuchFile ? "there is no such file" : "it cannot be read: \(error)")
            }
        }
        defer { if descriptor != .standardInput { try? descriptor.close() } }
        if let info = try? descriptor.status(), info.st_mode & S_IFMT == S_IFDIR {
            throw InterchangeError(reason: "it is a folder, not a file")
        }
        do { return try BoundedRead.read(descriptor, limit: limit) } catch {
            switch error {
            case .tooLarge(let limit):
                throw InterchangeError(reason: "it is larger than the \(BoundedRead.sizeText(limit)) limit ([import] max_size)")
            case .failed(let code): throw InterchangeError(reason: "it cannot be read: \(code)")
            }
        }
    }

    /// What `add` would refuse: a category name it does not allow, a repeat rule nudge cannot
    /// expand, or one without a due to repeat from; notes or kept text of megabytes; and dates
    /// outside the years 0001-9999.
    private static func checked(_ record: TodoRecord, at: (place: RecordError.Place, number: Int)) -> Result<TodoRecord, RecordError> {
        var record = record
        if let (field, reason) = record.oversizedText {
            return .failure(RecordError(item: at.number, place: at.place, field: field, reason: reason))
        }
        // Every format writes years of four digits, UTC among them: a date outside could not go out again.
        if let field = YearBounds.fieldOutside(record) {
            return .failure(RecordError(item: at.number, place: at.place, field: field, reason: "is outside the years 0001-9999"))
        }
        if let name = record.category {
            do { record.category = try AddCommand.categoryName(name) } catch {
                return .failure(RecordError(item: at.number, place: at.place, field: "category", reason: error.message))
            }
        }
        guard let repetition = record.repetition else { return .success(record) }
        guard let due = record.due else {
            return .failure(RecordError(item: at.number, place: at.place, field: "repeat", reason: "is set but \"due\" is missing: a todo repeats from its due"))
        }
        do {
            try RepeatRule(parsing: "RRULE:" + repetition.rrule).check(for: due)
        } catch {
            return .failure(RecordError(item: at.number, place: at.place, field: "repeat.rule", reason: error.message))
        }
        return .success(record)
    }
}

extension ImportSummary.Outcome {
    /// What `--dry-run` says would be done: "add", "update", "skip".
    var verb: String {
        switch self {
        case .added: "add"
        case .updated: "update"
        case .skipped: "skip"
        }
    }

    /// What `--json` says was done: "added", "updated", "skipped".
    var done: String {
        switch self {
        case .added: "added"
        case .updated: "updated"
        case .skipped: "skipped"
        }
    }
}
