import CLinux
import Glibc

/// Starts the service's child processes (the sync command, hooks) as a shell would start a
/// job: default signal actions and an empty signal mask (nudged ignores SIGPIPE, SIGTERM,
/// SIGINT and SIGHUP and runs with signals blocked on its queue's thread; a child would
/// inherit that), a process group of its own, so that a hung one can be killed whole, and
/// no descriptor but its stdin, stdout and stderr.
enum ChildSpawn {
    /// Runs `arguments` (the first is the program, looked up on PATH when it has no slash)
    /// with `environment` ("NAME=value"; nil: nudged's own), its stdin, stdout and stderr
    /// dup'ed from these descriptors (nil: /dev/null). Returns the child's pid.
    static func spawn(_ arguments: [String], environment: [String]? = nil,
                      stdin: Int32? = nil, stdout: Int32? = nil, stderr: Int32) throws(DaemonError) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let stdin { posix_spawn_file_actions_adddup2(&actions, stdin, 0) } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        if let stdout { posix_spawn_file_actions_adddup2(&actions, stdout, 1) } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)
        // Nothing else: not the store, the bus or another hook's pipes, should one of them
        // lack O_CLOEXEC (the test process's files, and libraries', may).
        posix_spawn_file_actions_addclosefrom_np(&actions, 3)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGCHLD, SIGUSR1, SIGUSR2, SIGALRM] {
            sigaddset(&defaults, signal)
        }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let envp = environment.map { $0.map { strdup($0) } + [nil] }
        defer { envp?.forEach { free($0) } }
        var pid: pid_t = 0
        let result = envp.map { posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, $0) }
            ?? posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, environ)
        guard result == 0 else {
            throw DaemonError("cannot start \(arguments[0]): \(String(cString: strerror(result)))")
        }
        return pid
    }

    /// The exit status as a shell says it: the code, or 128 + the signal that ended it
    /// (WIFEXITED / WEXITSTATUS / WTERMSIG are macros).
    static func shellStatus(_ status: Int32) -> Int32 {
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }
}
