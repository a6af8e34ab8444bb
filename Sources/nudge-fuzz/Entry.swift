import Foundation
#if NUDGE_FUZZ
import CFuzzer
#endif

/// Built with -D NUDGE_FUZZ and -sanitize=fuzzer (scripts/fuzz): libFuzzer's driver, given the
/// command line, runs the target named by NUDGE_FUZZ_TARGET on each input. SwiftPM makes an
/// executable's main its own, so libFuzzer is started from here rather than from its main.
/// In an ordinary build, `nudge-fuzz TARGET FILE...` runs each file through a target once, so
/// that a finding can be replayed without the sanitizers, under a debugger.
@main
enum FuzzMain {
    static func main() {
        #if NUDGE_FUZZ
        let name = ProcessInfo.processInfo.environment["NUDGE_FUZZ_TARGET"] ?? ""
        guard FuzzTarget.named(name) != nil else { usage("NUDGE_FUZZ_TARGET=\(name) is not a target") }
        // What a target sets up once (zones, the store's schema) is not counted against the
        // first input's time limit.
        selected.run(Data())
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { bytes, count in fuzzTestOneInput(bytes, count) })
        #else
        let arguments = CommandLine.arguments.dropFirst()
        guard let name = arguments.first, let target = FuzzTarget.named(name) else { usage("no target named") }
        for path in arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("nudge-fuzz: cannot read \(path)\n".utf8))
                exit(1)
            }
            target.run(data)
        }
        #endif
    }

    static func usage(_ problem: String) -> Never {
        FileHandle.standardError.write(Data("nudge-fuzz: \(problem); usage: NUDGE_FUZZ_TARGET=TARGET nudge-fuzz [libFuzzer options] [CORPUS...] (fuzzing build), nudge-fuzz TARGET FILE... (replay); targets: \(FuzzTarget.names.joined(separator: " "))\n".utf8))
        exit(2)
    }
}

#if NUDGE_FUZZ
/// Looked up once for the C callback, which captures nothing; `main` has checked the name,
/// so the unwrap cannot fail.
private let selected = FuzzTarget.named(ProcessInfo.processInfo.environment["NUDGE_FUZZ_TARGET"] ?? "")!

/// libFuzzer's own main, linked in with the driver, calls this by name; ours passes it too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    selected.run(bytes.map { Data(bytes: $0, count: count) } ?? Data())
    return 0
}
#endif
