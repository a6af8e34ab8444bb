import NudgeInterchange

typealias ByteSink = NudgeInterchange.ByteSink

/// Bytes in memory of its own, for a row put together from a dozen short pieces: `[UInt8]`
/// checks its uniqueness and capacity at each append, which a long list pays for every piece.
struct ByteRun: ByteSink, ~Copyable {
    private var start: UnsafeMutableRawPointer
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int = 512) {
        self.capacity = capacity
        start = .allocate(byteCount: capacity, alignment: 1)
    }

    deinit { start.deallocate() }

    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: start, count: count) }

    mutating func removeAll() { count = 0 }

    mutating func append(_ byte: UInt8) {
        if count == capacity { grow(toHold: count + 1) }
        start.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
        count += 1
    }

    mutating func append(bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress else { return }
        if count + bytes.count > capacity { grow(toHold: count + bytes.count) }
        (start + count).copyMemory(from: source, byteCount: bytes.count)
        count += bytes.count
    }

    private mutating func grow(toHold needed: Int) {
        let larger = Swift.max(needed, capacity * 2)
        let moved = UnsafeMutableRawPointer.allocate(byteCount: larger, alignment: 1)
        moved.copyMemory(from: start, byteCount: count)
        start.deallocate()
        start = moved
        capacity = larger
    }
}

func decimalDigits(_ value: Int64) -> Int {
    var digits = 1
    var rest = value / 10
    while rest > 0 { digits += 1; rest /= 10 }
    return digits
}
