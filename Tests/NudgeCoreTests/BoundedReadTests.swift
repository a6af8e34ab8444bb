import Foundation
import Glibc
import NudgePlatform
import Testing
@testable import NudgeCore

struct BoundedReadTests {
    /// The bytes a file of `count` bytes gives, read with `limit`.
    private func read(_ count: Int, limit: Int) throws -> Data {
        let path = NSTemporaryDirectory() + "/nudge-bounded-read-\(UUID().uuidString)"
        let written = Data((0..<count).map { UInt8(truncatingIfNeeded: $0 * 7) })
        #expect(FileManager.default.createFile(atPath: path, contents: written))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let descriptor = try FileDescriptor.open(path, O_RDONLY)
        let bytes = try descriptor.closeAfter { () throws(BoundedReadError) in try BoundedRead.read(descriptor, limit: limit) }
        #expect(bytes == written)
        return bytes
    }

    @Test("reads a file whole, across reads of 64 KB", arguments: [0, 1, 65_535, 65_536, 65_537, 200_000])
    func readsWhole(count: Int) throws {
        #expect(try read(count, limit: 10 << 20).count == count)
    }

    @Test func takesAFileOfExactlyTheLimit() throws {
        #expect(try read(70_000, limit: 70_000).count == 70_000)
    }

    @Test func refusesOneBytePastTheLimit() {
        #expect(throws: BoundedReadError.tooLarge(limit: 69_999)) { try read(70_000, limit: 69_999) }
    }

    @Test func refusesAnEndlessInput() throws {
        let descriptor = try FileDescriptor.open("/dev/zero", O_RDONLY)
        defer { try? descriptor.close() }
        #expect(throws: BoundedReadError.tooLarge(limit: 1 << 20)) { try BoundedRead.read(descriptor, limit: 1 << 20) }
    }

    @Test func saysWhyAReadFailed() {
        #expect(throws: BoundedReadError.failed(Errno(rawValue: EBADF))) { try BoundedRead.read(FileDescriptor(rawValue: -1), limit: 100) }
    }
}
