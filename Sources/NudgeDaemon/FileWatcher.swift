import CLinux
import Dispatch
import Glibc
import NudgePlatform

/// What changed in a watched folder.
enum FolderChange: Equatable {
    /// An entry was written, created, moved in or out, or deleted.
    case entry(String)
    /// Anything may have changed: the kernel's queue overflowed and events were lost, or the
    /// folder itself went away (deleted, moved, unmounted) and with it the watch.
    case unknown

    /// Whether this change may concern the entry `name`.
    func concerns(_ name: String) -> Bool {
        self == .unknown || self == .entry(name)
    }
}

/// Which changes of a folder a watch reports.
enum FolderEvents {
    /// Every entry written, created, moved in or out, or deleted.
    case everyChange
    /// Only entries made or moved in: for a watch that waits for a folder to appear (made as
    /// a link too), which writes to other programs' files beside it (~/.config) must not wake.
    case arrivals

    var mask: UInt32 {
        switch self {
        case .everyChange: UInt32(IN_CLOSE_WRITE | IN_MODIFY | IN_CREATE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE)
        case .arrivals: UInt32(IN_CREATE | IN_MOVED_TO)
        }
    }
}

/// Watches folders with inotify and calls back, on the queue, with what changed.
/// Folders rather than files: editors and SQLite replace or create files, which a watch on
/// the file itself would miss.
final class FileWatcher {
    private let inotify: FileDescriptor
    private let source: DispatchSourceRead
    /// By watch descriptor; inotify gives one folder one descriptor, however often it is added.
    private var handlers: [Int32: [(token: Int, events: FolderEvents, call: (FolderChange) -> Void)]] = [:]
    private var lastToken = 0

    /// One handler of one folder, to stop with `stopWatching`.
    struct Watch {
        fileprivate let wd: Int32
        fileprivate let token: Int
    }

    init(queue: DispatchQueue) throws(DaemonError) {
        do throws(Errno) {
            inotify = FileDescriptor(rawValue: try valueOrErrno { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) })
        } catch {
            throw DaemonError("inotify_init1: \(error)")
        }
        source = DispatchSource.makeReadSource(fileDescriptor: inotify.rawValue, queue: queue)
        source.setEventHandler { [unowned self] in readEvents() }
        source.setCancelHandler { [inotify] in try? inotify.close() }
        source.resume()
    }

    deinit {
        source.cancel()
    }

    /// Calls `handler` with each entry of `folder` that is written, created, moved in or out or
    /// deleted (with `.arrivals`, each entry made or moved in), and with `.unknown` when
    /// events were lost or the folder went away. The watch follows the folder itself: moved
    /// elsewhere, it is still the one watched.
    @discardableResult
    func watch(folder: String, for events: FolderEvents = .everyChange, _ handler: @escaping (FolderChange) -> Void) throws(DaemonError) -> Watch {
        // Added to what the folder's other watches ask for; after one stops, the kernel still
        // reports what it asked for until the last stops, and `readEvents` drops it.
        let mask = events.mask | UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR | IN_MASK_ADD)
        let wd: Int32
        do throws(Errno) { wd = try valueOrErrno { inotify_add_watch(inotify.rawValue, folder, mask) } } catch {
            throw DaemonError("cannot watch \(folder): \(error)")
        }
        lastToken += 1
        handlers[wd, default: []].append((lastToken, events, handler))
        return Watch(wd: wd, token: lastToken)
    }

    /// Stops calling the handler `watch` was given; the folder's other handlers go on.
    func stopWatching(_ watch: Watch) {
        handlers[watch.wd]?.removeAll { $0.token == watch.token }
        if handlers[watch.wd]?.isEmpty == true {
            handlers[watch.wd] = nil
            inotify_rm_watch(inotify.rawValue, watch.wd)
        }
    }

    private func readEvents() {
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            // EAGAIN once the queue is empty.
            guard let count = try? buffer.withUnsafeMutableBytes({ try inotify.read(into: $0) }), count > 0 else { return }
            var offset = 0
            while offset < count {
                let (wd, mask, length, name) = buffer.withUnsafeBytes { bytes -> (Int32, UInt32, Int, String) in
                    let event = bytes.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    let nameStart = offset + MemoryLayout<inotify_event>.size
                    let nameBytes = bytes[nameStart..<(nameStart + Int(event.len))].prefix { $0 != 0 }
                    return (event.wd, event.mask, Int(event.len), String(decoding: nameBytes, as: UTF8.self))
                }
                offset += MemoryLayout<inotify_event>.size + length
                if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    // Lost events may concern any folder.
                    handlers.values.joined().forEach { $0.call(.unknown) }
                } else if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0 {
                    let gone = handlers[wd] ?? []
                    if mask & UInt32(IN_IGNORED) != 0 { handlers[wd] = nil }
                    gone.forEach { $0.call(.unknown) }
                } else {
                    handlers[wd]?.forEach { if mask & $0.events.mask != 0 { $0.call(.entry(name)) } }
                }
            }
        }
    }
}
