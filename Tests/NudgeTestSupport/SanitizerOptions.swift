import Foundation

/// The sanitizer settings of the test process (`make check-sanitize` sets them), passed on to
/// the children the tests start: those get an environment of the test's own making, and the
/// binaries they run (nudge, nudged) are built with the same sanitizer and need the same
/// settings (under libfaketime, ASan's allocator deadlocks without its one).
enum SanitizerOptions {
    static let names = ["ASAN_OPTIONS", "LSAN_OPTIONS", "TSAN_OPTIONS", "UBSAN_OPTIONS"]

    static let inherited: [String: String] = {
        let environment = ProcessInfo.processInfo.environment
        return names.reduce(into: [:]) { result, name in result[name] = environment[name] }
    }()

    /// `environment` with the sanitizer settings added, those it sets itself kept.
    static func added(to environment: [String: String]) -> [String: String] {
        environment.merging(inherited) { own, _ in own }
    }
}
