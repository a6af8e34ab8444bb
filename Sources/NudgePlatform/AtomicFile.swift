import Glibc

/// A file replaced whole or not at all: the new contents go to a temporary file beside it,
/// flushed to the disk, then renamed over it, so that a reader, a crash or a full disk sees
/// the old file or the new one, never half of one; the folder is flushed last, for the
/// rename itself to last.
public enum AtomicFile {
    /// A failed step, with the path it was about.
    public struct Failure: Error, Equatable, Sendable {
        public enum Step: Sendable { case write, flush, rename }
        public let step: Step
        /// The temporary file for `write` and `flush`, the target for `rename`.
        public let path: String
        public let errno: Errno
    }

    /// Replaces the file at `path` with `text`. `temporary` names the file written first, in
    /// the same folder (by default `.NAME.nudge-PID.tmp`); `mode` is its permissions, as the
    /// umask leaves them.
    public static func replace(_ path: String, with text: String, temporary: String? = nil,
                               mode: mode_t = 0o600) throws(Failure) {
        let pending = try Pending(writing: text, to: temporary ?? temporaryPath(for: path), mode: mode, flush: true)
        try pending.rename(to: path)
        syncFolder(folder(of: path))
    }

    /// The default temporary file for `path`: hidden, in the same folder, named for this process.
    public static func temporaryPath(for path: String) -> String {
        let slash = path.lastIndex(of: "/")
        let name = slash.map { path[path.index(after: $0)...] } ?? path[...]
        return folder(of: path) + "/." + name + ".nudge-\(getpid()).tmp"
    }

    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Flushes a folder's entries (a rename in it) to the disk; a folder that cannot be opened
    /// or flushed is left to the file system. The corresponding C function is `fsync`.
    public static func syncFolder(_ folder: String) {
        guard let descriptor = try? FileDescriptor.openFolder(folder) else { return }
        descriptor.closeAfter { try? descriptor.sync() }
    }

    /// A temporary file written and not yet renamed: a batch of them can be flushed by one
    /// `syncfs` before all are renamed.
    public struct Pending: Sendable {
        public let temporary: String

        /// Writes `text` to `temporary`, created anew (a file left there by a crash is
        /// replaced; a link planted there is not followed), and flushes it when `flush` is set.
        /// Nothing is left behind on failure. The corresponding C functions are `open`,
        /// `write` and `fsync`.
        public init(writing text: String, to temporary: String, mode: mode_t = 0o600, flush: Bool) throws(Failure) {
            self.temporary = temporary
            let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW
            let descriptor: FileDescriptor
            do {
                descriptor = try Self.create(temporary, flags, mode: mode)
            } catch {
                throw Failure(step: .write, path: temporary, errno: error)
            }
            var step = Failure.Step.write
            var closed = false
            do {
                try descriptor.writeAll(text)
                step = .flush
                if flush { try descriptor.sync() }
                step = .write
                closed = true
                try descriptor.close()
            } catch {
                if !closed { _ = Glibc.close(descriptor.rawValue) }
                unlink(temporary)
                throw Failure(step: step, path: temporary, errno: error)
            }
        }

        private static func create(_ path: String, _ flags: Int32, mode: mode_t) throws(Errno) -> FileDescriptor {
            do {
                return try .open(path, flags, mode: mode)
            } catch where error == .fileExists {
                unlink(path)
                return try .open(path, flags, mode: mode)
            }
        }

        /// Renames the temporary file over `path`; on failure it is removed. The corresponding
        /// C function is `rename`.
        public func rename(to path: String) throws(Failure) {
            guard Glibc.rename(temporary, path) == 0 else {
                let error = Errno.current
                unlink(temporary)
                throw Failure(step: .rename, path: path, errno: error)
            }
        }

        /// Removes the temporary file.
        public func discard() {
            unlink(temporary)
        }
    }
}
