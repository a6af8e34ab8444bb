import Foundation
import NudgeCore
import NudgePlatform

/// Reads, checks and writes `nudge.conf`, the INI file of reminder rules (see config/nudge.conf
/// for every key and its default).
///
/// The format: `[section]` headers and `key = value` lines (`key: value` is read too); `#` and
/// `;` start a comment at the start of a line or after white space; indentation is ignored and
/// there are no continuation lines. Section and key names are case-insensitive, and so are
/// yes/no, none/off and policy values. A section may appear more than once, but a key may be set
/// only once per section. Reading stops at the first problem.
public enum ConfigFile {
    /// Files larger than this are refused rather than read.
    static let maximumSize = 1 << 20

    /// `$NUDGE_CONFIG`, else `$XDG_CONFIG_HOME/nudge/nudge.conf`, else
    /// `~/.config/nudge/nudge.conf`. A relative XDG_CONFIG_HOME is ignored, as the XDG base
    /// directory specification asks.
    public static func defaultPath(environment: [String: String]) -> String {
        if let path = environment["NUDGE_CONFIG"], !path.isEmpty { return path }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        let configHome = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (home + "/.config")
        return configHome + "/nudge/nudge.conf"
    }

    /// Why a config file named by `--config` (`option`) or NUDGE_CONFIG cannot be used: it
    /// does not exist, and a typo must not silently give the defaults. Nil when it exists or
    /// the usual path is meant (which may be missing).
    public static func missingNamedFile(option: String?, environment: [String: String]) -> String? {
        let named = option.map { ($0, "--config") } ?? environment["NUDGE_CONFIG"].flatMap { $0.isEmpty ? nil : ($0, "NUDGE_CONFIG") }
        guard let (path, namer) = named else { return nil }
        var info = stat()
        guard lstat(path, &info) != 0 && Errno.current == .noSuchFile else { return nil }
        return "there is no config file \(path) (named by \(namer))"
    }

    /// Reads and validates; a missing file gives the defaults (NudgeConfig()); an unreadable one
    /// (permissions, a directory, a dangling symbolic link, not UTF-8) throws.
    /// With `checking`, a snooze until a fixed date that has passed by then is refused too
    /// (`nudge config check`); without, a date that passes does not break a running Nudge.
    public static func load(path: String, checking: (now: Date, zone: TimeZone)? = nil) throws(ConfigError) -> NudgeConfig {
        func failure(_ message: String) -> ConfigError {
            ConfigError(path: path, line: nil, message: message)
        }
        let descriptor: FileDescriptor
        do throws(Errno) { descriptor = try .open(path, O_RDONLY | O_NONBLOCK) } catch {
            if error == .noSuchFile {
                var info = stat()
                if lstat(path, &info) == 0 {
                    throw failure("cannot read: it is a symbolic link to a missing file")
                }
                return NudgeConfig()
            }
            throw failure("cannot read: \(error)")
        }
        defer { try? descriptor.close() }

        let info: stat
        do throws(Errno) { info = try descriptor.status() } catch {
            throw failure("cannot read: \(error)")
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw failure("cannot read: it is a directory, not a config file")
        default: throw failure("cannot read: it is not a regular file")
        }
        if info.st_size > maximumSize {
            throw failure("cannot read: the file is \(info.st_size) bytes, a config file is at most \(maximumSize)")
        }

        let bytes: Data
        do { bytes = try BoundedRead.read(descriptor, limit: maximumSize) } catch {
            switch error {
            case .tooLarge: throw failure("cannot read: a config file is at most \(maximumSize) bytes")
            case .failed(let code): throw failure("cannot read: \(code)")
            }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw failure("cannot read: the file is not UTF-8 text")
        }
        return try parse(text: text, path: path, checking: checking)
    }

    /// Reads and validates config text; `path` is only for messages. `checking` as for `load`.
    public static func parse(text: String, path: String, checking: (now: Date, zone: TimeZone)? = nil) throws(ConfigError) -> NudgeConfig {
        let builder = ConfigBuilder(path: path, checking: checking)
        let failure = INIScanner.scan(text, onSection: { name throws(Problem) in
            try builder.begin(name)
        }, onEntry: { section, key, value, line throws(Problem) in
            try builder.set(section: section, key: key, value: value, line: line)
        })
        if let failure {
            throw ConfigError(path: path, line: failure.line, message: failure.message)
        }
        return try builder.finish()
    }
}

extension ConfigFile {
    /// A time limit written as `[import] timeout` takes it (15s, 500ms, 2m), for `--timeout`.
    public static func seconds(_ name: String, _ text: String) throws(InputError) -> Double {
        do { return try ConfigValues.seconds(name, text) } catch { throw InputError(error.message) }
    }
}

extension ConfigFile {
    /// What `nudge config check` warns about in a valid file without refusing it: a `sound`
    /// file that does not exist (the notification server then plays nothing; a file can be
    /// added later, so the service does not stop for it), and a hook whose program is not an
    /// executable file, or not found on `searchPath` (`$PATH`). `home` expands `~/`.
    public static func warnings(path: String, home: String, searchPath: String) -> [ConfigError] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        var found: [ConfigError] = []
        _ = INIScanner.scan(text, onSection: { _ throws(Problem) in }, onEntry: { section, key, value, line throws(Problem) in
            let name = key.lowercased()
            if name.hasPrefix("on_"), (try? ConfigSection(name: section)) == .hooks,
               let program = (try? ConfigValues.hook(name, value))??.words.first,
               let problem = missingProgram(program, searchPath: searchPath) {
                found.append(ConfigError(path: path, line: line, message: "\(name): \(problem); the hook will not start"))
            }
            guard name == "sound", case .file(let file)? = try? ConfigValues.sound(key, value),
                  (try? ConfigSection(name: section)).map({ $0.keys.contains("sound") }) == true else { return }
            let full = file.hasPrefix("~/") ? home + file.dropFirst(1) : file
            if !FileManager.default.fileExists(atPath: full) {
                found.append(ConfigError(path: path, line: line,
                                         message: "sound: \(file) does not exist; the notification server will play nothing"))
            }
        })
        return found
    }

    /// Why a hook's `program` cannot be started, or nil when it can (or it names a variable,
    /// known only when the hook runs, or a path relative to the service's folder).
    static func missingProgram(_ program: String, searchPath: String) -> String? {
        guard !program.contains("$") else { return nil }
        if program.hasPrefix("~") { return "\(program) starts with ~, which only a shell expands; write the full path" }
        var isFolder: ObjCBool = false
        if program.hasPrefix("/") {
            guard FileManager.default.fileExists(atPath: program, isDirectory: &isFolder) else { return "\(program) does not exist" }
            return !isFolder.boolValue && FileManager.default.isExecutableFile(atPath: program) ? nil : "\(program) is not an executable file"
        }
        guard !program.contains("/") else { return nil }
        let found = searchPath.split(separator: ":").contains { folder in
            let file = folder + "/" + program
            return FileManager.default.isExecutableFile(atPath: file)
                && FileManager.default.fileExists(atPath: file, isDirectory: &isFolder) && !isFolder.boolValue
        }
        return found ? nil : "\(program) is not found on PATH"
    }
}
