import Glibc

/// Writes all of `text` to `fd`, again after a signal or a short write. Returns 0, or the
/// errno of the write that failed (`FileHandle.write` stops the program instead).
@discardableResult
public func writeAll(_ text: String, to fd: Int32) -> Int32 {
    var text = text
    return text.withUTF8 { writeAll($0, to: fd) }
}

@discardableResult
public func writeAll(_ bytes: UnsafeBufferPointer<UInt8>, to fd: Int32) -> Int32 {
    var offset = 0
    while offset < bytes.count {
        // baseAddress: non-nil, the buffer is not empty while offset < count.
        let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
        if written > 0 {
            offset += written
        } else if written < 0 && errno == EINTR {
            continue
        } else {
            // A write of nothing would be tried forever.
            return written == 0 ? EIO : errno
        }
    }
    return 0
}
