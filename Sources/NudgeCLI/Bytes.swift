/// Output put together as UTF-8 bytes: appending a dozen short strings to a `String` for every
/// todo is a large part of what `nudge list` and `list --json` cost on a long list.
protocol ByteSink: ~Copyable {
    mutating func append(_ byte: UInt8)
    mutating func append(bytes: UnsafeRawBufferPointer)
}

extension ByteSink where Self: ~Copyable {
    /// Appends the UTF-8 of `text` in one copy (`append(contentsOf: text.utf8)` goes a byte at
    /// a time). `withUTF8` also serves the small strings kept inline (up to 15 bytes: most days,
    /// times and marks), which have no contiguous storage to lend.
    mutating func append(utf8 text: String) {
        var text = text
        text.withUTF8 { append(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// Appends `count` spaces; nothing when `count` is not positive.
    mutating func append(spaces count: Int) {
        var left = count
        while left > 0 {
            let chunk = Swift.min(left, spaceRun.count)
            spaceRun.withUnsafeBytes { append(bytes: UnsafeRawBufferPointer(rebasing: $0[..<chunk])) }
            left -= chunk
        }
    }

    /// Appends `value` in decimal digits, as `String(value)` writes it.
    mutating func append(decimal value: Int64) {
        if value < 0 { append(UInt8(ascii: "-")) }
        // Int64's magnitude has at most 20 digits.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var rest = value.magnitude
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            append(bytes: UnsafeRawBufferPointer(UnsafeMutableBufferPointer(rebasing: digits[start...])))
        }
    }
}

extension [UInt8]: ByteSink {
    mutating func append(bytes: UnsafeRawBufferPointer) {
        append(contentsOf: bytes)
    }
}

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

private let spaceRun = [UInt8](repeating: UInt8(ascii: " "), count: 256)

func decimalDigits(_ value: Int64) -> Int {
    var digits = 1
    var rest = value / 10
    while rest > 0 { digits += 1; rest /= 10 }
    return digits
}
