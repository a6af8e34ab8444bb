import CLinux
import Foundation
import NudgeCore
import NudgePlatform
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The file operations of a vdir: list with stat only, read one body, write atomically, remove.
enum VdirFolder {
    /// The `.ics` files of the folder by name, each with its etag as vdirsyncer's filesystem
    /// storage makes it: the modification time in nanoseconds and the inode. Hidden files
    /// (a writer's temporary files) are not items; Nudge's own, left by a pass that crashed,
    /// are removed (called with the folder locked). A name that is not a plain file (a
    /// symbolic link, which could lead out of the folder, a FIFO, a folder) is in `skipped`,
    /// with what it is. The corresponding C functions are `opendir`, `readdir` and `fstatat`.
    static func list(_ folder: String, expecting count: Int = 0) throws(SyncError) -> Listing {
        guard let directory = opendir(folder) else { throw unopened(folder, .current, "cannot read") }
        defer { closedir(directory) }
        let descriptor = dirfd(directory)
        var listing = Listing()
        listing.files.reserveCapacity(count)
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name.hasPrefix("."), name.hasSuffix(".tmp"), name.contains(".ics.nudge-") {
                // Half a write of a pass that crashed: under the lock no other pass is writing.
                unlinkat(descriptor, name, 0)
                continue
            }
            guard name.hasSuffix(".ics"), !name.hasPrefix(".") else { continue }
            var info = stat()
            guard fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
            if let kind = info.notAFile {
                listing.skipped[name] = kind
                listing.skippedEtags[name] = etag(info)
            } else {
                listing.files[name] = etag(info)
            }
        }
        return listing
    }

    /// What `list` found: the files by name with their etags, and the names that are not files.
    struct Listing {
        var files: [String: String] = [:]
        /// By name: "a symbolic link", "a FIFO", "a folder", ...
        var skipped: [String: String] = [:]
        /// The etags of the skipped names, of the entries themselves (a link's, not its target's).
        var skippedEtags: [String: String] = [:]
    }

    /// A `list` made on a thread of its own. Its `value` must be taken before the folder's lock
    /// goes, as the listing removes what crashed passes left.
    final class PendingListing: Sendable {
        private let finished = DispatchSemaphore(value: 0)
        private let result = Mutex<Result<Listing, SyncError>>(.success(Listing()))

        init(_ folder: String, expecting count: Int) {
            // Not a global queue: its few threads may all be passes waiting here (parallel
            // tests deadlocked so), and the listing would never start.
            Thread { [self] in
                let listed = Result { () throws(SyncError) in try VdirFolder.list(folder, expecting: count) }
                result.withLock { $0 = listed }
                finished.signal()
            }.start()
        }

        /// The listing, once made; taken once.
        func value() throws(SyncError) -> Listing {
            finished.wait()
            return try result.withLock { $0 }.get()
        }
    }

    /// Holds an exclusive lock on the folder itself (no lock file in it) until `body` returns,
    /// so that `nudge sync` and nudged, both passing over the same folder, take turns. The
    /// corresponding C function is `flock`.
    static func locked<T>(_ folder: String, _ body: () throws(SyncError) -> T) throws(SyncError) -> T {
        let descriptor: FileDescriptor
        do throws(Errno) { descriptor = try .openFolder(folder) } catch {
            throw unopened(folder, error, "cannot open")
        }
        return try descriptor.closeAfter { () throws(SyncError) in
            do throws(Errno) { try descriptor.lockExclusively() } catch {
                throw SyncError(reason: "cannot lock \(folder): \(error)")
            }
            return try body()
        }
    }

    /// Why the folder could not be opened, to list it (`what`: "cannot read") or lock it.
    private static func unopened(_ folder: String, _ error: Errno, _ what: String) -> SyncError {
        switch error {
        case .noSuchFile: SyncError(reason: "\(folder) does not exist")
        case .notADirectory: SyncError(reason: "\(folder) is not a folder")
        default: SyncError(reason: "\(what) \(folder): \(error)")
        }
    }

    /// Character for character vdirsyncer's `get_etag_from_file`: `f"{st_mtime_ns:.9f};{st_ino}"`.
    static func etag(_ info: stat) -> String {
        let nanoseconds = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        return "\(nanoseconds).000000000;\(info.st_ino)"
    }

    /// Why one file of the folder was not read; the pass goes on without it.
    enum ReadFailure: Error {
        case tooLarge(limit: Int)
        /// Replaced by a link, a FIFO, a folder since the listing.
        case notAFile(String)
        case failed(Errno)

        /// For the warning: "<href> <description>: left as it is".
        var description: String {
            switch self {
            case .tooLarge(let limit): "is larger than the \(BoundedRead.sizeText(limit)) limit ([import] max_size)"
            case .notAFile(let kind): "is \(kind), not a file"
            case .failed(let code): "cannot be read (\(code))"
            }
        }
    }

    /// The bytes of one file, at most `limit` of them. A symbolic link is not followed and a
    /// FIFO is not waited on. The corresponding C functions are `open` (with `O_NOFOLLOW` and
    /// `O_NONBLOCK`), `fstat` and `read`.
    static func read(_ folder: String, _ href: String, limit: Int) throws(ReadFailure) -> Data {
        let descriptor: FileDescriptor
        do throws(Errno) { descriptor = try .open(folder + "/" + href, O_RDONLY | O_NOFOLLOW | O_NONBLOCK) } catch {
            throw error == .tooManySymbolicLinks ? .notAFile("a symbolic link") : .failed(error)
        }
        return try descriptor.closeAfter { () throws(ReadFailure) in
            let info: stat
            do throws(Errno) { info = try descriptor.status() } catch { throw .failed(error) }
            if let kind = info.notAFile { throw .notAFile(kind) }
            do throws(BoundedReadError) {
                return try BoundedRead.read(descriptor, limit: limit)
            } catch {
                switch error {
                case .tooLarge(let limit): throw .tooLarge(limit: limit)
                case .failed(let code): throw .failed(code)
                }
            }
        }
    }

    /// Writes each file as vdirsyncer expects: to a hidden temporary file in the folder, flushed
    /// to disk, then renamed over the name, so that a reader sees the old file or the new one,
    /// never half of one; the folder is flushed at the end. Up to `batch` files each get an
    /// fsync; more (a first pass of thousands) are all written first, flushed by one syncfs of
    /// the file system, then renamed: the same order on disk for a fraction of the waits.
    /// Returns the new etags by name. The corresponding C functions are `open`, `write`,
    /// `fsync` (or `syncfs`) and `rename`.
    static func writeAtomically(_ folder: String, _ files: [(href: String, text: String)],
                                batch: Int = 16) throws(SyncError) -> [String: String] {
        guard !files.isEmpty else { return [:] }
        let together = files.count > batch
        var written: [(file: AtomicFile.Pending, href: String)] = []
        var etags: [String: String] = [:]
        defer { for (file, _) in written { file.discard() } }
        do throws(AtomicFile.Failure) {
            for (href, text) in files {
                let file = try AtomicFile.Pending(writing: text, to: AtomicFile.temporaryPath(for: folder + "/" + href),
                                                  mode: 0o644, flush: !together)
                written.append((file, href))
                if !together {
                    try rename(written.removeLast(), in: folder, etags: &etags)
                }
            }
        } catch {
            throw SyncError(error)
        }
        if together {
            let descriptor: FileDescriptor
            do { descriptor = try .openFolder(folder) } catch {
                throw SyncError(reason: "cannot open \(folder): \(error)")
            }
            do { try descriptor.closeAfter { () throws(Errno) in try descriptor.syncFileSystem() } } catch {
                throw SyncError(reason: "cannot flush the files of \(folder): \(error)")
            }
            do throws(AtomicFile.Failure) {
                for file in written { try rename(file, in: folder, etags: &etags) }
            } catch {
                throw SyncError(error)
            }
            written.removeAll()
        }
        AtomicFile.syncFolder(folder)
        return etags
    }

    private static func rename(_ file: (file: AtomicFile.Pending, href: String), in folder: String,
                               etags: inout [String: String]) throws(AtomicFile.Failure) {
        let path = folder + "/" + file.href
        try file.file.rename(to: path)
        var info = stat()
        if stat(path, &info) == 0 { etags[file.href] = etag(info) }
    }

    static func remove(_ folder: String, _ href: String) throws(SyncError) {
        let path = folder + "/" + href
        guard unlink(path) == 0 || Errno.current == .noSuchFile else { throw SyncError(reason: "cannot delete \(path): \(Errno.current)") }
    }
}

private extension SyncError {
    init(_ failure: AtomicFile.Failure) {
        let what = switch failure.step {
        case .write: "cannot write"
        case .flush: "cannot flush"
        case .rename: "cannot rename to"
        }
        self.init(reason: "\(what) \(failure.path): \(failure.errno)")
    }
}
