import Foundation
import Glibc

/// Watches one entry (the config file) of the folder at a path, whichever folder is there: a
/// watch follows the folder it was put on, so one deleted and made again, or moved away and
/// back, is watched anew; while there is none, the parent is watched until it appears. Lives
/// as long as its handler in the `FileWatcher`; used on the watcher's queue.
final class EntryWatch {
    private unowned let files: FileWatcher
    private let folder: String
    private let name: String
    /// With true when the folder (and the entry in it) appeared.
    private let changed: (_ appeared: Bool) -> Void
    /// Why the folder that took the old one's place cannot be watched.
    private let failed: (Error) -> Void
    private var watch: FileWatcher.Watch?
    /// The device and inode of the folder watched; nil while the parent is.
    private var watched: (device: UInt, inode: UInt)?

    @discardableResult
    init(_ files: FileWatcher, entry name: String, inFolder folder: String, failed: @escaping (Error) -> Void,
         _ changed: @escaping (_ appeared: Bool) -> Void) throws(DaemonError) {
        self.files = files
        self.folder = folder
        self.name = name
        self.failed = failed
        self.changed = changed
        try follow()
    }

    /// Watches the folder now at the path, or its parent until there is one (nothing when the
    /// parent is missing too).
    private func follow() throws(DaemonError) {
        if let watch { files.stopWatching(watch) }
        watch = nil
        watched = identity()
        if watched != nil {
            watch = try files.watch(folder: folder) { [self] change in folderChanged(change) }
            return
        }
        let parent = URL(fileURLWithPath: folder).deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: parent) else { return }
        let folderName = URL(fileURLWithPath: folder).lastPathComponent
        watch = try files.watch(folder: parent, for: .arrivals) { [self] change in
            guard watched == nil, change.concerns(folderName), identity() != nil else { return }
            do { try follow() } catch { return failed(error) }
            if FileManager.default.fileExists(atPath: folder + "/" + name) { changed(true) }
        }
    }

    private func folderChanged(_ change: FolderChange) {
        if change.concerns(name) { changed(false) }
        // Gone, or another folder in its place: the watch went with the old one.
        if change == .unknown, let watched, identity().map({ $0 != watched }) ?? true {
            do { try follow() } catch { failed(error) }
        }
    }

    private func identity() -> (device: UInt, inode: UInt)? {
        var info = stat()
        guard stat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return nil }
        return (UInt(info.st_dev), UInt(info.st_ino))
    }
}
