import CLinux
import Dispatch
import Foundation
import NudgeConfigFile
import NudgeHelp
import NudgeCore
import NudgeInterchange
import NudgeQuote
import NudgeRecurrence
import NudgeStore
import NudgeSync
import NudgePlatform
import NudgeSystem

/// The `nudged` program: the reminder service wired to the main queue, timers, inotify,
/// signals, D-Bus and systemd.
public enum NudgeDaemonMain {
    /// Runs the service with this clock and zone (asked again at every use: the zone follows
    /// /etc/localtime, the clock is the wall clock).
    public static func run(now: @escaping () -> Date, zone: @escaping () -> TimeZone) -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.contains("--help") || arguments.contains("-h") {
            do { try FileDescriptor.standardOutput.writeAll(DaemonManual.help) } catch {
                try? FileDescriptor.standardError.writeAll("nudged: cannot write output: \(error)\n")
                return 1
            }
            return 0
        }
        let paths: PathOption.Paths
        do { paths = try parse(arguments) } catch {
            try? FileDescriptor.standardError.writeAll("nudged: \(error)\n")
            return 2
        }
        let daemon: Daemon
        let environment = ProcessInfo.processInfo.environment
        // TZ, when set, names the zone for the service's life; else /etc/localtime, asked anew.
        let localZone: () -> TimeZone
        do {
            let named = try TimeZoneVariable.zone(environment["TZ"])
            localZone = named.map { named in { named } } ?? zone
        } catch {
            try? FileDescriptor.standardError.writeAll("nudged: \(error)\n")
            return 2
        }
        do throws(DaemonError) {
            if let missing = ConfigFile.missingNamedFile(option: paths[.config], environment: environment) {
                throw DaemonError(missing)
            }
            // Every repeat and every vdir file goes through libical: without it, nothing starts.
            do throws(LibraryLoadError) { try LibICalLibrary.open() } catch { throw DaemonError(error) }
            daemon = try Daemon(databasePath: paths[.db] ?? TodoStore.defaultPath(),
                                configPath: paths[.config] ?? ConfigFile.defaultPath(environment: environment),
                                configOption: paths[.config], environment: environment, now: now, zone: localZone)
            try daemon.start()
        } catch {
            stop(error)
            return 1
        }
        withExtendedLifetime(daemon) { dispatchMain() }
    }

    /// Says why the service cannot go on, on stderr and to systemd; the caller exits.
    static func stop(_ error: DaemonError) {
        JournalRecorder.flush()
        try? FileDescriptor.standardError.writeAll("nudged: \(error)\n")
        ServiceManager.notify(error.serviceStatus)
    }

    /// nudged takes only --db and --config, read as nudge reads them.
    static func parse(_ arguments: [String]) throws -> PathOption.Paths {
        let (paths, rest) = try PathOption.extract(arguments)
        if let word = rest.first {
            throw DaemonError("unknown argument '\(word)'; usage: nudged \(DaemonManual.arguments)")
        }
        return paths
    }
}

/// Everything `nudged` runs on the main queue. Nothing here touches a global concurrent queue:
/// on Linux that would start libdispatch's 1 Hz monitor and wake the idle service forever.
final class Daemon {
    let databasePath: String
    let configPath: String
    private let queue = DispatchQueue.main
    private let service: ReminderService
    private let client: NotificationClient
    private let timer: DispatchSourceTimer
    /// Editors write a file in several steps (create, write, close): one reload for them all.
    private let reloadTimer: DispatchSourceTimer
    private var reloadReason = ""
    private let files: FileWatcher
    /// Set once start() watches the database's and the config's folders: the vdir's is
    /// watched after them.
    private var watchingFiles = false
    private let clock: ClockChangeWatcher
    private let signals: [DispatchSourceSignal]
    private var watchdog: DispatchSourceTimer?
    /// With `[sync] vdir`: the passes and `[sync] command`.
    private var sync: SyncScheduler?
    private var syncFolder: String?
    private var watchingSyncFolder = false
    private var watchFailureLogged = false
    private var commands: CommandRunner?
    /// `[hooks]` commands, made on the first one.
    private var hooks: HookRunner?

    private let now: () -> Date
    private let zone: () -> TimeZone

