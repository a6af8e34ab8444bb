import Foundation

/// RFC 9562 name-based UUIDs (version 5, SHA-1): the same name in the same namespace always
/// gives the same UUID, so that an item without one of its own is the same todo at every import.
public enum NameBasedUUID {
    /// The namespace for URLs, RFC 9562 appendix A.
    static let urlNamespace: [UInt8] = [0x6b, 0xa7, 0xb8, 0x11, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8]

    /// The version 5 UUID of `name` in the URL namespace, lowercased.
    public static func url(_ name: String) -> String {
        var digest = Array(sha1(urlNamespace + Array(name.utf8)).prefix(16))
        digest[6] = (digest[6] & 0x0F) | 0x50
        digest[8] = (digest[8] & 0x3F) | 0x80
        // By hand: String(format:) for each byte costs more than the hash.
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for (index, byte) in digest.enumerated() {
            if index == 4 || index == 6 || index == 8 || index == 10 { text.append(UInt8(ascii: "-")) }
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// FIPS 180-4 SHA-1: here only to name things, never for security.
    static func sha1(_ message: [UInt8]) -> [UInt8] {
        var bytes = message
        let bitLength = UInt64(message.count) * 8
        bytes.append(0x80)
        bytes += [UInt8](repeating: 0, count: (119 - message.count % 64) % 64)
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        var h: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
        var schedule = [UInt32](repeating: 0, count: 80)
        // Through buffers: an array's every subscript is checked for sharing, and a name's
        // hash is made for every line a todo.txt import reads.
        bytes.withUnsafeBufferPointer { bytes in
            schedule.withUnsafeMutableBufferPointer { w in
                h.withUnsafeMutableBufferPointer { h in
                    for chunk in stride(from: 0, to: bytes.count, by: 64) {
                        for i in 0..<16 {
                            let j = chunk + i * 4
                            w[i] = UInt32(bytes[j]) << 24 | UInt32(bytes[j + 1]) << 16 | UInt32(bytes[j + 2]) << 8 | UInt32(bytes[j + 3])
                        }
                        for i in 16..<80 {
                            let x = w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]
                            w[i] = x << 1 | x >> 31
                        }
                        var (a, b, c, d, e) = (h[0], h[1], h[2], h[3], h[4])
                        for i in 0..<80 {
                            let f: UInt32, k: UInt32
                            if i < 20 {
                                (f, k) = ((b & c) | (~b & d), 0x5A82_7999)
                            } else if i < 40 {
                                (f, k) = (b ^ c ^ d, 0x6ED9_EBA1)
                            } else if i < 60 {
                                (f, k) = ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
                            } else {
                                (f, k) = (b ^ c ^ d, 0xCA62_C1D6)
                            }
                            let temp = (a << 5 | a >> 27) &+ f &+ e &+ k &+ w[i]
                            (e, d, c, b, a) = (d, c, b << 30 | b >> 2, a, temp)
                        }
                        h[0] &+= a; h[1] &+= b; h[2] &+= c; h[3] &+= d; h[4] &+= e
                    }
                }
            }
        }
        var digest: [UInt8] = []
        digest.reserveCapacity(20)
        for word in h {
            for shift: UInt32 in [24, 16, 8, 0] { digest.append(UInt8(truncatingIfNeeded: word >> shift)) }
        }
        return digest
    }
}
