import Glibc

/// The process's environment variables, read from `environ`.
public enum ProcessEnvironment {
    /// Each variable as getenv(3) finds it: the first of two with one name. Cheaper than
    /// `ProcessInfo.environment`, which looks for each entry's "=" by Character, at every
    /// start of every command.
    public static func read() -> [String: String] {
        var variables: [String: String] = [:]
        var entry = environ
        while let text = entry.pointee {
            entry += 1
            guard let equals = strchr(text, Int32(UInt8(ascii: "="))) else { continue }
            let name = String(decoding: UnsafeRawBufferPointer(start: text, count: equals - text), as: UTF8.self)
            if variables[name] == nil { variables[name] = String(cString: equals + 1) }
        }
        return variables
    }
}
