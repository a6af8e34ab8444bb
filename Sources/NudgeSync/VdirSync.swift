import Foundation
import NudgeCore
import NudgeInterchange
import NudgeStore

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
    public var conflicts = 0
    /// Todos a file showed completed or deleted elsewhere: their notifications go away here.
    public var finishedElsewhere: [String] = []
    /// Todos whose reminders were acknowledged (shown, answered, dismissed) elsewhere.
    public var acknowledgedElsewhere: [String] = []
    /// What the pass refused to do, e.g. delete every todo because the folder was empty.
    public var warnings: [String] = []

    public init() {}

    /// True when the pass wrote nothing on either side.
    public var changedNothing: Bool {
        imported == 0 && deletedTodos == 0 && written == 0 && deletedFiles == 0 && conflicts == 0
    }
}

/// Why a pass could not run: the folder is missing or unreadable, or the store failed.
public struct SyncError: Error, Equatable, Sendable, CustomStringConvertible {
    public var reason: String

    public init(reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}

/// Keeps the store and a vdir (one `UID.ics` per todo) in step, both ways.
public final class VdirSync {
    let store: TodoStore
    let folder: String
    let options: InterchangeOptions

    /// `folder` is the vdir's path with `~` already expanded.
    public init(store: TodoStore, folder: String, options: InterchangeOptions) {
        self.store = store
        self.folder = folder
        self.options = options
    }

    /// One pass: changes on either side since the last pass go to the other.
    public func pass(now: Date) throws(SyncError) -> SyncReport {
        throw SyncError(reason: "syncing with a vdir is not written yet")
    }
}
