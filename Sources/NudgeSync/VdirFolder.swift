import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The file operations of a vdir: list with stat only, read one body, write atomically, remove.
enum VdirFolder {
    /// The `.ics` files of the folder by name, each with its etag as vdirsyncer's filesystem
    /// storage makes it: the modification time in nanoseconds and the inode. Hidden files
    /// (a writer's temporary files) are not items. The corresponding C functions are
    /// `opendir`, `readdir` and `fstatat`.
    static func list(_ folder: String) throws(SyncError) -> [String: String] {
        guard let directory = opendir(folder) else {
            let code = errno
            if code == ENOENT { throw SyncError(reason: "\(folder) does not exist") }
            if code == ENOTDIR { throw SyncError(reason: "\(folder) is not a folder") }
            throw SyncError(reason: "cannot read \(folder): \(String(cString: strerror(code)))")
        }
        defer { closedir(directory) }
        let descriptor = dirfd(directory)
        var files: [String: String] = [:]
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            guard name.hasSuffix(".ics"), !name.hasPrefix(".") else { continue }
            var info = stat()
            guard fstatat(descriptor, name, &info, 0) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            files[name] = etag(info)
        }
        return files
    }

    static func etag(_ info: stat) -> String {
        let nanoseconds = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        return "\(nanoseconds);\(info.st_ino)"
    }

    static func read(_ folder: String, _ href: String) throws(SyncError) -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: folder + "/" + href))
        } catch {
            throw SyncError(reason: "cannot read \(folder)/\(href): \(error.localizedDescription)")
        }
    }

    /// Writes each file as vdirsyncer expects: to a hidden temporary file in the folder, flushed
    /// to disk, then renamed over the name, so that a reader sees the old file or the new one,
    /// never half of one; the folder is flushed at the end. Returns the new etags by name. The
    /// corresponding C functions are `open`, `write`, `fsync` and `rename`.
    static func writeAtomically(_ folder: String, _ files: [(href: String, text: String)]) throws(SyncError) -> [String: String] {
        guard !files.isEmpty else { return [:] }
        var etags: [String: String] = [:]
        for (href, text) in files {
            let path = folder + "/" + href
            let temporary = folder + "/." + href + ".nudge-\(getpid()).tmp"
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { throw failure("cannot write", temporary) }
            var bytes = Array(text.utf8)
            var offset = 0
            while offset < bytes.count {
                let count = bytes.withUnsafeMutableBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
                if count < 0 {
                    if errno == EINTR { continue }
                    let error = failure("cannot write", temporary)
                    close(descriptor)
                    unlink(temporary)
                    throw error
                }
                offset += count
            }
            bytes.removeAll()
            guard fsync(descriptor) == 0 else {
                let error = failure("cannot flush", temporary)
                close(descriptor)
                unlink(temporary)
                throw error
            }
            close(descriptor)
            guard rename(temporary, path) == 0 else {
                let error = failure("cannot rename to", path)
                unlink(temporary)
                throw error
            }
            var info = stat()
            if stat(path, &info) == 0 { etags[href] = etag(info) }
        }
        let directory = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
        return etags
    }

    static func remove(_ folder: String, _ href: String) throws(SyncError) {
        let path = folder + "/" + href
        guard unlink(path) == 0 || errno == ENOENT else { throw failure("cannot delete", path) }
    }

    private static func failure(_ what: String, _ path: String) -> SyncError {
        SyncError(reason: "\(what) \(path): \(String(cString: strerror(errno)))")
    }
}
