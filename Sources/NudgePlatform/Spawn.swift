import CLinux
import Glibc

/// A child process to start as a shell starts a job: default signal actions and an empty
/// signal mask (nudged ignores SIGPIPE, SIGTERM, SIGINT and SIGHUP and runs with signals
/// blocked on its queue's thread; test threads block nearly all; a child would inherit both,
/// and never see SIGTERM), in a process group of its own, so that a hung one can be killed
/// whole, and by default with no descriptor but its stdin, stdout and stderr.
public struct Spawn {
    /// Where one of the child's standard descriptors comes from.
    public enum Stream {
        case null
        /// Duplicated from this descriptor, which stays the caller's.
        case descriptor(FileDescriptor)
        /// Appended to this file, made when missing.
        case file(String)
        /// The same as the child's descriptor of this number, once set (stdin, stderr, then
        /// stdout are set, in that order).
        case sameAs(Int32)
        case closed
        /// A new pipe whose other end is in `Started`, non-blocking; for stdin a socket, so
        /// that a write to a child that went away fails with EPIPE (with `send` and
        /// MSG_NOSIGNAL) instead of raising SIGPIPE.
        case pipe
    }

    /// The program and its arguments.
    public var arguments: [String]
    /// "NAME=value" for each variable; nil: this process's.
    public var environment: [String]?
    public var stdin = Stream.null
    public var stdout = Stream.null
    public var stderr = Stream.null
    /// 0: a group of its own, led by the child.
    public var processGroup: pid_t = 0
    /// The program is looked up on PATH when it has no slash.
    public var searchesPath = true
    /// Nothing else is inherited: not the store, the bus or another child's pipes, should one
    /// of them lack O_CLOEXEC (a library's may).
    public var closesOtherDescriptors = true

    public init(_ arguments: [String], environment: [String]? = nil) {
        self.arguments = arguments
        self.environment = environment
    }

    /// A started child: its pid and this process's ends of its `.pipe` streams.
    public struct Started {
        public let pid: pid_t
        public let stdin: FileDescriptor?
        public let stdout: FileDescriptor?
        public let stderr: FileDescriptor?
    }

    /// Starts the child. The corresponding C function is `posix_spawn` (`posix_spawnp`).
    public func start() throws(SpawnError) -> Started {
        precondition(!arguments.isEmpty, "a program to start")
        var parentEnds: [Int32: FileDescriptor] = [:]
        var childEnds: [FileDescriptor] = []
        defer { for end in childEnds { try? end.close() } }
        do {
            for (number, stream) in [(Int32(0), stdin), (1, stdout), (2, stderr)] {
                guard case .pipe = stream else { continue }
                let ends = number == 0 ? try FileDescriptor.socketPair() : try FileDescriptor.pipe()
                let (parent, child) = number == 0 ? (ends.write, ends.read) : (ends.read, ends.write)
                parentEnds[number] = parent
                childEnds.append(child)
                try parent.setNonBlocking()
            }
        } catch {
            for end in parentEnds.values { try? end.close() }
            throw SpawnError(program: arguments[0], errno: error)
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var pipes = childEnds.makeIterator()
        var closing: [Int32] = []
        for (number, stream) in [(Int32(0), stdin), (2, stderr), (1, stdout)] {
            switch stream {
            case .null: posix_spawn_file_actions_addopen(&actions, number, "/dev/null", number == 0 ? O_RDONLY : O_WRONLY, 0)
            case .descriptor(let descriptor): posix_spawn_file_actions_adddup2(&actions, descriptor.rawValue, number)
            case .file(let path): posix_spawn_file_actions_addopen(&actions, number, path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
            case .sameAs(let other): posix_spawn_file_actions_adddup2(&actions, other, number)
            case .closed: closing.append(number)
            case .pipe: break
            }
        }
        // The child ends, in the order they were made: stdin, stdout, stderr.
        for number in [Int32(0), 1, 2] where parentEnds[number] != nil {
            // Non-nil: one child end was made for each parent end.
            posix_spawn_file_actions_adddup2(&actions, pipes.next()!.rawValue, number)
        }
        for number in closing { posix_spawn_file_actions_addclose(&actions, number) }
        if closesOtherDescriptors { posix_spawn_file_actions_addclosefrom_np(&actions, 3) }

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
        posix_spawnattr_setpgroup(&attributes, processGroup)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let envp = environment.map { $0.map { strdup($0) } + [nil] }
        defer { envp?.forEach { free($0) } }
        var pid: pid_t = 0
        let spawn = searchesPath ? posix_spawnp : posix_spawn
        let result = if var envp {
            spawn(&pid, arguments[0], &actions, &attributes, argv, &envp)
        } else {
            spawn(&pid, arguments[0], &actions, &attributes, argv, environ)
        }
        guard result == 0 else {
            for end in parentEnds.values { try? end.close() }
            throw SpawnError(program: arguments[0], errno: Errno(rawValue: result))
        }
        return Started(pid: pid, stdin: parentEnds[0], stdout: parentEnds[1], stderr: parentEnds[2])
    }
}

/// A child that could not be started: "cannot start PROGRAM: REASON".
public struct SpawnError: Error, Equatable, CustomStringConvertible, Sendable {
    public let program: String
    public let errno: Errno

    public init(program: String, errno: Errno) {
        self.program = program
        self.errno = errno
    }

    public var description: String { "cannot start \(program): \(errno)" }
}
