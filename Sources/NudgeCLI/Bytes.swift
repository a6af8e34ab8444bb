/// Output put together as UTF-8 bytes: appending a dozen short strings to a `String` for every
/// todo took a fifth of `nudge list` and most of `list --json` at 100,000 todos.
extension [UInt8] {
    /// Appends the UTF-8 of `text` in one copy (`append(contentsOf: text.utf8)` goes a byte at a time).
    mutating func append(utf8 text: String) {
        if text.utf8.withContiguousStorageIfAvailable({ append(contentsOf: $0) }) == nil { append(contentsOf: text.utf8) }
    }

    /// Appends `count` spaces; nothing when `count` is not positive.
    mutating func append(spaces count: Int) {
        var left = count
        while left > 0 {
            let chunk = Swift.min(left, spaceRun.count)
            spaceRun.withUnsafeBufferPointer { append(contentsOf: UnsafeBufferPointer(rebasing: $0[..<chunk])) }
            left -= chunk
        }
    }

    /// Appends `value` in decimal digits, as `String(value)` writes it.
    mutating func append(decimal value: Int64) {
        if value < 0 { append(UInt8(ascii: "-")) }
        var rest = value.magnitude
        var digits = 1
        while rest >= 10 { digits += 1; rest /= 10 }
        let end = count + digits
        append(spaces: digits)
        rest = value.magnitude
        withUnsafeMutableBufferPointer { bytes in
            for position in stride(from: end - 1, through: end - digits, by: -1) {
                bytes[position] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
        }
    }
}

private let spaceRun = [UInt8](repeating: UInt8(ascii: " "), count: 256)

func decimalDigits(_ value: Int64) -> Int {
    var digits = 1
    var rest = value / 10
    while rest > 0 { digits += 1; rest /= 10 }
    return digits
}
