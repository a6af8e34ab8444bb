import Foundation

/// A fresh folder under /tmp, removed when the value goes away, or by the `DeathWatch` when
/// the test process ends without that: its name holds the process id.
final class TemporaryDirectory {
    let path: String

    init() {
        var template = Array((DeathWatch.shared.folderStem + "XXXXXX").utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    func file(_ name: String) -> String { path + "/" + name }

    /// Writes an executable file whose descriptor is closed on exec. Written the usual way, a
    /// child process started meanwhile by another test inherits the descriptor and holds the
    /// file open for writing, so that running it fails with ETXTBSY (and a shell goes on to
    /// the next PATH entry: the real program instead of the test's).
    func writeExecutable(_ name: String, _ text: String) throws {
        let descriptor = open(file(name), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        let bytes = Array(text.utf8)
        var done = 0
        while done < bytes.count {
            let written = bytes[done...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            done += written
        }
    }
}
