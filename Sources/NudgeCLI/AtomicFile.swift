import Foundation
import NudgeSystem

/// Writes a whole file or nothing: a temporary file in the same folder, synced, then renamed
/// over the target, so that a crash or a full disk never leaves half an export.
enum AtomicFile {
    static func write(_ text: String, to path: String, mode: mode_t = 0o600) throws(CLIError) {
        let folder = (path as NSString).deletingLastPathComponent
        let directory = folder.isEmpty ? "." : folder
        var template = Array((directory + "/.nudge-export-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw failure(path, errno) }
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        var error: Int32 = 0
        if fchmod(fd, mode) != 0 { error = errno }
        if error == 0 { error = writeAll(text, to: fd) }
        if error == 0 && fsync(fd) != 0 { error = errno }
        if close(fd) != 0 && error == 0 { error = errno }
        if error == 0 && rename(temporary, path) != 0 { error = errno }
        guard error == 0 else {
            unlink(temporary)
            throw failure(path, error)
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
