import Foundation
import NudgeConfigFile
import NudgeCore
import NudgeStore
import NudgePlatform

/// What every command works with: the clock, the zone, the store and the terminal.
final class Context {
    let now: Date
    let zone: TimeZone
    let calendar: Calendar
    let databasePath: String
    let configPath: String?
    let environment: [String: String]
    /// Colour only for a person at a terminal who has not asked for none (no-color.org).
    let color: Bool
    let stdinIsTerminal: Bool
    let stdoutIsTerminal: Bool
    /// What was printed and not yet flushed, as UTF-8.
    private var buffer: [UInt8] = []
    /// Whether printing writes out what it has collected once there is a lot of it (the
    /// executable: a long list streams in constant memory), or keeps it all in `output` (tests
    /// that run commands in this process and read it).
    let streamsOutput: Bool
    /// The errno of the first write to stdout that failed; what is printed after it is dropped.
    private(set) var outputError: Errno?
    private var openedStore: TodoStore?

    init(databasePath: String?, configPath: String?, now: Date, zone: TimeZone, environment: [String: String],
         streamsOutput: Bool = false) {
        self.configPath = configPath
        self.streamsOutput = streamsOutput
        self.environment = environment
        self.now = now
        self.zone = zone
        calendar = .nudge(zone: zone)
        agenda = Agenda(now: now, zone: zone)
        self.databasePath = databasePath ?? TodoStore.defaultPath(environment: environment)
        color = isatty(STDOUT_FILENO) == 1 && (environment["NO_COLOR"] ?? "").isEmpty
        stdinIsTerminal = isatty(STDIN_FILENO) == 1
        stdoutIsTerminal = isatty(STDOUT_FILENO) == 1
    }

    /// The store, opened once for what the command does: `.read` for a command that only
    /// shows, `.write` for one that changes todos (see StoreAccess: nudged plans of record).
    func store(_ access: StoreAccess) throws(CLIError) -> TodoStore {
        if let openedStore { return openedStore }
        let planner = ReminderPlanner(config: try config(), zone: zone)
        do {
            let store = try TodoStore(path: databasePath, planner: planner, now: now, access: access,
                                      recording: .configFile)
            openedStore = store
            return store
        } catch {
            throw CLIError(error)
        }
    }

    /// The store for a command that only changes todos or categories that already exist
    /// (done, edit, delete, snooze, ...). Without a database file there are none, so the file
    /// is not made for it: it is read as empty, and "there is no todo 4" leaves nothing behind.
    func storeOfExisting() throws(CLIError) -> TodoStore {
        try store(FileManager.default.fileExists(atPath: databasePath) ? .write : .read)
    }

    private var loadedConfig: NudgeConfig?

    /// The reminder rules from the config file, or the defaults when there is none at the
    /// usual path; a file named by --config or NUDGE_CONFIG must exist, so that a typo is not
    /// the defaults.
    func config() throws(CLIError) -> NudgeConfig {
        if let loadedConfig { return loadedConfig }
        try requireNamedConfig()
        do {
            let config = try ConfigFile.load(path: resolvedConfigPath)
            loadedConfig = config
            return config
        } catch {
            throw .failed("the config file is broken: \(error) (check it with 'nudge config check')")
        }
    }

    /// Fails when --config or NUDGE_CONFIG names a file that does not exist.
    func requireNamedConfig() throws(CLIError) {
        if let missing = ConfigFile.missingNamedFile(option: configPath, environment: environment) {
            throw .failed(missing)
        }
    }

    /// `--config PATH`, else `$NUDGE_CONFIG`, else `$XDG_CONFIG_HOME/nudge/nudge.conf`.
    var resolvedConfigPath: String {
        configPath ?? ConfigFile.defaultPath(environment: environment)
    }

    private var resolvedDateStyle: DateStyle?

    /// The locale's way with dates (`LC_ALL`, `LC_TIME`, `LANG` in `environment`), with the
    /// config's `[display]` keys over it. A broken config file leaves the locale's: the
    /// commands that read the file report it.
    var dateStyle: DateStyle {
        if let resolvedDateStyle { return resolvedDateStyle }
        let style = DateStyle(environment: environment).overridden(by: (try? config())?.display ?? DisplaySettings())
        resolvedDateStyle = style
        return style
    }

    var dueText: DueText { DueText(now: now, zone: zone, style: dateStyle) }
    /// Kept, not made on each use: `list --json` asks it about every todo, and making one asks
    /// the zone for today.
    let agenda: Agenda

    func whenParser() -> WhenParser { WhenParser(now: now, calendar: calendar, style: dateStyle) }

    /// Collects a line of output, written by `flush` (or, when streaming, once 64 KiB have
    /// gathered). Text from todos and from the command line goes through `Terminal.visible`
    /// first; `styled` codes do not.
    func print(_ line: String = "") {
        buffer.append(utf8: line)
        buffer.append(UInt8(ascii: "\n"))
        flushIfFull()
    }

    /// Collects UTF-8 put together by the caller: a list's rows and JSON items, without a
    /// string for each.
    func write(bytes: UnsafeRawBufferPointer) {
        buffer.append(contentsOf: bytes)
        flushIfFull()
    }

    /// What was printed and not yet flushed.
    var output: String { String(decoding: buffer, as: UTF8.self) }

    private func flushIfFull() {
        if streamsOutput && buffer.count >= 1 << 16 { flush() }
    }

    func flush() {
        guard !buffer.isEmpty else { return }
        if outputError == nil {
            do { try FileDescriptor.standardOutput.writeAll(buffer) } catch {
                outputError = error
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Asks a yes/no question on the terminal; anything but y or yes is no. `question` is
    /// shown as it is: make what it quotes visible first.
    /// The answer typed to `question`, trimmed and in lower case; nil at the end of input.
    func answer(_ question: String) -> String? {
        flush()
        try? FileDescriptor.standardError.writeAll(question + " ")
        return readLine()?.trimmingWhitespace().lowercased()
    }

    func confirm(_ question: String) -> Bool {
        flush()
        // A prompt that cannot be shown (stderr closed) is still answered from stdin.
        try? FileDescriptor.standardError.writeAll(question + " [y/N] ")
        guard let answer = readLine() else { return false }
        return ["y", "yes"].contains(answer.trimmingWhitespace().lowercased())
    }

    func styled(_ text: String, _ style: Style) -> String {
        color ? Self.code(style) + text + Self.resetCode : text
    }

    static func code(_ style: Style) -> String { "\u{1B}[\(style.rawValue)m" }
    static let resetCode = "\u{1B}[0m"

    enum Style: String {
        case red = "31", dim = "2", bold = "1"
    }
}

extension CLIError {
    /// Bad input is a usage error; a store that refuses is a failure.
    init(_ error: any Error) {
        switch error {
        case let error as CLIError: self = error
        case let error as InputError: self = .usage(error.message)
        case let error as StoreError: self = .failed(error.description)
        default: self = .failed("\(error)")
        }
    }
}
