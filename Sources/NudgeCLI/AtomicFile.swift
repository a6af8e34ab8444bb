import Foundation
import NudgeSystem

/// Writes a whole file or nothing: a temporary file in the same folder, synced, then renamed
/// over the target, so that a crash or a full disk never leaves half an export. What is not a
/// file is written to, not replaced: a symbolic link's target is replaced instead of the link,
/// and a device, FIFO or socket (`-o /dev/stdout`, `-o >(gzip)`) gets the text as it is.
enum AtomicFile {
    static func write(_ text: String, to path: String, mode: mode_t = 0o600) throws(CLIError) {
        if let descriptor = inheritedDescriptor(path) {
            let error = writeAll(text, to: descriptor)
            guard error == 0 else { throw failure(path, error) }
            return
        }
        let target = followingLinks(path)
        var info = stat()
        if stat(target, &info) == 0 && info.st_mode & S_IFMT != S_IFREG && info.st_mode & S_IFMT != S_IFDIR {
            let fd = open(target, O_WRONLY | O_CLOEXEC | O_NOCTTY)
            guard fd >= 0 else { throw failure(path, errno) }
            var error = writeAll(text, to: fd)
            if close(fd) != 0 && error == 0 { error = errno }
            guard error == 0 else { throw failure(path, error) }
            return
        }
        try replace(target, with: text, mode: mode, naming: path)
    }

    /// The descriptor nudge inherited that `/dev/stdout`, `/dev/fd/N` or `/proc/self/fd/N`
    /// names: written as it is, as the shell opened it (appending after `>>`, say).
    static func inheritedDescriptor(_ path: String) -> Int32? {
        let named: [String: Int32] = ["/dev/stdout": 1, "/dev/stderr": 2]
        if let fd = named[path] { return fd }
        for folder in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(folder) {
            guard let fd = Int32(path.dropFirst(folder.count)), fd >= 0, fcntl(fd, F_GETFD) != -1 else { return nil }
            return fd
        }
        return nil
    }

    /// The file a chain of symbolic links ends at, which need not exist yet.
    static func followingLinks(_ path: String) -> String {
        var current = path
        for _ in 0..<40 {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(current, &buffer, buffer.count - 1)
            guard count > 0 else { return current }
            let link = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = link.hasPrefix("/") ? link : ((current as NSString).deletingLastPathComponent as NSString).appendingPathComponent(link)
        }
        return current
    }

    private static func replace(_ path: String, with text: String, mode: mode_t, naming shown: String) throws(CLIError) {
        let folder = (path as NSString).deletingLastPathComponent
        let directory = folder.isEmpty ? "." : folder
        var template = Array((directory + "/.nudge-export-XXXXXX").utf8CString)
        // baseAddress: non-nil here and below, the template is never empty.
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw failure(shown, errno) }
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        var error: Int32 = 0
        if fchmod(fd, mode) != 0 { error = errno }
        if error == 0 { error = writeAll(text, to: fd) }
        if error == 0 && fsync(fd) != 0 { error = errno }
        if close(fd) != 0 && error == 0 { error = errno }
        if error == 0 && rename(temporary, path) != 0 { error = errno }
        guard error == 0 else {
            unlink(temporary)
            throw failure(shown, error)
        }
        // The rename itself lasts once the folder is synced.
        let folderFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folderFD >= 0 {
            fsync(folderFD)
            close(folderFD)
        }
    }

    private static func failure(_ path: String, _ error: Int32) -> CLIError {
        .failed("cannot write \(path): " + String(cString: strerror(error)))
    }
}