    /// The process's environment: where the quote of the day is cached, and the locale that
    /// notifications write dates in.
    let environment: [String: String]

    /// What the service and the signals call back into the daemon for, made before either:
    /// weak, as the daemon owns them. Callbacks come on the queue, after the daemon is made.
    private final class Link {
        weak var daemon: Daemon?
    }

    /// Connects to the session bus, loads the config and opens the store, and makes the
    /// watches; start() sets them going. `configOption`: the path --config gave, if any.
    init(databasePath: String, configPath: String, configOption: String?, environment: [String: String],
         now: @escaping () -> Date, zone: @escaping () -> TimeZone) throws(DaemonError) {
        self.databasePath = databasePath
        self.configPath = configPath
        self.environment = environment
        self.now = now
        self.zone = zone
        let link = Link()
        let queue = queue
        // Signals first, so that none sent during start-up is lost.
        signals = [SIGTERM, SIGINT, SIGHUP].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { [link] in link.daemon?.handle(signal: number) }
            source.resume()
            return source
        }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        self.timer = timer
        reloadTimer = DispatchSource.makeTimerSource(queue: queue)
        // Resumed at once: libdispatch traps (SIGILL) when a suspended source is freed, as
        // these would be when the start fails.
        reloadTimer.schedule(wallDeadline: .distantFuture)
        // Handlers before resuming, or libdispatch logs a "DEPRECATED USE" line; start() sets
        // the real ones.
        timer.setEventHandler {}
        reloadTimer.setEventHandler {}
        timer.resume()
        reloadTimer.resume()
        let client: NotificationClient
        do throws(SystemError) { client = try NotificationClient(queue: queue) } catch {
            throw DaemonError(NotificationClient.noBusMessage(error, environment: ProcessInfo.processInfo.environment),
                              errno: error.errno)
        }
        self.client = client
        // Without the session bus nothing can be shown; systemd starts the service again.
        client.onDisconnected = {
            JournalRecorder.flush()
            try? FileDescriptor.standardError.writeAll("nudged: lost the session bus\n")
            ServiceManager.notify("STATUS=Lost the session bus\nERRNO=107")
            exit(1)
        }
        var started = false
        let service: ReminderService
        do {
            service = try ReminderService(ReminderService.Environment(
                loadConfig: {
                    // A file named by --config or NUDGE_CONFIG that went is no reason to take the
                    // defaults: the reload fails, and the rules in use stay.
                    if let missing = ConfigFile.missingNamedFile(option: configOption, environment: environment) {
                        throw DaemonError(missing)
                    }
                    return try ConfigFile.load(path: configPath)
                },
                openStore: { planner, moment in
                    // Made at the start; after it, a file deleted (or its folder moved away to be
                    // restored) is waited for, as an empty store in memory, rather than made again.
                    defer { started = true }
                    if started && !FileManager.default.fileExists(atPath: databasePath) {
                        let waiting = try TodoStore(path: databasePath, planner: planner, now: moment, access: .read)
                        if !FileManager.default.fileExists(atPath: databasePath) { return waiting }
                    }
                    return try TodoStore(path: databasePath, planner: planner, now: moment, access: .plan, recording: .configFile)
                },
                server: DBusNotificationServer(client: client),
                events: JournalRecorder(),
                queue: queue, now: now, zone: zone, localeStyle: DateStyle(environment: environment),
                wake: { Self.arm(timer, $0) },
                status: { ServiceManager.notify("STATUS=" + $0) },
                // After dispatchMain the main queue runs on a libdispatch thread, whose malloc arena
                // gives back only its free top: a spike freed below a live block would stay.
                trimHeap: { _ = malloc_trim(0) },
                // Within a second, at most once a day (a failure is cached too): the digest waits
                // for it on this queue rather than arrive without it.
                quote: { [environment] source, moment, zone in
                    QuoteOfTheDay(source: source, environment: environment).quote(on: LocalDate(moment, in: .nudge(zone: zone)))?.line
                },
                changed: { [link] in link.daemon?.sync?.localChange() },
                opened: { [link] in link.daemon?.startSync() },
                runHook: { [link] job, settings in link.daemon?.runHook(job, settings) },
                home: environment["HOME"] ?? NSHomeDirectory(),
                // Long enough to record the reminders as fired before they are due.
                fireAhead: 0.05))
        } catch {
            throw DaemonError(describing: error)
        }
        self.service = service
        files = try FileWatcher(queue: queue)
        clock = try ClockChangeWatcher(queue: queue) { [unowned service] in
            service.wake()
        }
        link.daemon = self
    }

    private func runHook(_ job: HookJob, _ settings: HookSettings) {
        let runner = hooks ?? HookRunner(queue: queue, limit: settings.maxRunning, timeout: settings.timeout,
                                         finished: { [unowned self] in service.hookEnded($0, $1) },
                                         overflowed: { [unowned self] in service.hooksOverflowed($0) })
        hooks = runner
        // A reload may have changed them.
        runner.limit = settings.maxRunning
        runner.timeout = settings.timeout
        runner.submit(job)
    }

    /// Handles what came due while the service was not running, watches the files, and tells
    /// systemd the service is ready.
    func start() throws(DaemonError) {
        timer.setEventHandler { [unowned service] in service.wake() }
        reloadTimer.setEventHandler { [unowned self] in reload(reloadReason) }
        do { try service.start() } catch {
            throw DaemonError(describing: error)
        }
        try watchFiles()
        // A commit between opening the store and watching its folder would go unnoticed.
        service.databaseMayHaveChanged()
        watchSyncFolder()
        startWatchdog()
        ServiceManager.notify("READY=1")
    }

    private static func arm(_ timer: DispatchSourceTimer, _ date: Date?) {
        guard let date else {
            timer.schedule(wallDeadline: .distantFuture)
            return
        }
        let seconds = max(0, date.timeIntervalSince1970)
        let spec = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
        timer.schedule(wallDeadline: DispatchWallTime(timespec: spec), leeway: .milliseconds(1))
    }

    private func watchFiles() throws(DaemonError) {
        watchingFiles = true
        try watchDatabaseFolder()
        try watchConfig()
        _ = try? files.watch(folder: "/etc") { [unowned self] change in
            guard change.concerns("localtime") || change.concerns("timezone") else { return }
            NSTimeZone.resetSystemTimeZone()
            reloadSoon("the time zone changed")
        }
    }

    /// The database's folder, and the folder again when another takes its place (moved away and
    /// restored, deleted and made anew): the watch follows the folder it was put on, and would
    /// otherwise never say that todos were added to the new one. While there is no folder, its
    /// parent is watched until there is.
    private func watchDatabaseFolder() throws(DaemonError) {
        let database = URL(fileURLWithPath: databasePath)
        let databaseName = database.lastPathComponent
        let folder = database.deletingLastPathComponent().path
        var info = stat()
        guard stat(folder, &info) == 0 else { return try watchForDatabaseFolder() }
        let watched = (info.st_dev, info.st_ino)
        var watch: FileWatcher.Watch?
        watch = try files.watch(folder: folder) { [unowned self] change in
            // A file moved or restored in place of the database is a new file: open it again.
            if change.concerns(databaseName) && !service.store.isStillAtPath {
                reopenDatabase()
            } else if change.concerns(databaseName) || change.concerns(databaseName + "-wal") {
                service.databaseMayHaveChanged()
            }
            var current = stat()
            if change == .unknown, let watching = watch,
               stat(folder, &current) != 0 || (current.st_dev, current.st_ino) != watched {
                files.stopWatching(watching)
                watch = nil
                do { try watchDatabaseFolder() } catch {
                    service.record(.failed, "cannot watch the database's folder again: \(error)", priority: .error)
                }
            }
        }
        // Made, with its folder, before the watch began (`nudge add` in a new folder).
        if !service.store.isStillAtPath && FileManager.default.fileExists(atPath: databasePath) { reopenDatabase() }
    }

    private func watchForDatabaseFolder() throws(DaemonError) {
        let folder = URL(fileURLWithPath: databasePath).deletingLastPathComponent()
        var watch: FileWatcher.Watch?
        watch = try files.watch(folder: folder.deletingLastPathComponent().path, for: .arrivals) { [unowned self] change in
            guard let watching = watch, change.concerns(folder.lastPathComponent),
                  FileManager.default.fileExists(atPath: folder.path) else { return }
            files.stopWatching(watching)
            watch = nil
            do { try watchDatabaseFolder() } catch {
                service.record(.failed, "cannot watch the database's folder: \(error)", priority: .error)
            }
        }
    }

    private func reopenDatabase() {
        do { try service.reopenReplacedDatabase() } catch {
            // Nothing to fire from: systemd starts the service again, and says why.
            NudgeDaemonMain.stop(DaemonError(describing: error))
            exit(1)
        }
    }

    /// The config file's folder, and the folder again when another takes its place; while it
    /// does not exist (no config yet), its parent, so that a config written later is read
    /// without a restart.
    private func watchConfig() throws(DaemonError) {
        let config = URL(fileURLWithPath: configPath)
        try EntryWatch(files, entry: config.lastPathComponent, inFolder: config.deletingLastPathComponent().path,
                       failed: { [unowned self] error in
                           service.record(.failed, "cannot watch the config file's folder: \(error)", priority: .error)
                       }) { [unowned self] appeared in
            reloadSoon(appeared ? "the config file appeared" : "the config file changed")
        }
    }

    /// With `[sync] vdir` set (read at start; a change needs a restart): a first pass, as soon
    /// as the store is open, and `[sync] command`. The folder is watched once the other
    /// watches are set up.
    private func startSync() {
        let settings = service.config.sync
        guard let vdir = settings.vdir else { return }
        let home = environment["HOME"] ?? NSHomeDirectory()
        let folder = vdir.hasPrefix("~/") ? home + vdir.dropFirst(1) : vdir
        syncFolder = folder
        let runner = CommandRunner(queue: queue)
        commands = runner
        let scheduler = SyncScheduler(SyncScheduler.Environment(
            queue: queue, now: now,
            pass: { [unowned self] moment in
                // A folder made after the start (`vdirsyncer discover`, `mkdir`) is watched from then on.
                watchSyncFolder()
                return try VdirSync(store: service.store, folder: folder,
                             options: InterchangeOptions(zone: zone(), now: moment, source: folder, config: service.config),
                             maxFileSize: service.config.importing.maxSize).pass(now: moment)
            },
            command: settings.command, interval: TimeInterval(settings.interval.days * 86_400 + settings.interval.seconds),
            run: { [unowned self] command, completion in
                runner.run(command) { [unowned self] result in
                    // vdirsyncer's first `discover` may have made the folder only now.
                    watchSyncFolder()
                    completion(result)
                }
            },
            makeTimer: { [queue] handler in DispatchOneShotTimer(queue: queue, handler) },
            events: JournalRecorder(),
            passed: { [unowned self] report in service.syncPassed(report) }))
        sync = scheduler
        scheduler.start()
    }

    private func watchSyncFolder() {
        guard !watchingSyncFolder, watchingFiles, let folder = syncFolder, FileManager.default.fileExists(atPath: folder) else { return }
        do {
            try files.watch(folder: folder) { [unowned self] change in
                // Gone (and with it the watch): watched again by the first pass after it is back.
                if change == .unknown && !FileManager.default.fileExists(atPath: folder) { watchingSyncFolder = false }
                sync?.folderChanged()
            }
            watchingSyncFolder = true
        } catch {
            // Once: the passes on local changes and after the command still run.
            guard !watchFailureLogged else { return }
            watchFailureLogged = true
            JournalRecorder().record(ServiceEvent(kind: .failed, message: "cannot watch the vdir: \(error)", priority: .warning))
        }
    }

    private func reloadSoon(_ why: String) {
        reloadReason = why
        reloadTimer.schedule(deadline: .now() + .milliseconds(50))
    }

    private func reload(_ why: String) {
        ServiceManager.notify("RELOADING=1")
        service.reload(why)
        ServiceManager.notify("READY=1")
    }

    private func startWatchdog() {
        guard let interval = ServiceManager.watchdogInterval() else { return }
        let source = DispatchSource.makeTimerSource(queue: queue)
        source.schedule(deadline: .now(), repeating: interval / 2)
        source.setEventHandler { ServiceManager.notify("WATCHDOG=1") }
        source.resume()
        watchdog = source
    }

    private func handle(signal number: Int32) {
        if number == SIGHUP {
            reload("SIGHUP")
            return
        }
        ServiceManager.notify("STOPPING=1")
        service.stop {
            JournalRecorder.flush()
            exit(0)
        }
    }
}
