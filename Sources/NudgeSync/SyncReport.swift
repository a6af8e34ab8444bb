/// What one two-way pass between the store and a vdir did.
public struct SyncReport: Equatable, Sendable {
    /// Todos added or changed from files.
    public var imported = 0
    /// Todos deleted because their file went.
    public var deletedTodos = 0
    /// Files written, and deleted, for todos added, changed or deleted here.
    public var written = 0
    public var deletedFiles = 0
    /// Items both sides changed in the same field: both versions kept.
    public var conflicted: [SyncConflict] = []
    public var conflicts: Int { conflicted.count }
    /// Todos a file showed completed or deleted elsewhere: their notifications go away here.
    public var finishedElsewhere: [String] = []
    /// Todos whose reminders were acknowledged (shown, answered, dismissed) elsewhere.
    public var acknowledgedElsewhere: [String] = []
    /// What the pass left alone or refused to do, e.g. delete every todo because the folder
    /// was empty. Conflicts are in `conflicted`.
    public var warnings: [String] = []
    /// Of `warnings`, those every pass gives again while the folder stays as it is (a link or
    /// a FIFO named .ics), each with the entry it is about (its name and etag): nudged, which
    /// passes at every change, says each once until that changes.
    public var standingWarnings: [String: String] = [:]
    /// True when the pass did nothing at all because it would have deleted every todo (the
    /// folder holds no files); `warnings` says so. `nudge sync` then fails.
    public var refused = false

    public init() {}

    /// True when the pass wrote nothing on either side.
    public var changedNothing: Bool {
        imported == 0 && deletedTodos == 0 && written == 0 && deletedFiles == 0 && conflicts == 0
    }
}

/// A todo both sides changed in the same field: the version here stays, the file's became a
/// copy of its own.
public struct SyncConflict: Equatable, Sendable {
    public var uuid: String
    public var copyUUID: String
    /// What `nudge sync` warns and the journal says.
    public var message: String

    public init(uuid: String, copyUUID: String, message: String) {
        (self.uuid, self.copyUUID, self.message) = (uuid, copyUUID, message)
    }
}

/// Why a pass could not run: the folder is missing or unreadable, or the store failed.
public struct SyncError: Error, Equatable, Sendable, CustomStringConvertible {
    public var reason: String
    /// The database could not be written for want of space: `reason` is then the whole line.
    public var diskFull: Bool

    public init(reason: String) {
        self.init(reason: reason, diskFull: false)
    }

    public init(reason: String, diskFull: Bool) {
        self.reason = reason
        self.diskFull = diskFull
    }

    public var description: String { reason }
}
