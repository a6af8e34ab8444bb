/// Output put together as UTF-8 bytes: appending a dozen short strings to a `String` for every
/// todo is a large part of what `nudge list` and `list --json` cost on a long list.
public protocol ByteSink: ~Copyable {
    mutating func append(_ byte: UInt8)
    mutating func append(bytes: UnsafeRawBufferPointer)
}

extension ByteSink where Self: ~Copyable {
    /// Appends the UTF-8 of `text` in one copy (`append(contentsOf: text.utf8)` goes a byte at
    /// a time). `withUTF8` also serves the small strings kept inline (up to 15 bytes: most days,
    /// times and marks), which have no contiguous storage to lend.
    @inlinable
    public mutating func append(utf8 text: String) {
        var text = text
        text.withUTF8 { append(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// Appends `count` spaces; nothing when `count` is not positive.
    @inlinable
    public mutating func append(spaces count: Int) {
        var left = count
        while left > 0 {
            let chunk = Swift.min(left, byteSinkSpaces.count)
            byteSinkSpaces.withUnsafeBytes { append(bytes: UnsafeRawBufferPointer(rebasing: $0[..<chunk])) }
            left -= chunk
        }
    }

    /// Appends `value` in decimal digits, as `String(value)` writes it.
    @inlinable
    public mutating func append(decimal value: Int64) {
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
    @inlinable
    public mutating func append(bytes: UnsafeRawBufferPointer) {
        append(contentsOf: bytes)
    }
}

@usableFromInline
let byteSinkSpaces = [UInt8](repeating: UInt8(ascii: " "), count: 256)
