import Dispatch

/// What a child writes to a pipe, read as a read source on a queue: the first (or last)
/// `keep` bytes are kept and the rest read and thrown away, so that a child printing without
/// end never blocks on a full pipe.
public struct PipeReader {
    public enum Kept: Sendable { case first, last }

    public let keep: Int
    public let kept: Kept
    public private(set) var bytes: [UInt8] = []
    private var buffer = [UInt8](repeating: 0, count: 16384)

    public init(keep: Int, _ kept: Kept = .first) {
        self.keep = keep
        self.kept = kept
    }

    /// Reads what is there; false at the end of the output, when the source is cancelled (a
    /// read source at end of file stays readable, so it must go).
    public mutating func drain(_ source: DispatchSourceRead) -> Bool {
        guard !source.isCancelled else { return false }
        let descriptor = FileDescriptor(rawValue: Int32(source.handle))
        while true {
            let count: Int
            do {
                count = try buffer.withUnsafeMutableBytes { bytes in
                    Result { () throws(Errno) in try descriptor.read(into: bytes) }
                }.get()
            } catch .wouldBlock {
                return true
            } catch {
                count = 0
            }
            guard count > 0 else {
                source.cancel()
                return false
            }
            switch kept {
            case .first:
                if bytes.count < keep { bytes += buffer[..<min(count, keep - bytes.count)] }
            case .last:
                bytes += buffer[..<count]
                if bytes.count > keep { bytes.removeFirst(bytes.count - keep) }
            }
        }
    }

    /// The first line, once it is complete.
    public var firstLine: String? {
        guard let end = bytes.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        return String(decoding: bytes[..<end], as: UTF8.self)
    }
}
