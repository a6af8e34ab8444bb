import NudgePlatform

/// Why the store could not be opened or used, in words for the person at the terminal.
public enum StoreError: Error, Equatable, CustomStringConvertible, Sendable {
    case cannotOpen(path: String, reason: String)
    case notANudgeDatabase(path: String)
    case newerVersion(path: String, unknownMigrations: [String])
    case corrupt(path: String, reason: String)
    case failed(reason: String)
    /// The file system is full: the write was rolled back.
    case diskFull(path: String)
    case noSuchTodos([Int64])
    case noSuchCategory(String)
    case categoryExists(String)
    case alreadyDone(Int64)
    /// Putting the first todo after the second would make this chain of todos (with their
    /// titles), whose last is its first: each todo after the next.
    case cycle(ids: [Int64], titles: [String])
    /// A library the caller needed inside a write (libical, for a repeating todo's next due)
    /// could not be opened: the write was rolled back.
    case missingLibrary(LibraryLoadError)
    /// A parent that would make a cycle or too deep a tree, in a sentence naming the todos.
    case badParent(String)

    /// Copies what SQLite can still read of a damaged file into recovered.db. A dump that met
    /// damage ends in ROLLBACK, which would throw the copy away; Debian's sqlite3 has no
    /// .recover (it lacks the sqlite_dbpage table that needs).
    static func recoveryCommand(_ path: String) -> String {
        "sqlite3 \(path.shellQuoted) .dump | sed 's/^ROLLBACK; -- due to errors$/COMMIT;/' | sqlite3 recovered.db"
    }

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason):
            "cannot open the database \(path): \(reason)"
        case .notANudgeDatabase(let path):
            "\(path) is not a Nudge database; it was left untouched (choose another file with --db or NUDGE_DB)"
        case .newerVersion(let path, let names):
            "\(path) was written by a newer version of Nudge (it has schema changes this version does not know: \(names.joined(separator: ", "))); it was left untouched, upgrade nudge to use it"
        case .corrupt(let path, let reason):
            "the database \(path) is damaged (\(reason)); it was left untouched: restore it from a backup, or use (--db or NUDGE_DB) a new file holding what can still be read, made by: \(Self.recoveryCommand(path))"
        case .failed(let reason):
            "database error: \(reason)"
        case .diskFull(let path):
            "cannot write the database \(path): No space left on device; nothing was changed (free some space and try again)"
        case .noSuchTodos(let ids) where ids.count == 1:
            "there is no todo \(ids[0]); 'nudge list --all' shows the ids"
        case .noSuchTodos(let ids):
            "there are no todos \(ids.map(String.init).joined(separator: ", ")); 'nudge list --all' shows the ids"
        case .noSuchCategory(let name):
            "there is no category '\(name)'; create it with: nudge category add \(name.shellQuoted)"
        case .alreadyDone(let id):
            "todo \(id) is done; reopen it first with: nudge undo \(id)"
        case .categoryExists(let name):
            "a category named '\(name)' already exists (names ignore case)"
        case .missingLibrary(let error):
            error.description
        case .badParent(let reason):
            reason
        case .cycle(let ids, let titles):
            "todo \(ids.first ?? 0) cannot come after \(ids.dropFirst().first ?? 0): that makes a cycle, "
                + zip(ids, titles).map { "\($0) (\($1))" }.joined(separator: " after ")
        }
    }
}

extension String {
    /// The string as it would be typed in a shell: bare when safe, else in single quotes.
    public var shellQuoted: String {
        let safe = !isEmpty && allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_./@%+=:,".contains($0)) }
        return safe ? self : "'" + replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
