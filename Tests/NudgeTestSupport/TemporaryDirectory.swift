import Foundation

/// A fresh folder under /tmp, removed when the value goes away, or by the `DeathWatch` when
/// the test process ends without that: its name holds the process id.
final class TemporaryDirectory {
    let path: String

    init() {
        var template = Array((DeathWatch.shared.folderStem + "XXXXXX").utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    func file(_ name: String) -> String { path + "/" + name }
}
