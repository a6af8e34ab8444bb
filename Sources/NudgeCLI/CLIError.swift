import NudgeStore

/// A failure reported as one line on stderr, with the exit status it calls for.
struct CLIError: Error {
    /// 1: what was asked for does not exist or cannot be done. 2: the command was used wrongly.
    enum Kind: Int32 { case failed = 1, usage = 2 }

    let kind: Kind
    let message: String

    static func usage(_ message: String) -> CLIError { CLIError(kind: .usage, message: message) }
    static func failed(_ message: String) -> CLIError { CLIError(kind: .failed, message: message) }
}
