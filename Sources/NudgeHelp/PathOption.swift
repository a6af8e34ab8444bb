/// `--db PATH` and `--config PATH`: what nudge takes before or after any command and nudged
/// takes alone, declared here so that both programs spell, show and read them alike.
public enum PathOption: String, CaseIterable, Sendable {
    case db, config

    public static let placeholder = "PATH"

    /// `[--db PATH] [--config PATH]`, for the synopses.
    public static let synopsis = allCases.map { "[--\($0.rawValue) \(placeholder)]" }.joined(separator: " ")

    /// The paths given, by option. Two fields rather than a dictionary keyed by the enum,
    /// whose generic metadata the runtime would build at every start.
    public struct Paths: Equatable, Sendable, ExpressibleByDictionaryLiteral {
        public var db: String?
        public var config: String?

        public init() {}

        public init(dictionaryLiteral elements: (PathOption, String)...) {
            for (option, path) in elements { self[option] = path }
        }

        public subscript(option: PathOption) -> String? {
            get {
                switch option {
                case .db: db
                case .config: config
                }
            }
            set {
                switch option {
                case .db: db = newValue
                case .config: config = newValue
                }
            }
        }
    }

    /// Takes the options out of `words` (`--db PATH` or `--db=PATH`; a later one wins) and
    /// returns the other words in order. `--` ends the options: it and all after it are left.
    public static func extract(_ words: [String]) throws(PathOptionError) -> (paths: Paths, rest: [String]) {
        var rest: [String] = []
        var paths = Paths()
        var index = 0
        while index < words.count {
            let word = words[index]
            index += 1
            if word == "--" {
                rest += words[(index - 1)...]
                break
            }
            guard let option = allCases.first(where: { word == "--" + $0.rawValue || word.hasPrefix("--" + $0.rawValue + "=") }) else {
                rest.append(word)
                continue
            }
            var value: String?
            if word.contains("=") {
                value = String(word.drop { $0 != "=" }.dropFirst())
            } else if index < words.count {
                value = words[index]
                index += 1
            }
            guard let value, !value.isEmpty else {
                throw PathOptionError(message: "--\(option.rawValue) needs a value: --\(option.rawValue) \(placeholder)")
            }
            paths[option] = value
        }
        return (paths, rest)
    }
}

/// A path option without its path.
public struct PathOptionError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
