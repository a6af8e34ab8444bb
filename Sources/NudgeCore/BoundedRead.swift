import Foundation
import NudgePlatform
#if canImport(Glibc)
import Glibc
#endif

/// Why `BoundedRead` gave up.
public enum BoundedReadError: Error, Equatable, Sendable {
    /// More than the limit: nothing of it is taken.
    case tooLarge(limit: Int)
    /// read(2) failed.
    case failed(Errno)
}

/// Reads an input from outside (a file, standard input, a vdir's file) to its end, but never
/// more than a limit: one byte past it, and the input is refused, so that `/dev/zero` or a
/// file of gigabytes costs no more memory than the limit.
public enum BoundedRead {
    /// Everything `descriptor` gives until end of file, when that is at most `limit` bytes.
    /// The corresponding C function is `read`.
    public static func read(_ descriptor: FileDescriptor, limit: Int) throws(BoundedReadError) -> Data {
        var data = Data()
        // Appended a chunk at a time (memcpy), never byte by byte: at the default limit that
        // would be a loop of 10 million steps, minutes under ThreadSanitizer.
        let chunk = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 64 << 10)
        defer { chunk.deallocate() }
        while data.count <= limit {
            let wanted = UnsafeMutableBufferPointer(rebasing: chunk[..<min(chunk.count, limit + 1 - data.count)])
            let count: Int
            do throws(Errno) { count = try descriptor.read(into: UnsafeMutableRawBufferPointer(wanted)) } catch {
                throw .failed(error)
            }
            if count == 0 { return data }
            data.append(UnsafeBufferPointer(rebasing: chunk[..<count]))
        }
        throw .tooLarge(limit: limit)
    }

    /// "10 MB", "512 KB", "300 bytes": a limit in units of 1024, as `max_size` is written.
    public static func sizeText(_ bytes: Int) -> String {
        for (unit, size) in [("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)] where bytes >= size {
            return bytes % size == 0 ? "\(bytes / size) \(unit)" : String(format: "%.1f %@", Double(bytes) / Double(size), unit)
        }
        return "\(bytes) bytes"
    }
}

extension stat {
    /// What a path is when it is not a plain file ("a FIFO", "a symbolic link" after lstat,
    /// "a folder"); nil for a plain file.
    public var notAFile: String? {
        switch st_mode & S_IFMT {
        case S_IFREG: nil
        case S_IFLNK: "a symbolic link"
        case S_IFDIR: "a folder"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        default: "a device"
        }
    }
}
