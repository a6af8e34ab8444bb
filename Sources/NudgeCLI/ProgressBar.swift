import CLinux
import Foundation
import NudgeNetwork
import NudgePlatform

/// One line of progress on stderr, redrawn in place as curl and apt draw theirs: bytes
/// received of the Content-Length (bytes alone when the server sends none), then todos
/// imported. Only for a person at a terminal: nothing on a pipe, a file or with --quiet.
final class ProgressBar {
    let enabled: Bool
    private let columns: Int
    private var shown = ""

    init(enabled: Bool) {
        self.enabled = enabled && isatty(STDERR_FILENO) == 1
        let width = Int(nudge_terminal_columns(STDERR_FILENO))
        columns = width > 0 ? width : 80
    }

    /// "Receiving [#########               ]  45%  13.1 KB of 29 KB".
    func received(_ progress: FetchProgress) {
        guard enabled else { return }
        if let total = progress.total, total > 0 {
            let fraction = min(1, Double(progress.received) / Double(total))
            draw("Receiving", fraction: fraction,
                 tail: String(format: "%3d%%  ", Int(fraction * 100)) + Self.size(progress.received) + " of " + Self.size(total))
        } else {
            draw("Receiving", fraction: nil, tail: Self.size(progress.received))
        }
    }

    /// "Importing [####################    ]  12 of 15 todos".
    func imported(_ done: Int, of total: Int) {
        guard enabled else { return }
        draw("Importing", fraction: total == 0 ? 1 : Double(done) / Double(total),
             tail: "\(done) of \(total) todo\(total == 1 ? "" : "s")")
    }

    /// Removes the line, so that what follows starts on a clean one.
    func clear() {
        guard enabled, !shown.isEmpty else { return }
        shown = ""
        try? FileDescriptor.standardError.writeAll("\r\u{1B}[K")
    }

    private func draw(_ label: String, fraction: Double?, tail: String) {
        var line = label + " "
        // The bar takes what the words leave, between 10 and 40 columns.
        let barWidth = min(40, columns - label.count - tail.count - 5)
        if barWidth >= 10 {
            if let fraction {
                let filled = Int((fraction * Double(barWidth)).rounded(.down))
                line += "[" + String(repeating: "#", count: filled) + String(repeating: " ", count: barWidth - filled) + "] "
            }
        }
        line += tail
        line = String(line.prefix(columns - 1))
        guard line != shown else { return }
        shown = line
        try? FileDescriptor.standardError.writeAll("\r" + line + "\u{1B}[K")
    }

    /// "512 bytes", "13.1 KB", "2.4 MB": to a tenth, so that the line changes a few hundred
    /// times at most.
    static func size(_ bytes: Int64) -> String {
        if bytes < 1024 { return "\(bytes) bytes" }
        if bytes < 1 << 20 { return String(format: "%.1f KB", Double(bytes) / 1024) }
        return String(format: "%.1f MB", Double(bytes) / Double(1 << 20))
    }
}
