import Foundation

/// A fresh folder under /tmp, removed when the value goes away.
final class TemporaryDirectory {
    let path: String

    init() {
        var template = Array("/tmp/nudge-test-XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    func file(_ name: String) -> String { path + "/" + name }
}
