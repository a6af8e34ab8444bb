import Foundation
import NudgePlatform

/// Where `-o PATH` writes: a whole file or nothing (`AtomicFile`), so that a crash or a full
/// disk never leaves half an export. What is not a file is written to, not replaced: a
/// symbolic link's target is replaced instead of the link, and a device, FIFO or socket
/// (`-o /dev/stdout`, `-o >(gzip)`) gets the text as it is.
enum OutputFile {
    static func write(_ text: String, to path: String, mode: mode_t = 0o600) throws(CLIError) {
        if let descriptor = inheritedDescriptor(path) {
            do { try FileDescriptor(rawValue: descriptor).writeAll(text) } catch { throw failure(path, error) }
            return
        }
        let target = followingLinks(path)
        var info = stat()
        if stat(target, &info) == 0 && info.st_mode & S_IFMT != S_IFREG && info.st_mode & S_IFMT != S_IFDIR {
            do throws(Errno) {
                let descriptor = try FileDescriptor.open(target, O_WRONLY | O_NOCTTY)
                do { try descriptor.writeAll(text) } catch {
                    try? descriptor.close()
                    throw error
                }
                try descriptor.close()
            } catch {
                throw failure(path, error)
            }
            return
        }
        do { try AtomicFile.replace(target, with: text, mode: mode) } catch {
            throw failure(path, error.errno)
        }
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

    private static func failure(_ path: String, _ error: Errno) -> CLIError {
        .failed("cannot write \(path): \(error)")
    }
}
