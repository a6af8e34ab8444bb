import CLinux
import Dispatch
import Glibc

/// Watches folders with inotify and calls back, on the queue, with the names that changed.
/// Folders rather than files: editors and SQLite replace or create files, which a watch on
/// the file itself would miss.
final class FileWatcher {
    private let fd: Int32
    private let source: DispatchSourceRead
    /// By watch descriptor; inotify gives one folder one descriptor, however often it is added.
    private var handlers: [Int32: [(String) -> Void]] = [:]

    init(queue: DispatchQueue) throws {
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw DaemonError("inotify_init1: \(String(cString: strerror(errno)))") }
        source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        source.setEventHandler { [unowned self] in readEvents() }
        source.setCancelHandler { [fd] in close(fd) }
        source.resume()
    }

    deinit {
        source.cancel()
    }

    /// Calls `handler` with the name of each entry of `folder` that is written, created,
    /// moved in or deleted.
    func watch(folder: String, _ handler: @escaping (String) -> Void) throws {
        let mask = UInt32(IN_CLOSE_WRITE | IN_MODIFY | IN_CREATE | IN_MOVED_TO | IN_DELETE)
        let wd = inotify_add_watch(fd, folder, mask)
        guard wd >= 0 else { throw DaemonError("cannot watch \(folder): \(String(cString: strerror(errno)))") }
        handlers[wd, default: []].append(handler)
    }

    private func readEvents() {
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { return }
            var offset = 0
            while offset < count {
                let (wd, length, name) = buffer.withUnsafeBytes { bytes -> (Int32, Int, String) in
                    let event = bytes.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    let nameStart = offset + MemoryLayout<inotify_event>.size
                    let nameBytes = bytes[nameStart..<(nameStart + Int(event.len))].prefix { $0 != 0 }
                    return (event.wd, Int(event.len), String(decoding: nameBytes, as: UTF8.self))
                }
                offset += MemoryLayout<inotify_event>.size + length
                handlers[wd]?.forEach { $0(name) }
            }
        }
    }
}

struct DaemonError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
