import Foundation

/// An AF_UNIX datagram socket bound in a fresh folder, standing in for systemd's NOTIFY_SOCKET.
final class NotifySocket {
    let folder = TemporaryDirectory()
    let path: String
    let fd: Int32

    init() throws {
        path = folder.file("notify")
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path.utf8) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard fd >= 0, bound == 0 else { throw HarnessError("cannot bind \(path): \(String(cString: strerror(errno)))") }
    }

    deinit {
        close(fd)
    }

    /// The datagrams waiting, without blocking, each with the moment it was read.
    func received() -> [(at: Date, text: String)] {
        var messages: [(Date, String)] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            guard count >= 0 else { return messages }
            messages.append((Date(), String(decoding: buffer[..<count], as: UTF8.self)))
        }
    }
}
