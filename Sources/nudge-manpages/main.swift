import Foundation
import NudgeCLI
import NudgeDaemon
import NudgeHelp

// nudge-manpages CONFIG FOLDER: writes nudge.1, nudged.8 and nudge.conf.5 into FOLDER, the
// last from the documented config file CONFIG (config/nudge.conf).
let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: nudge-manpages CONFIG FOLDER\n".utf8))
    exit(2)
}
let (configPath, folder) = (arguments.first!, arguments.last!)  // two, checked above
do {
    let config = try String(contentsOfFile: configPath, encoding: .utf8)
    let pages = [
        NudgeCLI.manualPage,
        DaemonManual.manualPage(version: NudgeCLI.version),
        ManualPage(documentedConfig: config, section: 5, source: "Nudge " + NudgeCLI.version, manual: "File Formats",
                   seeAlso: "nudge(1), nudged(8)"),
    ]
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    for page in pages {
        try Data(page.roff.utf8).write(to: URL(fileURLWithPath: folder + "/\(page.name).\(page.section)"))
    }
} catch {
    FileHandle.standardError.write(Data("nudge-manpages: \(error)\n".utf8))
    exit(1)
}
