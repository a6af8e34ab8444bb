// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Nudge",
    products: [
        .executable(name: "nudge", targets: ["nudge"]),
        .executable(name: "nudged", targets: ["nudged"]),
    ],
    targets: [
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // The shims of CSystemd, CICal and CCurl include CLibraryTable/library_table.h, the C half
        // of NudgePlatform's CLibrary; it is not a module of its own.
        // libical-dev; without its pkg-config file, which also links libicalss and libicalvcal
        // (and through them Berkeley DB): unused, and each loaded at every start.
        .systemLibrary(name: "CICal"),
        .systemLibrary(name: "CINIH", pkgConfig: "inih", providers: [.apt(["libinih-dev"])]),
        // Linux's timerfd and inotify headers, which Swift's Glibc module leaves out, and glibc's locale items.
        .systemLibrary(name: "CLinux"),
        // libsystemd's headers only: NudgeSystem opens the library with dlopen on first use.
        .systemLibrary(name: "CSystemd", providers: [.apt(["libsystemd-dev"])]),
        // libcurl's headers only: NudgeNetwork opens the library with dlopen on first use.
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // The boundary with the operating system, for every module that has one: descriptors and
        // errno, files replaced whole, the environment, child processes.
        .target(name: "NudgePlatform", dependencies: ["CLinux"]),
        // CLinux: glibc's locale data, for how dates are written where the user lives.
        .target(name: "NudgeCore", dependencies: ["NudgePlatform", "CLinux"]),
        // Help text as data: laid out for a terminal, and typeset as man pages.
        .target(name: "NudgeHelp", dependencies: ["NudgePlatform"]),
        // SQLite in Swift: connections confined to their thread or queue, cached statements,
        // columns by name, typed result codes. The store's queries are built on it.
        .target(name: "NudgeSQLite", dependencies: ["CSQLite"]),
        // The filter language of `list`, `export`, `status` and `upcoming` (and, to come, of the commands
        // that change todos), parsed in one place: a module of its own so that every command, the
        // store that turns it into SQL, and its tests share one grammar without the CLI.
        .target(name: "NudgeFilter", dependencies: ["NudgeCore"]),
        .target(name: "NudgeStore", dependencies: ["NudgeCore", "NudgeFilter", "NudgeSQLite", "NudgePlatform"]),
        .target(name: "NudgeRecurrence", dependencies: ["NudgeCore", "CICal", "NudgePlatform"]),
        .target(name: "NudgeConfigFile", dependencies: ["NudgeCore", "NudgePlatform", "CINIH"]),
        .target(name: "NudgeSystem", dependencies: ["CSystemd", "NudgePlatform"]),
        // HTTP for `nudge import URL` and the quote of the day.
        .target(name: "NudgeNetwork", dependencies: ["NudgeCore", "CCurl", "NudgePlatform"]),
        // The quote of the day above `nudge list` and at the end of the digest.
        .target(name: "NudgeQuote", dependencies: ["NudgeCore", "NudgeNetwork", "NudgePlatform"]),
        // Todos in and out of other formats: pure mapping, no store, so it is tested alone.
        // _FoundationICU (the toolchain's, inside Foundation) for Windows zone names: named for
        // the debug build, whose Foundation is a shared library that does not re-export it.
        .target(name: "NudgeInterchange", dependencies: ["NudgeCore", "NudgeRecurrence", "CICal", "NudgePlatform"],
                linkerSettings: [.linkedLibrary("_FoundationICU")]),
        // The store's two-way mirror in a vdir, shared by `nudge sync` and nudged.
        .target(name: "NudgeSync", dependencies: ["NudgeCore", "NudgeStore", "NudgeInterchange", "NudgePlatform", "CLinux"]),
        .target(name: "NudgeCLI", dependencies: ["NudgeCore", "NudgeFilter", "NudgeStore", "NudgeRecurrence", "NudgeConfigFile", "NudgeSystem", "NudgeInterchange", "NudgeSync", "NudgeNetwork", "NudgeQuote", "NudgeHelp", "NudgePlatform", "CLinux"]),
        .target(name: "NudgeDaemon", dependencies: ["NudgeCore", "NudgeStore", "NudgeRecurrence", "NudgeConfigFile", "NudgeSystem", "NudgeSync", "NudgeInterchange", "NudgeQuote", "NudgeHelp", "NudgePlatform", "CLinux"]),
        .executableTarget(name: "nudge", dependencies: ["NudgeCLI", "NudgePlatform"]),
        .executableTarget(name: "nudged", dependencies: ["NudgeDaemon"]),
        .executableTarget(name: "nudge-schedule-bench", dependencies: ["NudgeCore", "NudgeRecurrence", "NudgeStore"]),
        // libFuzzer's driver, declared; the fuzzing build links it (scripts/fuzz).
        .systemLibrary(name: "CFuzzer"),
        // libFuzzer targets for the parsers of outside data (scripts/fuzz, fuzz/README.md); an
        // ordinary build gives a replayer of saved inputs.
        .executableTarget(name: "nudge-fuzz", dependencies: ["CFuzzer", "NudgeCore", "NudgeRecurrence", "NudgeConfigFile",
                                                            "NudgeInterchange", "NudgeSync", "NudgeStore", "NudgeQuote", "NudgeFilter"]),
        // Writes nudge.1, nudged.8 and nudge.conf.5 from the help texts and config/nudge.conf
        // (`make man`); not installed itself.
        .executableTarget(name: "nudge-manpages", dependencies: ["NudgeCLI", "NudgeDaemon", "NudgeHelp"]),
        // What several test targets share: temporary folders, child processes, and the real
        // parts the end-to-end tests start (dbus-daemon, Xvfb and dunst, journald).
        // test_http_server.py is run by the tests that fetch, from the source tree.
        .target(name: "NudgeTestSupport", dependencies: ["NudgePlatform", "CLinux"], path: "Tests/NudgeTestSupport",
                exclude: ["test_http_server.py"]),
        // A test process that is killed after starting what the harnesses start, for the
        // harness's own tests.
        .executableTarget(name: "nudge-test-crash", dependencies: ["NudgeTestSupport"], path: "Tests/NudgeTestCrash"),
        .testTarget(name: "NudgeTestSupportTests", dependencies: ["NudgeTestSupport", "nudge-test-crash"]),
        .testTarget(name: "NudgePlatformTests", dependencies: ["NudgePlatform", "NudgeTestSupport"]),
        .testTarget(name: "NudgeCoreTests", dependencies: ["NudgeCore", "NudgeTestSupport"]),
        .testTarget(name: "NudgeHelpTests", dependencies: ["NudgeHelp", "NudgeTestSupport"]),
        // The generated man pages against the help, the config file and the daemon's journal
        // fields, typeset by groff and man.
        .testTarget(name: "NudgeManualTests", dependencies: ["nudge-manpages", "nudge", "nudged", "NudgeCLI", "NudgeDaemon",
                                                             "NudgeConfigFile", "NudgeHelp", "NudgeTestSupport"]),
        .testTarget(name: "NudgeFilterTests", dependencies: ["NudgeFilter", "NudgeCore"]),
        .testTarget(name: "NudgeSQLiteTests", dependencies: ["NudgeSQLite", "NudgeTestSupport"]),
        .testTarget(name: "NudgeStoreTests", dependencies: ["NudgeStore", "NudgeSQLite", "NudgeTestSupport"]),
        // rrule_oracle.py is run by the tests, from the source tree.
        .testTarget(name: "NudgeRecurrenceTests", dependencies: ["NudgeRecurrence", "NudgeTestSupport"],
                    exclude: ["rrule_oracle.py"]),
        .testTarget(name: "NudgeConfigFileTests", dependencies: ["NudgeConfigFile", "NudgeTestSupport"]),
        .testTarget(name: "NudgeInterchangeTests", dependencies: ["NudgeInterchange", "NudgeTestSupport"]),
        .testTarget(name: "NudgeNetworkTests", dependencies: ["NudgeNetwork", "NudgeTestSupport"]),
        .testTarget(name: "NudgeQuoteTests", dependencies: ["NudgeQuote", "NudgeTestSupport"]),
        .testTarget(name: "NudgeSyncTests", dependencies: ["NudgeSync", "NudgeTestSupport"]),
        .testTarget(name: "NudgeSystemTests", dependencies: ["NudgeSystem", "NudgeTestSupport"]),
        .testTarget(name: "NudgeDaemonTests", dependencies: ["NudgeDaemon", "NudgePlatform", "NudgeTestSupport"]),
        .testTarget(name: "NudgeCLITests", dependencies: ["nudge", "NudgeCLI", "NudgeCore", "NudgeFilter", "NudgeStore", "NudgeRecurrence", "NudgeHelp",
                                                          "NudgePlatform", "NudgeTestSupport"],
                    // filter_oracle.py is run by the tests, from the source tree.
                    exclude: ["filter_oracle.py"]),
        .testTarget(name: "NudgeDaemonE2ETests", dependencies: ["nudged", "nudge", "NudgeTestSupport"]),
        // The unit under a real systemd user manager, with the release binaries (`make release`);
        // user-manager.sh is run from the source tree.
        .testTarget(name: "NudgeUnitE2ETests", dependencies: ["NudgeTestSupport"], exclude: ["user-manager.sh"]),
    ]
)
